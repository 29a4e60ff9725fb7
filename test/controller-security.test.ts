/**
 * Issue 12, points 2, 3 and the controller side of 5, over real sockets: the DNS-rebinding Host
 * check of `CONTROLLER_AUTH=none`, the caller's credentials never reaching the backend (fast
 * path, Koa path, context upload, health check), `{detail}` answers for oversized headers (431)
 * and unknown methods (501), and a 500 that carries no server path or error text.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jwtVerify } from 'jose';
import { pino } from 'pino';
import { createControllerHandler, startController } from '../controller/app.js';
import type { RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import type { ControllerConfig } from '../controller/config.js';
import { hostCheck, parseAllowedHosts } from '../controller/hosts.js';
import { addToken } from '../controller/tokens.js';

const SECRET = randomBytes(32).toString('hex');
const HOME = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'jenkins-homes', 'samples');

interface Arrival {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

let tmp: string;
let backend: http.Server;
let backendUrl: string;
const arrivals: Arrival[] = [];

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  text: string;
}

function send(base: string, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method, path: rawPath, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes raw bytes on a fresh connection and answers everything the server sent until it closed. */
function raw(base: string, bytes: string): Promise<string> {
  const { port, hostname } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
    socket.write(bytes);
  });
}

function configFor(env: Record<string, string>): ControllerConfig {
  const loaded = loadControllerConfig({
    CONTROLLER_PORT: '0',
    JWT_SECRET: SECRET,
    DATA_DIR: path.join(tmp, 'data'),
    JENKINS_HOME: HOME,
    BACKEND_URL: backendUrl,
    ...env,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.config;
}

async function withController<T>(env: Record<string, string>, work: (c: RunningController) => Promise<T>): Promise<T> {
  const controller = await startController(configFor(env), { logger: pino({ level: 'silent' }) });
  try {
    return await work(controller);
  } finally {
    await controller.close(0);
  }
}

beforeAll(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cichat-security-')));
  backend = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', items: [] }));
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => backend.close(() => resolve()));
  await fs.rm(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  arrivals.length = 0;
});

describe('Host check in CONTROLLER_AUTH=none (DNS rebinding)', () => {
  const paths = ['/chatbot-api/chats/', '/chatbot-api/messages/1/retry', '/chatbot-api/workspaceTree?jobName=fs&buildNumber=1', '/chatbot-api/healthz', '/chatbot-api/context/1/last-upload'];

  it('serves loopback names with or without a port, any case', async () => {
    await withController({}, async (c) => {
      const port = new URL(c.url).port;
      for (const host of ['localhost', `localhost:${port}`, 'LocalHost:8080', '127.0.0.1', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`, '127.0.0.2:80']) {
        const reply = await send(c.url, 'GET', '/chatbot-api/chats/', { host });
        expect([host, reply.status]).toEqual([host, 200]);
      }
      expect(arrivals).toHaveLength(8);
    });
  });

  it('answers any other name 403 {detail} naming CONTROLLER_ALLOWED_HOSTS, on every path, and forwards nothing', async () => {
    await withController({}, async (c) => {
      for (const host of ['evil.example', 'evil.example:8080', 'localhost.evil.example', '127.0.0.1.nip.io', '[::2]', 'localhost:abc', '10.0.0.5']) {
        for (const p of paths) {
          const reply = await send(c.url, 'GET', p, { host });
          expect([host, p, reply.status]).toEqual([host, p, 403]);
          expect(reply.headers['content-type']).toMatch(/^application\/json/);
          expect((reply.body as { detail: string }).detail).toMatch(/CONTROLLER_ALLOWED_HOSTS/);
        }
        const upload = await send(c.url, 'POST', '/chatbot-api/context/1/', { host, 'content-type': 'application/json' }, '{}');
        expect(upload.status).toBe(403);
      }
      expect(arrivals).toEqual([]);
    });
  });

  it('CONTROLLER_ALLOWED_HOSTS adds names (with a port: only that port); tokens mode checks no Host', async () => {
    await withController({ CONTROLLER_ALLOWED_HOSTS: 'Cichat.LAN, box.local:8080' }, async (c) => {
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', { host: 'cichat.lan:9000' })).status).toBe(200);
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', { host: 'box.local:8080' })).status).toBe(200);
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', { host: 'box.local:8081' })).status).toBe(403);
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', { host: 'evil.example' })).status).toBe(403);
    });
    const tokensFile = path.join(tmp, 'tokens');
    const token = await addToken(tokensFile, 'alice');
    await withController({ CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokensFile }, async (c) => {
      const reply = await send(c.url, 'GET', '/chatbot-api/chats/', { host: 'cichat.example.com', authorization: `Bearer ${token}` });
      expect(reply.status).toBe(200);
    });
  });

  it('refuses writes from pages of other sites (Origin) in none mode; its own pages, CORS origins and non-browser clients pass', async () => {
    await withController({ CONTROLLER_CORS_ORIGINS: 'https://ci.example.com' }, async (c) => {
      const port = new URL(c.url).port;
      const host = `127.0.0.1:${port}`;
      // A page anywhere on the web can post a body without Content-Type to a local controller.
      for (const [method, p] of [['POST', '/chatbot-api/context/1/'], ['POST', '/chatbot-api/messages/send'], ['DELETE', '/chatbot-api/chats/1'], ['PUT', '/chatbot-api/chats/1']]) {
        const reply = await send(c.url, method!, p!, { host, origin: 'https://evil.example' }, method === 'DELETE' ? undefined : '{}');
        expect([method, p, reply.status]).toEqual([method, p, 403]);
        expect((reply.body as { detail: string }).detail).toMatch(/evil\.example.*CONTROLLER_CORS_ORIGINS/);
      }
      expect((await send(c.url, 'POST', '/chatbot-api/chats/', { host, origin: 'null' }, '{}')).status).toBe(403);
      expect(arrivals).toEqual([]);
      // Reads are a page's to make (it cannot read the answer without CORS); its own pages, the
      // CORS origins and clients without Origin (CLI, curl) write as before.
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', { host, origin: 'https://evil.example' })).status).toBe(200);
      expect((await send(c.url, 'POST', '/chatbot-api/chats/', { host, origin: `http://${host}`, 'content-type': 'application/json' }, '{}')).status).toBe(200);
      expect((await send(c.url, 'POST', '/chatbot-api/chats/', { host, origin: 'https://ci.example.com', 'content-type': 'application/json' }, '{}')).status).toBe(200);
      expect((await send(c.url, 'POST', '/chatbot-api/chats/', { host, 'content-type': 'application/json' }, '{}')).status).toBe(200);
    });
  });

  it('validates CONTROLLER_ALLOWED_HOSTS at start-up and parses Host values strictly', () => {
    expect(parseAllowedHosts('a.example, 10.0.0.5:8080,[fe80::1]').hosts).toEqual(['a.example', '10.0.0.5:8080', '[fe80::1]']);
    const bad = loadControllerConfig({ JWT_SECRET: SECRET, DATA_DIR: path.join(tmp, 'data'), JENKINS_HOME: HOME, CONTROLLER_ALLOWED_HOSTS: 'ok.example,*.example,http://x,a b,host:99999' });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.problems.filter((p) => p.startsWith('CONTROLLER_ALLOWED_HOSTS:'))).toHaveLength(4);
    const allowed = hostCheck([]);
    expect([undefined, 'localhost', 'LOCALHOST:1', '[::1]'].map(allowed)).toEqual([true, true, true, true]);
    expect(['', ' ', 'localhost:', 'localhost:1:2', '[::1', 'evil', 'localhost/x'].map(allowed)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe("the caller's credentials never reach the backend", () => {
  const credentials = {
    cookie: 'JSESSIONID.abc=jenkins-session; remember-me=xyz',
    'proxy-authorization': 'Basic dXNlcjpwYXNz',
    authorization: 'Bearer caller-own-token',
    'x-custom': 'kept',
  };

  async function checkArrival(arrival: Arrival | undefined, expectJwt: boolean): Promise<void> {
    expect(arrival).toBeDefined();
    const headers = arrival?.headers ?? {};
    expect(headers.cookie).toBeUndefined();
    expect(headers['proxy-authorization']).toBeUndefined();
    expect(JSON.stringify(headers)).not.toMatch(/jenkins-session|dXNlcjpwYXNz|caller-own-token/);
    expect(headers['x-custom']).toBe('kept');
    if (expectJwt) {
      const token = (headers.authorization ?? '').replace(/^Bearer /, '');
      expect((await jwtVerify(token, Buffer.from(SECRET, 'utf8'), { algorithms: ['HS256'] })).payload).toMatchObject({ sub: 'local' });
    } else {
      expect(headers.authorization).toBeUndefined();
    }
  }

  it('on the fast path, the Koa path, a context upload and the health check (none mode)', async () => {
    await withController({}, async (c) => {
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', credentials)).status).toBe(200);
      await checkArrival(arrivals.pop(), true);
      expect((await send(c.url, 'DELETE', '/chatbot-api/chats/7', credentials)).status).toBe(200);
      await checkArrival(arrivals.pop(), true);
      expect((await send(c.url, 'GET', '/chatbot-api/context/1/last-upload', credentials)).status).toBe(200);
      await checkArrival(arrivals.pop(), true);
      const upload = await send(c.url, 'POST', '/chatbot-api/context/1/', { ...credentials, 'content-type': 'application/json' }, '{"jobName":"fs","buildNumber":1}');
      expect(upload.status).toBe(200);
      await checkArrival(arrivals.pop(), true);
      expect((await send(c.url, 'GET', '/chatbot-api/healthz', credentials)).status).toBe(200);
      await checkArrival(arrivals.pop(), false);
    });
  });

  it('in tokens mode: the bearer token that opened the door stays at the door', async () => {
    const tokensFile = path.join(tmp, 'tokens-2');
    const token = await addToken(tokensFile, 'bob');
    await withController({ CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokensFile }, async (c) => {
      const headers = { ...credentials, authorization: `Bearer ${token}` };
      expect((await send(c.url, 'GET', '/chatbot-api/chats/', headers)).status).toBe(200);
      expect((await send(c.url, 'PUT', '/chatbot-api/chats/1/title', { ...headers, 'content-type': 'application/json' }, '{"new_title":"x"}')).status).toBe(200);
      expect(arrivals).toHaveLength(2);
      for (const arrival of arrivals) {
        expect(JSON.stringify(arrival.headers)).not.toContain(token);
        expect(arrival.headers.cookie).toBeUndefined();
        expect(arrival.headers['proxy-authorization']).toBeUndefined();
        expect((await jwtVerify((arrival.headers.authorization ?? '').replace(/^Bearer /, ''), Buffer.from(SECRET, 'utf8'))).payload).toMatchObject({ sub: 'bob' });
      }
    });
  });
});

describe('requests that never parse, and methods the API does not serve', () => {
  it('oversized headers: 431 {detail}', async () => {
    await withController({}, async (c) => {
      const answer = await raw(c.url, `GET /chatbot-api/chats/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/Content-Type: application\/json/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ detail: expect.stringMatching(/headers are too large/) });
      expect(arrivals).toEqual([]);
    });
  });

  it('unknown methods: 501 {detail}, whether the parser knows them or not; CONNECT too', async () => {
    await withController({}, async (c) => {
      const unknown = await raw(c.url, 'FOO /chatbot-api/chats/ HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(unknown).toMatch(/^HTTP\/1\.1 501 /);
      expect(JSON.parse(unknown.slice(unknown.indexOf('\r\n\r\n') + 4))).toEqual({ detail: expect.stringMatching(/not implemented/) });
      for (const method of ['PROPFIND', 'TRACE', 'MKCOL', 'PURGE']) {
        for (const p of ['/chatbot-api/chats/', '/chatbot-api/workspaceTree', '/elsewhere']) {
          const reply = await send(c.url, method, p, { host: 'localhost' });
          expect([method, p, reply.status]).toEqual([method, p, 501]);
          expect((reply.body as { detail: string }).detail).toContain(`Method ${method} is not implemented`);
        }
      }
      const connect = await raw(c.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expect(connect).toMatch(/^HTTP\/1\.1 501 /);
      const garbage = await raw(c.url, 'GET / HTTP/1.1\r\nHost localhost\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toHaveProperty('detail');
      expect(arrivals).toEqual([]);
      // The methods the API serves still go through.
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
        expect([method, (await send(c.url, method, '/chatbot-api/chats/', { host: 'localhost' })).status]).toEqual([method, 200]);
      }
    });
  });

  it('a 500 carries neither a server path nor an error text', async () => {
    const config = configFor({});
    const handler = createControllerHandler({
      config,
      logger: pino({ level: 'silent' }),
      buildCiContext: () => Promise.reject(new Error(`EACCES: permission denied, open '${HOME}/jobs/fs/config.xml'`)),
    });
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const reply = await send(base, 'POST', '/chatbot-api/context/1/', { 'content-type': 'application/json' }, '{"jobName":"fs"}');
      expect(reply.status).toBe(500);
      expect(reply.body).toEqual({ detail: 'Internal error' });
      expect(reply.text).not.toContain(HOME);
      expect(reply.text).not.toContain('EACCES');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
