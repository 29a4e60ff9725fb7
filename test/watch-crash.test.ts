/**
 * A controller killed at the exact moment between the backend making a failure's chat and the
 * watcher recording its id in work.json (the race behind a duplicate "burst/job-1 #1 failed"
 * chat in test/watch.e2e.test.ts under load). The kill is simulated deterministically: the
 * backend call is wrapped, the state files on disk are copied at that moment (what SIGKILL
 * leaves), the run is abandoned, and a second watcher starts from the copy against the same
 * real backend. It must finish the diagnosis with the one chat, never a second.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { backendCalls, type BackendCalls } from '../controller/watch/backend.js';
import { Watcher } from '../controller/watch/index.js';
import type { Chat, Page, QaPair } from '../protocol/types.js';
import { signToken, startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { until } from './helpers/poll.js';
import { makeHome, makeJob, writeBuild } from './helpers/watchHome.js';

const SECRET = randomBytes(32).toString('hex');
const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const USER = 'erin';

let backend: TestBackend;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-watch-crash-'));
  const dataDir = path.join(tmp, 'backend-data');
  fs.mkdirSync(dataDir);
  backend = await startTestBackend(sqlite, { secret: SECRET, dataDir });
});
afterAll(async () => {
  await backend.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function watcher(home: string, dataDir: string, calls: BackendCalls): Watcher {
  return new Watcher({
    watch: { jobs: [], concurrency: 1, rescanSeconds: 3600, users: [USER] },
    jenkinsHome: home,
    dataDir,
    auth: { mode: 'none', user: USER },
    backendUrl: backend.url,
    mintJwt: (user) => signToken(SECRET, user),
    logger: silent,
    calls,
    fsEvents: false,
    retryFirstMs: 50,
  });
}

async function chatsTitled(title: string): Promise<Chat[]> {
  const page = (await (await backend.request(USER, 'GET', '/chats/?limit=100')).json()) as Page<Chat>;
  return page.items.filter((c) => c.title === title);
}

/**
 * Runs a watcher until its `createChat` is called, "kills" it there (`after`: once the backend
 * made the chat; else before the request left), then starts a second one from the files the
 * first left on disk. Answers the chats titled for the build and the record of the second run.
 */
async function killedAtChatCreation(name: string, after: boolean): Promise<{ chats: Chat[]; chatId: number | null; made: number | undefined }> {
  const dir = fs.mkdtempSync(path.join(tmp, `${name}-`));
  const home = path.join(dir, 'home');
  makeHome(home);
  const app = makeJob(home, name);
  const dataDir = path.join(dir, 'data');
  const real = backendCalls(backend.url, (user) => signToken(SECRET, user));
  const watchDir = path.join(dataDir, 'watch');
  let disk: Map<string, Buffer> | undefined;
  let made: number | undefined;
  const dying: BackendCalls = {
    ...real,
    async createChat(user, title) {
      if (after) made = (await real.createChat(user, title)).id;
      // What SIGKILL leaves: the files as they are now; nothing this run does later reaches disk.
      disk = new Map(fs.readdirSync(watchDir).map((f) => [f, fs.readFileSync(path.join(watchDir, f))]));
      return new Promise<Chat>(() => undefined);
    },
  };
  const first = watcher(home, dataDir, dying);
  await first.start();
  writeBuild(app, { number: 1, result: 'FAILURE' });
  await first.detector.rescan();
  const files = await until('the kill point', () => disk, { timeoutMs: 30_000, intervalMs: 10 });
  await first.close();
  fs.rmSync(watchDir, { recursive: true, force: true });
  fs.mkdirSync(watchDir, { mode: 0o700 });
  for (const [f, bytes] of files) fs.writeFileSync(path.join(watchDir, f), bytes, { mode: 0o600 });

  const second = watcher(home, dataDir, real);
  await second.start();
  try {
    await second.detector.rescan();
    const [record] = await until('the diagnosis after the restart', () => (second.store.work.failures.length > 0 ? second.store.work.failures : undefined), {
      timeoutMs: 30_000,
    });
    const chatId = record?.chats[0]?.chatId ?? null;
    if (chatId !== null) {
      const pairs = (await (await backend.request(USER, 'GET', `/chats/${chatId}`)).json()) as Page<QaPair>;
      expect(pairs.items).toHaveLength(1);
      expect(pairs.items[0]?.answer?.status).toBe('complete');
    }
    return { chats: await chatsTitled(`${name} #1 failed`), chatId, made };
  } finally {
    await second.close();
  }
}

test('killed after the backend made the chat, before work.json recorded it: the restart reuses that chat', async () => {
  const { chats, chatId, made } = await killedAtChatCreation('made', true);
  expect(made).toBeDefined();
  expect(chats.map((c) => c.id)).toEqual([made]);
  expect(chatId).toBe(made);
}, 60_000);

test('killed before the request reached the backend: the restart makes the one chat', async () => {
  const { chats, chatId, made } = await killedAtChatCreation('unmade', false);
  expect(made).toBeUndefined();
  expect(chats).toHaveLength(1);
  expect(chatId).toBe(chats[0]?.id);
}, 60_000);
