/**
 * The health wait of `cichat serve` (and of the tests that start processes): plain node:http, not
 * fetch (tt5, session 45: the first fetch of a process loads Node's undici).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { httpStatus, waitHealthy, type Service, type ServiceExit } from './services.js';

/** A server answering with whatever `status()` says at the time (none: it never answers). */
async function server(status: () => number | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const open = new Set<http.ServerResponse>();
  const s = http.createServer((_req, res) => {
    const code = status();
    if (code === undefined) {
      open.add(res);
      return;
    }
    res.writeHead(code, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/healthz`;
  return {
    url,
    close: () => {
      for (const res of open) res.destroy();
      s.closeAllConnections();
      return new Promise((r) => s.close(() => r()));
    },
  };
}

/** A service that has not exited unless `exit` is given. */
function fakeService(exit?: Promise<ServiceExit>): Service {
  return {
    name: 'backend',
    child: {} as ChildProcess,
    exited: exit ?? new Promise(() => undefined),
    lastLines: () => [],
    stop: () => exit ?? Promise.resolve({ code: 0, signal: null }),
  };
}

describe('httpStatus', () => {
  it('gives the status of the answer, its body read', async () => {
    let code = 503;
    const s = await server(() => code);
    try {
      expect(await httpStatus(s.url)).toBe(503);
      code = 200;
      expect(await httpStatus(s.url)).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('rejects when the connection is refused or no answer comes in time', async () => {
    const s = await server(() => undefined);
    try {
      await expect(httpStatus(s.url, 200)).rejects.toThrow('no answer within 200 ms');
    } finally {
      await s.close();
    }
    await expect(httpStatus(s.url)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('waitHealthy', () => {
  it('resolves once the service answers 2xx, not before', async () => {
    let calls = 0;
    const s = await server(() => (++calls < 3 ? 503 : 204));
    try {
      await waitHealthy(s.url, fakeService(), 10_000);
      expect(calls).toBe(3);
    } finally {
      await s.close();
    }
  });

  it('rejects with the last status when the time is up, and at once when the service exits', async () => {
    const s = await server(() => 503);
    try {
      await expect(waitHealthy(s.url, fakeService(), 300)).rejects.toThrow(/backend was not healthy at .* after 300 ms \(503\)/);
      await expect(waitHealthy(s.url, fakeService(Promise.resolve({ code: 1, signal: null })), 10_000)).rejects.toThrow('backend exited (1) before it was healthy');
    } finally {
      await s.close();
    }
  });
});
