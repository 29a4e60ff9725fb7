/**
 * Uploads' CPU work in a worker thread (issue 28): the same result as on the calling thread,
 * and a failure in the middle (the client gone, the worker gone) leaves the previous context.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateLatest, openDb, type Db } from '../backend/db.js';
import { LocalEmbedder } from '../backend/retrieval/embed.js';
import { ingestContext, ingestLog } from '../backend/retrieval/ingest.js';
import { IngestPool } from '../backend/retrieval/ingestPool.js';
import { BACKGROUND_NICE } from '../backend/retrieval/threadPriority.js';
import { VectorIndexCache } from '../backend/retrieval/vectorIndex.js';
import type { ContextDeps } from '../backend/retrieval/retrieve.js';
import { createChat } from '../backend/store/chats.js';
import { countContexts, currentContext } from '../backend/store/contexts.js';
import { expectEqual } from './helpers/equal.js';

function buildLog(lines: number): string {
  const out: string[] = ['Started by user admin', '[Pipeline] sh', '+ mvn -B verify'];
  for (let i = 0; i < lines; i++) out.push(`[INFO] Compiling module-${i % 31} file ${i}.java (${i % 97} ms)`);
  out.push('[ERROR] /src/main/java/com/acme/UserService.java:[42,17] cannot find symbol', '[ERROR]   symbol:   method findByEmail(java.lang.String)', 'ERROR: script returned exit code 1', 'Finished: FAILURE');
  return `${out.join('\n')}\n`;
}

let dir: string;
let db: Db;
let deps: ContextDeps;
let pool: IngestPool;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-ingest-worker-'));
  db = openDb(`sqlite:${path.join(dir, 'db.sqlite')}`);
  await migrateLatest(db);
  pool = new IngestPool();
  deps = { db, embedder: new LocalEmbedder(), indexes: new VectorIndexCache(dir), ingestPool: pool };
});
afterAll(async () => {
  await pool.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a log ingested in the worker gives what the calling thread gives: rows, excerpts, stored text', async () => {
  const log = buildLog(8_000);
  const a = await createChat(db, 'u', 'a');
  const b = await createChat(db, 'u', 'b');
  const started = pool.started;
  const written = pool.batchesWritten;
  const inWorker = await ingestContext(deps, a.id, { buildDetails: { number: 7, consoleLog: log } }, { inline: false });
  expect(pool.started).toBe(started + (started === 0 ? 1 : 0));
  // On a SQLite file the worker wrote the rows itself (its own connection), in batches of EMBED_BATCH chunks.
  expect(pool.batchesWritten - written).toBe(Math.ceil(inWorker.chunkCount / 256));
  const inline = await ingestContext(deps, b.id, { buildDetails: { number: 7, consoleLog: log } }, { inline: true });
  expect(inWorker.failureExcerpts).toEqual(inline.failureExcerpts);
  expect(inWorker.failureExcerpts[0]?.text).toContain('cannot find symbol');
  expect([inWorker.logLineCount, inWorker.chunkCount]).toEqual([inline.logLineCount, inline.chunkCount]);
  expect(inWorker.ciContext).toEqual(inline.ciContext);
  const rowsOf = async (chatId: number) =>
    db('context_chunks').where({ context_id: (await currentContext(db, chatId))!.id }).orderBy('seq').select('seq', 'start_line', 'end_line', 'text', 'embedding');
  expectEqual(await rowsOf(a.id), await rowsOf(b.id));
  const termsOf = async (chatId: number) =>
    db('context_terms').where({ context_id: (await currentContext(db, chatId))!.id }).orderBy('bucket').select('bucket', 'terms');
  const terms = await termsOf(a.id);
  expect(terms.length).toBeGreaterThan(10);
  expectEqual(terms, await termsOf(b.id));
});

test('a source that fails in the middle of a worker upload leaves the previous context whole', async () => {
  const chat = await createChat(db, 'u', 'c');
  const first = await ingestContext(deps, chat.id, { buildDetails: { number: 1, consoleLog: buildLog(100) } });
  const before = await currentContext(db, chat.id);
  async function* cutOff(): AsyncGenerator<string> {
    yield* paced(2, () => pool.batchesWritten);
    throw new Error('client went away');
  }
  const written = pool.batchesWritten;
  await expect(ingestLog(deps, chat.id, { buildDetails: { number: 2 } }, { field: 'consoleLog', pieces: cutOff() }, { inline: false })).rejects.toThrow('client went away');
  // The worker had written rows of the cut upload on its own connection: none of them is left.
  expect(pool.batchesWritten).toBeGreaterThan(written);
  const counts = await countContexts(db, chat.id);
  expect([counts.ready, counts.building, counts.chunks]).toEqual([1, 0, first.chunkCount]);
  expect(await db('context_terms').whereNotIn('context_id', db('contexts').select('id')).count({ n: '*' }).first()).toEqual({ n: 0 });
  expect((await currentContext(db, chat.id))?.id).toBe(first.contextId);
  expect(await currentContext(db, chat.id)).toEqual(before);
  // The pool still works after it.
  const next = await ingestContext(deps, chat.id, { buildDetails: { number: 3, consoleLog: buildLog(30_000) } }, { inline: false });
  expect(next.logLineCount).toBe(30_007);
});

test.each([
  ['in the worker', false],
  ['on the calling thread', true],
])('a backend stopping stops an upload whose body was read (%s): its context is discarded, the previous one stays', async (_where, inline) => {
  const { Lifecycle } = await import('../backend/lifecycle.js');
  const lifecycle = new Lifecycle();
  const chat = await createChat(db, 'u', `stop-${String(inline)}`);
  const first = await ingestContext(deps, chat.id, { buildDetails: { number: 1, consoleLog: buildLog(100) } });
  // A JSON upload: the whole log is in memory, no connection to cut; only the stop ends it.
  const upload = ingestContext({ ...deps, lifecycle }, chat.id, { buildDetails: { number: 2, consoleLog: buildLog(60_000) } }, { inline });
  const started = Date.now();
  while (lifecycle.activeUploads().length === 0 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 1));
  expect(lifecycle.activeUploads()).toHaveLength(1);
  lifecycle.stopUploads();
  await expect(upload).rejects.toThrow('the backend is stopping: upload cut');
  expect(lifecycle.activeUploads()).toEqual([]);
  expect((await currentContext(db, chat.id))!.id).toBe(first.contextId);
  expect(await db('contexts').where({ chat_id: chat.id, state: 'building' }).count({ n: '*' }).first()).toEqual({ n: 0 });
});

/** Pieces of a log, the next one only once the worker has written a batch more than `pool` had (or 10 s). */
async function* paced(pieces: number, written: () => number, between?: () => Promise<void>): AsyncGenerator<string> {
  for (let i = 0; i < pieces; i++) {
    const before = written();
    yield buildLog(20_000);
    const started = Date.now();
    while (written() === before && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 5));
    await between?.();
  }
}

