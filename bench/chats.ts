import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { migrateLatest, openDb } from '../backend/db.js';
import { LIST_CHATS_SQL } from '../backend/store/chats.js';
import { LIST_CHAT_PAIRS_SQL } from '../backend/store/pairs.js';
import type { Db } from '../backend/db.js';
import { signToken } from '../test/helpers/backend.js';
import type http from 'node:http';
import { closedLoop, flag, fmt, freePort, haveWrk, httpGet, summarize, waitHealthy, wrkLoad } from './lib.js';

/**
 * `npm run bench -- chats [--users 1000] [--chats 100000] [--pairs 1000000] [--seconds 10]
 * [--dialect mysql|sqlite|both] [--json]`: seeds the data set once (reused by later runs),
 * starts a real backend process, and measures GET /chats/?limit=20 and GET /chats/{id}?limit=20
 * under 32 concurrent keep-alive clients; prints p50/p99 and the query plans.
 */
export async function run(args: string[]): Promise<void> {
  const users = Number(flag(args, 'users') ?? 1000);
  const chats = Number(flag(args, 'chats') ?? 100_000);
  const pairs = Number(flag(args, 'pairs') ?? 1_000_000);
  const seconds = Number(flag(args, 'seconds') ?? 10);
  const concurrency = Number(flag(args, 'concurrency') ?? 32);
  const which = flag(args, 'dialect') ?? 'both';
  const json = args.includes('--json');
  const results: Record<string, unknown>[] = [];
  const tag = `${users}_${chats}_${pairs}`;
  const targets: { name: string; url: string }[] = [];
  if (which === 'mysql' || which === 'both') targets.push({ name: 'mysql', url: `mysql://root@127.0.0.1:3306/cichat_bench_${tag}` });
  if (which === 'sqlite' || which === 'both') {
    targets.push({ name: 'sqlite', url: `sqlite:${path.join(os.tmpdir(), `cichat-bench-${tag}.sqlite`)}` });
  }
  for (const target of targets) {
    if (target.name === 'mysql') {
      const admin = knexFactory({ client: 'mysql2', connection: { host: '127.0.0.1', user: 'root', password: '' } });
      await admin.raw(`CREATE DATABASE IF NOT EXISTS \`cichat_bench_${tag}\` CHARACTER SET utf8mb4`);
      await admin.destroy();
    }
    const db = openDb(target.url);
    await migrateLatest(db);
    await seed(db, users, chats, pairs, (m) => console.error(`[${target.name}] ${m}`));
    const plans = await explain(db, target.name);
    const sample = (await db('chats').select('id', 'user_id').orderByRaw(target.name === 'mysql' ? 'RAND()' : 'RANDOM()').limit(2000)) as { id: number; user_id: string }[];
    await db.destroy();

    const port = await freePort();
    const secret = 'bench-secret-bench-secret-bench-secret-0123456789';
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-data-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'backend/main.ts'], {
      env: { ...process.env, DATABASE_URL: target.url, BACKEND_PORT: String(port), JWT_SECRET: secret, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitHealthy(`${base}/healthz`);
      // Signed before the clock starts: the bench measures the backend, not the signer.
      const tokens = new Map<string, string>();
      for (const { user_id } of sample) if (!tokens.has(user_id)) tokens.set(user_id, await signToken(secret, user_id, 3600));
      const tokenOf = (u: string) => tokens.get(u) ?? '';
      const pick = (i: number) => sample[(i * 7919) % sample.length]!;
      const endpoints = [
        ['GET /chats/?limit=20', (i: number) => ({ path: '/chats/?limit=20', user: pick(i).user_id })],
        ['GET /chats/{id}?limit=20', (i: number) => ({ path: `/chats/${pick(i).id}?limit=20`, user: pick(i).user_id })],
      ] as const;
      const useWrk = haveWrk() && !args.includes('--node-client');
      for (const [label, make] of endpoints) {
        let row: Record<string, unknown>;
        if (useWrk) {
          const requests = Array.from({ length: 2000 }, (_, i) => {
            const r = make(i);
            return { path: r.path, headers: { Authorization: `Bearer ${tokenOf(r.user)}` } };
          });
          wrkLoad({ base, requests, concurrency, seconds: 1 }); // warm-up
          const w = wrkLoad({ base, requests, concurrency, seconds });
          row = { dialect: target.name, endpoint: label, client: 'wrk', concurrency, requests: w.requests, errors: w.errors, rps: Math.round(w.rps), p50_ms: w.p50, p99_ms: w.p99 };
        } else {
          const request = (agent: http.Agent, i: number) => {
            const r = make(i);
            return httpGet(agent, base + r.path, { authorization: `Bearer ${tokenOf(r.user)}` });
          };
          await closedLoop({ concurrency, durationMs: 1000, request }); // warm-up
          const { latencies, errors, elapsedMs } = await closedLoop({ concurrency, durationMs: seconds * 1000, request });
          const s = summarize(latencies);
          row = { dialect: target.name, endpoint: label, client: 'node', concurrency, requests: s.n, errors, rps: Math.round((s.n / elapsedMs) * 1000), p50_ms: +s.p50.toFixed(2), p99_ms: +s.p99.toFixed(2) };
        }
        results.push(row);
        if (!json) {
          console.log(
            `${target.name.padEnd(6)} ${label.padEnd(26)} ${concurrency} clients (${String(row.client)}): ${String(row.requests)} req, ${String(row.errors)} errors, ${String(row.rps)} req/s, p50 ${fmt(Number(row.p50_ms))}, p99 ${fmt(Number(row.p99_ms))}`,
          );
        }
      }
      if (!json) for (const line of plans) console.log(`${target.name.padEnd(6)} EXPLAIN ${line}`);
      results.push({ dialect: target.name, plans });
    } finally {
      child.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (json) console.log(JSON.stringify(results, null, 2));
}


async function seed(db: Db, users: number, chats: number, pairs: number, say: (m: string) => void): Promise<void> {
  const have = Number(((await db('chats').count({ n: '*' }).first()) as { n: number | string }).n);
  const havePairs = Number(((await db('qa_pairs').count({ n: '*' }).first()) as { n: number | string }).n);
  if (have >= chats && havePairs >= pairs) {
    say(`reusing ${have} chats and ${havePairs} pairs`);
    await seedJobs(db, say);
    return;
  }
  await db('qa_pairs').delete();
  await db('chats').delete();
  const t0 = Date.now();
  const base = Date.now() - 365 * 24 * 3600 * 1000;
  const batch = 2000;
  for (let start = 0; start < chats; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(chats, start + batch); i++) {
      const t = base + i * 1000;
      rows.push({ id: i + 1, user_id: `user-${i % users}`, title: `Chat ${i} about build #${i % 997}`, created_at: t, updated_at: t + ((i * 7919) % 100000) * 1000 });
    }
    await db.batchInsert('chats', rows, 400);
  }
  say(`${chats} chats in ${Date.now() - t0} ms`);
  const perChat = Math.max(1, Math.round(pairs / chats));
  const answer = 'The build failed because the test `OrderServiceTest.shouldRejectEmptyCart` asserted 3 but got 2 [L120-L131].';
  for (let start = 0; start < pairs; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(pairs, start + batch); i++) {
      const chatId = (Math.floor(i / perChat) % chats) + 1;
      const t = base + i * 100;
      rows.push({ chat_id: chatId, question: `Why did build ${i % 500} fail?`, created_at: t, answer, answer_status: 'complete', answer_sources: '[{"kind":"log","start_line":120,"end_line":131}]', answer_created_at: t });
    }
    await db.batchInsert('qa_pairs', rows, 400);
    if ((start / batch) % 50 === 0) say(`${start + rows.length} pairs...`);
  }
  say(`${pairs} pairs in ${Date.now() - t0} ms`);
  await seedJobs(db, say);
}

