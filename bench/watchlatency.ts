/**
 * `npm run bench -- watchlatency [--builds 10] [--typing 15]`: how long from Jenkins writing a
 * failed build's build.xml to the diagnosis being stored and listed by GET /chatbot-api/failures.
 * Real backend (SQLite, the offline engine typing with `--typing` ms between pieces, the default
 * of TYPING_DELAY_MS) and real controller in this process, a generated home with one job; the
 * builds are written one after the other, each after the previous one is listed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createLocalEngine } from '../backend/answer/local/index.js';
import { startController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import { startTestBackend } from '../test/helpers/backend.js';
import { sqlite } from '../test/helpers/databases.js';
import { FAILING_LOG, makeHome, makeJob, writeBuild } from '../test/helpers/watchHome.js';
import { summarize } from './lib.js';

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

export async function run(args: string[]): Promise<void> {
  const builds = arg(args, '--builds', 10);
  const typing = arg(args, '--typing', 15);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-watchlat-'));
  const secret = 'bench-watch-latency-secret-0123456789-abcdef';
  const backend = await startTestBackend(sqlite, { secret, deps: { engine: createLocalEngine({ typingDelayMs: typing }) } });
  const home = path.join(tmp, 'home');
  makeHome(home);
  const job = makeJob(home, 'team/api', 'pipeline');
  writeBuild(job, { number: 1, result: 'SUCCESS', kind: 'pipeline' });
  const loaded = loadControllerConfig({
    CONTROLLER_PORT: '0',
    DATA_DIR: path.join(tmp, 'data'),
    BACKEND_URL: backend.url,
    JENKINS_HOME: home,
    JWT_SECRET: secret,
    CICHAT_WATCH: 'on',
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  const controller = await startController(loaded.config, { logger: pino({ level: 'silent' }) });
  try {
    while (!controller.watcher?.ready) await new Promise((r) => setTimeout(r, 20));
    const samples: number[] = [];
    for (let n = 2; n < 2 + builds; n++) {
      const t0 = performance.now();
      writeBuild(job, { number: n, result: 'FAILURE', kind: 'pipeline', log: FAILING_LOG });
      for (;;) {
        const res = await fetch(`${controller.url}/chatbot-api/failures?limit=1`);
        const items = ((await res.json()) as { items: { build: number }[] }).items;
        if (items[0]?.build === n) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      samples.push(performance.now() - t0);
    }
    const s = summarize(samples);
    console.log(
      `build.xml written -> diagnosis stored and listed, ${s.n} builds, offline engine typing ${typing} ms: ` +
        `p50 ${s.p50.toFixed(0)} ms, p90 ${s.p90.toFixed(0)} ms, max ${s.max.toFixed(0)} ms (target: within 5000 ms)`,
    );
  } finally {
    await controller.close(0);
    await backend.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
