/**
 * Issue 24, points 1 and 3, over real sockets against a real backend and a real controller
 * started in front of it: no socket error (a client's TCP reset on a CONNECT, an upgrade, a
 * malformed request, a stream) reaches the process, and both servers close what they refused
 * or what sits idle (header, request, keep-alive and idle bounds shortened here), while an
 * answer stream that is silent longer than every bound, and an upload that drips in for longer
 * than the idle bound, are served whole.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import { LINGER_MS, type ServerTimeouts } from '../http/server.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { scriptedEngine } from './helpers/engines.js';

const HOME = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'jenkins-homes', 'samples');
const SECRET = randomBytes(32).toString('hex');
/** Short bounds, so the closes are seen within a test; the production values are in http/server.ts. */
const TIMEOUTS: ServerTimeouts = { headersMs: 1000, requestMs: 4000, keepAliveMs: 1000, idleMs: 1000 };
/** The silent pause of the scripted answer: longer than the idle and header bounds. */
const SILENCE_MS = 2200;

let dir: string;
let backend: TestBackend;
let controller: RunningController;
const uncaught: unknown[] = [];
const recordUncaught = (err: unknown): void => {
  uncaught.push(err);
};

beforeAll(async () => {
  process.on('uncaughtException', recordUncaught);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-hostile-sockets-'));
  backend = await startTestBackend(sqlite, {
    secret: SECRET,
    serverTimeouts: TIMEOUTS,
    // Two pieces each after a silence longer than the idle bound: the stream lasts longer than the request bound.
    deps: { engine: scriptedEngine({ pieces: () => ['Slow ', 'answer.'], delayMs: SILENCE_MS }), pingIntervalMs: 60_000 },
  });
  const loaded = loadControllerConfig({
    CONTROLLER_PORT: '0',
    DATA_DIR: path.join(dir, 'controller'),
    BACKEND_URL: backend.url,
    JWT_SECRET: SECRET,
    JENKINS_HOME: HOME,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  controller = await startController(loaded.config, { logger: pino({ level: 'silent' }), serverTimeouts: TIMEOUTS });
});

afterAll(async () => {
  await controller.close(0);
  await backend.close();
  process.off('uncaughtException', recordUncaught);
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Raw {
  socket: net.Socket;
  /** Everything received so far. */
  text(): string;
  /** Whether the server ended or reset the connection. */
  ended(): boolean;
  /** Resolves when the server ended the connection (or it was reset), with ms since connecting. */
  closed: Promise<number>;
}

/**
 * A raw TCP connection to `base` that writes `bytes` (if any) once connected. Like a hostile
 * client it never closes its side by itself, not even when the server has closed its own.
 */
async function connect(base: string, bytes?: string): Promise<Raw> {
  const { port, hostname } = new URL(base);
  const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  const start = Date.now();
  let ended = false;
  const closed = new Promise<number>((resolve) => {
    socket.once('end', () => (ended = true));
    socket.once('close', () => (ended = true));
    socket.once('end', () => resolve(Date.now() - start));
    socket.once('close', () => resolve(Date.now() - start));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (bytes !== undefined) socket.write(bytes);
  return { socket, text: () => Buffer.concat(chunks).toString('latin1'), ended: () => ended, closed };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(what: string, check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The server's open connections. */
function connections(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

/** Waits (up to the keep-alive bound and a second) until the server holds no connection. */
async function noConnections(server: http.Server): Promise<void> {
  const end = Date.now() + TIMEOUTS.keepAliveMs + 2000;
  let open = await connections(server);
  while (open > 0 && Date.now() < end) {
    await sleep(50);
    open = await connections(server);
  }
  expect(open).toBe(0);
}

async function healthy(base: string): Promise<void> {
  const res = await fetch(`${base}/healthz`);
  expect(res.status).toBe(200);
}

const servers = (): Array<{ name: string; base: string; api: string; server: http.Server }> => [
  { name: 'controller', base: controller.url, api: `${controller.url}/chatbot-api`, server: controller.server },
  { name: 'backend', base: backend.url, api: backend.url, server: backend.server },
];

const HOST = 'Host: 127.0.0.1\r\n';
const HOSTILE: Array<{ name: string; bytes: string; waitForAnswer: boolean }> = [
  { name: 'CONNECT, reset before the answer', bytes: `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, waitForAnswer: false },
  { name: 'CONNECT, reset after the answer', bytes: `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, waitForAnswer: true },
  { name: 'CONNECT with bytes after it', bytes: `CONNECT 127.0.0.1:22 HTTP/1.1\r\n${HOST}\r\nSSH-2.0-x\r\n`, waitForAnswer: false },
  { name: 'websocket upgrade', bytes: `GET /chatbot-api/chats/ HTTP/1.1\r\n${HOST}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`, waitForAnswer: false },
  { name: 'h2c upgrade', bytes: `GET /healthz HTTP/1.1\r\n${HOST}Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n`, waitForAnswer: true },
  { name: 'not HTTP', bytes: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n', waitForAnswer: true },
  { name: 'unknown method', bytes: `BREW /pot HTTP/1.1\r\n${HOST}\r\n`, waitForAnswer: true },
  { name: 'headers too large', bytes: `GET / HTTP/1.1\r\n${HOST}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, waitForAnswer: true },
  { name: 'half the headers', bytes: `GET /chatbot-api/chats/ HTTP/1.1\r\n${HOST}X-Half: `, waitForAnswer: false },
  { name: 'half a body', bytes: `POST /chatbot-api/chats/ HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":`, waitForAnswer: false },
  { name: 'pipelined requests', bytes: `GET /healthz HTTP/1.1\r\n${HOST}\r\n`.repeat(50), waitForAnswer: false },
];

describe('no socket error reaches the process (issue 24 point 1)', () => {
  for (const which of ['controller', 'backend'] as const) {
    it(`the ${which} survives a TCP reset after every hostile opening and keeps serving`, async () => {
      const target = servers().find((s) => s.name === which)!;
      for (const hostile of HOSTILE) {
        const raw = await connect(target.base, hostile.bytes);
        if (hostile.waitForAnswer) await until(`an answer to "${hostile.name}"`, () => raw.text().length > 0 || raw.ended());
        else await sleep(20);
        raw.socket.resetAndDestroy();
        await raw.closed;
        await sleep(30);
        expect([hostile.name, uncaught]).toEqual([hostile.name, []]);
      }
      // A reset while the server writes an answer stream, and one while it reads a body.
      // In CONTROLLER_AUTH=none every caller of the controller is `local`.
      const chat = (await (await backend.request('local', 'POST', '/chats/', { title: 'reset' })).json()) as { id: number };
      const body = JSON.stringify({ chat_id: chat.id, content: 'why?' });
      const auth = which === 'backend' ? `Authorization: Bearer ${await backend.token('local')}\r\n` : '';
      const streaming = await connect(
        target.base,
        `POST ${which === 'backend' ? '' : '/chatbot-api'}/messages/send HTTP/1.1\r\n${HOST}${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      await until('the stream headers', () => streaming.text().includes('text/event-stream'));
      streaming.socket.resetAndDestroy();
      const uploading = await connect(
        target.base,
        `POST ${which === 'backend' ? '' : '/chatbot-api'}/context/${chat.id} HTTP/1.1\r\n${HOST}${auth}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"consoleLog":"${'x'.repeat(100_000)}`,
      );
      await sleep(100);
      uploading.socket.resetAndDestroy();
      await sleep(200);
      expect(uncaught).toEqual([]);
      await healthy(target.api);
    });
  }
});

describe('refused and idle connections are closed (issue 24 point 3)', () => {
  for (const which of ['controller', 'backend'] as const) {
    it(`the ${which} closes the connection after each error answer, without the client closing`, async () => {
      const target = servers().find((s) => s.name === which)!;
      const answered = HOSTILE.filter((h) => h.waitForAnswer && !h.name.startsWith('CONNECT, reset') && h.name !== 'h2c upgrade');
      for (const hostile of [...answered, HOSTILE[0]!]) {
        const raw = await connect(target.base, hostile.bytes);
        const ms = await raw.closed;
        // Closed by the server within the linger (the client never closes): an answer, then the end.
        expect([hostile.name, ms < LINGER_MS + 1000]).toEqual([hostile.name, true]);
        if (which === 'controller') expect([hostile.name, raw.text()]).toEqual([hostile.name, expect.stringMatching(/^HTTP\/1\.1 (400|431|501) .*"detail":/s)]);
      }
      await noConnections(target.server);
    });

    it(`the ${which} closes silent, half-sent, stalled and idle kept-alive connections within their bounds`, async () => {
      const target = servers().find((s) => s.name === which)!;
      const silent = await connect(target.base);
      const halfHeaders = await connect(target.base, `GET /healthz HTTP/1.1\r\n${HOST}X-Slow: `);
      const stalledBody = await connect(target.base, `POST ${which === 'backend' ? '' : '/chatbot-api'}/chats/ HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"ti`);
      const keptAlive = await connect(target.base, `GET ${which === 'backend' ? '' : '/chatbot-api'}/healthz HTTP/1.1\r\n${HOST}\r\n`);
      await until('the health answer', () => keptAlive.text().includes('"status"'));
      const [a, b, c, d] = await Promise.all([silent.closed, halfHeaders.closed, stalledBody.closed, keptAlive.closed]);
      // Idle and header bounds (1 s; headers checked every second), keep-alive bound (1 s, Node adds up to 1 s).
      for (const [name, ms] of [['silent', a], ['half headers', b], ['stalled body', c], ['kept alive', d]] as const) {
        expect([name, ms < 3500]).toEqual([name, true]);
      }
      await noConnections(target.server);
    });
  }

  it('an answer stream silent for longer than the idle, header and request bounds is relayed whole', async () => {
    const chat = (await (await fetch(`${controller.url}/chatbot-api/chats/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"slow"}' })).json()) as { id: number };
    const started = Date.now();
    const res = await fetch(`${controller.url}/chatbot-api/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat.id, content: 'why did it fail?' }),
    });
    const text = await res.text();
    expect(Date.now() - started).toBeGreaterThan(TIMEOUTS.requestMs);
    expect(text).toContain('Slow ');
    expect(text).toContain('answer.');
    expect(text).toContain('{"event":"done"}');
  });

  it('an upload that drips in for longer than the idle bound (each pause shorter) is served', async () => {
    const chat = (await (await fetch(`${controller.url}/chatbot-api/chats/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"drip"}' })).json()) as { id: number };
    const log = Array.from({ length: 2000 }, (_, i) => `line ${i}: compiling module ${i}`).join('\n');
    const body = Buffer.from(JSON.stringify({ consoleLog: log }));
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${controller.url}/chatbot-api/context/${chat.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        agent: false,
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const parts = 6;
      const size = Math.ceil(body.length / parts);
      let i = 0;
      const next = (): void => {
        req.write(body.subarray(i * size, (i + 1) * size));
        i++;
        if (i < parts) setTimeout(next, TIMEOUTS.idleMs * 0.5);
        else req.end();
      };
      next();
    });
    expect(status).toBe(200);
  });
  /** Sends `body` to `path` in `parts` pieces `pauseMs` apart; the answer's status (0: the connection was closed without one). */
  const drip = (path: string, body: Buffer, type: string, parts: number, pauseMs: number) =>
    new Promise<number>((resolve) => {
      const req = http.request(`${controller.url}${path}`, { method: 'POST', headers: { 'content-type': type, 'content-length': body.length }, agent: false });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      const size = Math.ceil(body.length / parts);
      let i = 0;
      const next = (): void => {
        if (req.destroyed) return;
        req.write(body.subarray(i * size, (i + 1) * size));
        i++;
        if (i < parts) setTimeout(next, pauseMs);
        else req.end();
      };
      next();
    });

  it('a raw log upload (POST /context/{id}/log) may take longer than the whole-request bound; a JSON one may not (issue 28)', async () => {
    const chat = (await (await fetch(`${controller.url}/chatbot-api/chats/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"long"}' })).json()) as { id: number };
    const log = Array.from({ length: 2000 }, (_, i) => `line ${i}: compiling module ${i}`).join('\n');
    // 12 pieces 0.5 s apart: about 6 s, past the 4 s request bound, each pause within the 1 s idle bound.
    const [raw, json] = await Promise.all([
      drip(`/chatbot-api/context/${chat.id}/log`, Buffer.from(log), 'text/plain', 12, TIMEOUTS.idleMs * 0.5),
      drip(`/chatbot-api/chats/`, Buffer.from(JSON.stringify({ title: 'x'.repeat(100) })), 'application/json', 12, TIMEOUTS.idleMs * 0.5),
    ]);
    expect(raw).toBe(200);
    expect(json).toBe(408);
  });
});
