/**
 * A backend killed (SIGKILL) in the middle of an upload (JSON, and a raw log streamed to the log route): the chat's previous context stays
 * whole (its row, its chunks, last_upload_at), and the half-written upload with its chunks is
 * gone as soon as the backend (same DATA_DIR, so the same replica) starts again. Both dialects.
 */
import fs from 'node:fs';
import http from 'node:http';
import { createGzip } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { knexConfig, migrateLatest } from '../backend/db.js';
import { testDialects, type TestDatabase } from './helpers/databases.js';
import { spawnBackend, PROCESS_SECRET, type BackendProcess } from './helpers/backendProcess.js';
import { signToken } from './helpers/backend.js';
import { until } from './helpers/poll.js';

const dialects = await testDialects();

/** A build log of `lines` distinct lines with a failure near the end. */
function bigLog(lines: number, tag: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`[${tag}] step ${i}: compiling module_${i % 977} with flags -O2 -Wall (${(i * 7919) % 100003})`);
  out.push('ERROR: Tests failed: 3 of 120', 'Finished: FAILURE');
  return `${out.join('\n')}\n`;
}

/** Posts without waiting for the answer (the backend dies before it comes). */
async function postInBackground(b: BackendProcess, p: string, body: string): Promise<void> {
  const token = await signToken(PROCESS_SECRET, 'killer');
  const url = new URL(b.url + p);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  req.on('error', () => undefined);
  req.on('response', (res) => res.resume());
  req.end(body);
}

/**
 * Streams a raw log to `POST /context/{chat}/log` without end (a line generator, gzip on the
 * wire), as a client with a log bigger than anything would: the backend dies while reading it.
 * `gone` resolves when the connection is.
 */
async function streamLogInBackground(b: BackendProcess, p: string): Promise<{ gone: Promise<void> }> {
  const token = await signToken(PROCESS_SECRET, 'killer');
  const url = new URL(b.url + p);
  const gzip = createGzip({ level: 1 });
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain', 'content-encoding': 'gzip' },
  });
  const gone = new Promise<void>((resolve) => {
    req.on('error', () => resolve());
    req.on('close', () => resolve());
  });
  req.on('response', (res) => res.resume());
  gzip.pipe(req);
  let i = 0;
  const more = (): void => {
    if (req.destroyed) return;
    let ok = true;
    while (ok) {
      const lines: string[] = [];
      for (let j = 0; j < 1000; j++, i++) lines.push(`[raw] step ${i}: linking object_${i % 977}.o (${(i * 7919) % 100003})`);
      ok = gzip.write(`${lines.join('\n')}\n`);
    }
    gzip.once('drain', more);
  };
  more();
  return { gone };
}

