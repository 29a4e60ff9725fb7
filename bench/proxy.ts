import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BACKEND_TOKEN, Jwt } from '../protocol/jwt.js';
import { SseDecoder } from '../protocol/sse.js';
import { closedLoop, flag, fmt, freePort, haveWrk, httpGet, summarize, waitHealthy, wrkLoad } from './lib.js';

/**
 * `npm run bench -- proxy [--seconds 5] [--clients 32] [--streams 500] [--no-nginx] [--json]`
 *
 * Side by side in one run, each path measured against the same backend:
 *  1. `GET /chats/` under `--clients` concurrent keep-alive clients: the real backend
 *     (backend/main.ts, SQLite in a temp DATA_DIR) called directly, through the controller
 *     (controller/main.ts, its own process) and through nginx; p50/p99 and the added latency.
 *     Also one client alone (the pure cost of one hop, without queueing).
 *  2. SSE chunk crossing time: a stand-in backend in this process writes chunks whose content is
 *     the send time (performance.now()); the reader, also here, subtracts it on arrival.
 *  3. `--streams` concurrent SSE streams through one controller (and through nginx): errors,
 *     wall time and the proxy's peak RSS.
 * nginx is the Debian package (`apt-get install -y nginx`), one worker (the controller is one
 * event loop too), `proxy_buffering off`, `proxy_http_version 1.1`, keep-alive upstream.
 */
