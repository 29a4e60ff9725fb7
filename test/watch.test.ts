/**
 * The failed-build watcher inside the real controller, in front of the real backend (the
 * offline engine, SQLite and MariaDB): a failed build written into the home becomes a chat with
 * the stored diagnosis, listed by GET /failures, posted once to a local webhook receiver;
 * users, unread marks, bounded concurrency, retries.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { AnswerEngine } from '../backend/answer/engine.js';
import { createLocalEngine } from '../backend/answer/local/index.js';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig, type ControllerConfig } from '../controller/config.js';
import { addToken } from '../controller/tokens.js';
import type { Chat, Page, QaPair, WatchedFailure } from '../protocol/types.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { testDialects } from './helpers/databases.js';
import { until } from './helpers/poll.js';
import { makeHome, makeJob, writeBuild } from './helpers/watchHome.js';

const SECRET = randomBytes(32).toString('hex');
const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A webhook receiver: records each post; answers `failFirst` posts with 503. */
interface Receiver {
  url: string;
  posts: { text: string }[];
  attempts: number;
  close(): Promise<void>;
}

async function startReceiver(failFirst = 0): Promise<Receiver> {
  const r = { posts: [] as { text: string }[], attempts: 0 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      r.attempts++;
      if (r.attempts <= failFirst) {
        res.writeHead(503).end('busy');
        return;
      }
      r.posts.push(JSON.parse(body) as { text: string });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/abc`,
    get posts() {
      return r.posts;
    },
    get attempts() {
      return r.attempts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The offline engine, counting the answers generated at the same time. */
function countingEngine(): AnswerEngine & { now: number; max: number; total: number } {
  const local = createLocalEngine({ typingDelayMs: 1 });
  const engine = {
    name: 'local',
    now: 0,
    max: 0,
    total: 0,
    async answer(request: Parameters<AnswerEngine['answer']>[0]) {
      const stream = await local.answer(request);
      return {
        sources: stream.sources,
        pieces: (async function* () {
          engine.now++;
          engine.total++;
          engine.max = Math.max(engine.max, engine.now);
          try {
            yield* stream.pieces;
          } finally {
            engine.now--;
          }
        })(),
      };
    },
  };
  return engine;
}

describe.each(await testDialects())('failed-build watcher with the real backend on $name', (dialect) => {
  let backend: TestBackend;
  let engine: ReturnType<typeof countingEngine>;
  let tmp: string;
  let home: string;
  let receiver: Receiver;
  const controllers: RunningController[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-watch-it-'));
    const dataDir = path.join(tmp, 'backend-data');
    fs.mkdirSync(dataDir);
    engine = countingEngine();
    backend = await startTestBackend(dialect, {
      secret: SECRET,
      dataDir,
      deps: { engine },
    });
  });
  afterAll(async () => {
    await backend.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    home = fs.mkdtempSync(path.join(tmp, 'home-'));
    makeHome(home);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const c of controllers.splice(0)) await c.close(0);
    await receiver.close();
  });

  function config(env: Record<string, string>): ControllerConfig {
    const result = loadControllerConfig({
      CONTROLLER_PORT: '0',
      DATA_DIR: path.join(home, '..', `${path.basename(home)}-data`),
      BACKEND_URL: backend.url,
      JENKINS_HOME: home,
      JWT_SECRET: SECRET,
      CICHAT_WATCH: 'on',
      CICHAT_WEBHOOK_URL: receiver.url,
      ...env,
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    return result.config;
  }

  async function start(env: Record<string, string> = {}): Promise<RunningController> {
    const c = await startController(config(env), { logger: silent, watchRetryFirstMs: 100 });
    controllers.push(c);
    await until('the first scan', () => ((c.watcher?.detector.stats.scans ?? 0) >= 1 ? true : undefined));
    return c;
  }

  const get = async <T>(c: RunningController, p: string, token?: string): Promise<T> => {
    const res = await fetch(`${c.url}/chatbot-api${p}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  test('a failed build becomes a chat with the stored diagnosis, a /failures entry and one webhook post', async () => {
    const app = makeJob(home, 'team/api', 'pipeline');
    writeBuild(app, { number: 1, result: 'SUCCESS', kind: 'pipeline' });
    const c = await start({ CONTROLLER_USER: 'erin' });
    writeBuild(app, { number: 2, result: 'FAILURE', kind: 'pipeline' });

    const failures = await until(
      'the failure listed with its chat',
      async () => {
        const list = (await get<{ items: WatchedFailure[] }>(c, '/failures')).items;
        return list.length > 0 ? list : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const [f] = failures;
    expect(f).toMatchObject({ job: 'team/api', build: 2, result: 'FAILURE', unread: true, build_url: 'http://ci.example.test/job/team/job/api/2/' });
    expect(f?.cause).not.toBe('');
    const chats = await get<Page<Chat>>(c, '/chats/');
    const chat = chats.items.find((x) => x.id === f?.chat_id);
    expect(chat).toMatchObject({ title: 'team/api #2 failed', user_id: 'erin' });
    const pairs = await get<Page<QaPair>>(c, `/chats/${f?.chat_id}`);
    expect(pairs.items).toHaveLength(1);
    expect(pairs.items[0]?.question.content).toBe('Why did the build fail?');
    expect(pairs.items[0]?.answer?.status).toBe('complete');
    expect(pairs.items[0]?.answer?.content).toMatch(/OrderTotalsTest|totalAppliesDiscountBeforeTax|expected: <90.0>/);
    // Opening the chat (above) marked it read.
    expect((await get<{ items: WatchedFailure[] }>(c, '/failures')).items[0]?.unread).toBe(false);

    await until('the webhook post', () => (receiver.posts.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    const text = receiver.posts[0]?.text ?? '';
    expect(text).toContain('team/api #2 failed');
    expect(text).toContain(f?.cause ?? '<no cause>');
    expect(text).toContain('http://ci.example.test/job/team/job/api/2/');
    expect(text).toMatch(/```\n[\s\S]*(FAILURE|AssertionFailedError|ERROR)[\s\S]*\n```/);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.posts).toHaveLength(1);
  });

  test('the same failure in the next builds posts one message; another failure posts again (issue 29)', async () => {
    const app = makeJob(home, 'team/web', 'pipeline');
    writeBuild(app, { number: 1, result: 'SUCCESS', kind: 'pipeline' });
    const c = await start({ CONTROLLER_USER: 'erin' });
    const listed = async (n: number): Promise<WatchedFailure[]> =>
      until(`${n} failures diagnosed`, async () => {
        const list = (await get<{ items: WatchedFailure[] }>(c, '/failures')).items;
        return list.length >= n ? list : undefined;
      }, { timeoutMs: 8000 });
    writeBuild(app, { number: 2, result: 'FAILURE', kind: 'pipeline' });
    await listed(1);
    await until('the first post', () => (receiver.posts.length > 0 ? true : undefined), { timeoutMs: 20_000 });
    writeBuild(app, { number: 3, result: 'FAILURE', kind: 'pipeline' });
    await listed(2);
    writeBuild(app, { number: 4, result: 'FAILURE', kind: 'pipeline' });
    await listed(3);
    await new Promise((r) => setTimeout(r, 300));
    // Builds 3 and 4 fail the way 2 did: their chats exist, the team was told once.
    expect(receiver.posts).toHaveLength(1);
    expect(receiver.posts[0]?.text).toContain('team/web #2 failed');
    const other = 'Started by user alice\n+ make\nsrc/main.c:3:5: error: unknown type name foo\nmake: *** [all] Error 1\nFinished: FAILURE\n';
    writeBuild(app, { number: 5, result: 'FAILURE', kind: 'pipeline', log: other });
    await listed(4);
    await until('a post for the new failure', () => (receiver.posts.length >= 2 ? true : undefined), { timeoutMs: 20_000 });
    expect(receiver.posts[1]?.text).toContain('team/web #5 failed');
  });

  test("the diagnosis of a failed build quotes the failing line from the build's workspace (issue 17)", async () => {
    const app = makeJob(home, 'app');
    const test = path.join(home, 'workspace', 'app', 'src', 'test', 'java', 'com', 'acme', 'OrderTotalsTest.java');
    fs.mkdirSync(path.dirname(test), { recursive: true });
    const lines = Array.from({ length: 40 }, (_, i) => `    // line ${i + 1}`);
    lines[30] = '        assertEquals(90.0, OrderTotals.total(100.0, 0.1), 0.001);';
    fs.writeFileSync(test, `${lines.join('\n')}\n`);
    const c = await start({ CONTROLLER_USER: 'erin' });
    writeBuild(app, { number: 1, result: 'FAILURE' });
    const [f] = await until(
      'the failure listed with its chat',
      async () => {
        const list = (await get<{ items: WatchedFailure[] }>(c, '/failures')).items;
        return list.length > 0 ? list : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const pairs = await get<Page<QaPair>>(c, `/chats/${f?.chat_id}`);
    const answer = pairs.items[0]?.answer;
    expect(answer?.content).toContain('src/test/java/com/acme/OrderTotalsTest.java:31');
    expect(answer?.content).toMatch(/^> 31 \| {9}assertEquals\(90\.0, OrderTotals\.total\(100\.0, 0\.1\), 0\.001\);$/m);
    expect(answer?.sources).toContainEqual({ kind: 'file', path: 'src/test/java/com/acme/OrderTotalsTest.java', start_line: 25, end_line: 37 });
  });

  test('tokens mode: only CICHAT_WATCH_USERS who are in the token file get a chat', async () => {
    const tokensFile = path.join(tmp, `tokens-${dialect.name}`);
    const aliceToken = await addToken(tokensFile, 'alice');
    const bobToken = await addToken(tokensFile, 'bob');
    const app = makeJob(home, 'app');
    const c = await start({ CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokensFile, CICHAT_WATCH_USERS: 'alice,ghost' });
    writeBuild(app, { number: 1, result: 'UNSTABLE' });
    const list = await until(
      "alice's failure",
      async () => {
        const items = (await get<{ items: WatchedFailure[] }>(c, '/failures', aliceToken)).items;
        return items.length > 0 ? items : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(list[0]).toMatchObject({ job: 'app', build: 1, result: 'UNSTABLE' });
    expect((await get<{ items: WatchedFailure[] }>(c, '/failures', bobToken)).items).toEqual([]);
    const read = await fetch(`${c.url}/chatbot-api/failures/${list[0]?.chat_id}/read`, { method: 'POST', headers: { authorization: `Bearer ${aliceToken}` } });
    expect(read.status).toBe(200);
    expect((await get<{ items: WatchedFailure[] }>(c, '/failures', aliceToken)).items[0]?.unread).toBe(false);
    const notMine = await fetch(`${c.url}/chatbot-api/failures/${list[0]?.chat_id}/read`, { method: 'POST', headers: { authorization: `Bearer ${bobToken}` } });
    expect(notMine.status).toBe(404);
  });

  test('a burst is worked off with at most CICHAT_WATCH_CONCURRENCY answers at a time', async () => {
    const jobs = Array.from({ length: 12 }, (_, i) => makeJob(home, `burst/job-${i}`));
    const c = await start({ CICHAT_WATCH_CONCURRENCY: '2', CICHAT_WEBHOOK_URL: '' });
    engine.max = 0;
    const before = engine.total;
    for (const dir of jobs) writeBuild(dir, { number: 1, result: 'FAILURE' });
    await until(
      'all 12 diagnosed',
      async () => ((await get<{ items: WatchedFailure[] }>(c, '/failures?limit=100')).items.length === 12 ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(engine.total - before).toBe(12);
    expect(engine.max).toBeLessThanOrEqual(2);
    expect(engine.max).toBeGreaterThanOrEqual(1);
  });

  test('a webhook that fails is retried with backoff; the watcher goes on meanwhile', async () => {
    await receiver.close();
    receiver = await startReceiver(2);
    const a = makeJob(home, 'a');
    const b = makeJob(home, 'b');
    const c = await start({});
    writeBuild(a, { number: 1, result: 'FAILURE' });
    writeBuild(b, { number: 1, result: 'FAILURE' });
    await until('both diagnosed', async () => ((await get<{ items: WatchedFailure[] }>(c, '/failures')).items.length === 2 ? true : undefined), {
      timeoutMs: 10_000,
    });
    await until('both posted after the refusals', () => (receiver.posts.length === 2 ? true : undefined), { timeoutMs: 10_000 });
    expect(receiver.attempts).toBe(4);
    // The receiver counts a post when it reads it; the watcher drops it from its outbox when the
    // answer is back, a moment later.
    await until('the outbox empty', () => (c.watcher?.load.outbox === 0 ? true : undefined), { timeoutMs: 20_000 });
    expect(receiver.attempts).toBe(4);
  });

  test('GET /failures is 404 naming CICHAT_WATCH when the watcher is off; bad limits are 422', async () => {
    const off = await startController(config({ CICHAT_WATCH: 'off' }), { logger: silent });
    controllers.push(off);
    const res = await fetch(`${off.url}/chatbot-api/failures`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/CICHAT_WATCH=on/);
    const on = await start({});
    const bad = await fetch(`${on.url}/chatbot-api/failures?limit=0`);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^limit: /);
  });
});
