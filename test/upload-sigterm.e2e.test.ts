/**
 * A backend stopped (SIGTERM) in the middle of an upload whose log is ingested in worker threads
 * (the ingest worker and the HNSW index worker): it stops cleanly (exit 0), never aborts
 * (a worker thread cut inside hnswlib used to end in FATAL ERROR ... napi_throw, SIGABRT), and
 * the cut upload leaves no building context behind.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { knexConfig, migrateLatest } from '../backend/db.js';
import { testDialects, type TestDatabase } from './helpers/databases.js';
import { spawnBackend, PROCESS_SECRET } from './helpers/backendProcess.js';
import { signToken } from './helpers/backend.js';
import { until } from './helpers/poll.js';

const dialect = (await testDialects())[0]!;

function bigLog(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`[build] step ${i}: compiling module_${i % 977} with flags -O2 -Wall (${(i * 7919) % 100003})`);
  out.push('ERROR: Tests failed: 3 of 120', 'Finished: FAILURE');
  return `${out.join('\n')}\n`;
}

let database: TestDatabase;
let db: ReturnType<typeof knexFactory>;
let dataDir: string;
beforeAll(async () => {
  database = await dialect.create();
  db = knexFactory({ ...knexConfig(database.url), pool: { min: 0, max: 1 } });
  await migrateLatest(db);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-upterm-'));
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test.each([
  ['as soon as the upload has its building context (index worker starting)', 0],
  ['once the upload has written chunks', 1],
])('SIGTERM %s: exit 0, no abort, nothing left building', async (_when, chunksWanted) => {
  const b = await spawnBackend(database.url, dataDir);
  try {
    const chat = ((await (await b.request('u', 'POST', '/chats/', { title: 'term' })).json()) as { id: number }).id;
    const body = JSON.stringify({ ciContext: { buildDetails: { number: 2, consoleLog: bigLog(300_000) } } });
    const url = new URL(`${b.url}/context/${chat}/`);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { authorization: `Bearer ${await signToken(PROCESS_SECRET, 'u')}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => undefined);
    req.on('response', (res) => res.resume());
    req.end(body);
    await until(
      'the upload to start',
      async () => {
        const row = (await db('contexts').where({ chat_id: chat, state: 'building' }).first('id')) as { id: number } | undefined;
        if (!row) return undefined;
        if (chunksWanted === 0) return true;
        const n = Number(((await db('context_chunks').where({ context_id: row.id }).count({ n: '*' }).first()) as { n: number | string }).n);
        return n >= chunksWanted ? true : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 10 },
    );
    b.service.child.kill('SIGTERM');
    const exit = await b.service.exited;
    const output = b.service.lastLines().join('\n');
    expect(output).not.toContain('FATAL');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await db('contexts').where({ chat_id: chat, state: 'building' }).count({ n: '*' }).first()).toEqual({ n: 0 });
  } finally {
    await b.service.stop(2000);
  }
});
