import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readEvents } from '../protocol/sse.js';
import type { StreamEvent } from '../protocol/types.js';
import { flag, freePort, waitHealthy } from './lib.js';

/**
 * `npm run bench -- soak [--streams 200] [--seconds 60] [--settle 60] [--rounds 1] [--typing-ms 15]
 *   [--uploads 0 --upload-mb 20] [--json]`
 *
 * The real backend (backend/main.ts, SQLite in a temp DATA_DIR, offline engine) and the real
 * controller (controller/main.ts, `none` auth, the sample Jenkins home) as processes; `--streams`
 * clients each ask question after question in a chat of their own through the controller for
 * `--seconds`, every stream read to its end. Reported: streams finished, errors (a status other
 * than 200, a stream that does not end with `done`, a pair not stored `complete`), and the RSS
 * and open file descriptors (/proc/<pid>/fd: sockets, files, pipes) of backend and controller
 * before the load, at its peak, when it ends, and `--settle` seconds after; `--rounds` repeats
 * load and settling (memory that is reused rather than leaked stops growing after the first).
 * `--uploads N` first sends N context uploads of `--upload-mb` MB of log at once through the
 * controller (beyond CONTEXT_UPLOADS_MAX they are refused 503 with Retry-After) while a probe
 * lists chats every 20 ms: its worst latency is how long the backend's event loop was held.
 */
