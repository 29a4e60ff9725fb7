/**
 * A backend that took the request and then froze (ux3, session 42): the proxy answers 504 when
 * its answer does not begin, and cuts an answer stream from which nothing came (not even a
 * ping) with an `error` event; a context upload waits for its ingestion, and a stream that pings
 * is never cut.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { BackendProxy } from './proxy.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let handler: Handler = () => undefined;
const backend = http.createServer((req, res) => handler(req, res));
let proxy: BackendProxy;
const front = http.createServer((req, res) => {
  void proxy.forward(req, res, { method: req.method ?? 'GET', pathAndQuery: req.url ?? '/', headers: req.headers, userId: 'u' });
});
let frontUrl = '';
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  proxy = new BackendProxy({
    backendUrl: `http://127.0.0.1:${(backend.address() as AddressInfo).port}`,
    jwtSecret: 'x'.repeat(32),
    jwtTtlSeconds: 60,
    logger: pino({ level: 'silent' }),
    answerStartTimeoutMs: 300,
    streamSilenceTimeoutMs: 1500, // pings come every 100 ms below: a loaded CI machine stalls a process for more than 0.4 s
  });
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
  backend.closeAllConnections();
});

afterAll(async () => {
  proxy.close();
  front.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await new Promise<void>((resolve) => backend.close(() => resolve()));
});

const sse = (res: http.ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('data: {"event":"started","qa_pair_id":1}\n\n');
};

test('a backend that takes the request and never answers: 504 {detail} saying so, not a wait', async () => {
  handler = () => undefined; // frozen
  const res = await fetch(`${frontUrl}/chats/`);
  expect(res.status).toBe(504);
  const body = (await res.json()) as { detail: string };
  expect(body.detail).toMatch(/^The cichat backend at http:\/\/127\.0\.0\.1:\d+ took the request but did not answer within 0\.3 s: it may be stuck or overloaded\. Try again/);
});

test('a context upload is given the time its ingestion takes', async () => {
  handler = (req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end('{"success":true}'), 700));
  };
  const res = await fetch(`${frontUrl}/context/5/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ success: true });
});

test('an answer stream that goes silent ends with an error event; one that pings does not', async () => {
  handler = (_req, res) => sse(res); // started, then nothing
  const cut = await (await fetch(`${frontUrl}/messages/send`, { method: 'POST' })).text();
  expect(cut).toContain('"event":"started"');
  expect(cut).toMatch(/"event":"error","detail":"The cichat backend sent nothing for 1\.5 s in the middle of the answer/);

  handler = (_req, res) => {
    sse(res);
    const ping = setInterval(() => res.write(': ping\n\n'), 100);
    timers.push(ping);
    setTimeout(() => {
      clearInterval(ping);
      res.end('data: {"event":"done"}\n\n');
    }, 1000);
  };
  const whole = await (await fetch(`${frontUrl}/messages/send`, { method: 'POST' })).text();
  expect(whole).toContain('"event":"done"');
  expect(whole).not.toContain('"event":"error"');
});
