/**
 * The ingest worker's heap cap (ingestPool.ts ingestHeapMb) against what a writing worker holds
 * (issue 28, found by helper qa3): on SQLite the worker keeps the term postings of every kept
 * chunk until the last one (store/chunkWriter.ts), so a log with a new identifier on every line
 * (artifact downloads, hashes, generated names) made a 60 MB upload end in "Worker terminated
 * due to reaching memory limit" and a 500 `Internal error`. The pool here is the backend's: the
 * cap derived from the keep limits, the worker writing the rows itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateLatest, openDb, type Db } from '../backend/db.js';
import { LocalEmbedder } from '../backend/retrieval/embed.js';
import { ingestLog, logKeepLimits } from '../backend/retrieval/ingest.js';
import { IngestPool, ingestHeapMb } from '../backend/retrieval/ingestPool.js';
import { VectorIndexCache } from '../backend/retrieval/vectorIndex.js';
import type { ContextDeps } from '../backend/retrieval/retrieve.js';
import { createChat } from '../backend/store/chats.js';
import { countContexts } from '../backend/store/contexts.js';

/** Keep limits small enough for a test, the cap derived from them as the backend derives it. */
const keep = logKeepLimits(8, 8, 4);
let dir: string;
let db: Db;
let deps: ContextDeps;
let pool: IngestPool;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-ingest-heap-'));
  db = openDb(`sqlite:${path.join(dir, 'db.sqlite')}`);
  await migrateLatest(db);
  pool = new IngestPool(1, ingestHeapMb(keep));
  deps = { db, embedder: new LocalEmbedder(), indexes: new VectorIndexCache(dir), ingestPool: pool, logKeep: keep };
});
afterAll(async () => {
  await pool.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Pieces of about 1 MiB of a log whose every line names identifiers seen nowhere else. */
function* uniqueIdentifierLog(mib: number): Generator<string> {
  let n = 0;
  for (let piece = 0; piece < mib; piece++) {
    const lines: string[] = [];
    let chars = 0;
    while (chars < 1024 * 1024) {
      const line = `get org/acme/mod${n}/lib-${n}.jar com.acme.gen${n}.Handler${n}Impl`;
      lines.push(line);
      chars += line.length + 1;
      n++;
    }
    yield `${lines.join('\n')}\n`;
  }
  yield '[ERROR] /src/main/java/com/acme/UserService.java:[42,17] cannot find symbol\nFinished: FAILURE\n';
}

test('a log with a new identifier on every line is ingested by a writing worker within its heap cap', async () => {
  const chat = await createChat(db, 'u', 'unique-identifiers');
  const written = pool.batchesWritten;
  const result = await ingestLog(deps, chat.id, { buildDetails: { number: 1 } }, { field: 'consoleLog', pieces: uniqueIdentifierLog(24) }, { inline: false });
  // The worker wrote the rows (the path under test), and the context is whole.
  expect(pool.batchesWritten).toBeGreaterThan(written);
  expect(result.failureExcerpts[0]?.text).toContain('cannot find symbol');
  const counts = await countContexts(db, chat.id);
  expect([counts.ready, counts.building, counts.chunks]).toEqual([1, 0, result.chunkCount]);
}, 120_000);
