/**
 * `npm run bench -- upload [--mb 1024] [--busy-mb 500] [--streams 100] [--stream-seconds 10]
 *  [--port 47000] [--keep FILE] [--json-mb N] [--json]` (`--mb 0` skips part 1, `--streams 0` part 3): a huge log uploaded through the controller (issue 28).
 *
 * A real backend (backend/main.ts, SQLite in a temp DATA_DIR, the offline engine, TYPING_DELAY_MS
 * 15) and a real controller in front of it (controller/main.ts), each its own process; the
 * uploads are `curl -T FILE` (its own process too: the bench's event loop only reads answers)
 * to the raw route `POST /chatbot-api/context/{id}/log`, text/plain. A generated build log
 * (bench/ingest.ts's generator) of `--mb` MB is written to a temp file first.
 *
 *  0. With `--json-mb N` (< 64): the JSON upload of the original client, an N MB consoleLog in
 *     `{ciContext}`, through the controller's context route: peak RSS growth of both processes.
 *  1. `--mb` uploaded: peak RSS growth (VmRSS sampled every 20 ms, over RSS after a small warm-up
 *     upload) of the controller and of the backend; seconds per 100 MB, request to response
 *     (the response comes once the context is stored, indexed and embedded).
 *  2. A chat-list request (`GET /chatbot-api/chats/`) every 50 ms for 5 s, then while `--busy-mb`
 *     MB upload: its latency.
 *  3. `--streams` answer streams for `--stream-seconds` without any upload (each stream sends a
 *     question in its own chat, reads the answer's events, and asks again; the gaps between
 *     consecutive `chunk` events are the chunk latency), then the same streams while another
 *     `--busy-mb` MB upload: the gaps' p99 against those without.
 *
 * Targets (issue 28): controller growth <= 64 MB, backend <= 300 MB, <= 10 s per 100 MB; chat
 * list p99 <= 50 ms and max <= 200 ms; chunk gap p99 during the upload <= 2x without it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readEvents } from '../protocol/sse.js';
import { generateLog } from './ingest.js';
import { flag, summarize, waitHealthy } from './lib.js';

const MB = 1024 * 1024;

function spawnTs(entry: string, env: Record<string, string>, logFile: string): ChildProcess {
  const logFd = fs.openSync(logFile, 'a');
  // BENCH_PROF_DIR=dir: CPU profiles of the servers (written when they exit), to find a stall's cause.
  const prof = process.env.BENCH_PROF_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROF_DIR] : [];
  // BENCH_NODE_FLAGS="--trace-gc ...": more flags for both servers (their stdout goes to the log file then).
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  const child = spawn(process.execPath, [...prof, ...extra, '--import', 'tsx', entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', extra.length > 0 ? logFd : 'ignore', logFd],
  });
  fs.closeSync(logFd);
  return child;
}

function rssMb(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds (user + system) of a process and of its main thread (the thread whose id is the
 * pid: the event loop) so far, from /proc: what the upload costs the event loop, whatever the
 * machine's load (a latency under load also counts the waits for a core).
 */
