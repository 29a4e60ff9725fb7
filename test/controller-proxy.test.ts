/**
 * The controller's proxy in front of a tiny real node:http server standing in for the backend,
 * so that the test can see exactly what arrives there (headers, JWT claims, body, aborts).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { jwtVerify, type JWTPayload } from 'jose';
import { pino } from 'pino';
import { createControllerHandler, startController, type RunningController } from '../controller/app.js';
import type { BackendProxy } from '../controller/proxy.js';
import { loadControllerConfig, type ControllerConfig } from '../controller/config.js';
import { addToken, hashToken } from '../controller/tokens.js';
import { JWT_AUDIENCE, JWT_ISSUER } from '../protocol/auth.js';
import { SseDecoder } from '../protocol/sse.js';

const SECRET = randomBytes(32).toString('hex');

interface Arrival {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

type StubHandler = (req: http.IncomingMessage, res: http.ServerResponse, arrival: Arrival) => void;

/** A stand-in backend: records every request; `handler` answers (default: echo as JSON). */
class StubBackend {
  arrivals: Arrival[] = [];
  handler: StubHandler | undefined;
  /** Set for handlers that must see the request before its body is complete. */
  streamingHandler: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | undefined;
  server = http.createServer((req, res) => {
    if (this.streamingHandler) {
      this.streamingHandler(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrival = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      this.arrivals.push(arrival);
      if (this.handler) {
        this.handler(req, res, arrival);
        return;
      }
      const body = JSON.stringify({ method: arrival.method, url: arrival.url, bodyLength: arrival.body.length });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.arrivals = [];
    this.handler = undefined;
    this.streamingHandler = undefined;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Log lines the controller wrote, for the warnings about token files. */
class LogSink extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
    done();
  }
}

function configFor(env: Record<string, string>): ControllerConfig {
  const result = loadControllerConfig({
    CONTROLLER_PORT: '0',
    JWT_SECRET: SECRET,
    JENKINS_HOME: path.resolve('test/fixtures/jenkins-homes/samples'),
    ...env,
  });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.config;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw node:http request (fetch forbids the hop-by-hop headers this test needs to send). */
function send(url: string, options: { method?: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The claims of the token the backend received, checked with jose directly (not through protocol/jwt.ts). */
async function claimsOf(arrival: Arrival | undefined): Promise<JWTPayload> {
  const header = arrival?.headers.authorization ?? '';
  expect(header).toMatch(/^Bearer /);
  const { payload } = await jwtVerify(header.slice('Bearer '.length), Buffer.from(SECRET, 'utf8'), {
    algorithms: ['HS256'],
    issuer: JWT_ISSUER,
    audience: JWT_AUDIENCE,
  });
  return payload;
}

/** Resolves when `emitter` emits `event`, failing the test after `ms` instead of hanging. */
function waitFor<T>(register: (resolve: (value: T) => void) => void, what: string, ms = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

const silent = pino({ level: 'silent' });
const stub = new StubBackend();
let tmp: string;

beforeAll(async () => {
  await stub.start();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-controller-proxy-'));
});

afterAll(async () => {
  await stub.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => stub.reset());

describe('proxy in CONTROLLER_AUTH=none mode', () => {
  let controller: RunningController;

  beforeAll(async () => {
    controller = await startController(
      configFor({ BACKEND_URL: stub.url, DATA_DIR: tmp, CONTROLLER_USER: 'alice', JWT_TTL_SECONDS: '120' }),
      { logger: silent },
    );
  });
  afterAll(() => controller.close(0));

  test('strips /chatbot-api, keeps the query, attaches a JWT for CONTROLLER_USER with every claim', async () => {
    const reply = await send(`${controller.url}/chatbot-api/chats/?limit=5&offset=10&q=a%20b`);
    expect(reply.status).toBe(200);
    const arrival = stub.arrivals[0];
    expect(arrival?.url).toBe('/chats/?limit=5&offset=10&q=a%20b');
    const claims = await claimsOf(arrival);
    expect(claims.sub).toBe('alice');
    expect(claims.iss).toBe(JWT_ISSUER);
    expect(claims.aud).toBe(JWT_AUDIENCE);
    expect(typeof claims.iat).toBe('number');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(120);
    expect(typeof claims.jti).toBe('string');
    const header = JSON.parse(Buffer.from(arrival?.headers.authorization?.split('.')[0]?.slice(7) ?? '', 'base64url').toString()) as { alg: string };
    expect(header.alg).toBe('HS256');
  });

  test("never forwards the caller's Authorization, and mints a fresh jti per request", async () => {
    await send(`${controller.url}/chatbot-api/chats/`, { headers: { authorization: 'Bearer callers-own-secret' } });
    await send(`${controller.url}/chatbot-api/chats/`, { headers: { authorization: 'Bearer callers-own-secret' } });
    expect(stub.arrivals).toHaveLength(2);
    for (const arrival of stub.arrivals) expect(arrival.headers.authorization).not.toContain('callers-own-secret');
    const [a, b] = await Promise.all(stub.arrivals.map(async (x) => (await claimsOf(x)).jti));
    expect(a).toBeDefined();
    expect(a).not.toBe(b);
  });

  test('drops hop-by-hop headers both ways, including those named in Connection', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(201, {
        'content-type': 'application/json',
        'x-request-id': 'r-1',
        'x-backend-private': 'per-connection',
        connection: 'keep-alive, x-backend-private',
        'keep-alive': 'timeout=5',
        'proxy-authenticate': 'Basic',
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end('{"ok":true}');
    };
    const reply = await send(`${controller.url}/chatbot-api/chats/`, {
      method: 'POST',
      headers: {
        connection: 'keep-alive, x-caller-private',
        'x-caller-private': 'one hop only',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        trailer: 'x-checksum',
        'proxy-authorization': 'Basic Zm9vOmJhcg==',
        'proxy-connection': 'keep-alive',
        'x-end-to-end': 'kept',
        'content-type': 'application/json',
      },
      body: '{"title":"t"}',
    });
    const seen = stub.arrivals[0]?.headers ?? {};
    for (const name of ['x-caller-private', 'keep-alive', 'te', 'trailer', 'proxy-authorization', 'proxy-connection']) {
      expect(seen[name]).toBeUndefined();
    }
    expect(seen['x-end-to-end']).toBe('kept');
    expect(seen['content-type']).toBe('application/json');
    expect(reply.status).toBe(201);
    expect(reply.body.toString()).toBe('{"ok":true}');
    expect(reply.headers['x-request-id']).toBe('r-1');
    expect(reply.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(reply.headers['x-backend-private']).toBeUndefined();
    expect(reply.headers['proxy-authenticate']).toBeUndefined();
  });

  test.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('%s passes method, query and body through', async (method) => {
    const body = JSON.stringify({ method, payload: 'x'.repeat(1000) });
    const reply = await send(`${controller.url}/chatbot-api/things/42/sub?x=1&y=%C3%A9`, {
      method,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      body,
    });
    expect(reply.status).toBe(200);
    const arrival = stub.arrivals[0];
    expect(arrival?.method).toBe(method);
    expect(arrival?.url).toBe('/things/42/sub?x=1&y=%C3%A9');
    expect(arrival?.body.toString()).toBe(body);
  });

  test('HEAD is relayed with the headers and no body', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '17' });
      res.end();
    };
    const reply = await send(`${controller.url}/chatbot-api/chats/`, { method: 'HEAD' });
    expect(stub.arrivals[0]?.method).toBe('HEAD');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-length']).toBe('17');
    expect(reply.body.length).toBe(0);
  });

  test('status and body of the backend come back unchanged, errors included', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end('{"detail":"Chat 3 already has an answer streaming: wait for it to finish or stop it."}');
    };
    const reply = await send(`${controller.url}/chatbot-api/messages/send`, { method: 'POST', body: '{}' });
    expect(reply.status).toBe(409);
    expect(JSON.parse(reply.body.toString())).toEqual({
      detail: 'Chat 3 already has an answer streaming: wait for it to finish or stop it.',
    });
  });

  test('a chunked request body is streamed: the backend sees its first part before the caller sends the rest', async () => {
    const firstPart = randomBytes(64 * 1024);
    const secondPart = randomBytes(3 * 1024 * 1024);
    let firstSeen!: () => void;
    const firstArrived = new Promise<void>((resolve) => (firstSeen = resolve));
    const received = new Promise<{ size: number; sha: string }>((resolve) => {
      stub.streamingHandler = (req, res) => {
        const hash = createHash('sha256');
        let size = 0;
        req.on('data', (c: Buffer) => {
          size += c.length;
          hash.update(c);
          if (size >= firstPart.length) firstSeen();
        });
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
          resolve({ size, sha: hash.digest('hex') });
        });
      };
    });
    const reply = new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${controller.url}/chatbot-api/upload`,
        { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, agent: false },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(firstPart);
      // The rest is only sent once the backend holds the first part: a buffering proxy would hang here.
      void waitFor<void>((done) => void firstArrived.then(done), 'the first part at the backend').then(
        () => req.end(secondPart),
        reject,
      );
    });
    expect(await reply).toBe(200);
    const whole = createHash('sha256').update(firstPart).update(secondPart).digest('hex');
    expect(await received).toEqual({ size: firstPart.length + secondPart.length, sha: whole });
  });

  test('SSE is relayed message by message as it arrives, with X-Accel-Buffering: no', async () => {
    let sendSecond!: () => void;
    const secondAllowed = new Promise<void>((resolve) => (sendSecond = resolve));
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('data: {"event":"started","qa_pair_id":1}\n\n');
      void secondAllowed.then(() => {
        // a message split mid-line, and inside the two bytes of "é"
        const rest = Buffer.from('data: {"event":"chunk","content":"hél');
        const cut = rest.indexOf(0xa9); // second byte of é
        res.write(rest.subarray(0, cut));
        setTimeout(() => {
          res.write(rest.subarray(cut));
          setTimeout(() => res.end('lo"}\r\n\r\ndata: {"event":"done"}\n\n'), 20);
        }, 20);
      });
    };
    const res = await fetch(`${controller.url}/chatbot-api/messages/send`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const reader = res.body!.getReader();
    const decoder = new SseDecoder();
    const utf8 = new TextDecoder();
    const first = await reader.read();
    // The backend has not sent the second message yet: what we hold came through on its own.
    expect(decoder.push(utf8.decode(first.value))).toEqual(['{"event":"started","qa_pair_id":1}']);
    sendSecond();
    const rest: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest.push(...decoder.push(utf8.decode(value)));
    }
    expect(rest).toEqual(['{"event":"chunk","content":"héllo"}', '{"event":"done"}']);
  });

  test('a caller who disconnects mid-stream aborts the backend request', async () => {
    const backendSawClose = waitFor<void>((done) => {
      stub.handler = (req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"event":"started","qa_pair_id":7}\n\n');
        res.on('close', () => done());
        req.on('close', () => undefined);
      };
    }, 'the backend to see the request close');
    const abort = new AbortController();
    const res = await fetch(`${controller.url}/chatbot-api/messages/send`, { method: 'POST', body: '{}', signal: abort.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"started"');
    abort.abort();
    await backendSawClose;
  });

  test('a backend that dies mid-stream: the caller gets an error event and the end of the stream', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"event":"started","qa_pair_id":9}\n\ndata: {"event":"chunk","content":"par');
      setTimeout(() => res.socket?.destroy(), 30);
    };
    const res = await fetch(`${controller.url}/chatbot-api/messages/send`, { method: 'POST', body: '{}' });
    const text = await res.text(); // ends: no hang
    const decoder = new SseDecoder();
    const events = [...decoder.push(text), ...decoder.end()].map((p) => JSON.parse(p) as { event: string; detail?: string });
    expect(events.map((e) => e.event)).toEqual(['started', 'error']);
    expect(events[1]?.detail).toMatch(/backend stopped/);
  });

  test('a backend that dies in a plain response: the connection is closed, never a short body that looks complete', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"items":[');
      setTimeout(() => res.socket?.destroy(), 30);
    };
    await expect(send(`${controller.url}/chatbot-api/chats/`)).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
    // ... and the controller stays up
    stub.handler = undefined;
    expect((await send(`${controller.url}/chatbot-api/chats/`)).status).toBe(200);
  });

  test('healthz reaches the backend health without identity and relays 503', async () => {
    stub.handler = (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"detail":"Database unavailable"}');
    };
    const reply = await send(`${controller.url}/chatbot-api/healthz`, { headers: { authorization: 'Bearer x' } });
    expect(reply.status).toBe(503);
    expect(stub.arrivals[0]?.url).toBe('/healthz');
    expect(stub.arrivals[0]?.headers.authorization).toBeUndefined();
  });

  test('paths outside /chatbot-api are 404 {detail} (or the web page), never relayed', async () => {
    const reply = await send(`${controller.url}/context/1/`);
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body.toString()).detail).toMatch(/chatbot-api/);
    // `/chats/` is the web page's chat list (issue 30), served by the controller itself.
    const page = await send(`${controller.url}/chats/`);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toMatch(/^<!doctype html>/);
    expect(stub.arrivals).toHaveLength(0);
  });
});

describe('backend unreachable', () => {
  let controller: RunningController;
  let deadUrl: string;

  beforeAll(async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    controller = await startController(configFor({ BACKEND_URL: deadUrl, DATA_DIR: tmp }), { logger: silent });
  });
  afterAll(() => controller.close(0));

  test('any proxied request answers 502 {detail} naming the backend', async () => {
    const reply = await send(`${controller.url}/chatbot-api/chats/`);
    expect(reply.status).toBe(502);
    const { detail } = JSON.parse(reply.body.toString()) as { detail: string };
    expect(detail).toContain(`The cichat backend at ${deadUrl} is unreachable`);
    expect(detail).toMatch(/ECONNREFUSED/);
  });

  test('healthz answers 502 too', async () => {
    expect((await send(`${controller.url}/chatbot-api/healthz`)).status).toBe(502);
  });

  test('a streaming request body to a dead backend still gets 502, and the controller stays up', async () => {
    const reply = await send(`${controller.url}/chatbot-api/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"chat_id":1,"content":"hi"}',
    });
    expect(reply.status).toBe(502);
    expect((await send(`${controller.url}/chatbot-api/chats/`)).status).toBe(502);
  });
});