test('a chat deleted while the worker writes its upload: the upload ends as ChatGone, nothing of it is left', async () => {
  const { ChatGone } = await import('../backend/retrieval/ingest.js');
  const chat = await createChat(db, 'u', 'deleted-mid-upload');
  let n = 0;
  const upload = ingestLog(deps, chat.id, { buildDetails: { number: 1 } }, {
    field: 'consoleLog',
    pieces: paced(6, () => pool.batchesWritten, async () => {
      if (++n === 2) await db('chats').where({ id: chat.id }).delete();
    }),
  }, { inline: false });
  await expect(upload).rejects.toBeInstanceOf(ChatGone);
  expect(await db('contexts').where({ chat_id: chat.id }).count({ n: '*' }).first()).toEqual({ n: 0 });
  expect(await db('context_chunks').whereNotIn('context_id', db('contexts').select('id')).count({ n: '*' }).first()).toEqual({ n: 0 });
});

test('the main thread writes (new chats) while the worker writes an upload: both succeed, no SQLITE_BUSY', async () => {
  const chat = await createChat(db, 'u', 'concurrent-writes');
  const made: number[] = [];
  const upload = ingestLog(deps, chat.id, { buildDetails: { number: 1 } }, {
    field: 'consoleLog',
    pieces: paced(5, () => pool.batchesWritten, async () => {
      for (let i = 0; i < 20; i++) made.push((await createChat(db, 'u', `during-${i}`)).id);
    }),
  }, { inline: false });
  const result = await upload;
  expect(made).toHaveLength(100);
  expect(result.logLineCount).toBe(5 * 20_007);
  expect((await countContexts(db, chat.id)).chunks).toBe(result.chunkCount);
});

test('the ingest and index worker threads run at a lower priority than the event loop (Linux)', async () => {
  if (!fs.existsSync('/proc/thread-self')) return;
  const chat = await createChat(db, 'u', 'nice');
  await ingestContext(deps, chat.id, { buildDetails: { number: 9, consoleLog: buildLog(8_000) } }, { inline: false });
  const niceOf = (tid: string) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
  const tids = fs.readdirSync('/proc/self/task');
  // The worker kept idle for the next upload and the index worker: at BACKGROUND_NICE; this thread (the event loop) untouched.
  expect(tids.filter((t) => niceOf(t) === BACKGROUND_NICE).length).toBeGreaterThanOrEqual(2);
  expect(niceOf(String(process.pid))).toBe(0);
});
