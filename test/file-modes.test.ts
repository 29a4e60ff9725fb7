/**
 * Files and directories cichat creates are private whatever the umask (issue 24 point 10):
 * directories 0700, files 0600. The test runs with umask 000, the most permissive.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadOrCreateReplicaId } from '../backend/replica.js';
import { addToken } from '../controller/tokens.js';
import { WatchStore } from '../controller/watch/store.js';
import { loadOrCreateJwtSecret } from '../protocol/auth.js';
import { startTestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('created files are private with a permissive umask', () => {
  let previous: number;
  let tmp: string;
  beforeAll(() => {
    previous = process.umask(0o000);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-modes-'));
    fs.chmodSync(tmp, 0o755);
  });
  afterAll(() => {
    process.umask(previous);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the umask really is permissive here', () => {
    const probe = path.join(tmp, 'probe');
    fs.writeFileSync(probe, 'x');
    expect(modeOf(probe)).toBe(0o666);
  });

  test('backend: data dir, SQLite files (with -wal and -shm), index files and sidecars', async () => {
    const dbDir = path.join(tmp, 'db', 'nested');
    const dataDir = path.join(tmp, 'backend-data', 'nested');
    const backend = await startTestBackend(sqlite, {
      database: { url: `sqlite:${path.join(dbDir, 'cichat.sqlite')}`, drop: async () => {} },
      dataDir,
    });
    try {
      const chat = (await (await backend.request('alice', 'POST', '/chats/', {})).json()) as { id: number };
      const up = await backend.request('alice', 'POST', `/context/${chat.id}/`, { ciContext: { buildDetails: { consoleLog: 'error: broken\n'.repeat(50) } } });
      expect(up.status).toBe(200);
      const dbFiles = fs.readdirSync(dbDir);
      expect(dbFiles).toEqual(expect.arrayContaining(['cichat.sqlite', 'cichat.sqlite-wal', 'cichat.sqlite-shm']));
      for (const f of dbFiles) expect([f, modeOf(path.join(dbDir, f))]).toEqual([f, 0o600]);
      for (const d of [path.join(tmp, 'db'), dbDir]) expect([d, modeOf(d)]).toEqual([d, 0o700]);
      const indexDir = path.join(dataDir, 'index');
      const indexFiles = fs.readdirSync(indexDir);
      expect(indexFiles.some((f) => f.endsWith('.hnsw'))).toBe(true);
      expect(indexFiles.some((f) => f.endsWith('.json'))).toBe(true);
      for (const f of indexFiles) expect([f, modeOf(path.join(indexDir, f))]).toEqual([f, 0o600]);
      for (const d of [path.join(tmp, 'backend-data'), dataDir, indexDir]) expect([d, modeOf(d)]).toEqual([d, 0o700]);
    } finally {
      await backend.close();
    }
  });

  test('jwt-secret, replica-id and the token file', async () => {
    const dir = path.join(tmp, 'shared', 'data');
    loadOrCreateJwtSecret(dir, undefined);
    loadOrCreateReplicaId(dir);
    expect(modeOf(path.join(tmp, 'shared'))).toBe(0o700);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, 'jwt-secret'))).toBe(0o600);
    expect(modeOf(path.join(dir, 'replica-id'))).toBe(0o600);
    const tokens = path.join(tmp, 'tokens-dir', 'tokens');
    await addToken(tokens, 'alice');
    expect(modeOf(path.dirname(tokens))).toBe(0o700);
    expect(modeOf(tokens)).toBe(0o600);
  });

  test("the watcher's state", () => {
    const dataDir = path.join(tmp, 'controller-data');
    const store = new WatchStore(dataDir, pino({ level: 'silent' }));
    store.work.queue.push({ key: 'a#1', job: 'a', build: 1, result: 'FAILURE', detectedAt: new Date().toISOString(), attempts: 0, chats: {} });
    store.saveWorkNow();
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(store.dir)).toBe(0o700);
    expect(modeOf(path.join(store.dir, 'jobs.json'))).toBe(0o600);
    expect(modeOf(path.join(store.dir, 'work.json'))).toBe(0o600);
  });
});