export async function run(args: string[]): Promise<void> {
  const streams = Number(flag(args, 'streams') ?? 200);
  const seconds = Number(flag(args, 'seconds') ?? 60);
  const settle = Number(flag(args, 'settle') ?? 60);
  const rounds = Number(flag(args, 'rounds') ?? 1);
  const uploadCount = Number(flag(args, 'uploads') ?? 0);
  const uploadMb = Number(flag(args, 'upload-mb') ?? 20);
  const typingMs = flag(args, 'typing-ms') ?? '15';
  const json = args.includes('--json');
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-soak-'));
  const secret = randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];
  const agents: http.Agent[] = [];
  try {
    const backendPort = await freePort();
    const backendUrl = `http://127.0.0.1:${backendPort}`;
    const backend = spawnTs('backend/main.ts', {
      DATABASE_URL: `sqlite:${path.join(tmp, 'soak.sqlite')}`,
      BACKEND_PORT: String(backendPort),
      JWT_SECRET: secret,
      DATA_DIR: tmp,
      LOG_LEVEL: 'error',
      LLM_PROVIDER: 'local',
      TYPING_DELAY_MS: typingMs,
    });
    children.push(backend);
    await waitHealthy(`${backendUrl}/healthz`);
    const controllerPort = await freePort();
    const url = `http://127.0.0.1:${controllerPort}/chatbot-api`;
    const controller = spawnTs('controller/main.ts', {
      CONTROLLER_PORT: String(controllerPort),
      BACKEND_URL: backendUrl,
      JWT_SECRET: secret,
      DATA_DIR: tmp,
      JENKINS_HOME: path.resolve('seeds/jenkins-home'),
      LOG_LEVEL: 'error',
    });
    children.push(controller);
    await waitHealthy(`${url}/healthz`);

    // node:http with an agent of its own: closed after the load, so the idle keep-alive
    // connections of this client do not count as handles of the servers a minute later.
    const agent = new http.Agent({ keepAlive: true, maxSockets: streams + 8 });
    agents.push(agent);
    const warmCall = (method: string, p: string, body?: unknown) => request(agent, method, url + p, body);

    // Warm-up: one answer, so both processes have loaded everything they load lazily.
    const warm = (await (await warmCall('POST', '/chats/', { title: 'warm-up' })).json()) as { id: number };
    await readStream(await warmCall('POST', '/messages/send', { chat_id: warm.id, content: 'why did the build fail?' }));
    agent.destroy();
    await new Promise((r) => setTimeout(r, 2000));
    const sample = () => ({ backend: procStats(backend.pid), controller: procStats(controller.pid) });
    const before = sample();
    say(`soak: ${streams} concurrent streams through the controller for ${seconds} s (offline engine, TYPING_DELAY_MS=${typingMs})`);
    say(`before:   ${line(before)}`);

    let uploadPhase: unknown;
    if (uploadCount > 0) {
      uploadPhase = await uploadBurst(url, backendUrl, uploadCount, uploadMb, say);
      await new Promise((r) => setTimeout(r, 2000));
    }

    const results: unknown[] = [];
    for (let round = 1; round <= rounds; round++) {
      const roundAgent = new http.Agent({ keepAlive: true, maxSockets: streams + 8 });
      agents.push(roundAgent);
      const call = (method: string, p: string, body?: unknown) => request(roundAgent, method, url + p, body);
      if (rounds > 1) say(`round ${round}:`);
      const peak = { backend: { ...before.backend }, controller: { ...before.controller } };
      const sampler = setInterval(() => {
        const now = sample();
        for (const k of ['backend', 'controller'] as const) {
          peak[k].rssMb = Math.max(peak[k].rssMb, now[k].rssMb);
          peak[k].fds = Math.max(peak[k].fds, now[k].fds);
        }
      }, 500);

      const errors: string[] = [];
      const chatIds: number[] = [];
      let finished = 0;
      const deadline = Date.now() + seconds * 1000;
      const questions = ['why did the build fail?', 'what changed since the last green build?', 'how many agents are online?', 'which plugins are active?'];
      const client = async (i: number) => {
        const created = await call('POST', '/chats/', { title: `soak ${i}` });
        if (created.status !== 201) {
          errors.push(`create chat: ${created.status} ${await created.text()}`);
          return;
        }
        const chatId = ((await created.json()) as { id: number }).id;
        chatIds.push(chatId);
        let q = i;
        while (Date.now() < deadline) {
          try {
            const res = await call('POST', '/messages/send', { chat_id: chatId, content: questions[q++ % questions.length] });
            if (res.status !== 200) {
              errors.push(`send: ${res.status} ${await res.text()}`);
              continue;
            }
            const events = await readStream(res);
            const last = events.at(-1);
            if (last?.event !== 'done') errors.push(`stream ended with ${JSON.stringify(last)}`);
            else finished++;
          } catch (err) {
            errors.push(`send: ${(err as Error).message}`);
          }
        }
      };
      const t0 = Date.now();
      await Promise.all(Array.from({ length: streams }, (_, i) => client(i)));
      const wall = (Date.now() - t0) / 1000;
      clearInterval(sampler);
      const atEnd = sample();

      // Every stored pair complete.
      let pairs = 0;
      let notComplete = 0;
      for (const chatId of chatIds) {
        for (let offset = 0; ; offset += 100) {
          const page = (await (await call('GET', `/chats/${chatId}?limit=100&offset=${offset}`)).json()) as {
            items: { answer: { status: string } | null }[];
            total_items: number;
          };
          for (const p of page.items) {
            pairs++;
            if (p.answer?.status !== 'complete') notComplete++;
          }
          if (offset + 100 >= page.total_items) break;
        }
      }
      roundAgent.destroy();
      say(`streams finished: ${finished} in ${wall.toFixed(1)} s (${(finished / wall).toFixed(1)}/s); errors: ${errors.length}; pairs stored: ${pairs}, not complete: ${notComplete}`);
      for (const e of errors.slice(0, 5)) say(`  error: ${e}`);
      say(`peak:     ${line(peak)}`);
      say(`at end:   ${line(atEnd)}`);
      await new Promise((r) => setTimeout(r, settle * 1000));
      const after = sample();
      say(`+${settle} s:   ${line(after)}`);
      results.push({ round, finished, wall, errors: errors.length, pairs, notComplete, peak, atEnd, after });
    }
    if (json) console.log(JSON.stringify({ streams, seconds, settle, typingMs: Number(typingMs), before, uploads: uploadPhase, rounds: results }, null, 2));
  } finally {
    for (const a of agents) a.destroy();
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** N uploads at once while a probe measures how long a cheap request waits. */
async function uploadBurst(url: string, backendUrl: string, count: number, mb: number, say: (line: string) => void): Promise<unknown> {
  const agent = new http.Agent({ keepAlive: false });
  const line = 'INFO [main] compiling module_%d with flags -O2 -Wall and a path /src/app/module_%d.c\n';
  const lines: string[] = [];
  for (let i = 0, size = 0; size < mb * 1024 * 1024; i++) {
    const l = line.replaceAll('%d', String(i));
    lines.push(l);
    size += l.length;
  }
  const body = { ciContext: { buildDetails: { number: 1, consoleLog: `${lines.join('')}ERROR: tests failed\n` } } };
  const chats: number[] = [];
  for (let i = 0; i < count; i++) chats.push(((await (await request(agent, 'POST', `${url}/chats/`, { title: `upload ${i}` })).json()) as { id: number }).id);
  let probing = true;
  const probeLoop = (target: string, into: number[]) =>
    (async () => {
      while (probing) {
        const t = performance.now();
        const res = await request(agent, 'GET', target);
        await res.text();
        into.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
  // Through the controller (both event loops) and the backend alone (its health check).
  const probes: number[] = [];
  const backendProbes: number[] = [];
  const probe = Promise.all([probeLoop(`${url}/chats/?limit=1`, probes), probeLoop(`${backendUrl}/healthz`, backendProbes)]);
  const t0 = performance.now();
  const statuses = await Promise.all(
    chats.map(async (id) => {
      const res = await request(agent, 'POST', `${url}/context/${id}/`, body);
      const retryAfter = res.body.headers['retry-after'];
      await res.text();
      return `${res.status}${retryAfter ? ` (Retry-After ${retryAfter})` : ''}`;
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  probing = false;
  await probe;
  agent.destroy();
  probes.sort((a, b) => a - b);
  backendProbes.sort((a, b) => a - b);
  const q = (p: number, of = probes) => of[Math.min(of.length - 1, Math.floor(p * of.length))] ?? NaN;
  const counts = new Map<string, number>();
  for (const st of statuses) counts.set(st, (counts.get(st) ?? 0) + 1);
  const summary = [...counts].map(([k, v]) => `${v} x ${k}`).join(', ');
  say(`uploads: ${count} x ${mb} MB at once: ${summary} in ${wall.toFixed(1)} s; chat list meanwhile p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${probes.at(-1)?.toFixed(0)} ms (${probes.length} probes); backend /healthz p50 ${q(0.5, backendProbes).toFixed(1)} ms, max ${backendProbes.at(-1)?.toFixed(0)} ms (${backendProbes.length} probes)`);
  return {
    count,
    mb,
    statuses: Object.fromEntries(counts),
    wall,
    probeP50: q(0.5),
    probeP99: q(0.99),
    probeMax: probes.at(-1),
    backendProbeP50: q(0.5, backendProbes),
    backendProbeMax: backendProbes.at(-1),
  };
}

interface ProcStats {
  rssMb: number;
  fds: number;
}

/** RSS (VmRSS) and open file descriptors of a process, from /proc. */
function procStats(pid: number | undefined): ProcStats {
  if (pid === undefined) return { rssMb: NaN, fds: NaN };
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return { rssMb: Math.round(kb / 1024), fds: fs.readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return { rssMb: NaN, fds: NaN };
  }
}

function line(s: { backend: ProcStats; controller: ProcStats }): string {
  return `backend ${s.backend.rssMb} MB RSS, ${s.backend.fds} fds; controller ${s.controller.rssMb} MB RSS, ${s.controller.fds} fds`;
}

interface Reply {
  status: number;
  body: http.IncomingMessage;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

function request(agent: http.Agent, method: string, url: string, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url, {
      method,
      agent,
      headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      const text = async () => {
        let out = '';
        for await (const chunk of res as AsyncIterable<Buffer>) out += chunk.toString('utf8');
        return out;
      };
      resolve({ status: res.statusCode ?? 0, body: res, text, json: async () => JSON.parse(await text()) as unknown });
    });
    req.end(payload);
  });
}

async function readStream(res: Reply): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of readEvents(res.body as AsyncIterable<Uint8Array>)) events.push(e);
  return events;
}

function spawnTs(entry: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