describe.each(dialects)('backend killed mid-upload on $name', (dialect) => {
  let database: TestDatabase;
  let db: ReturnType<typeof knexFactory>;
  let dataDir: string;
  const services: BackendProcess[] = [];
  /**
   * The backend of this DATA_DIR that is up: each test kills it mid-upload and starts it again
   * (the same replica), and the next test's upload goes to that restarted one.
   */
  let up: BackendProcess | undefined;
  const start = async (): Promise<BackendProcess> => {
    up = await spawnBackend(database.url, dataDir);
    services.push(up);
    return up;
  };
  const running = async (): Promise<BackendProcess> => up ?? (await start());

  beforeAll(async () => {
    database = await dialect.create();
    db = knexFactory({ ...knexConfig(database.url), pool: { min: 0, max: 1 } });
    await migrateLatest(db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-upkill-'));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.service.stop(2000)));
    await db?.destroy();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the previous context stays whole; the leftovers are swept when the backend starts again', async () => {
    const a = await running();
    const chat = ((await (await a.request('killer', 'POST', '/chats/', { title: 'kill' })).json()) as { id: number }).id;
    const first = await a.request('killer', 'POST', `/context/${chat}/`, { ciContext: { buildDetails: { number: 1, consoleLog: bigLog(3000, 'first') } } });
    expect(first.status).toBe(200);
    const before = (await (await a.request('killer', 'GET', `/context/${chat}/last-upload`)).json()) as { last_upload_at: string };
    const ready = (await db('contexts').where({ chat_id: chat, state: 'ready' }).first('id', 'chunk_count', 'ci_context')) as {
      id: number;
      chunk_count: number;
      ci_context: string;
    };
    const readyChunks = async () => Number(((await db('context_chunks').where({ context_id: ready.id }).count({ n: '*' }).first()) as { n: number | string }).n);
    const chunksBefore = await readyChunks();
    expect(chunksBefore).toBe(Number(ready.chunk_count));
    expect(chunksBefore).toBeGreaterThan(10);

    // A second, much bigger upload; killed once some of its chunks are written.
    await postInBackground(a, `/context/${chat}/`, JSON.stringify({ ciContext: { buildDetails: { number: 2, consoleLog: bigLog(300_000, 'second') } } }));
    const building = await until(
      'the second upload to write chunks',
      async () => {
        const row = (await db('contexts').where({ chat_id: chat, state: 'building' }).first('id')) as { id: number } | undefined;
        if (!row) return undefined;
        const n = Number(((await db('context_chunks').where({ context_id: row.id }).count({ n: '*' }).first()) as { n: number | string }).n);
        return n > 0 ? Number(row.id) : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    a.service.child.kill('SIGKILL');
    await a.service.exited;

    // Whole while the backend is down.
    expect(await db('contexts').where({ chat_id: chat, state: 'ready' }).first('id', 'chunk_count', 'ci_context')).toEqual(ready);
    expect(await readyChunks()).toBe(chunksBefore);
    expect(await db('contexts').where({ id: building }).first('state')).toEqual({ state: 'building' });

    const again = await start();
    expect(await db('contexts').where({ id: building }).first('id')).toBeUndefined();
    expect(Number(((await db('context_chunks').where({ context_id: building }).count({ n: '*' }).first()) as { n: number | string }).n)).toBe(0);
    expect(await db('contexts').where({ chat_id: chat }).select('id', 'chunk_count', 'ci_context')).toEqual([ready]);
    expect(await readyChunks()).toBe(chunksBefore);
    const after = (await (await again.request('killer', 'GET', `/context/${chat}/last-upload`)).json()) as { last_upload_at: string };
    expect(after).toEqual(before);
    // The context still answers: the failure of the first log is found.
    const res = await again.request('killer', 'POST', '/messages/send', { chat_id: chat, content: 'why did the build fail?' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/Tests failed/);
  });
  test('a raw log streamed to POST /context/{chat}/log (gzip): killed mid-body, the previous context stays whole and the leftovers are swept', async () => {
    const a = await running();
    const chat = ((await (await a.request('killer', 'POST', '/chats/', { title: 'kill raw' })).json()) as { id: number }).id;
    const first = await a.request('killer', 'POST', `/context/${chat}/`, { ciContext: { buildDetails: { number: 1, consoleLog: bigLog(3000, 'first') } } });
    expect(first.status).toBe(200);
    const ready = (await db('contexts').where({ chat_id: chat, state: 'ready' }).first('id', 'chunk_count', 'ci_context')) as { id: number; chunk_count: number; ci_context: string };
    const readyChunks = async () => Number(((await db('context_chunks').where({ context_id: ready.id }).count({ n: '*' }).first()) as { n: number | string }).n);
    const chunksBefore = await readyChunks();
    expect(chunksBefore).toBe(Number(ready.chunk_count));

    const upload = await streamLogInBackground(a, `/context/${chat}/log`);
    const building = await until(
      'the raw upload to write chunks',
      async () => {
        const row = (await db('contexts').where({ chat_id: chat, state: 'building' }).first('id')) as { id: number } | undefined;
        if (!row) return undefined;
        const n = Number(((await db('context_chunks').where({ context_id: row.id }).count({ n: '*' }).first()) as { n: number | string }).n);
        return n > 0 ? Number(row.id) : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    a.service.child.kill('SIGKILL');
    await a.service.exited;
    await upload.gone;

    expect(await db('contexts').where({ chat_id: chat, state: 'ready' }).first('id', 'chunk_count', 'ci_context')).toEqual(ready);
    expect(await readyChunks()).toBe(chunksBefore);
    const again = await start();
    expect(await db('contexts').where({ id: building }).first('id')).toBeUndefined();
    expect(await db('contexts').where({ chat_id: chat }).select('id', 'chunk_count', 'ci_context')).toEqual([ready]);
    const res = await again.request('killer', 'POST', '/messages/send', { chat_id: chat, content: 'why did the build fail?' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/Tests failed/);
  });
});