describe('CONTROLLER_AUTH=tokens', () => {
  let controller: RunningController;
  let tokenFile: string;
  let aliceToken: string;
  const logs = new LogSink();

  beforeAll(async () => {
    tokenFile = path.join(tmp, 'tokens', 'controller-tokens');
    aliceToken = await addToken(tokenFile, 'alice');
    // A hand-edited file: a comment, junk, a short hash, an empty user, then a good line.
    const bobToken = 'bob-token-0123456789';
    fs.appendFileSync(
      tokenFile,
      ['# tokens', 'no colon at all', 'carol:abc123', `:${hashToken('x')}`, `bob:${hashToken(bobToken)}`, ''].join('\n'),
    );
    controller = await startController(
      configFor({ BACKEND_URL: stub.url, DATA_DIR: tmp, CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokenFile }),
      { logger: pino({ level: 'info' }, logs) },
    );
  });
  afterAll(() => controller.close(0));

  test('addToken stores only the hash, mode 0600, in a created directory', () => {
    const text = fs.readFileSync(tokenFile, 'utf8');
    expect(text.split('\n')[0]).toBe(`alice:${hashToken(aliceToken)}`);
    expect(text).not.toContain(aliceToken);
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(aliceToken).toMatch(/^cichat_[A-Za-z0-9_-]{43}$/);
  });

  test('bad lines are skipped with a warning naming each line number; good lines still work', async () => {
    const warnings = logs.lines.filter((l) => l.includes('skipped'));
    expect(warnings.some((l) => l.includes('line 3 skipped'))).toBe(true); // "no colon at all"
    expect(warnings.some((l) => l.includes('line 4 skipped'))).toBe(true); // short hash
    expect(warnings.some((l) => l.includes('line 5 skipped'))).toBe(true); // empty user
    expect(warnings.some((l) => l.includes('line 2 skipped'))).toBe(false); // the comment
    const reply = await send(`${controller.url}/chatbot-api/chats/`, { headers: { authorization: 'Bearer bob-token-0123456789' } });
    expect(reply.status).toBe(200);
    expect((await claimsOf(stub.arrivals[0])).sub).toBe('bob');
  });

  test('a valid token is the caller: sub is its user, and the token itself is not forwarded', async () => {
    const reply = await send(`${controller.url}/chatbot-api/chats/`, { headers: { authorization: `Bearer ${aliceToken}` } });
    expect(reply.status).toBe(200);
    expect((await claimsOf(stub.arrivals[0])).sub).toBe('alice');
    expect(stub.arrivals[0]?.headers.authorization).not.toContain(aliceToken);
  });

  test.each([
    ['no Authorization', undefined],
    ['a wrong token', 'Bearer cichat_wrong'],
    ['a one-character token', 'Bearer x'],
    ['a very long token', `Bearer ${'y'.repeat(10_000)}`],
    ['another scheme', `Basic ${Buffer.from('alice:pw').toString('base64')}`],
    ['the stored hash instead of the token', `Bearer ${hashToken('bob-token-0123456789')}`],
  ])('%s is 401 {detail} and never reaches the backend', async (_name, authorization) => {
    const reply = await send(`${controller.url}/chatbot-api/chats/`, {
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(reply.body.toString()).detail).toMatch(/token/i);
    expect(stub.arrivals).toHaveLength(0);
  });

  test('healthz needs no token', async () => {
    expect((await send(`${controller.url}/chatbot-api/healthz`)).status).toBe(200);
  });

  test('a token added while running works without a restart (reload on mtime change)', async () => {
    const daveToken = await addToken(tokenFile, 'dave');
    const reply = await send(`${controller.url}/chatbot-api/chats/`, { headers: { authorization: `Bearer ${daveToken}` } });
    expect(reply.status).toBe(200);
    expect((await claimsOf(stub.arrivals[0])).sub).toBe('dave');
  });
});

describe('the fast path for chats and messages', () => {
  test('a proxy that fails unexpectedly costs one request (500 {detail}), not the process', async () => {
    const config = configFor({ BACKEND_URL: 'http://127.0.0.1:9', DATA_DIR: tmp });
    let calls = 0;
    const broken = {
      forward: () => {
        calls++;
        return Promise.reject(new Error('a bug in the proxy'));
      },
      close: () => undefined,
    } as unknown as BackendProxy;
    const server = http.createServer(createControllerHandler({ config, logger: silent, proxy: broken }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const p of ['/chatbot-api/chats/', '/chatbot-api/chats?limit=1', '/chatbot-api/messages/send']) {
        const reply = await send(`${base}${p}`);
        expect([p, reply.status]).toEqual([p, 500]);
        expect(JSON.parse(reply.body.toString())).toEqual({ detail: 'Internal error' });
      }
      expect(calls).toBe(3);
      // paths that are not the fast path's still go through the Koa app
      const other = await send(`${base}/chatbot-api/chatsX`);
      expect(other.status).toBe(500);
      expect(calls).toBe(4);
      expect((await send(`${base}/elsewhere`)).status).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