export async function run(args: string[]): Promise<void> {
  const seconds = Number(flag(args, 'seconds') ?? 5);
  const clients = Number(flag(args, 'clients') ?? 32);
  const streamCount = Number(flag(args, 'streams') ?? 500);
  const json = args.includes('--json');
  const useNginx = !args.includes('--no-nginx');
  const useWrk = haveWrk() && !args.includes('--node-client');
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-proxy-'));
  const secret = randomBytes(32).toString('hex');
  const user = 'bench-user';
  const children: ChildProcess[] = [];
  const stub = new StandInBackend();
  const result: Record<string, unknown> = { clients, seconds, streams: streamCount, cpus: os.cpus().length };

  try {
    // --- processes: the real backend, the controller in front of it, nginx in front of it
    const backendPort = await freePort();
    const backendUrl = `http://127.0.0.1:${backendPort}`;
    children.push(
      spawnTs('backend/main.ts', {
        DATABASE_URL: `sqlite:${path.join(tmp, 'bench.sqlite')}`,
        BACKEND_PORT: String(backendPort),
        JWT_SECRET: secret,
        DATA_DIR: tmp,
        LOG_LEVEL: 'error',
        LLM_PROVIDER: 'local',
      }),
    );
    await waitHealthy(`${backendUrl}/healthz`);
    const controllerPort = await freePort();
    const controllerUrl = `http://127.0.0.1:${controllerPort}`;
    const controller = spawnTs('controller/main.ts', {
      CONTROLLER_PORT: String(controllerPort),
      BACKEND_URL: backendUrl,
      JWT_SECRET: secret,
      DATA_DIR: tmp,
      CONTROLLER_USER: user,
    });
    children.push(controller);
    await waitHealthy(`${controllerUrl}/chatbot-api/healthz`);
    // The same controller without its fast path: every request through the Koa router, to show
    // whether the fast path still earns its place (issue 13).
    const routerPort = await freePort();
    const routerUrl = `http://127.0.0.1:${routerPort}`;
    const routerOnly = spawnTs('controller/main.ts', {
      CONTROLLER_PORT: String(routerPort),
      BACKEND_URL: backendUrl,
      JWT_SECRET: secret,
      DATA_DIR: tmp,
      CONTROLLER_USER: user,
      CONTROLLER_FAST_PATH: 'off',
    });
    children.push(routerOnly);
    await waitHealthy(`${routerUrl}/chatbot-api/healthz`);

    await stub.start();
    const stubControllerPort = await freePort();
    const stubController = spawnTs('controller/main.ts', {
      CONTROLLER_PORT: String(stubControllerPort),
      BACKEND_URL: stub.url,
      JWT_SECRET: secret,
      DATA_DIR: tmp,
      CONTROLLER_USER: user,
    });
    children.push(stubController);
    const stubControllerUrl = `http://127.0.0.1:${stubControllerPort}`;
    await waitHealthy(`${stubControllerUrl}/chatbot-api/healthz`);

    let nginx: Nginx | null = null;
    if (useNginx) {
      nginx = await startNginx(tmp, { backend: backendPort, stub: stub.port });
      if ('problem' in nginx) {
        say(`nginx: NOT MEASURED: ${nginx.problem}`);
        result.nginx = { problem: nginx.problem };
        nginx = null;
      } else {
        children.push(nginx.process);
      }
    }

    // a user with a page of chats, so that GET /chats/ does real work
    const token = await Jwt.of(secret).sign(BACKEND_TOKEN, { sub: user }, 3600);
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 20; i++) {
      await fetch(`${backendUrl}/chats/`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: `chat ${i}` }) });
    }

    // --- 1. GET /chats/ latency
    const targets: [string, string, Record<string, string>, number | undefined][] = [
      ['direct', `${backendUrl}/chats/`, auth, undefined],
      ['controller', `${controllerUrl}/chatbot-api/chats/`, {}, controller.pid],
      ['router', `${routerUrl}/chatbot-api/chats/`, {}, routerOnly.pid],
    ];
    if (nginx) targets.push(['nginx', `${nginx.url}/backend/chats/`, auth, nginx.process.pid]);
    const latency: Record<string, Record<string, unknown>> = {};
    for (const concurrency of [1, clients]) {
      say(`\nGET /chats/, ${concurrency} client${concurrency === 1 ? '' : 's'} (${useWrk ? 'wrk' : 'node client'}, ${seconds} s each, after a 1 s warm-up)`);
      const row: Record<string, ReturnType<typeof summarize> & { rps: number; errors: number; proxyCpuUsPerRequest: number }> = {};
      for (const [name, url, headers, pid] of targets) {
        if (useWrk) {
          // wrk (C, one thread per core) leaves the CPU to the servers; our client costs more than the proxy
          const { origin, pathname } = new URL(url);
          const load = { base: origin, requests: [{ path: pathname, headers }], concurrency };
          wrkLoad({ ...load, seconds: 1 });
          const cpu0 = cpuMs(pid);
          const w = wrkLoad({ ...load, seconds });
          const cpuPerRequest = ((cpuMs(pid) - cpu0) * 1000) / Math.max(1, w.requests);
          row[name] = { n: w.requests, mean: NaN, p50: w.p50, p90: w.p90, p99: w.p99, max: NaN, rps: Math.round(w.rps), errors: w.errors, proxyCpuUsPerRequest: cpuPerRequest };
        } else {
          await closedLoop({ concurrency, durationMs: 1000, request: (agent) => httpGet(agent, url, headers) });
          const cpu0 = cpuMs(pid);
          const r = await closedLoop({ concurrency, durationMs: seconds * 1000, maxRequests: 2_000_000, request: (agent) => httpGet(agent, url, headers) });
          const cpuPerRequest = ((cpuMs(pid) - cpu0) * 1000) / Math.max(1, r.latencies.length);
          row[name] = { ...summarize(r.latencies), rps: Math.round((r.latencies.length / r.elapsedMs) * 1000), errors: r.errors, proxyCpuUsPerRequest: cpuPerRequest };
        }
        const s = row[name]!;
        say(
          `  ${name.padEnd(10)} p50 ${fmt(s.p50)}  p99 ${fmt(s.p99)}  ${s.rps} req/s  errors ${s.errors}` +
            (pid === undefined ? '' : `  proxy CPU ${s.proxyCpuUsPerRequest.toFixed(0)} us/request`),
        );
      }
      const direct = row.direct!;
      for (const name of ['controller', 'router', 'nginx']) {
        const r = row[name];
        if (!r) continue;
        say(`  added by ${name.padEnd(10)} p50 ${fmt(r.p50 - direct.p50)}  p99 ${fmt(r.p99 - direct.p99)}`);
      }
      const fast = row.controller;
      const routed = row.router;
      if (fast && routed) {
        say(`  fast path / router: proxy CPU ${(fast.proxyCpuUsPerRequest / routed.proxyCpuUsPerRequest).toFixed(2)}x, req/s ${(fast.rps / routed.rps).toFixed(2)}x`);
      }
      latency[`clients_${concurrency}`] = {
        ...row,
        added_controller: { p50: row.controller!.p50 - direct.p50, p99: row.controller!.p99 - direct.p99 },
        ...(row.nginx ? { added_nginx: { p50: row.nginx.p50 - direct.p50, p99: row.nginx.p99 - direct.p99 } } : {}),
      };
    }
    result.get_chats = latency;

    // --- 2. SSE chunk crossing time
    const sseTargets: [string, string][] = [
      ['direct', `${stub.url}/stream`],
      ['controller', `${stubControllerUrl}/chatbot-api/stream`],
    ];
    if (nginx) sseTargets.push(['nginx', `${nginx.url}/stub/stream`]);
    say('\nSSE chunk crossing time (20 streams x 100 chunks, one every 10 ms)');
    const crossing: Record<string, unknown> = {};
    for (const [name, url] of sseTargets) {
      const r = await runStreams({ url, streams: 20, chunks: 100, intervalMs: 10 });
      const s = summarize(r.crossingMs);
      crossing[name] = { ...s, errors: r.errors };
      say(`  ${name.padEnd(10)} p50 ${fmt(s.p50)}  p99 ${fmt(s.p99)}  max ${fmt(s.max)}  errors ${r.errors}`);
    }
    result.sse_crossing = crossing;

    // --- 3. many concurrent streams
    say(`\n${streamCount} concurrent SSE streams (20 chunks, one every 50 ms, each)`);
    const many: Record<string, unknown> = {};
    const manyTargets: [string, string, ChildProcess | undefined][] = [['controller', `${stubControllerUrl}/chatbot-api/stream`, stubController]];
    if (nginx) manyTargets.push(['nginx', `${nginx.url}/stub/stream`, nginx.process]);
    for (const [name, url, proc] of manyTargets) {
      const withRss = name === 'controller' && proc !== undefined;
      const rssBefore = withRss ? peakRssMb(proc) : NaN;
      // warm the proxy (JIT, sockets) so that the burst measures steady work, not start-up
      await runStreams({ url, streams: 50, chunks: 2, intervalMs: 10 });
      const t0 = performance.now();
      const cpu0 = cpuMs(proc?.pid);
      const r = await runStreams({ url, streams: streamCount, chunks: 20, intervalMs: 50 });
      const wall = performance.now() - t0;
      const cpu = cpuMs(proc?.pid) - cpu0;
      const s = summarize(r.crossingMs);
      const rss = withRss ? peakRssMb(proc) : NaN;
      many[name] = { errors: r.errors, completed: r.completed, wallMs: wall, crossing: s, proxyCpuMs: cpu, peakRssMb: rss, peakRssBeforeMb: rssBefore };
      say(
        `  ${name.padEnd(10)} completed ${r.completed}/${streamCount}  errors ${r.errors}  wall ${fmt(wall)}  ` +
          `crossing p50 ${fmt(s.p50)} p99 ${fmt(s.p99)}  proxy CPU ${cpu.toFixed(0)} ms${withRss ? `  peak RSS ${rss.toFixed(0)} MB` : ''}`,
      );
    }
    result.concurrent_streams = many;

    if (nginx) {
      const c32 = latency[`clients_${clients}`] as Record<string, { p50: number; p99: number; rps: number }>;
      const ratios = {
        get_chats_p50: c32.controller!.p50 / c32.nginx!.p50,
        get_chats_p99: c32.controller!.p99 / c32.nginx!.p99,
        get_chats_rps: c32.controller!.rps / c32.nginx!.rps,
        sse_crossing_p99:
          (crossing.controller as { p99: number }).p99 / (crossing.nginx as { p99: number }).p99,
      };
      result.ratio_controller_over_nginx = ratios;
      say('\nratio controller / nginx');
      say(`  GET /chats/ (${clients} clients) p50 ${ratios.get_chats_p50.toFixed(2)}  p99 ${ratios.get_chats_p99.toFixed(2)}  throughput ${ratios.get_chats_rps.toFixed(2)}`);
      say(`  SSE crossing p99 ${ratios.sse_crossing_p99.toFixed(2)}`);
    }
    if (json) console.log(JSON.stringify(result, null, 2));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await stub.close();
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Starts a service with the product's defaults (the controller writes its access log at info;
 * `BENCH_LOG_LEVEL=warn` measures without it); its log goes to a file beside its data
 * (`<DATA_DIR>/<name>-<port>.log`), not to the terminal.
 */
