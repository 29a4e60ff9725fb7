import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { openEventStream } from './stream.js';

/**
 * A client that left before the stream opened (it gave up while the answer's transaction waited on
 * a lock): the stream's signal is aborted at once, so the engine stops and the pair is saved
 * `interrupted` (CONTRACT "Streams"), instead of running to the end for nobody.
 */
it('aborts at once when the client is already gone at open', async () => {
  const app = new Koa();
  // The client's cut request is a `Parse Error` on its socket, which Koa's default handler prints to the run's output.
  app.silent = true;
  let seen!: (v: boolean) => void;
  const result = new Promise<boolean>((r) => (seen = r));
  // The client leaves once the server has the request (a fixed delay raced the server's parsing of it on a loaded
  // machine: a request cut before its headers were read never reaches the app, and the test waited 60 s).
  let arrived!: () => void;
  const inApp = new Promise<void>((r) => (arrived = r));
  app.use(async (ctx) => {
    const closed = new Promise((r) => ctx.req.once('close', r));
    arrived();
    await closed;
    await new Promise((r) => setTimeout(r, 20));
    const stream = openEventStream(ctx, 60_000);
    seen(stream.signal.aborted);
    stream.end();
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const req = http.request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', method: 'POST', path: '/' });
    req.on('error', () => {});
    req.write('{}');
    await inApp;
    req.destroy();
    expect(await result).toBe(true);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
