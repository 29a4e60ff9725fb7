import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
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

/** True when `wrk` (Debian package) is on PATH: a C load generator that costs far less than ours. */
export function haveWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

/**
 * Runs wrk against `requests` (path + headers, cycled), `concurrency` connections on 2 threads,
 * and returns its latency percentiles (ms) and throughput.
 */
export function wrkLoad(opts: {
  base: string;
  requests: { path: string; headers: Record<string, string> }[];
  concurrency: number;
  seconds: number;
}): { p50: number; p90: number; p99: number; rps: number; requests: number; errors: number } {
  const lua = [
    'local reqs = {',
    ...opts.requests.map(
      (r) =>
        `  {${JSON.stringify(r.path)}, {${Object.entries(r.headers)
          .map(([k, v]) => `[${JSON.stringify(k)}]=${JSON.stringify(v)}`)
          .join(', ')}}},`,
    ),
    '}',
    'local i = math.random(#reqs)',
    'request = function()',
    '  i = (i % #reqs) + 1',
    '  return wrk.format("GET", reqs[i][1], reqs[i][2])',
    'end',
  ].join('\n');
  const script = path.join(os.tmpdir(), `cichat-wrk-${process.pid}-${Date.now()}.lua`);
  fs.writeFileSync(script, lua);
  try {
    const res = spawnSync(
      'wrk',
      [`-t${Math.min(2, opts.concurrency)}`, `-c${opts.concurrency}`, `-d${opts.seconds}s`, '--latency', '-s', script, opts.base],
      { encoding: 'utf8', timeout: (opts.seconds + 30) * 1000 },
    );
    if (res.status !== 0) throw new Error(`wrk failed: ${res.stderr || res.error?.message}`);
    const out = res.stdout;
    const pct = (p: string) => {
      const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
      if (!m) return NaN;
      const v = Number(m[1]);
      return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
    };
    const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const errors = non2xx + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
    return { p50: pct('50'), p90: pct('90'), p99: pct('99'), rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN), requests: total, errors };
  } finally {
    fs.rmSync(script, { force: true });
  }
}
