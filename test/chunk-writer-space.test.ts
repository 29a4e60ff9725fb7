/**
 * The ingest worker's writes (store/chunkWriter.ts) stop before the disk is full (found by helper
 * qa3): on a 30 MB tmpfs DATA_DIR a 200 MB upload filled the disk with its building context, and
 * discarding it (a DELETE, which in WAL mode writes about as many pages as it removes) failed
 * too: the dead rows stayed, and every later sweep, upload and answer of the backend failed with
 * "disk is full". The writer now refuses a batch (SQLITE_FULL: the route's "disk is full" answer)
 * while the space left still covers discarding what it wrote. The free space is simulated here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateLatest, openDb, type Db } from '../backend/db.js';
import { ChunkWriter, FREE_SPACE_RESERVE_BYTES, type ChunkToWrite } from '../backend/store/chunkWriter.js';
import { createChat } from '../backend/store/chats.js';
import { createBuildingContext, discardContext } from '../backend/store/contexts.js';

let dir: string;
let file: string;
let db: Db;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-chunk-space-'));
  file = path.join(dir, 'db.sqlite');
  db = openDb(`sqlite:${file}`);
  await migrateLatest(db);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = (from: number, n: number): ChunkToWrite[] =>
  Array.from({ length: n }, (_, i) => ({ seq: from + i, start_line: (from + i) * 40 + 1, end_line: (from + i) * 40 + 40, text: `line ${from + i} `.repeat(400), embedding: new Float32Array(64).fill(0.5) }));

test('the writer refuses a batch while the disk can still take the discard of what it wrote; the discard then leaves nothing', async () => {
  const chat = await createChat(db, 'u', 'full');
  const contextId = await createBuildingContext(db, chat.id, { id: 'local', dim: 64 });
  // A disk with 20 MiB beyond the reserve: every byte the database file and its WAL grow by is taken from it.
  const base = () => ['', '-wal'].reduce((n, s) => n + (fs.existsSync(file + s) ? fs.statSync(file + s).size : 0), 0);
  const start = base();
  const capacity = FREE_SPACE_RESERVE_BYTES + 20 * 1024 * 1024;
  const free = () => capacity - (base() - start);
  const writer = new ChunkWriter({ file, contextId }, free);
  let seq = 0;
  let refused: (Error & { code?: string }) | undefined;
  try {
    for (; seq < 16_384; seq += 256) writer.writeChunks(rows(seq, 256));
  } catch (err) {
    refused = err as Error & { code?: string };
  } finally {
    writer.close();
  }
  expect(refused?.code).toBe('SQLITE_FULL');
  const written = base() - start;
  expect(written).toBeGreaterThan(4 * 1024 * 1024);
  // What is left covers deleting what was written (as many bytes again) with the reserve to spare.
  expect(free()).toBeGreaterThanOrEqual(written);
  await discardContext(db, contextId);
  expect(await db('context_chunks').where({ context_id: contextId }).count({ n: '*' }).first()).toEqual({ n: 0 });
  expect(await db('contexts').where({ id: contextId }).first()).toBeUndefined();
});
