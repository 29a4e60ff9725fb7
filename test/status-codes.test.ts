/**
 * Issue 24, points 8 and 9, through a real controller in front of a real backend: a body over
 * the backend's limit comes back as the backend's 413 (never a 502 `write EPIPE`), an upload the
 * backend refuses comes back 503 with Retry-After (never 502), the controller's own cap on
 * uploads at once answers 503 with Retry-After, a file path longer than a file system can name
 * is 400 (never 500), and a full disk (SQLite's own SQLITE_FULL; ENOSPC from a write) is 503
 * saying so.
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
import { LocalEmbedder } from '../backend/retrieval/embed.js';
import type { Embedder } from '../backend/retrieval/embed.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';

const HOME = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'jenkins-homes', 'samples');
const SECRET = randomBytes(32).toString('hex');
const MiB = 1024 * 1024;

let dir: string;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request on a connection of its own; the body is sent in 64 KiB pieces (chunked when `chunked`). */
function send(url: string, method: string, body: Buffer | undefined, options: { chunked?: boolean; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', ...options.headers };
    if (body !== undefined && !options.chunked) headers['content-length'] = body.length;
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // After an early answer the rest of the body may meet a closed socket: the answer counts.
    req.on('error', reject);
    if (body === undefined) {
      req.end();
      return;
    }
    let at = 0;
    const pump = (): void => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 64 * 1024);
        at += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

function jsonOf(text: string): { detail?: string } {
  return JSON.parse(text) as { detail?: string };
}

function controllerConfig(backendUrl: string, env: Record<string, string> = {}) {
  const loaded = loadControllerConfig({
    CONTROLLER_PORT: '0',
    DATA_DIR: path.join(dir, 'controller'),
    BACKEND_URL: backendUrl,
    JWT_SECRET: SECRET,
    JENKINS_HOME: HOME,
    ...env,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.config;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-status-codes-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An embedder that holds every call until `release()`: uploads stay in progress as long as the test wants. */
function heldEmbedder(): Embedder & { release(): void; waiting(): number } {
  const inner = new LocalEmbedder();
  let open: Promise<void> | undefined;
  let release = (): void => undefined;
  let waiting = 0;
  const hold = (): Promise<void> => {
    open ??= new Promise<void>((resolve) => (release = resolve));
    return open;
  };
  const held = Object.create(inner) as Embedder & { release(): void; waiting(): number };
  held.embed = async (texts: string[]) => {
    waiting++;
    await hold();
    waiting--;
    return inner.embed(texts);
  };
  held.release = () => {
    hold();
    release();
  };
  held.waiting = () => waiting;
  return held;
}

describe('status codes through the controller (issue 24 point 9)', () => {
  let backend: TestBackend;
  let controller: RunningController;
  let api: string;
  let chatId: number;
  beforeAll(async () => {
    backend = await startTestBackend(sqlite, { secret: SECRET });
    controller = await startController(controllerConfig(backend.url), { logger: pino({ level: 'silent' }) });
    api = `${controller.url}/chatbot-api`;
    const created = await send(`${api}/chats/`, 'POST', Buffer.from('{"title":"limits"}'));
    chatId = (JSON.parse(created.text) as { id: number }).id;
  });
  afterAll(async () => {
    await controller.close(0);
    await backend.close();
  });

  it("a body over the backend's 1 MiB limit is the backend's 413, 30 times of 30, sized or chunked", async () => {
    const big = Buffer.from(JSON.stringify({ title: 'x', padding: 'y'.repeat(2 * MiB) }));
    const message = Buffer.from(JSON.stringify({ chat_id: chatId, content: 'z'.repeat(3 * MiB) }));
    const statuses: string[] = [];
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? send(`${api}/chats/`, 'POST', big)
          : i % 3 === 1
            ? send(`${api}/messages/send`, 'POST', message)
            : send(`${api}/chats/`, 'POST', big, { chunked: true }),
      ),
    );
    for (const reply of replies) statuses.push(`${reply.status} ${jsonOf(reply.text).detail ?? reply.text}`);
    expect(statuses).toEqual(Array.from({ length: 30 }, () => '413 The request body is over the 1 MiB limit.'));
    // And the controller still relays the next request.
    expect((await send(`${api}/chats/`, 'GET', undefined)).status).toBe(200);
  });

  it("a context body over the 64 MiB limit is 413 from the controller, whole or chunked", async () => {
    const huge = Buffer.alloc(64 * MiB + 1024, 0x20);
    huge.write('{"consoleLog":"', 0);
    for (const chunked of [false, true]) {
      const reply = await send(`${api}/context/${chatId}`, 'POST', huge, { chunked });
      expect([chunked, reply.status, jsonOf(reply.text).detail]).toEqual([chunked, 413, 'The request body is over the 64 MiB limit.']);
    }
  });

  it('a 5,000-character filePath is 400 naming the limit, as is one with a 300-byte name', async () => {
    for (const filePath of ['a'.repeat(5000), `src/${'b'.repeat(300)}.txt`, `${'dir/'.repeat(1100)}f`]) {
      const reply = await send(`${api}/workspaceFile?jobName=fs&buildNumber=1&workspaceId=ws-default&filePath=${encodeURIComponent(filePath)}`, 'GET', undefined);
      expect([filePath.length, reply.status]).toEqual([filePath.length, 400]);
      expect(reply.text).toMatch(/filePath is too long: at most 4096 bytes, each part between slashes at most 255/);
    }
  });
});

describe('uploads refused for load (issue 24 points 8 and 9)', () => {
  it("beyond the backend's cap its 503 with Retry-After is relayed, never a 502; beyond CONTROLLER_UPLOADS_MAX the controller answers 503 itself", async () => {
    const embedder = heldEmbedder();
    const dataDir = path.join(dir, 'backend-held');
    fs.mkdirSync(dataDir, { recursive: true });
    const backend = await startTestBackend(sqlite, { secret: SECRET, dataDir, context: { embedder, uploadsMax: 1 } });
    // Two controllers on the one backend: one lets two uploads through at once, one only one.
    const wide = await startController(controllerConfig(backend.url, { CONTROLLER_UPLOADS_MAX: '2' }), { logger: pino({ level: 'silent' }) });
    const narrow = await startController(controllerConfig(backend.url, { CONTROLLER_UPLOADS_MAX: '1' }), { logger: pino({ level: 'silent' }) });
    try {
      const chat = JSON.parse((await send(`${wide.url}/chatbot-api/chats/`, 'POST', Buffer.from('{"title":"uploads"}'))).text) as { id: number };
      // 24 MiB: a body the backend refuses long before it could have read it.
      const line = '[step] compiling a module with warnings\n';
      const body = Buffer.from(JSON.stringify({ consoleLog: line.repeat(Math.ceil((24 * MiB) / line.length)) }));
      // The first upload (through the narrow controller) takes the backend's only slot and is held in its ingestion.
      const first = send(`${narrow.url}/chatbot-api/context/${chat.id}`, 'POST', Buffer.from(JSON.stringify({ consoleLog: line.repeat(200) })));
      const deadline = Date.now() + 20_000;
      while (embedder.waiting() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(embedder.waiting()).toBeGreaterThan(0);
      // The wide controller has a slot free at a time: of eight sent at once, those it lets through
      // are refused by the backend and that 503 comes back; the others it refuses itself. Never a 502.
      const replies = await Promise.all(Array.from({ length: 8 }, () => send(`${wide.url}/chatbot-api/context/${chat.id}`, 'POST', body)));
      const seen = replies.map((r) => `${r.status} ${String(r.headers['retry-after'])} ${/CONTEXT_UPLOADS_MAX/.test(r.text) ? 'backend' : /CONTROLLER_UPLOADS_MAX/.test(r.text) ? 'controller' : r.text}`);
      expect(seen.filter((s) => s === '503 5 backend').length).toBeGreaterThan(0);
      expect(seen.filter((s) => s !== '503 5 backend' && s !== '503 5 controller')).toEqual([]);
      // The narrow controller's one slot is taken by the first: it refuses before reading the body.
      const refused = await send(`${narrow.url}/chatbot-api/context/${chat.id}`, 'POST', body);
      expect([refused.status, refused.headers['retry-after'], jsonOf(refused.text).detail]).toEqual([
        503,
        '5',
        'The controller is already handling 1 context upload (CONTROLLER_UPLOADS_MAX): retry in 5 s.',
      ]);
      // At the socket: the backend answers 503 at once, then reads and drops the rest of the
      // body without resetting the sender (a reset can reach the controller before the answer,
      // which then became a 502), and the connection serves the next request.
      const sender = net.connect({ port: Number(new URL(backend.url).port), host: '127.0.0.1' });
      let received = '';
      let failure: string | undefined;
      sender.on('data', (c: Buffer) => (received += c.toString('latin1')));
      sender.on('error', (err) => (failure = err.message));
      await new Promise<void>((resolve) => sender.once('connect', () => resolve()));
      const total = 4 * MiB;
      sender.write(`POST /context/${chat.id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await backend.token('local')}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`);
      const piece = Buffer.alloc(256 * 1024, 0x20);
      sender.write(piece);
      for (let waited = 0; !received.includes('\r\n\r\n') && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(received).toMatch(/^HTTP\/1\.1 503 /);
      for (let sent = piece.length; sent < total; sent += piece.length) {
        await new Promise((r) => setTimeout(r, 20));
        sender.write(piece.subarray(0, Math.min(piece.length, total - sent)));
      }
      received = '';
      sender.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      for (let waited = 0; !received.includes('"status"') && failure === undefined && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect([failure, received.split('\r\n')[0]]).toEqual([undefined, 'HTTP/1.1 200 OK']);
      sender.destroy();
      embedder.release();
      expect((await first).status).toBe(200);
      // The slot is free again once the first is answered.
      const again = await send(`${narrow.url}/chatbot-api/context/${chat.id}`, 'POST', Buffer.from('{"consoleLog":"ERROR: again\\n"}'));
      expect(again.status).toBe(200);
    } finally {
      embedder.release();
      await wide.close(0);
      await narrow.close(0);
      await backend.close();
    }
  });
});

describe('a full disk is 503 saying so (issue 24 point 9)', () => {
  it("SQLite's SQLITE_FULL (the database may grow no more) is 503 on the backend and through the controller", async () => {
    const backend = await startTestBackend(sqlite, { secret: SECRET });
    const controller = await startController(controllerConfig(backend.url), { logger: pino({ level: 'silent' }) });
    try {
      const pages = (await backend.db.raw('PRAGMA page_count')) as Array<{ page_count: number }>;
      await backend.db.raw(`PRAGMA max_page_count = ${pages[0]!.page_count + 1}`);
      let reply: Reply | undefined;
      for (let i = 0; i < 2000; i++) {
        reply = await send(`${controller.url}/chatbot-api/chats/`, 'POST', Buffer.from(JSON.stringify({ title: `chat ${i} ${'t'.repeat(180)}` })));
        if (reply.status !== 201) break;
      }
      expect(reply?.status).toBe(503);
      expect(jsonOf(reply?.text ?? '{}').detail).toBe("The server's disk is full: nothing was saved. Free space where the cichat data and database live, then try again.");
      // The backend's own answer, without the controller in between.
      let direct: Response | undefined;
      for (let i = 0; i < 200; i++) {
        direct = await backend.request('u', 'POST', '/chats/', { title: `direct ${i} ${'d'.repeat(180)}` });
        if (direct.status !== 201) break;
      }
      expect(direct?.status).toBe(503);
      expect(((await direct!.json()) as { detail: string }).detail).toMatch(/disk is full/);
    } finally {
      await controller.close(0);
      await backend.close();
    }
  });

  it('ENOSPC from a write under an upload (the vector index) is 503 saying the disk is full', async () => {
    const dataDir = path.join(dir, 'backend-enospc');
    fs.mkdirSync(dataDir, { recursive: true });
    const inner = new LocalEmbedder();
    const full = Object.create(inner) as Embedder;
    full.embed = () => Promise.reject(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
    const backend = await startTestBackend(sqlite, { secret: SECRET, dataDir, context: { embedder: full } });
    try {
      const chat = (await (await backend.request('u', 'POST', '/chats/', { title: 'x' })).json()) as { id: number };
      const reply = await backend.request('u', 'POST', `/context/${chat.id}`, { ciContext: { buildDetails: { consoleLog: 'ERROR: build failed\n'.repeat(50) } } });
      expect(reply.status).toBe(503);
      expect(((await reply.json()) as { detail: string }).detail).toMatch(/^The server's disk is full/);
    } finally {
      await backend.close();
    }
  });
});
