/**
 * Browser clients against the real controller in front of the real backend (SQLite and
 * MariaDB): a replay of the original plugin's React client (the requests a browser makes from a
 * Jenkins page: list and page chats, create, upload context with `{}` and the page's Referer,
 * send and read the stream, the 409 of a second question while one streams, rename, delete),
 * the OpenAPI 3.1 document generated from the zod schemas the routes validate with, and the
 * opt-in CORS of CONTROLLER_CORS_ORIGINS.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createChatBody, renameChatBody } from '../backend/routes/chats.js';
import { uploadContextBody } from '../backend/routes/context.js';
import { editBody, sendBody } from '../backend/routes/messages.js';
import { type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import { parseCorsOrigins } from '../controller/cors.js';
import { createChatBodySchema, editMessageBodySchema, renameChatBodySchema, sendMessageBodySchema, uploadContextBodySchema } from '../protocol/schemas.js';
import { readEvents } from '../protocol/sse.js';
import type { Chat, CiContext, Page, QaPair, StreamEvent } from '../protocol/types.js';
import { type TestBackend } from './helpers/backend.js';
import { startInProcessStack } from './helpers/inProcessStack.js';
import { testDialects } from './helpers/databases.js';

const dialects = await testDialects();
const SECRET = randomBytes(32).toString('hex');
const PAGE = 'http://localhost:8080/jenkins/job/team/job/api/42/console';

interface Stack {
  backend: TestBackend;
  controller: RunningController;
  tmp: string;
}

async function startStack(dialect: (typeof dialects)[number], env: Record<string, string> = {}): Promise<Stack> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-browser-'));
  const { backend, controller } = await startInProcessStack(dialect, {
    dir: tmp,
    secret: SECRET,
    // Slow enough typing that a second question arrives while the first streams.
    typingDelayMs: 15,
    controllerEnv: { CONTROLLER_USER: `browser-${dialect.name}-${Date.now()}`, JENKINS_HOME: path.resolve('seeds/jenkins-home'), ...env },
  });
  return { backend, controller, tmp };
}

async function stopStack(stack: Stack | undefined): Promise<void> {
  await stack?.controller.close(0);
  await stack?.backend.close();
  if (stack) fs.rmSync(stack.tmp, { recursive: true, force: true });
}

/** What the React client sends with every call from a Jenkins page: same origin, JSON, the page as Referer. */
function browser(base: string) {
  const headers = { accept: 'application/json', referer: PAGE };
  return {
    get: (p: string) => fetch(`${base}/chatbot-api${p}`, { headers }),
    json: (method: string, p: string, body: unknown) =>
      fetch(`${base}/chatbot-api${p}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    del: (p: string) => fetch(`${base}/chatbot-api${p}`, { method: 'DELETE', headers }),
    /** The context upload: `{}` and no Content-Type, the page's Referer names job and build. */
    uploadContext: (chatId: number) => fetch(`${base}/chatbot-api/context/${chatId}/`, { method: 'POST', headers: { referer: PAGE }, body: Buffer.from('{}') }),
    send: (chatId: number, content: string) =>
      fetch(`${base}/chatbot-api/messages/send`, {
        method: 'POST',
        headers: { ...headers, accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: chatId, content }),
      }),
  };
}

describe.each(dialects)('the original React client against the controller on $name', (dialect) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(dialect);
  });
  afterAll(() => stopStack(stack));

  test('list, paging, create, context upload, send and stream, 409, rename, delete', async () => {
    const b = browser(stack.controller.url);

    // The chat list on first open: empty.
    const empty = await b.get('/chats/?limit=20&offset=0');
    expect(empty.status).toBe(200);
    expect(await empty.json()).toMatchObject({ items: [], total_items: 0, limit: 20, offset: 0 });

    // New chats (the client sends `{}` for "New Chat"), then the list in pages.
    const created: Chat[] = [];
    for (const body of [{}, { title: 'second' }, { title: 'api #42' }]) {
      const res = await b.json('POST', '/chats/', body);
      expect(res.status).toBe(201);
      created.push((await res.json()) as Chat);
    }
    expect(created[0]?.title).toBe('New Chat');
    const first = (await (await b.get('/chats/?limit=2&offset=0')).json()) as Page<Chat>;
    expect(first).toMatchObject({ total_items: 3, limit: 2, offset: 0 });
    expect(first.items.map((c) => c.title)).toEqual(['api #42', 'second']);
    const second = (await (await b.get('/chats/?limit=2&offset=2')).json()) as Page<Chat>;
    expect(second.items.map((c) => c.title)).toEqual(['New Chat']);
    const chat = created[2] as Chat;

    // Context upload from the build's console page: `{}`, no Content-Type, the Referer decides.
    const upload = await b.uploadContext(chat.id);
    expect(upload.status).toBe(200);
    const uploaded = (await upload.json()) as { success: boolean; received_data: CiContext };
    expect(uploaded.success).toBe(true);
    expect(uploaded.received_data).toMatchObject({ currentScreen: 'Console team/api #42', jobDetails: { fullName: 'team/api' }, buildDetails: { number: 42 } });
    expect(typeof uploaded.received_data.activePlugins).toBe('object');
    expect(Array.isArray(uploaded.received_data.activePlugins)).toBe(false);
    const last = (await (await b.get(`/context/${chat.id}/last-upload`)).json()) as { last_upload_at: string | null };
    expect(last.last_upload_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    // Send, and read the stream as it comes; a second question meanwhile is the 409 banner.
    const streaming = await b.send(chat.id, 'why did the build fail?');
    expect(streaming.status).toBe(200);
    expect(streaming.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: StreamEvent[] = [];
    let conflictChecked = false;
    for await (const event of readEvents(streaming.body as ReadableStream<Uint8Array>)) {
      events.push(event);
      if (event.event === 'chunk' && !conflictChecked) {
        conflictChecked = true;
        const clash = await b.send(chat.id, 'and now?');
        expect(clash.status).toBe(409);
        expect(((await clash.json()) as { detail: string }).detail).toMatch(/already|streaming/i);
      }
    }
    expect(conflictChecked).toBe(true);
    expect(events[0]?.event).toBe('started');
    expect(events.at(-1)).toEqual({ event: 'done' });
    const text = events.map((e) => (e.event === 'chunk' ? e.content : '')).join('');
    expect(text.length).toBeGreaterThan(20);

    // The conversation as the client reloads it: `id` and `qa_pair_id` both, the answer complete.
    const pairs = (await (await b.get(`/chats/${chat.id}?limit=20&offset=0`)).json()) as Page<QaPair>;
    expect(pairs.total_items).toBe(1);
    const pair = pairs.items[0] as QaPair;
    expect(pair.id).toBe(pair.qa_pair_id);
    expect(pair.answer).toMatchObject({ status: 'complete', content: text });

    // Rename, then delete; the deleted chat is gone.
    const renamed = await b.json('PUT', `/chats/${chat.id}/title`, { new_title: 'api #42 failure' });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as Chat).title).toBe('api #42 failure');
    const deleted = await b.del(`/chats/${chat.id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ message: `Chat ${chat.id} deleted.` });
    expect((await b.get(`/chats/${chat.id}`)).status).toBe(404);
    expect(((await (await b.get('/chats/?limit=20&offset=0')).json()) as Page<Chat>).total_items).toBe(2);
  });
});