function cpuSeconds(pid: number | undefined): { process: number; mainThread: number } {
  const ticks = (file: string): number => {
    try {
      const stat = fs.readFileSync(file, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return NaN;
    }
  };
  return { process: ticks(`/proc/${pid}/stat`), mainThread: ticks(`/proc/${pid}/task/${pid}/stat`) };
}

/**
 * The scheduler's account of a process's main thread (/proc/PID/task/PID/schedstat): seconds on
 * a core, seconds runnable but waiting for one, and timeslices. The wait is what a request pays
 * for the machine's other work (our worker threads, the other process, everything else).
 */
function schedstat(pid: number | undefined): { onCpu: number; waiting: number; slices: number } {
  try {
    const [run, wait, slices] = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { onCpu: run! / 1e9, waiting: wait! / 1e9, slices: slices! };
  } catch {
    return { onCpu: NaN, waiting: NaN, slices: NaN };
  }
}

/** Peak RSS of each pid while `work` runs, sampled every 20 ms. */
async function peakRss<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; peak: number[] }> {
  const peak = pids.map((p) => rssMb(p));
  const timer = setInterval(() => pids.forEach((p, i) => (peak[i] = Math.max(peak[i]!, rssMb(p)))), 20);
  try {
    const result = await work();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

/** `curl` uploads the first `bytes` of the file as the body (streamed from disk). */
async function upload(url: string, file: string, bytes: number): Promise<{ status: number; body: string; seconds: number }> {
  const t0 = performance.now();
  const child = spawn('bash', ['-c', `head -c ${bytes} "$0" | curl -sS -X POST -T - -H 'content-type: text/plain' -H 'Expect:' -w '\\n%{http_code}' "$1"`, file, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const nl = out.lastIndexOf('\n');
  return { status: Number(out.slice(nl + 1)), body: out.slice(0, nl), seconds: (performance.now() - t0) / 1000 };
}

/** `curl` posts a JSON file as the body. */
async function uploadJson(url: string, file: string): Promise<{ status: number; body: string; seconds: number }> {
  const t0 = performance.now();
  const child = spawn('curl', ['-sS', '-X', 'POST', '--data-binary', `@${file}`, '-H', 'content-type: application/json', '-H', 'Expect:', '-w', '\n%{http_code}', url], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const nl = out.lastIndexOf('\n');
  return { status: Number(out.slice(nl + 1)), body: out.slice(0, nl), seconds: (performance.now() - t0) / 1000 };
}

/** JSON request through the controller. */
async function call<T>(base: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${route}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Answer streams, one per chat, asking again and again until `until()`: the gaps between chunks. */
async function streams(base: string, chats: number[], until: () => boolean): Promise<{ gaps: number[]; answers: number; errors: number }> {
  const gaps: number[] = [];
  let answers = 0;
  let errors = 0;
  await Promise.all(
    chats.map(async (chatId) => {
      while (!until()) {
        try {
          const res = await fetch(`${base}/messages/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: chatId, content: 'why did the build fail?' }) });
          if (res.status !== 200) {
            errors++;
            await res.body?.cancel();
            await new Promise((r) => setTimeout(r, 50));
            continue;
          }
          let last = -1;
          for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
            if (e.event !== 'chunk') continue;
            const now = performance.now();
            if (last >= 0) gaps.push(now - last);
            last = now;
          }
          answers++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { gaps, answers, errors };
}

/** GET the chat list every `everyMs` (the next one `everyMs` after the last began, or at once if it took longer). */
async function poll(url: string, everyMs: number, until: () => boolean): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  try {
    while (!until()) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        http
          .get(url, { agent }, (res) => {
            res.resume();
            res.once('end', () => resolve());
          })
          .once('error', reject);
      });
      const took = performance.now() - t0;
      latencies.push(took);
      if (took < everyMs) await new Promise((r) => setTimeout(r, everyMs - took));
    }
  } finally {
    agent.destroy();
  }
  return latencies;
}

const ok = (pass: boolean): string => (pass ? 'met' : 'NOT MET');

export async function run(args: string[]): Promise<void> {
  const json = args.includes('--json');
  const mb = Number(flag(args, 'mb') ?? 1024);
  const busyMb = Number(flag(args, 'busy-mb') ?? 500);
  const jsonMb = Number(flag(args, 'json-mb') ?? 0);
  const streamCount = Number(flag(args, 'streams') ?? 100);
  const streamSeconds = Number(flag(args, 'stream-seconds') ?? 10);
  const portBase = Number(flag(args, 'port') ?? 47000);
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-upload-'));
  // BENCH_LOG_DIR=dir: the servers' logs kept there (BENCH_LOG_LEVEL=info: one line per request, with its ms).
  const logDir = process.env.BENCH_LOG_DIR ?? tmp;
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'error';
  const file = flag(args, 'keep') ?? path.join(tmp, 'generated.log');
  const children: ChildProcess[] = [];
  const result: Record<string, unknown> = {};
  try {
    const need = Math.max(mb, busyMb, jsonMb) * MB;
    // The generator may write a few bytes less than asked: a file within 1 MB of the size is reused.
    if (!fs.existsSync(file) || fs.statSync(file).size < need - MB) {
      const fd = fs.openSync(file, 'w');
      for (let written = 0; written < need; written += 50 * MB) fs.writeSync(fd, generateLog(Math.min(50 * MB, need - written)));
      fs.closeSync(fd);
    }
    const backendPort = portBase;
    const controllerPort = portBase + 1;
    const secret = randomBytes(32).toString('hex');
    const backend = spawnTs(
      'backend/main.ts',
      { DATABASE_URL: `sqlite:${path.join(tmp, 'bench.sqlite')}`, BACKEND_PORT: String(backendPort), JWT_SECRET: secret, DATA_DIR: tmp, LOG_LEVEL: logLevel, LLM_PROVIDER: 'local', TYPING_DELAY_MS: '15' },
      path.join(logDir, 'backend.log'),
    );
    children.push(backend);
    await waitHealthy(`http://127.0.0.1:${backendPort}/healthz`);
    const controller = spawnTs(
      'controller/main.ts',
      { CONTROLLER_PORT: String(controllerPort), BACKEND_URL: `http://127.0.0.1:${backendPort}`, JWT_SECRET: secret, DATA_DIR: tmp, CONTROLLER_USER: 'bench-user', LOG_LEVEL: logLevel },
      path.join(logDir, 'controller.log'),
    );
    children.push(controller);
    const base = `http://127.0.0.1:${controllerPort}/chatbot-api`;
    await waitHealthy(`${base}/healthz`);
    const pids = [controller.pid!, backend.pid!];
    const newChat = async (): Promise<number> => (await call<{ id: number }>(base, 'POST', '/chats/', {})).id;

    // Warm-up: a small upload and an answer load the ingestion worker and the engine.
    const warm = await newChat();
    const w = await upload(`${base}/context/${warm}/log`, file, 2 * MB);
    if (w.status !== 200) throw new Error(`warm-up upload: ${w.status} ${w.body}`);
    await streams(base, [warm], (() => {
      let n = 0;
      return () => n++ > 0;
    })());
    await new Promise((r) => setTimeout(r, 1000));

    // 0. `--json-mb N`: the original client's JSON upload ({ciContext} with an N MB consoleLog,
    // N < 64) through the controller's context route: peak RSS growth of both processes.
    if (jsonMb > 0) {
      const jsonFile = path.join(tmp, 'upload.json');
      const fd = fs.openSync(file, 'r');
      const text = Buffer.alloc(jsonMb * MB);
      fs.readSync(fd, text, 0, text.length, 0);
      fs.closeSync(fd);
      fs.writeFileSync(jsonFile, JSON.stringify({ ciContext: { buildDetails: { number: 1, consoleLog: text.toString('utf8').replace(/\uFFFD+$/, '') } } }));
      const chat = await newChat();
      const rss0 = pids.map(rssMb);
      const sent = await peakRss(pids, () => uploadJson(`${base}/context/${chat}`, jsonFile));
      if (sent.result.status !== 200) throw new Error(`JSON upload: ${sent.result.status} ${sent.result.body.slice(0, 300)}`);
      const growth = sent.peak.map((p, i) => p - rss0[i]!);
      result.jsonUpload = { mb: jsonMb, seconds: sent.result.seconds, controllerRssMb: { before: rss0[0], peak: sent.peak[0], growth: growth[0] }, backendRssMb: { before: rss0[1], peak: sent.peak[1], growth: growth[1] } };
      say(`0. JSON upload, ${jsonMb} MB consoleLog through the controller: ${sent.result.seconds.toFixed(1)} s; controller RSS ${rss0[0]!.toFixed(0)} -> peak ${sent.peak[0]!.toFixed(0)} MB (+${growth[0]!.toFixed(0)}), backend RSS ${rss0[1]!.toFixed(0)} -> peak ${sent.peak[1]!.toFixed(0)} MB (+${growth[1]!.toFixed(0)})`);
    }

    // 1. The big upload: memory and time (`--mb 0` skips it).
    if (mb > 0) {
      const size = Math.min(mb * MB, fs.statSync(file).size);
      const chat = await newChat();
      const rss0 = pids.map(rssMb);
      const big = await peakRss(pids, () => upload(`${base}/context/${chat}/log`, file, size));
      if (big.result.status !== 200) throw new Error(`upload of ${mb} MB: ${big.result.status} ${big.result.body.slice(0, 300)}`);
      const growth = big.peak.map((p, i) => p - rss0[i]!);
      const per100 = big.result.seconds / (size / (100 * MB));
      const lines = (JSON.parse(big.result.body) as { log_lines?: number }).log_lines;
      result.upload = { mb: size / MB, lines, seconds: big.result.seconds, secondsPer100Mb: per100, controllerRssMb: { before: rss0[0], peak: big.peak[0], growth: growth[0] }, backendRssMb: { before: rss0[1], peak: big.peak[1], growth: growth[1] } };
      say(`1. ${(size / MB).toFixed(0)} MB (${lines} lines) through the controller: ${big.result.seconds.toFixed(1)} s, ${per100.toFixed(2)} s per 100 MB (target <= 10: ${ok(per100 <= 10)})`);
      say(`   controller RSS ${rss0[0]!.toFixed(0)} -> peak ${big.peak[0]!.toFixed(0)} MB, +${growth[0]!.toFixed(0)} MB (target <= 64: ${ok(growth[0]! <= 64)}); backend RSS ${rss0[1]!.toFixed(0)} -> peak ${big.peak[1]!.toFixed(0)} MB, +${growth[1]!.toFixed(0)} MB (target <= 300: ${ok(growth[1]! <= 300)})`);
    }

    // 2. The chat list alone, then during an upload (`--busy-mb 0` skips it and part 3).
    const busySize = Math.min(busyMb * MB, fs.statSync(file).size);
    let uploading = false;
    if (busySize > 0) {
      const quietEnd = performance.now() + 5000;
      const quietList = summarize(await poll(`${base}/chats/`, 50, () => performance.now() > quietEnd));
      const listChat = await newChat();
      uploading = true;
      const cpu0 = cpuSeconds(backend.pid);
      const sched0 = [schedstat(backend.pid), schedstat(controller.pid)];
      const listUpload = upload(`${base}/context/${listChat}/log`, file, busySize).finally(() => (uploading = false));
      const list = summarize(await poll(`${base}/chats/`, 50, () => !uploading));
      const listDone = await listUpload;
      const cpu1 = cpuSeconds(backend.pid);
      const sched1 = [schedstat(backend.pid), schedstat(controller.pid)];
      const waits = sched1.map((b, i) => ({ waitingSeconds: b.waiting - sched0[i]!.waiting, msPerSlice: ((b.waiting - sched0[i]!.waiting) * 1000) / Math.max(1, b.slices - sched0[i]!.slices) }));
      if (listDone.status !== 200) throw new Error(`upload of ${busyMb} MB: ${listDone.status} ${listDone.body.slice(0, 300)}`);
      const backendCpu = { process: cpu1.process - cpu0.process, mainThread: cpu1.mainThread - cpu0.mainThread };
      result.chatList = { quiet: quietList, duringUpload: list, uploadSeconds: listDone.seconds, backendCpuSeconds: backendCpu, mainThreadWaits: { backend: waits[0], controller: waits[1] } };
      say(`2. chat list every 50 ms during a ${(busySize / MB).toFixed(0)} MB upload (${listDone.seconds.toFixed(1)} s, n=${list.n}): p50 ${list.p50.toFixed(1)} ms, p99 ${list.p99.toFixed(1)} ms (target <= 50: ${ok(list.p99 <= 50)}), max ${list.max.toFixed(0)} ms (target <= 200: ${ok(list.max <= 200)}); without the upload p50 ${quietList.p50.toFixed(1)}, p99 ${quietList.p99.toFixed(1)}, max ${quietList.max.toFixed(0)} ms; backend CPU during it ${backendCpu.process.toFixed(1)} s, of which its main thread (the event loop, polls included) ${backendCpu.mainThread.toFixed(1)} s; main threads runnable but waiting for a core: backend ${waits[0]!.waitingSeconds.toFixed(2)} s (${waits[0]!.msPerSlice.toFixed(2)} ms a timeslice), controller ${waits[1]!.waitingSeconds.toFixed(2)} s (${waits[1]!.msPerSlice.toFixed(2)} ms)`);
    }

    // 3. The streams alone, then the same streams during an upload (`--streams 0` skips it).
    if (streamCount > 0 && busySize > 0) {
      const chats = await Promise.all(Array.from({ length: streamCount }, () => newChat()));
      const streamsEnd = performance.now() + streamSeconds * 1000;
      const quiet = await streams(base, chats, () => performance.now() > streamsEnd);
      const q = summarize(quiet.gaps);
      const busyChat = await newChat();
      uploading = true;
      const up = upload(`${base}/context/${busyChat}/log`, file, busySize).finally(() => (uploading = false));
      const busy = await streams(base, chats, () => !uploading);
      const busyUpload = await up;
      if (busyUpload.status !== 200) throw new Error(`upload of ${busyMb} MB: ${busyUpload.status} ${busyUpload.body.slice(0, 300)}`);
      const b = summarize(busy.gaps);
      const ratio = b.p99 / q.p99;
      result.streams = { n: streamCount, quiet: { ...q, answers: quiet.answers, errors: quiet.errors }, duringUpload: { ...b, answers: busy.answers, errors: busy.errors, uploadSeconds: busyUpload.seconds }, p99Ratio: ratio };
      say(`3. ${streamCount} answer streams, gap between chunks (TYPING_DELAY_MS 15): without an upload p50 ${q.p50.toFixed(1)} p99 ${q.p99.toFixed(1)} max ${q.max.toFixed(0)} ms (${quiet.answers} answers, ${quiet.errors} errors); during a ${(busySize / MB).toFixed(0)} MB upload (${busyUpload.seconds.toFixed(1)} s) p50 ${b.p50.toFixed(1)} p99 ${b.p99.toFixed(1)} max ${b.max.toFixed(0)} ms (${busy.answers} answers, ${busy.errors} errors): p99 ${ratio.toFixed(2)}x (target <= 2: ${ok(ratio <= 2)})`);
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (json) console.log(JSON.stringify(result, null, 2));
}
