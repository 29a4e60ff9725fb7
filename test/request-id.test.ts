/**
 * X-Request-Id across the controller (both its fast path and its Koa path) to a backend: taken
 * from the caller or made, forwarded, returned, and on the controller's access-log line.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';

const seen: Array<string | undefined> = [];
let backend: http.Server;
let controller: RunningController;
let tmp: string;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  backend = http.createServer((req, res) => {
    seen.push(req.headers['x-request-id'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': String(req.headers['x-request-id']) });
    res.end(req.url?.startsWith('/healthz') ? '{"status":"ok"}' : '{"items":[],"total_items":0,"limit":20,"offset":0}');
  });
  backend.listen(0, '127.0.0.1');
  await new Promise((r) => backend.once('listening', r));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-reqid-'));
  const loaded = loadControllerConfig({
    CONTROLLER_PORT: '0',
    DATA_DIR: tmp,
    BACKEND_URL: `http://127.0.0.1:${(backend.address() as AddressInfo).port}`,
    JENKINS_HOME: path.resolve('seeds/jenkins-home'),
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  controller = await startController(loaded.config, { logger: pino({ level: 'info' }, sink) });
});
afterAll(async () => {
  await controller.close(0);
  await new Promise<void>((r) => backend.close(() => r()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

test.each([
  ['the fast path', '/chatbot-api/chats/'],
  ['the Koa path', '/chatbot-api/healthz'],
])('%s forwards the caller\'s id and returns it', async (_name, p) => {
  seen.length = 0;
  const res = await fetch(`${controller.url}${p}`, { headers: { 'X-Request-Id': 'trace-7f3a' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-request-id')).toBe('trace-7f3a');
  expect(seen).toEqual(['trace-7f3a']);
  await new Promise((r) => setTimeout(r, 20));
  expect(lines.some((l) => l.msg === 'request' && l.reqId === 'trace-7f3a' && l.status === 200)).toBe(true);
});

test('without one the controller makes an id, sends it to the backend and returns the same', async () => {
  seen.length = 0;
  const res = await fetch(`${controller.url}/chatbot-api/chats/`);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(seen).toEqual([id]);
});
