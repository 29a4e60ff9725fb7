/**
 * `npm run bench -- history [--builds 5000] [--window 50] [--runs 50]` (issue 29): a job with
 * thousands of builds written as Jenkins writes them (build.xml with the git commit, changelog,
 * junit report, log); prints the history lookup's latency the first time (empty index) and
 * cached (p50/p95 of --runs lookups), the index file's size, the memory the first build of the
 * index takes, and the CPU the lookups of 100 newly completed builds of flaky jobs cost (what
 * the watcher pays: one lookup per failed build). The baseline in the same run: reading the same
 * builds' records with no index (every lookup reads the window's builds from disk).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexFileOf, jobHistory } from '../jenkins/history.js';
import { compileLog, testLog, writeHistoryBuild } from '../test/helpers/historyHome.js';
import { makeHome, makeJob } from '../test/helpers/watchHome.js';

function arg(args: string[], name: string, dflt: number): number {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : dflt;
}
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

export async function run(args: string[]): Promise<void> {
  const builds = arg(args, '--builds', 5000);
  const window = arg(args, '--window', 50);
  const runs = arg(args, '--runs', 50);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-history-'));
  const home = path.join(root, 'home');
  const cache = path.join(root, 'cache');
  try {
    makeHome(home);
    const dir = makeJob(home, 'big/app');
    const t0 = Date.UTC(2026, 0, 1);
    const started = performance.now();
    for (let n = 1; n <= builds; n++) {
      const fails = n % 9 === 0 || n > builds - 5;
      writeHistoryBuild(dir, {
        number: n,
        result: fails ? 'FAILURE' : n % 13 === 0 ? 'UNSTABLE' : 'SUCCESS',
        commit: (Math.floor(n / 2) + 1).toString(16).padStart(40, '0'),
        changes: n % 2,
        timestamp: t0 + n * 600_000,
        ...(fails ? { log: compileLog('getTotal', 'src/main/java/com/acme/Orders.java', 40 + (n % 7)) } : n % 13 === 0 ? { log: testLog(['com.acme.OrdersTest.rounding']), tests: { 'com.acme.OrdersTest.rounding': true, 'com.acme.OrdersTest.total': false } } : {}),
      });
    }
    console.log(`job big/app: ${builds} builds written in ${(performance.now() - started) / 1000} s; window ${window}`);

    // No index: what every lookup would cost without the cache (the baseline).
    const uncached: number[] = [];
    for (let i = 0; i < Math.min(runs, 10); i++) {
      const a = performance.now();
      await jobHistory('big/app', { jenkinsHome: home, window, siblings: false });
      uncached.push(performance.now() - a);
    }
    // First lookup with an empty index, then cached ones.
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const a = performance.now();
    const first = await jobHistory('big/app', { jenkinsHome: home, cacheDir: cache, window, siblings: false });
    const firstMs = performance.now() - a;
    const rssGrowth = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    const cached: number[] = [];
    for (let i = 0; i < runs; i++) {
      const b = performance.now();
      const h = await jobHistory('big/app', { jenkinsHome: home, cacheDir: cache, window, siblings: false });
      cached.push(performance.now() - b);
      if (h.readBuilds !== 0) throw new Error('a cached lookup read builds');
    }
    const indexBytes = fs.statSync(indexFileOf(cache, 'big/app')).size;
    console.log(`verdict of #${first.current?.build}: ${first.current?.history?.verdict} (${first.current?.history?.reason})`);
    console.log(`no index (baseline, every lookup reads ${window} builds): p50 ${ms(pct(uncached, 50))}, p95 ${ms(pct(uncached, 95))}`);
    console.log(`first lookup (index built from ${first.readBuilds} builds): ${ms(firstMs)}, RSS growth ${rssGrowth.toFixed(1)} MB`);
    console.log(`cached lookup (${runs} runs): p50 ${ms(pct(cached, 50))}, p95 ${ms(pct(cached, 95))}; ${(pct(uncached, 50) / pct(cached, 50)).toFixed(1)}x faster than no index`);
    console.log(`index file: ${(indexBytes / 1024).toFixed(1)} KiB for ${first.builds.length} builds`);

    // The watcher: 100 builds of flaky jobs complete; one lookup each (incremental: one new build read).
    const flakyJobs = 10;
    const jobDirs = Array.from({ length: flakyJobs }, (_, j) => makeJob(home, `flaky/job-${j}`));
    for (const [j, d] of jobDirs.entries()) {
      for (let n = 1; n <= window; n++) writeHistoryBuild(d, { number: n, result: n % 3 === 0 ? 'UNSTABLE' : 'SUCCESS', commit: String(n % 5).repeat(40), changes: 0, timestamp: t0 + n * 600_000, tests: { [`com.acme.J${j}.flaky`]: n % 3 === 0 }, ...(n % 3 === 0 ? { log: testLog([`com.acme.J${j}.flaky`]) } : {}) });
      await jobHistory(`flaky/job-${j}`, { jenkinsHome: home, cacheDir: cache, window, siblings: false });
    }
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    let flaky = 0;
    for (let k = 0; k < 100; k++) {
      const j = k % flakyJobs;
      const n = window + 1 + Math.floor(k / flakyJobs);
      writeHistoryBuild(jobDirs[j] as string, { number: n, result: 'UNSTABLE', commit: String(n % 5).repeat(40), changes: 0, timestamp: t0 + n * 600_000, tests: { [`com.acme.J${j}.flaky`]: true }, log: testLog([`com.acme.J${j}.flaky`]) });
      const h = await jobHistory(`flaky/job-${j}`, { jenkinsHome: home, cacheDir: cache, window, build: n });
      if (h.current?.history?.verdict === 'flaky') flaky++;
    }
    const cpu = process.cpuUsage(cpu0);
    console.log(`watcher: 100 completed builds of ${flakyJobs} flaky jobs: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU in all (${((cpu.user + cpu.system) / 100_000).toFixed(1)} ms per build, wall ${ms(performance.now() - w0)}); ${flaky}/100 judged flaky`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
