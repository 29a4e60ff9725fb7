/**
 * The watcher's state files of the wrong shape (issue 24 point 7) and what users see of a
 * failure that could not be diagnosed (point 10): the real controller with its watcher, in
 * front of the real backend (SQLite; the watcher's state does not touch the database).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import { addToken } from '../controller/tokens.js';
import { GAVE_UP_ERROR, NOT_FOUND_ERROR } from '../controller/watch/diagnose.js';
import { Watcher } from '../controller/watch/index.js';
import type { BackendCalls } from '../controller/watch/backend.js';
import type { WatchedFailure } from '../protocol/types.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { until } from './helpers/poll.js';
import { makeHome, makeJob, writeBuild } from './helpers/watchHome.js';

const SECRET = randomBytes(32).toString('hex');
const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

const failure = (over: Record<string, unknown> = {}) => ({
  key: 'app#1',
  job: 'app',
  build: 1,
  result: 'FAILURE',
  cause: '',
  citedLines: [],
  detectedAt: '2026-11-24T10:00:00.000Z',
  diagnosedAt: '2026-11-24T10:00:01.000Z',
  chats: [],
  unread: [],
  ...over,
});
const work = (over: Record<string, unknown>) => JSON.stringify({ version: 1, queue: [], failures: [], outbox: [], ...over });

/** [what, file, text]: valid JSON of a shape the watcher cannot use. */
const WRONG_SHAPES: [string, 'work.json' | 'jobs.json', string][] = [
  ['queue: [{}]', 'work.json', work({ queue: [{}] })],
  ['failures: [null]', 'work.json', work({ failures: [null] })],
  ['outbox: [1]', 'work.json', work({ outbox: [1] })],
  ['a queue item whose chats hold null', 'work.json', work({ queue: [{ key: 'a#1', job: 'a', build: 1, result: 'FAILURE', detectedAt: 'x', attempts: 0, chats: { alice: null } }] })],
  ['a failure whose chats lack chatId', 'work.json', work({ failures: [failure({ chats: [{ user: 'alice' }] })] })],
  ['a failure whose unread is a string', 'work.json', work({ failures: [failure({ unread: 'alice' })] })],
  ['a build number as a string', 'work.json', work({ failures: [failure({ build: '1' })] })],
  ['version 2', 'work.json', JSON.stringify({ version: 2, queue: [], failures: [], outbox: [] })],
  ['an array', 'work.json', '[]'],
  ['jobs: {a: {seen: "x"}}', 'jobs.json', JSON.stringify({ version: 1, since: '2026-11-24T10:00:00.000Z', jobs: { a: { seen: 'x' } } })],
  ['jobs: {a: {seen: 1, pending: [null]}}', 'jobs.json', JSON.stringify({ version: 1, since: '2026-11-24T10:00:00.000Z', jobs: { a: { seen: 1, pending: [null] } } })],
  ['jobs.json without since', 'jobs.json', JSON.stringify({ version: 1, jobs: {} })],
];

