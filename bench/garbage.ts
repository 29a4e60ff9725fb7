import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readEvents } from '../protocol/sse.js';
import { flag, freePort, summarize, waitHealthy } from './lib.js';

/**
 * `npm run bench -- garbage [--garbage 1100] [--clients 100] [--ulimit 1024] [--wait 90] [--json]`
 *
 * Issue 24's soak of hostile connections. The real backend and the real controller run as
 * processes (SQLite in a temp DATA_DIR, offline engine, no typing delay), the controller under
 * `ulimit -n --ulimit`. First `--clients` real clients each create a chat, list chats and read
 * one answer stream to its end, with nothing else going on: the baseline. Then `--garbage`
 * connections are opened and held by clients that never close their side (silent ones, half
 * headers, a body that never comes, CONNECT, not-HTTP bytes, an unknown method, oversized
 * headers, in turn), and the same real clients run again at once. A real client whose
 * connection is refused or reset (the controller out of descriptors) tries again after 250 ms,
 * as a person would. Reported: real clients served and their time (with garbage vs baseline),
 * retries, the controller's open descriptors (/proc/<pid>/fd) at the start, at the peak, and
 * how long after the garbage was opened they were back at the start, and how the garbage
 * connections ended (closed by the server, with which answer).
 */
export async function run(args: string[]): Promise<void> {
  const garbageCount = Number(flag(args, 'garbage') ?? 1100);
  const clientCount = Number(flag(args, 'clients') ?? 100);
  const fdLimit = Number(flag(args, 'ulimit') ?? 1024);
  const waitSeconds = Number(flag(args, 'wait') ?? 90);
  const json = args.includes('--json');
  const say = (text: string): void => {
    if (!json) console.log(text);
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-garbage-'));
  const secret = randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];
  const garbage: net.Socket[] = [];
  try {
    const backendPort = await freePort();
    const backendUrl = `http://127.0.0.1:${backendPort}`;
    children.push(
      spawnTs('backend/main.ts', {
        DATABASE_URL: `sqlite:${path.join(tmp, 'garbage.sqlite')}`,
        BACKEND_PORT: String(backendPort),
        JWT_SECRET: secret,
        DATA_DIR: path.join(tmp, 'backend'),
        LOG_LEVEL: 'error',
        LLM_PROVIDER: 'local',
        TYPING_DELAY_MS: '0',
      }),
    );
    await waitHealthy(`${backendUrl}/healthz`);
    const controllerPort = await freePort();
    const base = `http://127.0.0.1:${controllerPort}`;
    const controller = spawnTs(
      'controller/main.ts',
      {
        CONTROLLER_PORT: String(controllerPort),
        BACKEND_URL: backendUrl,
        JWT_SECRET: secret,
        DATA_DIR: path.join(tmp, 'controller'),
        JENKINS_HOME: path.resolve('seeds/jenkins-home'),
        LOG_LEVEL: 'error',
      },
      fdLimit,
    );
    children.push(controller);
    await waitHealthy(`${base}/chatbot-api/healthz`);
    const fds = (): number => openFds(controller.pid);

    // Warm-up, then the descriptors at rest (the proxy's idle socket to the backend included).
    const warm = await realClients(base, 1);
    if (warm.served !== 1) throw new Error(`the warm-up client was not served: ${warm.errors.join('; ')}`);
    await sleep(500);
    const startFds = fds();
    say(`controller: ulimit -n ${fdLimit}, ${startFds} open descriptors at rest`);

    const baseline = await realClients(base, clientCount);
    say(`baseline: ${baseline.served}/${clientCount} real clients served in ${baseline.wallMs} ms (p50 ${baseline.p50} ms, p90 ${baseline.p90} ms), ${baseline.retries} retries`);
    // Let the baseline's kept-alive connections go (keep-alive bound) before the garbage.
    await waitFor(() => fds() <= startFds, 40_000);

    let peak = fds();
    const sampler = setInterval(() => (peak = Math.max(peak, fds())), 100);
    const opened = Date.now();
    const ends = await openGarbage(controllerPort, garbageCount, garbage);
    const afterOpen = fds();
    const loaded = await realClients(base, clientCount);
    say(
      `with ${garbageCount} garbage connections held: ${loaded.served}/${clientCount} real clients served in ${loaded.wallMs} ms (p50 ${loaded.p50} ms, p90 ${loaded.p90} ms), ${loaded.retries} retries; controller fds ${afterOpen} after opening the garbage`,
    );
    if (loaded.errors.length > 0) say(`  failures of real clients: ${loaded.errors.join('; ')}`);
    const backAt = await waitFor(() => fds() <= startFds, waitSeconds * 1000);
    clearInterval(sampler);
    const backMs = backAt === undefined ? undefined : backAt - opened;
    const endFds = fds();
    const summary = summarizeEnds(ends);
    say(`controller fds: start ${startFds}, peak ${peak}, end ${endFds}; back at the start ${backMs === undefined ? `NOT within ${waitSeconds} s` : `${(backMs / 1000).toFixed(1)} s after the garbage was opened`}`);
    say(`garbage: ${summary.closedByServer}/${garbageCount} closed by the controller (median after ${summary.medianCloseS} s, last after ${summary.maxCloseS} s), ${summary.refused} refused at connect; answers: ${summary.answers}`);
    say(`ratio: real-client time with garbage / baseline = ${(loaded.wallMs / Math.max(1, baseline.wallMs)).toFixed(2)}`);
    if (json) {
      console.log(
        JSON.stringify({
          garbage: garbageCount,
          clients: clientCount,
          ulimit: fdLimit,
          baseline,
          loaded,
          fds: { start: startFds, peak, afterOpen, end: endFds, backMs: backMs ?? null },
          garbageEnds: summary,
        }),
      );
    }
  } finally {
    for (const socket of garbage) socket.destroy();
    for (const child of children) child.kill('SIGTERM');
    await sleep(300);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every 100 ms; answers when it held (Date.now()), or undefined after `ms`. */
async function waitFor(check: () => boolean, ms: number): Promise<number | undefined> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return Date.now();
    await sleep(100);
  }
  return undefined;
}

