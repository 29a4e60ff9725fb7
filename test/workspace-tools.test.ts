/**
 * The openai engine's workspace tools (issue 17) against a local OpenAI-protocol server that
 * issues tool calls, executed by the real controller over the snippet fixture home: a file read
 * within the limits, a path outside the workspace refused while the answer goes on, the call
 * limit, search_log, and the controller's own checks of the tool token.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createOpenAIEngine } from '../backend/answer/openai.js';
import type { ToolSettings } from '../backend/answer/tools.js';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import { signToolToken, TOOLS_PATH } from '../protocol/toolToken.js';
import type { CiContext } from '../protocol/types.js';
import { analyzedChatContext } from './answerFixtures.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fakes/openaiServer.js';
import { makeSnippetHome, type SnippetHome } from './fixtures/snippet-home/build.js';
import { signToken, startTestBackend } from './helpers/backend.js';
import { testDialects } from './helpers/databases.js';
import { collectEvents, textOf } from './helpers/sse.js';
import type { Chat, Page, QaPair } from '../protocol/types.js';
import { readAll } from './helpers/askLocal.js';

const SECRET = randomBytes(32).toString('hex');
const dialects = await testDialects();
let fixture: SnippetHome;
let controller: RunningController;
let model: FakeOpenAIServer;
let tmp: string;

beforeAll(async () => {
  fixture = await makeSnippetHome();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-tools-'));
  const config = loadControllerConfig({
    CONTROLLER_PORT: '0',
    DATA_DIR: path.join(tmp, 'data'),
    BACKEND_URL: 'http://127.0.0.1:9',
    JWT_SECRET: SECRET,
    JENKINS_HOME: fixture.home,
    JENKINS_PATH_MAP: fixture.pathMapSpec,
    LOG_LEVEL: 'silent',
  });
  if (!config.ok) throw new Error(config.problems.join('\n'));
  controller = await startController(config.config, { logger: pino({ level: 'silent' }) });
  model = await startFakeOpenAIServer();
});
afterAll(async () => {
  await model.close();
  await controller.close(0);
  await fixture.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  model.requests.length = 0;
});

function engine(tools: Partial<ToolSettings> = {}) {
  return createOpenAIEngine({
    apiKey: 'sk-test',
    baseURL: model.baseURL,
    model: 'fake-model',
    contextTokens: 8000,
    tools: { controllerUrl: controller.url, jwtSecret: SECRET, maxCalls: 4, tokenBudget: 3000, ...tools },
  });
}

function shopContext() {
  const log = fs.readFileSync(path.join(fixture.home, 'jobs', 'shop', 'builds', '1', 'log'), 'utf8');
  const ci: CiContext = { jobDetails: { fullName: 'shop' }, buildDetails: { number: 1, result: 'FAILURE' } };
  return analyzedChatContext(ci, log);
}


const toolMessages = (n: number) => (model.requests[n]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('tool calls executed by the controller', () => {
  test('reads a line range of a workspace file; a path outside is refused and the answer goes on', async () => {
    model.setReplies([
      { kind: 'toolCalls', calls: [{ name: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/File.java', startLine: 40, endLine: 44 } }] },
      {
        kind: 'toolCalls',
        calls: [
          { name: 'read_workspace_file', arguments: { path: '../../secrets/master.java' } },
          { name: 'read_workspace_file', arguments: { path: '/etc/passwd' } },
          { name: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/Escape.java' } },
        ],
      },
      { kind: 'stream', chunks: ['`totl` at ', 'File.java:42 should be `total`.'] },
    ]);
    const stream = await engine().answer({ question: 'how do I fix it?', history: [], context: shopContext(), signal: new AbortController().signal, userId: 'erin', chatId: 3 });
    expect(await readAll(stream)).toBe('`totl` at File.java:42 should be `total`.');
    expect(model.requests).toHaveLength(3);
    const offered = (model.requests[0]?.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toEqual(['list_workspace', 'read_workspace_file', 'search_log']);
    expect(String(model.requests[0]?.body.messages?.[0]?.content)).toContain('at most 4 calls');

    const [read] = toolMessages(1);
    expect(read).toContain('src/main/java/com/acme/File.java lines 40-44 of 60 (workspace ws-default)');
    expect(read).toContain('42|         return totl;');
    expect(read).toContain('40|         String password = "****";');
    expect(read).not.toContain(fixture.secretValue);

    const refused = toolMessages(2).slice(1);
    expect(refused).toHaveLength(3);
    for (const text of refused) expect(text).toMatch(/^Refused: Path traversal refused/);
    expect(JSON.stringify(model.requests.map((r) => r.body))).not.toContain(fixture.marker);

    expect(stream.sources).toContainEqual({ kind: 'file', path: 'src/main/java/com/acme/File.java', start_line: 40, end_line: 44 });
    const calls = stream.sources.filter((s) => s.kind === 'tool');
    expect(calls).toEqual([
      { kind: 'tool', name: 'read_workspace_file', input: '{"path":"src/main/java/com/acme/File.java","startLine":40,"endLine":44}', ok: true },
      { kind: 'tool', name: 'read_workspace_file', input: '{"path":"../../secrets/master.java"}', ok: false },
      { kind: 'tool', name: 'read_workspace_file', input: '{"path":"/etc/passwd"}', ok: false },
      { kind: 'tool', name: 'read_workspace_file', input: '{"path":"src/main/java/com/acme/Escape.java"}', ok: false },
    ]);
  });

  test('list_workspace and search_log; after the call limit no tools are offered and further calls are refused', async () => {
    model.setReplies([
      { kind: 'toolCalls', calls: [{ name: 'list_workspace', arguments: { path: 'src/main', depth: 4 } }] },
      { kind: 'toolCalls', calls: [{ name: 'search_log', arguments: { text: 'cannot find symbol' } }] },
      { kind: 'toolCalls', calls: [{ name: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/File.java' } }] },
      { kind: 'stream', chunks: ['done'] },
    ]);
    const stream = await engine({ maxCalls: 2 }).answer({ question: 'what is wrong?', history: [], context: shopContext(), signal: new AbortController().signal, userId: 'erin' });
    expect(await readAll(stream)).toBe('done');
    expect(model.requests).toHaveLength(4);
    const [listing] = toolMessages(1);
    expect(listing).toContain('workspace ws-default (node built-in):');
    expect(listing).toContain('src/main/java/com/acme/File.java (');
    const [search] = toolMessages(2).slice(1);
    expect(search).toBe('1 line contain "cannot find symbol":\nL9: [ERROR] /var/jenkins_home/workspace/shop/src/main/java/com/acme/File.java:[42,16] cannot find symbol');
    expect(model.requests[2]?.body.tools).toBeUndefined();
    expect(model.requests[3]?.body.tools).toBeUndefined();
    expect(toolMessages(3).at(-1)).toMatch(/^Refused: the tool-call limit/);
    expect(stream.sources.filter((s) => s.kind === 'tool').map((s) => (s.kind === 'tool' ? `${s.name}:${s.ok}` : ''))).toEqual(['list_workspace:true', 'search_log:true', 'read_workspace_file:false']);
    expect(stream.sources).toContainEqual({ kind: 'log', start_line: 9, end_line: 9 });
  });

  test('the token budget cuts a long read', async () => {
    model.setReplies([
      { kind: 'toolCalls', calls: [{ name: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/Huge.java', startLine: 1, endLine: 400 } }] },
      { kind: 'stream', chunks: ['ok'] },
    ]);
    const stream = await engine({ tokenBudget: 300 }).answer({ question: 'what is in Huge.java?', history: [], context: shopContext(), signal: new AbortController().signal, userId: 'erin' });
    await readAll(stream);
    const [read] = toolMessages(1);
    expect(read).toContain('[cut: the tool budget of this answer (300 tokens) is spent]');
    expect(read!.split('\n').length).toBeLessThan(60);
    // The budget is spent: the next request offers no tools.
    expect(model.requests[1]?.body.tools).toBeUndefined();
  });

  test('without a user or job the workspace tools are not offered', async () => {
    model.setReplies([{ kind: 'stream', chunks: ['plain'] }]);
    const noJob = analyzedChatContext({}, 'ERROR: boom\n');
    await readAll(await engine().answer({ question: 'why?', history: [], context: noJob, signal: new AbortController().signal, userId: 'erin' }));
    const offered = (model.requests[0]?.body.tools as { function: { name: string } }[] | undefined)?.map((t) => t.function.name);
    expect(offered).toEqual(['search_log']);
  });
});

describe('the controller checks the tool token', () => {
  const call = (token: string | undefined, body: unknown) =>
    fetch(`${controller.url}${TOOLS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const read = { tool: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/File.java', startLine: 42, endLine: 42 } };

  test('no token, a backend (caller) token, a wrong key, an expired token: 401 {detail}', async () => {
    for (const token of [
      undefined,
      await signToken(SECRET, 'erin'),
      await signToolToken('x'.repeat(40), { sub: 'erin', job: 'shop', build: 1 }),
      await signToolToken(SECRET, { sub: 'erin', job: 'shop', build: 1 }, 60, Date.now() - 10 * 60_000),
    ]) {
      const res = await call(token, read);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/workspace-tools token/);
    }
  });

  test("the token's job and build decide what is read; paths outside are 400, binaries 415", async () => {
    const token = await signToolToken(SECRET, { sub: 'erin', job: 'shop', build: 1 });
    const ok = await call(token, { ...read, jobName: 'web', buildNumber: 7 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ path: 'src/main/java/com/acme/File.java', workspaceId: 'ws-default', startLine: 42, endLine: 42, content: '42|         return totl;' });
    const web = await call(await signToolToken(SECRET, { sub: 'erin', job: 'web', build: 7 }), read);
    expect(web.status).toBe(404);
    const outside = await call(token, { tool: 'read_workspace_file', arguments: { path: '../secrets/master.java' } });
    expect(outside.status).toBe(400);
    expect(((await outside.json()) as { detail: string }).detail).toMatch(/Path traversal/);
    const binary = await call(token, { tool: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/Blob.java' } });
    expect(binary.status).toBe(415);
    const unknown = await call(token, { tool: 'rm', arguments: {} });
    expect(unknown.status).toBe(400);
  });
});

describe.each(dialects)('the whole way on $name: controller -> backend -> openai engine -> controller tools', (dialect) => {
  test("the pair's sources record the tool calls of the chat's user", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-tools-backend-'));
    // The controller's URL is known once it listens: the engine reads it through this holder.
    const holder: { url?: string } = {};
    const tools: ToolSettings = { controllerUrl: '', jwtSecret: SECRET, maxCalls: 3, tokenBudget: 3000 };
    Object.defineProperty(tools, 'controllerUrl', { get: () => holder.url ?? '' });
    const backend = await startTestBackend(dialect, {
      secret: SECRET,
      dataDir,
      deps: {
        engine: createOpenAIEngine({ apiKey: 'sk-test', baseURL: model.baseURL, model: 'fake-model', contextTokens: 8000, tools }),
      },
    });
    const config = loadControllerConfig({
      CONTROLLER_PORT: '0',
      DATA_DIR: path.join(dataDir, 'controller'),
      BACKEND_URL: backend.url,
      JWT_SECRET: SECRET,
      CONTROLLER_USER: 'frank',
      JENKINS_HOME: fixture.home,
      JENKINS_PATH_MAP: fixture.pathMapSpec,
      LOG_LEVEL: 'silent',
    });
    if (!config.ok) throw new Error(config.problems.join('\n'));
    const front = await startController(config.config, { logger: pino({ level: 'silent' }) });
    holder.url = front.url;
    try {
      const api = (p: string, init?: RequestInit) => fetch(`${front.url}/chatbot-api${p}`, { ...init, headers: { 'content-type': 'application/json' } });
      const chat = (await (await api('/chats/', { method: 'POST', body: '{}' })).json()) as Chat;
      expect((await api(`/context/${chat.id}/`, { method: 'POST', body: JSON.stringify({ jobName: 'shop', buildNumber: 1 }) })).status).toBe(200);
      model.setReplies([
        { kind: 'toolCalls', calls: [{ name: 'read_workspace_file', arguments: { path: 'src/main/java/com/acme/File.java', startLine: 8, endLine: 12 } }] },
        { kind: 'stream', chunks: ['Use `total` (File.java:10).'] },
      ]);
      const events = await collectEvents(await api('/messages/send', { method: 'POST', body: JSON.stringify({ chat_id: chat.id, content: 'how do I fix it?' }) }));
      expect(textOf(events)).toBe('Use `total` (File.java:10).');
      expect(toolMessages(1)[0]).toContain('10|     private int total;');
      // The snippets sent at upload are in the system prompt, the named line marked.
      const system = String(model.requests[0]?.body.messages?.[0]?.content);
      expect(system).toContain("## Source from the build's workspace");
      expect(system).toMatch(/^>42\| {9}return totl;$/m);
      expect(system).not.toContain(fixture.secretValue);
      const pair = ((await (await api(`/chats/${chat.id}`)).json()) as Page<QaPair>).items[0];
      expect(pair?.answer?.sources).toContainEqual({ kind: 'file', path: 'src/main/java/com/acme/File.java', start_line: 8, end_line: 12 });
      expect(pair?.answer?.sources).toContainEqual({ kind: 'tool', name: 'read_workspace_file', input: '{"path":"src/main/java/com/acme/File.java","startLine":8,"endLine":12}', ok: true });
    } finally {
      await front.close(0);
      await backend.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