/**
 * Three chats in four name a job and build (what an uploaded context sets, migration 009), so
 * the list reads those columns filled as in use; data sets seeded before 009 get them here.
 */
async function seedJobs(db: Db, say: (m: string) => void): Promise<void> {
  if (await db('chats').whereNotNull('job_name').first('id')) return;
  const t0 = Date.now();
  const mysql = db.client.config.client === 'mysql2';
  const concat = mysql ? "CONCAT('team-', id % 50, '/service-', id % 37)" : "'team-' || (id % 50) || '/service-' || (id % 37)";
  await db.raw(`UPDATE chats SET job_name = ${concat}, build_number = id % 5000 + 1 WHERE id % 4 <> 0`);
  say(`job and build on 3/4 of the chats in ${Date.now() - t0} ms`);
  if (mysql) await db.raw('ANALYZE TABLE chats, qa_pairs');
  else await db.raw('ANALYZE');
}

/** The plans of the exact statements the two endpoints run (one round trip each). */
async function explain(db: Db, dialect: string): Promise<string[]> {
  const sample = (await db('qa_pairs as p').join('chats as c', 'c.id', 'p.chat_id').first('c.id', 'c.user_id')) as { id: number; user_id: string };
  const statements = [
    ['chat list', LIST_CHATS_SQL, [sample.user_id, sample.user_id, 20, 0]],
    ['chat show', LIST_CHAT_PAIRS_SQL, [sample.id, sample.id, sample.id, sample.user_id, 20, 0]],
  ] as const;
  const lines: string[] = [];
  for (const [name, sql, bindings] of statements) {
    if (dialect === 'mysql') {
      const [rows] = (await db.raw(`EXPLAIN ${sql}`, [...bindings])) as [Record<string, unknown>[]];
      for (const r of rows) lines.push(`${name}: ${String(r.select_type)} table=${String(r.table)} type=${String(r.type)} key=${String(r.key)} rows=${String(r.rows)} extra=${String(r.Extra)}`);
    } else {
      const rows = (await db.raw(`EXPLAIN QUERY PLAN ${sql}`, [...bindings])) as { detail: string }[];
      for (const r of rows) lines.push(`${name}: ${r.detail}`);
    }
  }
  return lines;
}
