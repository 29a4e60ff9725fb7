/**
 * Context ingestion and retrieval figures (issue 4).
 *
 *   npm run bench -- ingest [--sizes 10,60] [--direct 100] [--lines 100000] [--queries 200] [--started 40] [--against CHECKOUT] [--json]
 *
 * - HTTP: a generated build log of each size in MB (`--sizes`) is POSTed to a real backend
 *   (createApp on an ephemeral port, SQLite in a temp dir, local embeddings) and timed until
 *   the answer, which comes once the context is stored, embedded, indexed and its index file
 *   written. Peak RSS growth is sampled every 10 ms from just before the request body is made
 *   (client and server share this process: the client's copy of the body is included), and the
 *   event loop's lag meanwhile (a 10 ms timer: how late it fires; p99 and max).
 * - Direct: sizes above the 64 MiB body limit (`--direct`, default 100) go through the same
 *   pipeline (ingestContext) without HTTP.
 * - Retrieval: on a chat holding a `--lines`-line log, `--queries` questions through
 *   ChatContext.retrieve (database, embedding of the question, HNSW, exact terms); p50/p90.
 * - Started: on that chat, `--started` questions (default 40, the first 3 warm up) through
 *   POST /messages/send against a backend in its own process, timed from the request to the
 *   `started` event and to the end of the answer (the ratio is in the same run). `--against
 *   CHECKOUT`: a backend of that checkout too, the requests alternating (ratios in the same run).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { PING_INTERVAL_MS, createApp } from '../backend/app.js';
import { STREAM_LEASE_MS } from '../backend/config.js';
import { createLocalEngine } from '../backend/answer/local.js';
import { Lifecycle } from '../backend/lifecycle.js';
import { migrateLatest, openDb } from '../backend/db.js';
import { LocalEmbedder } from '../backend/retrieval/embed.js';
import { ingestContext } from '../backend/retrieval/ingest.js';
import { createContextService } from '../backend/services/context.js';
import { BACKEND_TOKEN, Jwt } from '../protocol/jwt.js';
import { readEvents } from '../protocol/sse.js';
import { signToken } from '../test/helpers/backend.js';
import { flag, freePort, summarize, waitHealthy } from './lib.js';

const TEMPLATES: ((i: number) => string)[] = [
  (i) => `[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/acme/lib-${i % 97}/1.${i % 13}.${i % 7}/lib-${i % 97}-1.${i % 13}.${i % 7}.pom`,
  (i) => `[INFO] Compiling ${i % 200} source files to /var/jenkins_home/workspace/app/module-${i % 31}/target/classes`,
  (i) => `[INFO] Tests run: ${i % 50}, Failures: 0, Errors: 0, Skipped: ${i % 3}, Time elapsed: ${(i % 1000) / 100} s - in com.acme.service${i % 41}.Service${i % 17}Test`,
  (i) => `    at com.acme.core.Handler${i % 23}.process(Handler${i % 23}.java:${i % 400})`,
  (i) => `npm WARN deprecated package-${i % 300}@${i % 9}.${i % 5}.0: this version is no longer supported`,
  (i) => `Step ${i % 20}/20 : RUN ./gradlew :app:compileKotlin --build-cache -Pbuild=${i}`,
  (i) => `\u001b[32m[2024-05-0${1 + (i % 9)}T12:${String(i % 60).padStart(2, '0')}:00Z]\u001b[0m worker-${i % 8} processed batch ${i} in ${i % 900} ms`,
  (i) => `+ curl -sf https://artifacts.example.com/builds/${i}/status`,
  () => '',
];

/** A build log of about `bytes` bytes with a real failure near the end and a secret in it. */
export function generateLog(bytes: number): string {
  const parts: string[] = ['Started by user admin', '+ export NPM_TOKEN=npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'];
  let size = 0;
  for (let i = 0; size < bytes - 600; i++) {
    const line = TEMPLATES[(i * 7) % TEMPLATES.length]!(i);
    parts.push(line);
    size += line.length + 1;
  }
  parts.push(
    '[ERROR] /var/jenkins_home/workspace/app/src/main/java/com/acme/UserService.java:[42,17] cannot find symbol',
    '[ERROR]   symbol:   method findByEmail(java.lang.String)',
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile)',
    'Finished: FAILURE',
  );
  return `${parts.join('\n')}\n`;
}

