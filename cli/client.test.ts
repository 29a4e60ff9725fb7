import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CichatClient } from './client.js';
import { ApiError } from './errors.js';

/** A controller stand-in that answers the first `busy` uploads 503 with Retry-After. */
async function server(busy: number, retryAfter = '0') {
  const bodies: string[] = [];
  let calls = 0;
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls++;
      if (calls <= busy) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': retryAfter });
        res.end(JSON.stringify({ detail: 'Too many context uploads at once: try again in a moment.' }));
        return;
      }
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, bodies, calls: () => calls, close: () => new Promise<void>((r) => s.close(() => r())) };
}

test('an upload refused as busy (503 + Retry-After) is sent again, whole', async () => {
  const srv = await server(2);
  try {
    const client = new CichatClient({ baseUrl: srv.url });
    const progress: number[] = [];
    await client.uploadContext(7, { consoleLog: 'x'.repeat(600_000) }, (sent) => progress.push(sent));
    expect(srv.calls()).toBe(3);
    expect(srv.bodies).toHaveLength(1);
    expect(JSON.parse(srv.bodies[0]!)).toEqual({ consoleLog: 'x'.repeat(600_000) });
    expect(progress.at(-1)).toBe(Buffer.byteLength(JSON.stringify({ consoleLog: 'x'.repeat(600_000) })));
  } finally {
    await srv.close();
  }
});

test('a 503 that asks for a wait longer than the upload may take is the error', async () => {
  const srv = await server(5, '3600');
  try {
    const client = new CichatClient({ baseUrl: srv.url });
    const err = await client.uploadContext(7, { consoleLog: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect(srv.calls()).toBe(1);
  } finally {
    await srv.close();
  }
});
