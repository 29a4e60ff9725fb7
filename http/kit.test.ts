/**
 * The HTTP kit both services share: request ids, the access log, error rendering (a 500 never
 * carries its cause; the log has the stack), the JSON body reader and the validate middleware.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import Koa from 'koa';
import { pino } from 'pino';
import { z } from 'zod';
import { Conflict, isDiskFull } from './errors.js';
import { errorMiddleware } from './middleware.js';
import { requestContext } from './request.js';
import { inputOf, validate } from './validate.js';

function capture(): { logger: pino.Logger; lines: () => Array<Record<string, unknown>> } {
  const out: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
      done();
    },
  });
  const logger = pino({ level: 'info', serializers: { err: pino.stdSerializers.err } }, stream);
  return { logger, lines: () => out.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

let server: http.Server;
let base: string;
const log = capture();

beforeAll(async () => {
  const app = new Koa();
  app.silent = true;
  app.use(requestContext(log.logger));
  app.use(errorMiddleware({ logger: log.logger, notFoundDetail: (ctx) => `No route for ${ctx.method} ${ctx.path}.` }));
  const router = new Router();
  router.get('/boom', () => {
    throw new Error("ENOENT: no such file or directory, open '/srv/secret/path.txt'");
  });
  router.get('/conflict', () => {
    throw new Conflict('Chat 3 already has an answer streaming.');
  });
  router.post(
    '/items/:id',
    validate({
      params: z.object({ id: z.coerce.number().int().min(1) }),
      query: z.object({ verbose: z.enum(['yes', 'no']).default('no') }),
      body: z.object({ title: z.string().min(1).max(10) }),
    }),
    (ctx) => {
      const input = inputOf<{ title: string }, { verbose: string }, { id: number }>(ctx);
      ctx.body = { id: input.params.id, title: input.body.title, verbose: input.query.verbose };
    },
  );
  router.post('/upload', async (ctx) => {
    let bytes = 0;
    for await (const piece of ctx.req as AsyncIterable<Buffer>) bytes += piece.length;
    ctx.body = { bytes };
  });
  app.use(router.routes());
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('a 500 answers "Internal error" only; the log has the stack and the request id', async () => {
  const res = await fetch(`${base}/boom`, { headers: { 'x-request-id': 'req-42.a' } });
  expect(res.status).toBe(500);
  const text = await res.text();
  expect(JSON.parse(text)).toEqual({ detail: 'Internal error' });
  expect(text).not.toMatch(/srv|ENOENT/);
  expect(res.headers.get('x-request-id')).toBe('req-42.a');
  const line = log.lines().find((l) => l.msg === 'unhandled error' && l.reqId === 'req-42.a');
  expect(line).toBeDefined();
  expect(String((line!.err as { stack?: string }).stack)).toMatch(/ENOENT[\s\S]*at /);
});

test('a client that closes its request under the body read is logged as that, at info: not a 500, not a database outage', async () => {
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/upload', headers: { 'content-length': '1000000', 'x-request-id': 'gone-1' } });
    req.on('error', () => resolve());
    req.write('x'.repeat(1000));
    setTimeout(() => req.destroy(), 100);
  });
  const deadline = Date.now() + 5000;
  const mine = () => log.lines().filter((l) => l.reqId === 'gone-1' && l.msg !== 'request completed' && l.msg !== 'request');
  while (!mine().some((l) => String(l.msg).startsWith('the client closed')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const lines = mine().filter((l) => typeof l.err === 'object' || String(l.msg).startsWith('the client closed'));
  expect(lines.map((l) => [l.level, l.msg])).toEqual([[30, 'the client closed the request before its body was read']]);
});

test('a request id is made when the caller sends none or an unsafe one; the access log carries it', async () => {
  const made = await fetch(`${base}/conflict`);
  expect(made.status).toBe(409);
  expect(await made.json()).toEqual({ detail: 'Chat 3 already has an answer streaming.' });
  const id = made.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const unsafe = await fetch(`${base}/conflict`, { headers: { 'x-request-id': 'evil\tinjected line' } });
  expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  await new Promise((r) => setTimeout(r, 20));
  const access = log.lines().find((l) => l.msg === 'request' && l.reqId === id);
  expect(access).toMatchObject({ method: 'GET', url: '/conflict', status: 409 });
  expect(typeof access!.ms).toBe('number');
});

test('an unrouted path is a 404 {detail} naming it', async () => {
  const res = await fetch(`${base}/nowhere`);
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ detail: 'No route for GET /nowhere.' });
});

test('validate() gives the handler typed body, query and params, or 422 naming the field', async () => {
  const post = (p: string, body: string, type = 'application/json') =>
    fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': type }, body });
  const ok = await post('/items/7?verbose=yes', JSON.stringify({ title: 'hello' }));
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ id: 7, title: 'hello', verbose: 'yes' });
  const badBody = await post('/items/7', JSON.stringify({ title: '' }));
  expect(badBody.status).toBe(422);
  expect(((await badBody.json()) as { detail: string }).detail).toMatch(/^title: /);
  const badQuery = await post('/items/7?verbose=maybe', JSON.stringify({ title: 'x' }));
  expect(badQuery.status).toBe(422);
  expect(((await badQuery.json()) as { detail: string }).detail).toMatch(/^verbose: /);
  const badParam = await post('/items/0', JSON.stringify({ title: 'x' }));
  expect(badParam.status).toBe(422);
  expect(((await badParam.json()) as { detail: string }).detail).toMatch(/^id: /);
  const malformed = await post('/items/7', '{"title": ');
  expect(malformed.status).toBe(400);
  expect(await malformed.json()).toEqual({ detail: 'The request body is not valid JSON.' });
  const notJson = await post('/items/7', 'title=x', 'text/plain');
  expect(notJson.status).toBe(415);
  const badUtf8 = await fetch(`${base}/items/7`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from([0x7b, 0x22, 0x74, 0xff, 0x22, 0x7d]),
  });
  expect(badUtf8.status).toBe(400);
  expect(await badUtf8.json()).toEqual({ detail: 'The request body is not valid UTF-8.' });
  const bom = await post('/items/7', '\uFEFF' + JSON.stringify({ title: 'bom' }));
  expect(bom.status).toBe(200);
});

test('a body over the limit is 413 {detail}', async () => {
  const big = JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) });
  const res = await fetch(`${base}/items/7`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ detail: 'The request body is over the 1 MiB limit.' });
});

describe('isDiskFull: a full disk is told apart from other failures (issue 24 point 9)', () => {
  test.each([
    ['ENOSPC from fs', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })],
    ['a disk quota', { code: 'EDQUOT' }],
    ["SQLite's SQLITE_FULL", { code: 'SQLITE_FULL' }],
    ['MySQL: table is full', { code: 'ER_RECORD_FILE_FULL', errno: 1114 }],
    ['MySQL: disk full', { code: 'ER_DISK_FULL', errno: 1021 }],
    ['wrapped as a cause', new Error('could not save the upload', { cause: Object.assign(new Error('x'), { code: 'SQLITE_FULL' }) })],
  ])('%s', (_what, err) => expect(isDiskFull(err)).toBe(true));

  test.each([
    ['a missing file', { code: 'ENOENT' }],
    ['a busy database', { code: 'SQLITE_BUSY' }],
    ['a constraint', { code: 'SQLITE_CONSTRAINT_UNIQUE' }],
    ['a bug', new TypeError('x is undefined')],
    ['a string', 'ENOSPC'],
    ['null', null],
  ])('%s', (_what, err) => expect(isDiskFull(err)).toBe(false));
});
