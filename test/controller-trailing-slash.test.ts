/**
 * "Every path is served with and without a trailing slash" (CONTRACT section 2) for the
 * controller's own routes, each declared once, without the slash (@koa/router matches both
 * unless told to be strict; issue 31 point 4: no `['/x', '/x/']` pairs). Each route is called both
 * ways with an input it refuses (or answers) itself: the same status and body, and never relayed
 * to the backend by the catch-all route (which would forward it with the caller's token).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RunningController } from '../controller/app.js';
import { startTestController } from './helpers/inProcessStack.js';
import { REPO_ROOT, sourceFiles } from './helpers/sourceFiles.js';

let backend: http.Server;
let controller: RunningController;
let tmp: string;
/** What the stand-in backend was asked: path, and whether a caller's token came with it. */
const received: { url: string; token: boolean }[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-slash-'));
  fs.mkdirSync(path.join(tmp, 'home', 'jobs'), { recursive: true });
  backend = http.createServer((req, res) => {
    received.push({ url: req.url ?? '', token: req.headers.authorization !== undefined });
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ token: req.headers.authorization !== undefined }));
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  controller = await startTestController({
    JWT_SECRET: 's'.repeat(40),
    DATA_DIR: path.join(tmp, 'data'),
    JENKINS_HOME: path.join(tmp, 'home'),
    BACKEND_URL: `http://127.0.0.1:${(backend.address() as AddressInfo).port}`,
    CONTROLLER_USER: 'carol',
    LOG_LEVEL: 'silent',
  });
});
afterAll(async () => {
  await controller?.close(0);
  await new Promise((resolve) => backend?.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function call(method: string, route: string, query = ''): Promise<string> {
  const res = await fetch(`${controller.url}/chatbot-api${route}${query}`, { method, ...(method === 'POST' ? { body: 'x', headers: { 'content-type': 'text/plain' } } : {}) });
  return `${res.status} ${await res.text()}`;
}

test.each([
  ['GET', '/healthz', ''],
  ['GET', '/openapi.json', ''],
  ['POST', '/context/1/log', '?buildNumber=abc'],
  ['GET', '/workspaceTree', ''],
  ['GET', '/workspaceFile', ''],
  ['GET', '/history', ''],
  ['GET', '/failures', ''],
  ['POST', '/failures/1/read', ''],
])('%s %s answers the same with and without the trailing slash, by its own route', async (method, route, query) => {
  received.length = 0;
  const plain = await call(method, route, query);
  const slashed = await call(method, `${route}/`, query);
  expect(slashed).toBe(plain);
  // Only the health check goes to the backend, and without a caller's token (it is not the relay).
  expect(received.filter((r) => r.token)).toEqual([]);
  if (route !== '/healthz') expect(received).toEqual([]);
});

test('no route of the controller or the backend is declared a second time with the slash', () => {
  const sources = sourceFiles(['controller', 'backend'], { tests: false });
  expect(sources.length).toBeGreaterThan(50);
  const pairs = sources.filter((f) => /router\.\w+\(\s*\[[^\]]*\/['`]\s*\]/.test(fs.readFileSync(path.join(REPO_ROOT, f), 'utf8')));
  expect(pairs).toEqual([]);
});
