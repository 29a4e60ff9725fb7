/**
 * Logs you can follow (issue 31): every line a request causes carries its request id, including
 * the lines of the answer job (which outlives the handler), the context service and the
 * controller's proxy; errors are logged as objects with their stack. Requests are sent one at a
 * time, so every line written while one runs is that request's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { createEngine } from '../backend/answer/index.js';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import type { Chat } from '../protocol/types.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fakes/openaiServer.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { collectEvents } from './helpers/sse.js';

type Line = Record<string, unknown> & { msg?: string; reqId?: string; err?: { stack?: string; message?: string } };

/** A pino logger whose JSON lines are kept in `lines`. */
function capturingLogger(): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Line);
      done();
    },
  });
  return { log: pino({ level: 'info', serializers: { err: pino.stdSerializers.err } }, sink), lines };
}

/** The lines written while `act` runs (and a turn after, for the access line). */
async function linesOf(lines: Line[], act: () => Promise<void>): Promise<Line[]> {
  const from = lines.length;
  await act();
  await new Promise((r) => setTimeout(r, 50));
  return lines.slice(from);
}

describe('the backend', () => {
  let model: FakeOpenAIServer;
  let backend: TestBackend;
  const { log, lines } = capturingLogger();
  const user = 'log-reader';
  let chat: Chat;

  beforeAll(async () => {
    model = await startFakeOpenAIServer();
    const engine = await createEngine({ provider: 'openai', typingDelayMs: 0, openaiBaseUrl: model.baseURL, llmModel: 'fake-model', llmContextTokens: 8000, log });
    backend = await startTestBackend(sqlite, { deps: { engine, log } });
    chat = (await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  });
  afterAll(async () => {
    await backend?.close();
    await model?.close();
  });

  test('a context upload: the context service and the access line carry the id', async () => {
    const got = await linesOf(lines, async () => {
      const ciContext = { buildDetails: { number: 3, result: 'FAILURE', consoleLog: 'step 1\nERROR: disk full\n' } };
      const res = await backend.request(user, 'POST', `/context/${chat.id}/`, { ciContext }, { 'x-request-id': 'upload-4b1e' });
      expect(res.status).toBe(200);
    });
    expect(got.map((l) => l.msg)).toEqual(expect.arrayContaining(['context uploaded', 'request']));
    expect(got.map((l) => [l.msg, l.reqId])).toEqual(got.map((l) => [l.msg, 'upload-4b1e']));
  });

  test('an answer whose engine fails: the job\'s lines, after the handler returned, carry the id; the error has its stack', async () => {
    model.setReplies([{ kind: 'status', status: 400, body: { error: { message: 'model not loaded' } } }]);
    const got = await linesOf(lines, async () => {
      const res = await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'why?' }, { 'x-request-id': 'answer-9c2d' });
      expect((await collectEvents(res)).at(-1)).toMatchObject({ event: 'error' });
    });
    const failed = got.find((l) => l.msg === 'answer engine failed');
    expect(failed?.err?.stack).toMatch(/model not loaded[\s\S]*\n\s+at /);
    expect(got.map((l) => [l.msg, l.reqId])).toEqual(got.map((l) => [l.msg, 'answer-9c2d']));
  });

  test("a 429 with Retry-After: the model client's own retry waits, is logged with the request id, and the answer completes", async () => {
    model.setReplies([
      { kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } },
      { kind: 'stream', chunks: ['after ', 'the wait'] },
    ]);
    const before = model.requests.length;
    const got = await linesOf(lines, async () => {
      const res = await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'and now?' }, { 'x-request-id': 'retry-3e8f' });
      const events = await collectEvents(res);
      expect(events.at(-1)).toEqual({ event: 'done' });
    });
    const [first, second] = model.requests.slice(before);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(got.find((l) => l.msg === 'model server retry')).toMatchObject({ notice: { attempt: 1, delayMs: 1000, status: 429 } });
    expect(got.map((l) => [l.msg, l.reqId])).toEqual(got.map((l) => [l.msg, 'retry-3e8f']));
  });

  test('lines outside any request carry no request id', async () => {
    const got = await linesOf(lines, async () => {
      log.info('outside');
    });
    expect(got).toEqual([expect.objectContaining({ msg: 'outside' })]);
    expect(got[0]?.reqId).toBeUndefined();
  });
});

describe('the controller', () => {
  let controller: RunningController;
  let tmp: string;
  const { log, lines } = capturingLogger();

  beforeAll(async () => {
    // A port nobody listens on: the proxy's "backend unreachable" line.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-reqlog-'));
    const loaded = loadControllerConfig({
      CONTROLLER_PORT: '0',
      DATA_DIR: tmp,
      BACKEND_URL: `http://127.0.0.1:${port}`,
      JENKINS_HOME: path.resolve('seeds/jenkins-home'),
    });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    controller = await startController(loaded.config, { logger: log });
  });
  afterAll(async () => {
    await controller?.close(0);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test.each([
    ['the fast path', '/chatbot-api/chats/', 'fast-51aa'],
    ['the Koa path', '/chatbot-api/healthz', 'koa-77b0'],
  ])('%s: the unreachable backend is logged with the request\'s id and the error\'s stack', async (_name, p, id) => {
    const got = await linesOf(lines, async () => {
      const res = await fetch(`${controller.url}${p}`, { headers: { 'x-request-id': id } });
      expect(res.status).toBe(502);
    });
    const unreachable = got.find((l) => l.msg === 'backend unreachable');
    expect(unreachable?.err?.stack).toMatch(/ECONNREFUSED[\s\S]*\n\s+at /);
    expect(got.map((l) => l.msg)).toContain('request');
    expect(got.map((l) => [l.msg, l.reqId])).toEqual(got.map((l) => [l.msg, id]));
  });
});
