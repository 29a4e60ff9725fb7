/**
 * The real controller in front of the real backend (createApp on SQLite in a temp dir): the
 * JWTs it mints are accepted, users are kept apart, answers stream through, and a caller who
 * leaves mid-answer leaves the pair `interrupted`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig, type ControllerConfig } from '../controller/config.js';
import { addToken } from '../controller/tokens.js';
import { readEvents } from '../protocol/sse.js';
import type { Chat, Page, QaPair, StreamEvent } from '../protocol/types.js';
import { sqlite } from './helpers/databases.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { scriptedEngine } from './helpers/engines.js';
import { until } from './helpers/poll.js';

const SECRET = randomBytes(32).toString('hex');
const silent = pino({ level: 'silent' });
const slowEngine = scriptedEngine({ pieces: () => Array.from({ length: 60 }, (_, i) => `w${i} `), delayMs: 20 });

let backend: TestBackend;
let tmp: string;

function configFor(env: Record<string, string>): ControllerConfig {
  const result = loadControllerConfig({
    CONTROLLER_PORT: '0',
    DATA_DIR: path.join(tmp, 'data'),
    BACKEND_URL: backend.url,
    JENKINS_HOME: path.resolve('test/fixtures/jenkins-homes/samples'),
    ...env,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-controller-backend-'));
  const dataDir = path.join(tmp, 'backend-data');
  fs.mkdirSync(dataDir);
  backend = await startTestBackend(sqlite, {
    secret: SECRET,
    dataDir,
    deps: {
      engine: slowEngine,
    },
  });
});
afterAll(async () => {
  await backend.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('none mode in front of the real backend', () => {
  let controller: RunningController;
  beforeAll(async () => {
    controller = await startController(
      configFor({ JWT_SECRET: SECRET, CONTROLLER_USER: 'erin', JENKINS_HOME: path.resolve('test/fixtures/jenkins-homes/samples') }),
      { logger: silent },
    );
  });
  afterAll(() => controller.close(0));

  const api = (p: string, init?: RequestInit) => fetch(`${controller.url}/chatbot-api${p}`, init);

  test('healthz is the backend health', async () => {
    const res = await api('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  test('chats are created and listed as CONTROLLER_USER, the JWT accepted by the backend', async () => {
    const created = await api('/chats/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"via controller"}' });
    expect(created.status).toBe(201);
    const chat = (await created.json()) as Chat;
    expect(chat.user_id).toBe('erin');
    const page = (await (await api('/chats/?limit=5')).json()) as Page<Chat>;
    expect(page.limit).toBe(5);
    expect(page.items.map((c) => c.id)).toContain(chat.id);
  });

  test('an answer streams through event by event and is stored complete', async () => {
    const chat = (await (await api('/chats/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as Chat;
    const res = await api('/messages/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat.id, content: 'why did it fail?' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: StreamEvent[] = [];
    for await (const event of readEvents(res.body!)) events.push(event);
    expect(events[0]?.event).toBe('started');
    expect(events.at(-1)?.event).toBe('done');
    expect(events.filter((e) => e.event === 'chunk')).toHaveLength(60);
    const pairs = (await (await api(`/chats/${chat.id}`)).json()) as Page<QaPair>;
    expect(pairs.items[0]?.answer?.status).toBe('complete');
  });

  test('a context upload is built from JENKINS_HOME, stored by the backend, and reaches the answer engine', async () => {
    const chat = (await (await api('/chats/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as Chat;
    const before = (await (await api(`/context/${chat.id}/last-upload`)).json()) as { last_upload_at: string | null };
    expect(before.last_upload_at).toBeNull();
    const res = await api(`/context/${chat.id}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', referer: 'http://ci.example.com/job/j/2/console' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { success: boolean; received_data: { currentScreen?: string; jobDetails?: { fullName?: string }; buildDetails?: { number?: number } } };
    expect(reply.success).toBe(true);
    expect(reply.received_data.currentScreen).toBe('Console j #2');
    expect(reply.received_data.jobDetails?.fullName).toBe('j');
    expect(reply.received_data.buildDetails?.number).toBe(2);
    const after = (await (await api(`/context/${chat.id}/last-upload`)).json()) as { last_upload_at: string | null };
    expect(after.last_upload_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);

    const send = await api('/messages/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat.id, content: 'what happened?' }),
    });
    for await (const event of readEvents(send.body!)) if (event.event === 'done') break;
    expect(slowEngine.requests.at(-1)?.context?.ciContext.jobDetails?.fullName).toBe('j');
  });

  test('a caller who leaves mid-answer: the backend stops and saves the pair as interrupted', async () => {
    const chat = (await (await api('/chats/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as Chat;
    const abortedBefore = slowEngine.aborted;
    const abort = new AbortController();
    const res = await api('/messages/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat.id, content: 'a long answer please' }),
      signal: abort.signal,
    });
    let chunks = 0;
    for await (const event of readEvents(res.body!, () => abort.abort())) {
      if (event.event === 'chunk' && ++chunks === 3) break; // break aborts the request
    }
    const status = await until('the pair to be interrupted', async () => {
      const page = (await (await api(`/chats/${chat.id}`)).json()) as Page<QaPair>;
      const s = page.items[0]?.answer?.status;
      return s === 'interrupted' ? s : undefined;
    });
    expect(status).toBe('interrupted');
    expect(slowEngine.aborted).toBeGreaterThan(abortedBefore);
  });
});

test('tokens mode: each token is its own user, and another user’s chat is 404', async () => {
  const tokenFile = path.join(tmp, 'tokens');
  const frank = await addToken(tokenFile, 'frank');
  const grace = await addToken(tokenFile, 'grace');
  const controller = await startController(
    configFor({ JWT_SECRET: SECRET, CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokenFile }),
    { logger: silent },
  );
  try {
    const as = (token: string, p: string, init: RequestInit = {}) =>
      fetch(`${controller.url}/chatbot-api${p}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    const chat = (await (await as(frank, '/chats/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as Chat;
    expect(chat.user_id).toBe('frank');
    expect((await as(frank, `/chats/${chat.id}`)).status).toBe(200);
    expect((await as(grace, `/chats/${chat.id}`)).status).toBe(404);
    expect((await fetch(`${controller.url}/chatbot-api/chats/`)).status).toBe(401);
  } finally {
    await controller.close(0);
  }
});

test('a controller with another JWT secret is refused by the backend (401 relayed)', async () => {
  const controller = await startController(configFor({ JWT_SECRET: randomBytes(32).toString('hex') }), { logger: silent });
  try {
    const res = await fetch(`${controller.url}/chatbot-api/chats/`);
    expect(res.status).toBe(401);
    expect(typeof ((await res.json()) as { detail?: unknown }).detail).toBe('string');
  } finally {
    await controller.close(0);
  }
});