/** Lines of exactly `n` lines, same generator. */
function generateLines(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n - 4; i++) parts.push(TEMPLATES[(i * 7) % TEMPLATES.length]!(i));
  parts.push(
    '[ERROR] /var/jenkins_home/workspace/app/src/main/java/com/acme/UserService.java:[42,17] cannot find symbol',
    '[ERROR]   symbol:   method findByEmail(java.lang.String)',
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile)',
    'Finished: FAILURE',
  );
  return `${parts.join('\n')}\n`;
}

/** A backend of `checkout` in its own process on a chat holding `log` as its context. */
async function startedBackend(checkout: string, log: string): Promise<{ base: string; headers: Record<string, string>; chatId: number; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-started-'));
  const port = await freePort();
  const secret = randomBytes(32).toString('hex');
  const child = spawn(process.execPath, ['--import', 'tsx', 'backend/main.ts'], {
    cwd: checkout,
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dataDir, 'bench.sqlite')}`, BACKEND_PORT: String(port), JWT_SECRET: secret, DATA_DIR: dataDir, LOG_LEVEL: 'error', TYPING_DELAY_MS: '0', LLM_PROVIDER: 'local' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${await signToken(secret, 'bench', 3600)}`, 'content-type': 'application/json' };
  try {
    await waitHealthy(`${base}/healthz`);
    const chatId = ((await (await fetch(`${base}/chats/`, { method: 'POST', headers, body: '{}' })).json()) as { id: number }).id;
    const up = await fetch(`${base}/context/${chatId}/`, { method: 'POST', headers, body: JSON.stringify({ ciContext: { buildDetails: { number: 1, consoleLog: log } } }) });
    if (up.status !== 200) throw new Error(`context upload failed: ${up.status} ${await up.text()}`);
    return { base, headers, chatId, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * request -> `started` of POST /messages/send on a chat holding a `lines`-line context, against
 * a backend in its own process (a client in the same process would read the event only when
 * the server's work of the same turn is done). Each answer is read to its end before the next.
 * With `against` (another checkout), a backend of each, the requests alternating between them
 * (which goes first alternates too), so both see the same load; the floor is a plain GET of the
 * chat's first page on the same connection pool, measured the same way.
 */
async function startedLatency(log: string, lines: number, rounds: number, against?: string): Promise<Record<string, unknown>> {
  const checkouts = [process.cwd(), ...(against !== undefined ? [against] : [])];
  const backends = [];
  try {
    for (const checkout of checkouts) backends.push(await startedBackend(checkout, log));
    const startedMs: number[][] = checkouts.map(() => []);
    const totalMs: number[][] = checkouts.map(() => []);
    const floorMs: number[][] = checkouts.map(() => []);
    const questions = ['why did the build fail?', 'cannot find symbol findByEmail in UserService.java', 'which tests failed?', 'what did maven-compiler-plugin say?'];
    for (let i = 0; i < rounds + 3; i++) {
      for (let k = 0; k < backends.length; k++) {
        const j = (i + k) % backends.length;
        const { base, headers, chatId } = backends[j]!;
        let t = performance.now();
        const page = await fetch(`${base}/chats/${chatId}?limit=1`, { headers });
        await page.arrayBuffer();
        if (i >= 3) floorMs[j]!.push(performance.now() - t);
        t = performance.now();
        const res = await fetch(`${base}/messages/send`, { method: 'POST', headers, body: JSON.stringify({ chat_id: chatId, content: questions[i % questions.length] }) });
        let seen = false;
        for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
          if (e.event === 'started' && !seen) {
            seen = true;
            if (i >= 3) startedMs[j]!.push(performance.now() - t); // the first 3 warm up
          }
        }
        if (i >= 3) totalMs[j]!.push(performance.now() - t);
        // The backend finishes the answer's bookkeeping after `done`: the next question waits for it.
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const side = (j: number) => {
      const st = summarize(startedMs[j]!);
      return { n: st.n, p50Ms: st.p50, p99Ms: st.p99, maxMs: st.max, answerP50Ms: summarize(totalMs[j]!).p50, floorP50Ms: summarize(floorMs[j]!).p50 };
    };
    return { kind: 'started', lines, ...side(0), ...(against !== undefined ? { against, againstSide: side(1) } : {}) };
  } finally {
    for (const b of backends) await b.stop();
  }
}

/** Samples RSS every 10 ms; returns the peak growth over `base` when stopped. */
function rssSampler(): { stop(): number } {
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return peak - base;
    },
  };
}

const MB = 1024 * 1024;

export async function run(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const sizes = (flag(args, 'sizes') ?? '10,60').split(',').filter(Boolean).map(Number);
  const direct = (flag(args, 'direct') ?? '100').split(',').filter(Boolean).map(Number);
  const lineCount = Number(flag(args, 'lines') ?? 100_000);
  const queries = Number(flag(args, 'queries') ?? 200);
  const startedRounds = Number(flag(args, 'started') ?? 40);
  const startedAgainst = flag(args, 'against');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-ingest-'));
  const db = openDb(`sqlite:${path.join(dataDir, 'bench.sqlite')}`);
  await migrateLatest(db);
  const secret = 'b'.repeat(48);
  const embedder = new LocalEmbedder();
  const context = createContextService({ dataDir, embedder, db });
  const app = createApp({
    db,
    log: pino({ level: 'silent' }),
    jwtSecret: secret,
    dataDir,
    context,
    engine: createLocalEngine({ typingDelayMs: 0 }),
    lifecycle: new Lifecycle(),
    pingIntervalMs: PING_INTERVAL_MS,
    streamLeaseMs: STREAM_LEASE_MS,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const token = await Jwt.of(secret).sign(BACKEND_TOKEN, { sub: 'bench' }, 3600);
  const newChat = async (): Promise<number> => {
    const res = await fetch(`${url}/chats/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    return ((await res.json()) as { id: number }).id;
  };

  const results: Record<string, unknown>[] = [];
  try {
    for (const size of sizes) {
      const chatId = await newChat();
      global.gc?.();
      const rss = rssSampler();
      const log = generateLog(size * MB);
      const body = JSON.stringify({ ciContext: { currentScreen: 'bench', buildDetails: { number: 1, consoleLog: log } } });
      const bytes = Buffer.byteLength(body);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      // The event loop's lag while the upload runs: a timer every 10 ms, how late it fires.
      const lags: number[] = [];
      let expected = performance.now() + 10;
      const lagTimer = setInterval(() => {
        const now = performance.now();
        lags.push(Math.max(0, now - expected));
        expected = now + 10;
      }, 10);
      const res = await fetch(`${url}/context/${chatId}/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      const answer = (await res.json()) as { success?: boolean; detail?: string };
      const ms = performance.now() - t0;
      clearInterval(lagTimer);
      const lag = summarize(lags);
      const cpu = process.cpuUsage(cpu0);
      const growth = rss.stop();
      if (res.status !== 200) throw new Error(`upload of ${size} MB failed: ${res.status} ${answer.detail}`);
      const lines = log.split('\n').length - 1;
      results.push({
        kind: 'http',
        mb: size,
        bytes,
        lines,
        seconds: ms / 1000,
        mbPerSecond: bytes / MB / (ms / 1000),
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        peakRssGrowthMb: growth / MB,
        lagP99Ms: lag.p99,
        lagMaxMs: lag.max,
      });
    }
    for (const size of direct) {
      const chatId = await newChat();
      global.gc?.();
      const rss = rssSampler();
      const log = generateLog(size * MB);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const result = await ingestContext(context.deps, chatId, { buildDetails: { consoleLog: log } });
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const growth = rss.stop();
      results.push({
        kind: 'direct',
        mb: size,
        bytes: log.length,
        lines: result.logLineCount,
        chunks: result.chunkCount,
        seconds: ms / 1000,
        mbPerSecond: log.length / MB / (ms / 1000),
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        peakRssGrowthMb: growth / MB,
      });
    }
    if (queries > 0) {
      const chatId = await newChat();
      const log = generateLines(lineCount);
      await ingestContext(context.deps, chatId, { buildDetails: { consoleLog: log } });
      const questions = [
        'why did the build fail?',
        'cannot find symbol findByEmail in UserService.java',
        'maven-compiler-plugin error',
        'Handler7.java stack trace',
        'which tests failed in com.acme.service3',
        'compileKotlin build cache',
        'npm deprecated package-42',
        'worker-3 processed batch',
      ];
      // The first question after a restart rebuilds or loads the index: timed apart.
      const fresh = createContextService({ dataDir, embedder, db });
      const t0 = performance.now();
      await (await fresh.loadContext(chatId))!.retrieve(questions[0]!, 5);
      const coldMs = performance.now() - t0;
      const samples: number[] = [];
      for (let i = 0; i < queries; i++) {
        const t = performance.now();
        const ctx = await context.loadContext(chatId);
        await ctx!.retrieve(questions[i % questions.length]!, 5);
        samples.push(performance.now() - t);
      }
      const s = summarize(samples);
      results.push({ kind: 'retrieval', lines: lineCount, queries, p50Ms: s.p50, p90Ms: s.p90, maxMs: s.max, coldFromFileMs: coldMs });
      if (startedRounds > 0) results.push(await startedLatency(generateLines(lineCount), lineCount, startedRounds, startedAgainst === undefined ? undefined : path.resolve(startedAgainst)));
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  if (json) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  for (const r of results) {
    if (r.kind === 'started') {
      type Side = { n: number; p50Ms: number; p99Ms: number; maxMs: number; answerP50Ms: number; floorP50Ms: number };
      const x = r as Side & { lines: number; against?: string; againstSide?: Side };
      const line = (s: Side) =>
        `n=${s.n} p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms, max ${s.maxMs.toFixed(1)} ms (whole answer p50 ${s.answerP50Ms.toFixed(0)} ms; floor, GET of the chat's page, p50 ${s.floorP50Ms.toFixed(2)} ms)`;
      console.log(`request -> started on a ${x.lines}-line context: ${line(x)}`);
      if (x.againstSide) {
        console.log(`  ${x.against}: ${line(x.againstSide)}; p50 ratio this/against ${(x.p50Ms / x.againstSide.p50Ms).toFixed(3)}`);
      }
    } else if (r.kind === 'retrieval') {
      const x = r as { lines: number; p50Ms: number; p90Ms: number; maxMs: number; coldFromFileMs: number };
      console.log(
        `retrieval on ${x.lines} lines: p50 ${x.p50Ms.toFixed(2)} ms, p90 ${x.p90Ms.toFixed(2)} ms, max ${x.maxMs.toFixed(1)} ms; first query of a fresh process ${x.coldFromFileMs.toFixed(0)} ms`,
      );
    } else {
      const x = r as { kind: string; mb: number; lines: number; seconds: number; mbPerSecond: number; cpuSeconds: number; peakRssGrowthMb: number; lagP99Ms?: number; lagMaxMs?: number };
      const lag = x.lagP99Ms !== undefined ? `; event-loop lag p99 ${x.lagP99Ms.toFixed(1)} ms, max ${(x.lagMaxMs ?? 0).toFixed(0)} ms` : '';
      console.log(
        `${x.kind === 'http' ? 'HTTP  ' : 'direct'} ${String(x.mb).padStart(4)} MB (${x.lines} lines): ${x.seconds.toFixed(2)} s, ${x.mbPerSecond.toFixed(1)} MB/s, CPU ${x.cpuSeconds.toFixed(2)} s, peak RSS +${x.peakRssGrowthMb.toFixed(0)} MB${lag}`,
      );
    }
  }
}
