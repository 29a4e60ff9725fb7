import http from 'node:http';
import net from 'node:net';

/** Percentile of a sorted array (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[]): { n: number; p50: number; p90: number; p99: number; max: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return { n: s.length, p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s.at(-1) ?? NaN, mean };
}

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Closed-loop load: `concurrency` clients each issue requests back to back (keep-alive) for
 * `durationMs` (bounded also by `maxRequests`); returns per-request latencies in ms.
 */
export async function closedLoop(opts: {
  concurrency: number;
  durationMs: number;
  maxRequests?: number;
  request: (agent: http.Agent, i: number) => Promise<number>;
}): Promise<{ latencies: number[]; errors: number; elapsedMs: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const start = performance.now();
  const deadline = start + opts.durationMs;
  const max = opts.maxRequests ?? Infinity;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < deadline && issued < max) {
        const i = issued++;
        const t0 = performance.now();
        try {
          const status = await opts.request(agent, i);
          if (status >= 400) errors++;
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  agent.destroy();
  return { latencies, errors, elapsedMs: performance.now() - start };
}

/** A GET with node:http (lower overhead than fetch for load generation); resolves the status. */
export function httpGet(agent: http.Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Polls a health URL until it answers 2xx (60 s at most). */
export async function waitHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become healthy within ${Math.round(timeoutMs / 1000)} s`);
}