function spawnTs(entry: string, env: Record<string, string>): ChildProcess {
  const port = env.CONTROLLER_PORT ?? env.BACKEND_PORT ?? 'x';
  const logFd = fs.openSync(path.join(env.DATA_DIR ?? os.tmpdir(), `${path.basename(path.dirname(entry))}-${port}.log`), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}), ...env },
    stdio: ['ignore', 'ignore', logFd],
  });
  fs.closeSync(logFd);
  return child;
}


/** CPU time (user + system) of a process and its children processes (nginx workers), in ms. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const ticks = (p: number): number => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      return NaN;
    }
  };
  let total = ticks(pid);
  try {
    for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)) {
      if (child) total += ticks(Number(child));
    }
  } catch {
    /* no children list */
  }
  return (total * 1000) / 100; // USER_HZ is 100 on Linux
}

/** Peak resident set of a child process (VmHWM), in MB; NaN where /proc is not available. */
function peakRssMb(child: ChildProcess): number {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * A stand-in backend answering `GET /stream?chunks=N&interval=MS` with an SSE stream whose
 * chunks carry their send time, and `/healthz`.
 */
class StandInBackend {
  private server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
      return;
    }
    const chunks = Math.min(10_000, Number(url.searchParams.get('chunks') ?? 10));
    const interval = Number(url.searchParams.get('interval') ?? 10);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    res.write(`data: ${JSON.stringify({ event: 'started', qa_pair_id: 1 })}\n\n`);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent === chunks) {
        clearInterval(timer);
        res.end(`data: ${JSON.stringify({ event: 'done' })}\n\n`);
        return;
      }
      sent++;
      res.write(`data: ${JSON.stringify({ event: 'chunk', content: String(performance.now()) })}\n\n`);
    }, interval);
    res.on('close', () => clearInterval(timer));
  });
  url = '';
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Opens `streams` SSE streams at once and reads each to its end; a stream counts as an error unless it ends with `done` after every chunk. */
async function runStreams(opts: { url: string; streams: number; chunks: number; intervalMs: number }): Promise<{
  crossingMs: number[];
  errors: number;
  completed: number;
}> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: opts.streams + 10 });
  const crossingMs: number[] = [];
  let errors = 0;
  let completed = 0;
  const url = `${opts.url}?chunks=${opts.chunks}&interval=${opts.intervalMs}`;
  const timeoutMs = opts.chunks * opts.intervalMs + 30_000;
  await Promise.all(
    Array.from(
      { length: opts.streams },
      () =>
        new Promise<void>((resolve) => {
          let seenChunks = 0;
          let done = false;
          const finish = (ok: boolean) => {
            clearTimeout(timer);
            if (ok) completed++;
            else errors++;
            resolve();
          };
          const req = http.get(url, { agent }, (res) => {
            if (res.statusCode !== 200) {
              res.resume();
              finish(false);
              return;
            }
            const decoder = new SseDecoder();
            res.setEncoding('utf8');
            res.on('data', (text: string) => {
              const now = performance.now();
              for (const payload of decoder.push(text)) {
                const event = JSON.parse(payload) as { event: string; content?: string };
                if (event.event === 'chunk') {
                  seenChunks++;
                  crossingMs.push(now - Number(event.content));
                } else if (event.event === 'done') done = true;
              }
            });
            res.on('end', () => finish(done && seenChunks === opts.chunks));
            res.on('error', () => finish(false));
          });
          req.on('error', () => finish(false));
          const timer = setTimeout(() => req.destroy(new Error('stream timed out')), timeoutMs);
        }),
    ),
  );
  agent.destroy();
  return { crossingMs, errors, completed };
}