function openFds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

/** A TypeScript entry point as a process, under `ulimit -n` when given. */
function spawnTs(entry: string, env: Record<string, string>, fdLimit?: number): ChildProcess {
  const options = {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'ignore', 'inherit'] as ['ignore', 'ignore', 'inherit'],
  };
  if (fdLimit === undefined) return spawn(process.execPath, ['--import', 'tsx', entry], options);
  // `exec` keeps the pid: /proc/<pid>/fd is the controller's own.
  return spawn('sh', ['-c', `ulimit -n ${fdLimit} && exec "$0" --import tsx "$1"`, process.execPath, entry], options);
}

const KINDS: Array<{ name: string; bytes: string | undefined }> = [
  { name: 'silent', bytes: undefined },
  { name: 'half headers', bytes: 'GET /chatbot-api/chats/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' },
  { name: 'body never sent', bytes: 'POST /chatbot-api/chats/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti' },
  { name: 'CONNECT', bytes: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n' },
  { name: 'not HTTP', bytes: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n' },
  { name: 'unknown method', bytes: 'BREW /pot HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' },
  { name: 'oversized headers', bytes: `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n` },
];

interface GarbageEnd {
  kind: string;
  /** ms after the garbage was opened when the server ended the connection; undefined if it never did. */
  closedAfterMs?: number;
  refused: boolean;
  /** The status line of what the server answered, if anything. */
  answer?: string;
}

/** Opens `count` hostile connections that never close their side; resolves once all are connected (or refused). */
async function openGarbage(port: number, count: number, sockets: net.Socket[]): Promise<GarbageEnd[]> {
  const start = Date.now();
  const ends: GarbageEnd[] = [];
  const connecting: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const end: GarbageEnd = { kind: kind.name, refused: false };
    ends.push(end);
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    sockets.push(socket);
    let first = '';
    socket.on('data', (chunk: Buffer) => {
      if (first.length < 64) first += chunk.toString('latin1');
    });
    const ended = (): void => {
      end.closedAfterMs ??= Date.now() - start;
      end.answer ??= first.split('\r\n')[0] || undefined;
    };
    socket.on('end', ended);
    socket.on('close', ended);
    connecting.push(
      new Promise<void>((resolve) => {
        socket.once('connect', () => {
          if (kind.bytes !== undefined) socket.write(kind.bytes);
          resolve();
        });
        socket.once('error', () => {
          if (end.closedAfterMs === undefined) end.refused = true;
          resolve();
        });
      }),
    );
    // Open them as fast as a single client can, in batches of 100.
    if (i % 100 === 99) await Promise.all(connecting.slice(-100));
  }
  await Promise.all(connecting);
  return ends;
}

function summarizeEnds(ends: GarbageEnd[]): { closedByServer: number; refused: number; medianCloseS: string; maxCloseS: string; answers: string } {
  const closed = ends.filter((e) => e.closedAfterMs !== undefined && !e.refused).map((e) => e.closedAfterMs!);
  closed.sort((a, b) => a - b);
  const answers = new Map<string, number>();
  for (const e of ends) {
    const key = `${e.kind} -> ${e.refused ? 'refused' : (e.answer ?? (e.closedAfterMs === undefined ? 'still open' : 'closed, no answer'))}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  return {
    closedByServer: closed.length,
    refused: ends.filter((e) => e.refused).length,
    medianCloseS: closed.length ? (closed[Math.floor(closed.length / 2)]! / 1000).toFixed(1) : '-',
    maxCloseS: closed.length ? (closed[closed.length - 1]! / 1000).toFixed(1) : '-',
    answers: [...answers].map(([k, n]) => `${k} x${n}`).join('; '),
  };
}

interface ClientsResult {
  served: number;
  retries: number;
  wallMs: number;
  p50: number;
  p90: number;
  errors: string[];
}

/** `count` real clients at once: create a chat, list chats, read one answer to `done`. */
async function realClients(base: string, count: number): Promise<ClientsResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count + 4 });
  const api = `${base}/chatbot-api`;
  let retries = 0;
  const errors: string[] = [];
  const start = Date.now();
  const one = async (i: number): Promise<number> => {
    const begun = Date.now();
    const chat = JSON.parse((await call(agent, 'POST', `${api}/chats/`, { title: `client ${i}` }, () => retries++)).text) as { id: number };
    const list = await call(agent, 'GET', `${api}/chats/`, undefined, () => retries++);
    if (list.status !== 200) throw new Error(`list: ${list.status}`);
    const answer = await call(agent, 'POST', `${api}/messages/send`, { chat_id: chat.id, content: 'why did the build fail?' }, () => retries++);
    const events = [];
    for await (const e of readEvents(toChunks(answer.text))) events.push(e);
    if (answer.status !== 200) throw new Error(`the question was answered ${answer.status}: ${answer.text.slice(0, 120)}`);
    if (events.at(-1)?.event !== 'done') throw new Error(`the stream ended with ${JSON.stringify(events.at(-1))}`);
    return Date.now() - begun;
  };
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => one(i)));
  agent.destroy();
  const times: number[] = [];
  for (const r of results) {
    if (r.status === 'fulfilled') times.push(r.value);
    else errors.push(String((r.reason as Error).message));
  }
  const stats = times.length ? summarize(times) : { p50: NaN, p90: NaN };
  return { served: times.length, retries, wallMs: Date.now() - start, p50: Math.round(stats.p50), p90: Math.round(stats.p90), errors: [...new Set(errors)].slice(0, 5) };
}

/** One request read whole; a refused or reset connection is tried again after 250 ms, for up to 60 s. */
async function call(agent: http.Agent, method: string, url: string, body: unknown, retried: () => void): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await once(agent, method, url, body);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const transient = code === 'ECONNRESET' || code === 'ECONNREFUSED' || code === 'EPIPE' || code === 'ETIMEDOUT';
      if (!transient || Date.now() > deadline) throw err;
      retried();
      await sleep(250);
    }
  }
}

function once(agent: http.Agent, method: string, url: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url, {
      method,
      agent,
      headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    req.setTimeout(30_000, () => req.destroy(Object.assign(new Error('no answer within 30 s'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.end(payload);
  });
}

async function* toChunks(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text);
}