describe('the watcher state and what users see of undiagnosed failures', () => {
  let backend: TestBackend;
  let tmp: string;
  const controllers: RunningController[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-watch-state-'));
    backend = await startTestBackend(sqlite, { secret: SECRET });
  });
  afterAll(async () => {
    await backend.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const c of controllers.splice(0)) await c.close(0);
  });

  async function start(dataDir: string, home: string, env: Record<string, string> = {}): Promise<RunningController> {
    const result = loadControllerConfig({
      CONTROLLER_PORT: '0',
      DATA_DIR: dataDir,
      BACKEND_URL: backend.url,
      JENKINS_HOME: home,
      JWT_SECRET: SECRET,
      CICHAT_WATCH: 'on',
      ...env,
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    const c = await startController(result.config, { logger: silent, watchRetryFirstMs: 50 });
    controllers.push(c);
    await until('the first scan', () => ((c.watcher?.detector.stats.scans ?? 0) >= 1 ? true : undefined));
    return c;
  }

  test.each(WRONG_SHAPES)('%s: set aside as corrupt, the watcher starts empty and keeps working', async (_what, file, text) => {
    const dir = fs.mkdtempSync(path.join(tmp, 'case-'));
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    makeHome(home);
    const app = makeJob(home, 'app');
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(path.join(dataDir, 'watch'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'watch', file), text);
    const c = await start(dataDir, home);
    expect(fs.readdirSync(path.join(dataDir, 'watch')).filter((f) => f.startsWith(`${file}.corrupt-`))).toHaveLength(1);
    expect(c.watcher?.store.work.queue).toEqual([]);
    // Listing failures and opening a chat (which marks it read) do not crash the controller.
    const list = await fetch(`${c.url}/chatbot-api/failures`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
    expect((await fetch(`${c.url}/chatbot-api/chats/999999`)).status).toBe(404);
    // And it still works: a failed build written now is diagnosed.
    writeBuild(app, { number: 5, result: 'FAILURE' });
    const items = await until(
      'the new failure',
      async () => {
        const body = (await (await fetch(`${c.url}/chatbot-api/failures`)).json()) as { items: WatchedFailure[] };
        return body.items.length > 0 ? body.items : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(items[0]).toMatchObject({ job: 'app', build: 5 });
    expect((await fetch(`${c.url}/chatbot-api/chats/${items[0]!.chat_id}`)).status).toBe(200);
  });

  test('an undiagnosed failure is shown only to the users watched for, without internal error text', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'users-'));
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    makeHome(home);
    const tokensFile = path.join(dir, 'tokens');
    const alice = await addToken(tokensFile, 'alice');
    const bob = await addToken(tokensFile, 'bob');
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(path.join(dataDir, 'watch'), { recursive: true });
    fs.writeFileSync(
      path.join(dataDir, 'watch', 'work.json'),
      work({
        failures: [
          failure({ key: 'old#1', job: 'old', error: 'Not diagnosed: ECONNREFUSED 10.0.0.7:8000' }),
          failure({ key: 'new#2', job: 'new', build: 2, error: GAVE_UP_ERROR, watchers: ['alice'] }),
        ],
      }),
    );
    const c = await start(dataDir, home, { CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokensFile, CICHAT_WATCH_USERS: 'alice' });
    const list = async (token: string) =>
      ((await (await fetch(`${c.url}/chatbot-api/failures`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: WatchedFailure[] }).items;
    // alice was watched for when it gave up; the record from before `watchers` existed is shown to nobody.
    expect((await list(alice)).map((f) => [f.job, f.error])).toEqual([['new', GAVE_UP_ERROR]]);
    expect(await list(bob)).toEqual([]);
  });

  test('the records the watcher writes carry a fixed sentence and the watched users, never the error text', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'records-'));
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    makeHome(home);
    const app = makeJob(home, 'app');
    const unused = () => {
      throw new Error('not called');
    };
    const calls: BackendCalls = { createChat: unused, uploadContext: unused, ask: unused, newestPair: unused, findChat: unused };
    let reads = 0;
    const watcher = new Watcher({
      watch: { jobs: [], concurrency: 1, rescanSeconds: 3600, users: ['carol'] },
      jenkinsHome: home,
      dataDir: path.join(dir, 'data'),
      auth: { mode: 'none', user: 'carol' },
      backendUrl: 'http://127.0.0.1:9',
      mintJwt: async () => 'x',
      logger: silent,
      calls,
      fsEvents: false,
      retryFirstMs: 1,
      // Build 1 vanished; build 2 cannot be read, every time, with an internal error's text.
      buildCiContext: async (o) => {
        if (o.buildNumber === 1) return { context: {}, problems: [{ field: 'buildDetails', error: new Error('ENOENT: /srv/jenkins/secret/builds/1') }], notFound: true };
        reads++;
        throw new Error('EACCES: permission denied, open /srv/jenkins/secret/builds/2/log');
      },
    });
    await watcher.start();
    try {
      writeBuild(app, { number: 1, result: 'FAILURE' });
      writeBuild(app, { number: 2, result: 'FAILURE' });
      await watcher.detector.rescan();
      const records = await until('both given up', () => (watcher.store.work.failures.length === 2 ? watcher.store.work.failures : undefined), { timeoutMs: 60_000 });
      expect(reads).toBeGreaterThan(1);
      const byBuild = new Map(records.map((r) => [r.build, r]));
      expect(byBuild.get(1)).toMatchObject({ error: NOT_FOUND_ERROR, watchers: ['carol'] });
      expect(byBuild.get(2)).toMatchObject({ error: GAVE_UP_ERROR, watchers: ['carol'] });
      expect(JSON.stringify(watcher.failuresFor('carol', 10))).not.toMatch(/ENOENT|EACCES|\/srv\/jenkins/);
      expect(watcher.failuresFor('dave', 10)).toEqual([]);
    } finally {
      await watcher.close();
    }
  }, 90_000);
});