type Nginx = { url: string; process: ChildProcess } | { problem: string };

/** Starts nginx on a free port with a generated config in `dir`: `/backend/` and `/stub/` proxied. */
async function startNginx(dir: string, upstreams: { backend: number; stub: number }): Promise<Nginx> {
  const binary = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (!binary) return { problem: 'nginx is not installed (Debian: apt-get install -y nginx)' };
  const port = await freePort();
  const root = path.join(dir, 'nginx');
  fs.mkdirSync(root, { recursive: true });
  const location = (prefix: string, upstream: string) => `
    location ${prefix} {
      proxy_pass http://${upstream}/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_cache off;
      proxy_read_timeout 3600s;
    }`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const conf = `
${isRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${root}/body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  keepalive_requests 1000000;
  upstream cichat_backend { server 127.0.0.1:${upstreams.backend}; keepalive 64; keepalive_requests 1000000; }
  upstream cichat_stub { server 127.0.0.1:${upstreams.stub}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    ${location('/backend/', 'cichat_backend')}
    ${location('/stub/', 'cichat_stub')}
  }
}
`;
  const confFile = path.join(root, 'nginx.conf');
  fs.writeFileSync(confFile, conf);
  const check = spawnSync(binary, ['-t', '-c', confFile, '-p', root], { encoding: 'utf8' });
  if (check.status !== 0) return { problem: `nginx -t failed: ${check.stderr.trim()}` };
  const child = spawn(binary, ['-c', confFile, '-p', root], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(`${url}/stub/healthz`);
  } catch (err) {
    child.kill('SIGTERM');
    return { problem: (err as Error).message };
  }
  const version = spawnSync(binary, ['-v'], { encoding: 'utf8' }).stderr.trim();
  console.error(`(${version}, 1 worker, proxy_buffering off)`);
  return { url, process: child };
}
