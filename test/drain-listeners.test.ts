/**
 * dropRestOfBody (http/server.ts) on a kept-alive connection: each refused request whose body is
 * read and dropped must leave nothing on the socket once its body is over. It left a 'close'
 * listener per request, and the 11th printed MaxListenersExceededWarning (issue 27 point 9).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createBoundedServer, dropRestOfBody } from '../http/server.js';

test('refused requests on one keep-alive connection leave no close listener behind', async () => {
  const counts: number[] = [];
  let serverSocket: Socket | undefined;
  const server = createBoundedServer((req, res) => {
    serverSocket = req.socket;
    dropRestOfBody(req, res);
    res.statusCode = 413;
    res.end('too big');
    req.once('end', () => setImmediate(() => counts.push(req.socket.listenerCount('close'))));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const clientSockets = new Set<unknown>();
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    for (let i = 0; i < 12; i++) {
      const before = counts.length;
      await new Promise<void>((resolve, reject) => {
        const body = Buffer.alloc(100_000);
        const r = http.request(
          { port, host: '127.0.0.1', method: 'POST', path: '/', agent, headers: { 'content-length': String(body.length) } },
          (res) => {
            expect(res.statusCode).toBe(413);
            res.resume();
            // the body is sent only once the answer is in: the answer comes before the body's end
            r.end(body);
          },
        );
        r.on('socket', (s) => clientSockets.add(s));
        r.on('error', reject);
        r.flushHeaders();
        const wait = (): void => void (counts.length > before ? resolve() : setTimeout(wait, 5));
        wait();
      });
    }
    expect(clientSockets.size).toBe(1); // the same connection every time
    expect(serverSocket?.destroyed).toBe(false);
    expect(new Set(counts).size).toBe(1); // as many 'close' listeners after the 12th as after the 1st
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
    agent.destroy();
    await new Promise((r) => server.close(r));
  }
});
