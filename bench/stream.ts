import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { readEvents } from '../protocol/sse.js';
import { signToken } from '../test/helpers/backend.js';
import { flag, fmt, freePort, summarize, waitHealthy } from './lib.js';

/**
 * `npm run bench -- stream [--dialect sqlite|mysql|both] [--streams 200] [--abandon 1000] [--json]`
 * against a real backend process with the offline engine:
 *  1. request -> `started` latency (p50/p99) of POST /messages/send;
 *  2. N concurrent streams read to the end (TYPING_DELAY_MS=15): errors and peak RSS;
 *  3. M abandoned streams (client leaves after `started`): RSS, open file descriptors and
 *     database connections before and after.
 */
export async function run(args: string[]): Promise<void> {
  const which = flag(args, 'dialect') ?? 'both';
  const streams = Number(flag(args, 'streams') ?? 200);
  const abandon = Number(flag(args, 'abandon') ?? 1000);
  const json = args.includes('--json');
  const out: Record<string, unknown>[] = [];
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  for (const dialect of which === 'both' ? ['sqlite', 'mysql'] : [which]) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-stream-'));
    let dbName = '';
    let url = `sqlite:${path.join(dataDir, 'bench.sqlite')}`;
    if (dialect === 'mysql') {
      dbName = `cichat_bench_stream_${randomBytes(3).toString('hex')}`;
      const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', user: 'root', password: '' } });
      await admin.raw(`CREATE DATABASE \`${dbName}\` CHARACTER SET utf8mb4`);
      await admin.destroy();
      url = `mysql://root@127.0.0.1:3306/${dbName}`;
    }
    const port = await freePort();
    const secret = randomBytes(32).toString('hex');
    const child = spawn(process.execPath, ['--import', 'tsx', 'backend/main.ts'], {
      env: { ...process.env, DATABASE_URL: url, BACKEND_PORT: String(port), JWT_SECRET: secret, DATA_DIR: dataDir, LOG_LEVEL: 'error', TYPING_DELAY_MS: '15', LLM_PROVIDER: 'local' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    const token = await signToken(secret, 'bench-user', 3600);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const newChat = async () => ((await (await fetch(`${base}/chats/`, { method: 'POST', headers, body: '{}' })).json()) as { id: number }).id;
    try {
      await waitHealthy(`${base}/healthz`);
      // 1. request -> started
      const startedMs: number[] = [];
      for (let i = 0; i < 220; i++) {
        const chatId = await newChat();
        const abort = new AbortController();
        const t0 = performance.now();
        const res = await fetch(`${base}/messages/send`, { method: 'POST', headers, body: JSON.stringify({ chat_id: chatId, content: 'why did the build fail?' }), signal: abort.signal });
        for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>, () => abort.abort())) {
          if (e.event === 'started') {
            if (i >= 20) startedMs.push(performance.now() - t0); // the first 20 warm up
            break;
          }
        }
      }
      const st = summarize(startedMs);
      say(`${dialect.padEnd(6)} request -> started: n=${st.n} p50 ${fmt(st.p50)} p99 ${fmt(st.p99)}`);
      await settle();

      // 2. concurrent streams to the end
      const chats = await Promise.all(Array.from({ length: streams }, () => newChat()));
      const rssBefore = rssMb(child);
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(child));
      }, 50);
      let errors = 0;
      let done = 0;
      const t0 = performance.now();
      await Promise.all(
        chats.map(async (chatId) => {
          try {
            const res = await fetch(`${base}/messages/send`, { method: 'POST', headers, body: JSON.stringify({ chat_id: chatId, content: 'why did the build fail?' }) });
            if (res.status !== 200) {
              errors++;
              return;
            }
            let last = '';
            for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) last = e.event;
            if (last === 'done') done++;
            else errors++;
          } catch {
            errors++;
          }
        }),
      );
      clearInterval(sampler);
      const elapsed = performance.now() - t0;
      say(`${dialect.padEnd(6)} ${streams} concurrent streams (TYPING_DELAY_MS=15): ${done} done, ${errors} errors in ${(elapsed / 1000).toFixed(1)} s; RSS ${rssBefore.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`);

      // 3. abandoned streams
      await settle();
      const before = { rss: rssMb(child), fds: fdCount(child), conns: await dbConnections(dialect, dbName) };
      const abandonChats = await Promise.all(Array.from({ length: 50 }, () => newChat()));
      for (let round = 0; round < Math.ceil(abandon / 50); round++) {
        await Promise.all(
          abandonChats.map(async (chatId) => {
            const abort = new AbortController();
            try {
              // The lease may still be held by the previous round's stream for a moment.
              for (let attempt = 0; attempt < 50; attempt++) {
                const res = await fetch(`${base}/messages/send`, { method: 'POST', headers, body: JSON.stringify({ chat_id: chatId, content: 'why did the build fail?' }), signal: abort.signal });
                if (res.status === 409) {
                  await res.body?.cancel();
                  await new Promise((r) => setTimeout(r, 20));
                  continue;
                }
                for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>, () => abort.abort())) {
                  if (e.event === 'chunk') break;
                }
                return;
              }
            } catch {
              // aborted
            }
          }),
        );
      }
      await settle();
      await new Promise((r) => setTimeout(r, 2000));
      const after = { rss: rssMb(child), fds: fdCount(child), conns: await dbConnections(dialect, dbName) };
      const statuses = (await (await fetch(`${base}/chats/${abandonChats[0]}?limit=100`, { headers })).json()) as { items: { answer: { status: string } | null }[] };
      const interrupted = statuses.items.filter((p) => p.answer?.status === 'interrupted').length;
      say(`${dialect.padEnd(6)} ${abandon} abandoned streams: RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MB, fds ${before.fds} -> ${after.fds}, db connections ${before.conns} -> ${after.conns}; pairs of one chat: ${interrupted}/${statuses.items.length} interrupted`);
      out.push({ dialect, started: st, streams: { n: streams, done, errors, rssBeforeMb: rssBefore, peakRssMb: peak, seconds: elapsed / 1000 }, abandoned: { n: abandon, before, after } });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dbName) {
        const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', user: 'root', password: '' } });
        await admin.raw(`DROP DATABASE IF EXISTS \`${dbName}\``);
        await admin.destroy();
      }
    }
  }
  if (json) console.log(JSON.stringify(out, null, 2));
}

function rssMb(child: ChildProcess): number {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function fdCount(child: ChildProcess): number {
  try {
    return fs.readdirSync(`/proc/${child.pid}/fd`).length;
  } catch {
    return NaN;
  }
}

async function dbConnections(dialect: string, dbName: string): Promise<number | string> {
  if (dialect !== 'mysql') return 'n/a (SQLite: one connection)';
  const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', user: 'root', password: '' } });
  try {
    const [rows] = (await admin.raw('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ?', [dbName])) as [{ n: number }[]];
    return Number(rows[0]?.n ?? 0);
  } finally {
    await admin.destroy();
  }
}

/** Gives aborted streams time to be saved and their leases released before measuring. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1500));
}