describe('the OpenAPI document', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(dialects[0] as (typeof dialects)[number]);
  });
  afterAll(() => stopStack(stack));

  test('the routes validate with the protocol schemas the document is generated from', () => {
    expect(createChatBody).toBe(createChatBodySchema);
    expect(renameChatBody).toBe(renameChatBodySchema);
    expect(sendBody).toBe(sendMessageBodySchema);
    expect(editBody).toBe(editMessageBodySchema);
    expect(uploadContextBody).toBe(uploadContextBodySchema);
  });

  test('GET /chatbot-api/openapi.json is OpenAPI 3.1 with every path the browser client uses', async () => {
    const res = await fetch(`${stack.controller.url}/chatbot-api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> }; parameters?: { name: string; required: boolean }[] }>>;
      components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/chats/', '/chats/{chat_id}', '/chats/{chat_id}/title', '/messages/send', '/messages/{qa_pair_id}/retry', '/messages/{qa_pair_id}/edit', '/context/{chat_id}/', '/context/{chat_id}/last-upload', '/workspaceTree', '/workspaceFile', '/healthz', '/failures', '/failures/{chat_id}/read']) {
      expect([p, doc.paths[p] !== undefined]).toEqual([p, true]);
    }
    const schemas = doc.components.schemas;
    expect(doc.paths['/messages/send']?.post?.requestBody?.content['application/json']?.schema.$ref).toBe('#/components/schemas/SendMessageBody');
    expect(schemas.SendMessageBody?.required).toEqual(['chat_id', 'content']);
    expect(schemas.SendMessageBody?.properties?.content).toMatchObject({ type: 'string', minLength: 1, maxLength: 20000 });
    expect(schemas.RenameChatBody?.required).toEqual(['new_title']);
    // CiContext: canonical names and aliases, activePlugins as a map or an array.
    const ci = schemas.CiContext?.properties ?? {};
    for (const field of ['currentScreen', 'ciVersion', 'jenkinsVersion', 'activePlugins', 'plugins', 'masterNode', 'agentStats', 'jobDetails', 'buildDetails', 'ciEnvironment', 'contextParsingError']) {
      expect([field, field in ci]).toEqual([field, true]);
    }
    expect(JSON.stringify(ci.activePlugins)).toMatch(/"type":"object"[\s\S]*"type":"array"/);
    expect(JSON.stringify(schemas.ContextRequest)).toContain('#/components/schemas/CiContext');
    // Caller-sent workspace snippets: one schema for the context request and the CiContext.
    expect(JSON.stringify(schemas.ContextRequest?.properties?.workspaceSnippets)).toContain('#/components/schemas/WorkspaceSnippet');
    expect(JSON.stringify(ci.workspaceSnippets)).toContain('#/components/schemas/WorkspaceSnippet');
    expect(JSON.stringify(schemas.ContextRequest?.properties?.workspaceSnippets)).toContain('"maxItems":20');
    expect(schemas.WorkspaceSnippet?.required).toEqual(['path', 'workspaceId', 'startLine', 'endLine', 'text']);
    expect(schemas.WorkspaceSnippet?.properties?.text).toMatchObject({ type: 'string', maxLength: 20000 });
    // The watcher's routes: the list with its limit, and marking read.
    expect(doc.paths['/failures']?.get?.parameters?.map((p) => [p.name, p.required])).toEqual([['limit', false]]);
    expect(JSON.stringify(doc.paths['/failures']?.get)).toContain('#/components/schemas/FailuresPage');
    expect(schemas.WatchedFailure?.required).toEqual(expect.arrayContaining(['job', 'build', 'chat_id', 'unread', 'detected_at']));
    expect(doc.paths['/failures/{chat_id}/read']?.post).toBeDefined();
    const tree = doc.paths['/workspaceTree']?.get?.parameters ?? [];
    expect(tree.map((p) => [p.name, p.required])).toEqual([['jobName', true], ['buildNumber', true], ['depth', false]]);
  });
});

describe('opt-in CORS (CONTROLLER_CORS_ORIGINS)', () => {
  const ORIGIN = 'http://localhost:3000';
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(dialects[0] as (typeof dialects)[number], { CONTROLLER_CORS_ORIGINS: `${ORIGIN}, https://ci.example.com` });
  });
  afterAll(() => stopStack(stack));

  test('a preflight from an allowed origin is answered: that origin, credentials, never *', async () => {
    const res = await fetch(`${stack.controller.url}/chatbot-api/messages/send`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  test('answers to an allowed origin carry its CORS headers, proxied, injected and local alike', async () => {
    const headers = { origin: ORIGIN, 'content-type': 'application/json' };
    const list = await fetch(`${stack.controller.url}/chatbot-api/chats/`, { headers });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(list.headers.get('access-control-expose-headers')).toBe('X-Request-Id');
    const chat = (await (await fetch(`${stack.controller.url}/chatbot-api/chats/`, { method: 'POST', headers, body: '{}' })).json()) as Chat;
    const upload = await fetch(`${stack.controller.url}/chatbot-api/context/${chat.id}/`, { method: 'POST', headers: { ...headers, referer: PAGE }, body: '{}' });
    expect(upload.status).toBe(200);
    expect(upload.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const doc = await fetch(`${stack.controller.url}/chatbot-api/openapi.json`, { headers });
    expect(doc.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  test('another origin gets no CORS header, and its preflight is 403', async () => {
    const other = 'https://evil.example.net';
    const res = await fetch(`${stack.controller.url}/chatbot-api/chats/`, { headers: { origin: other } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${stack.controller.url}/chatbot-api/chats/`, { method: 'OPTIONS', headers: { origin: other, 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await pre.json()) as { detail: string }).detail).toMatch(/CONTROLLER_CORS_ORIGINS/);
  });

  test('without CONTROLLER_CORS_ORIGINS nothing gets CORS headers', async () => {
    const plain = await startStack(dialects[0] as (typeof dialects)[number]);
    try {
      const res = await fetch(`${plain.controller.url}/chatbot-api/chats/`, { headers: { origin: ORIGIN } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await stopStack(plain);
    }
  });

  test('the variable takes exact origins only: no wildcard, no path', () => {
    expect(parseCorsOrigins('https://CI.example.com:443, http://localhost:3000').origins).toEqual(['https://ci.example.com', 'http://localhost:3000']);
    expect(parseCorsOrigins('*').problems[0]).toMatch(/wildcards are not accepted/);
    expect(parseCorsOrigins('https://*.example.com').problems).toHaveLength(1);
    expect(parseCorsOrigins('https://ci.example.com/jenkins').problems[0]).toMatch(/origin only/);
    expect(parseCorsOrigins('ftp://x').problems[0]).toMatch(/http:\/\/ or https:\/\//);
    const bad = loadControllerConfig({ CONTROLLER_CORS_ORIGINS: '*', JWT_SECRET: SECRET, JENKINS_HOME: path.resolve('seeds/jenkins-home') });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems.some((p) => p.startsWith('CONTROLLER_CORS_ORIGINS: *: wildcards'))).toBe(true);
  });
});
