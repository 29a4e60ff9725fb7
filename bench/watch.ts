/**
 * `npm run bench -- watch [--jobs 10000] [--builds 3] [--burst 500] [--idle 20] [--no-events]`
 *
 * The failed-build watcher's CPU and memory on a generated JENKINS_HOME: `--jobs` jobs (in
 * folders of 100, one in ten a multibranch branch), each with `--builds` finished builds. The
 * watcher runs alone in a child process (bench/watchChild.ts) with the backend replaced by
 * instant stand-in calls, so the figures are the watcher's own: the first scan, idle with
 * file-system events (CPU per second over `--idle` seconds), one safety-net rescan (its CPU,
 * spread over the default 60 s period), then a burst of `--burst` failing builds written into as
 * many jobs (Jenkins' order: folder, log, build.xml): time until all are noticed and all worked
 * off (context built from disk, state written), CPU and peak memory meanwhile.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeBranch, makeHome, makeJob, writeBuild, FAILING_LOG } from '../test/helpers/watchHome.js';

interface Sample {
  cpuMs: number;
  at: number;
  rssMb: number;
  peakMb: number;
  queued: number;
  running: number;
  failures: number;
  worked: number;
  events: number;
}

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

function request<T>(child: ChildProcess, message: object, accept: (m: Record<string, unknown>) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (!accept(m)) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(message);
  });
}

const sample = (child: ChildProcess) => request<Sample>(child, { cmd: 'sample' }, (m) => 'at' in m);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(args: string[]): Promise<void> {
  const jobs = arg(args, '--jobs', 10_000);
  const builds = arg(args, '--builds', 3);
  const burst = Math.min(arg(args, '--burst', 500), jobs);
  const idleSeconds = arg(args, '--idle', 20);
  const events = !args.includes('--no-events');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-watch-'));
  const home = path.join(tmp, 'home');
  const dataDir = path.join(tmp, 'data');
  try {
    const t0 = performance.now();
    makeHome(home);
    const jobDirs: string[] = [];
    for (let i = 0; i < jobs; i++) {
      const folder = `team-${Math.floor(i / 100)}`;
      const dir = i % 10 === 9 ? makeBranch(home, `${folder}/repo-${i}`, `feature/${i}`) : makeJob(home, `${folder}/job-${i}`, i % 2 ? 'pipeline' : 'freestyle');
      for (let n = 1; n <= builds; n++) writeBuild(dir, { number: n, result: n % 3 === 0 ? 'FAILURE' : 'SUCCESS', log: 'Finished\n' });
      jobDirs.push(dir);
    }
    console.log(`home: ${jobs} jobs x ${builds} builds generated in ${((performance.now() - t0) / 1000).toFixed(1)} s (${home})`);

    const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'watchChild.ts'), [home, dataDir, '2', '60', events ? 'on' : 'off'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve) => child.once('message', () => resolve()));
    const started = await request<{ ms: number; cpuMs: number; jobs: number; watchers: number; rssMb: number; baseline: { rssMb: number } }>(
      child,
      { cmd: 'start' },
      (m) => 'started' in m,
    );
    console.log(
      `first scan: ${started.jobs} jobs in ${(started.ms / 1000).toFixed(2)} s, CPU ${(started.cpuMs / 1000).toFixed(2)} s, ` +
        `${started.watchers} fs watchers; RSS ${started.rssMb.toFixed(0)} MB (process before the watcher: ${started.baseline.rssMb.toFixed(0)} MB)`,
    );

    const idle0 = await sample(child);
    await sleep(idleSeconds * 1000);
    const idle1 = await sample(child);
    const idleCpuPct = ((idle1.cpuMs - idle0.cpuMs) / (idle1.at - idle0.at)) * 100;
    console.log(`idle ${idleSeconds} s (events only): CPU ${idleCpuPct.toFixed(2)} % of one core, RSS ${idle1.rssMb.toFixed(0)} MB`);

    const rescans: { rescanMs: number; cpuMs: number }[] = [];
    for (let i = 0; i < 3; i++) rescans.push(await request(child, { cmd: 'rescan' }, (m) => 'rescanMs' in m));
    const rescanCpu = rescans.reduce((a, r) => a + r.cpuMs, 0) / rescans.length;
    const rescanWall = rescans.reduce((a, r) => a + r.rescanMs, 0) / rescans.length;
    const afterRescan = await sample(child);
    console.log(
      `rescan (safety net): ${(rescanWall / 1000).toFixed(2)} s wall, CPU ${(rescanCpu / 1000).toFixed(2)} s each (3 runs); ` +
        `every 60 s that is ${((rescanCpu / 60_000) * 100).toFixed(2)} % of one core; RSS ${afterRescan.rssMb.toFixed(0)} MB`,
    );

    // The burst: one failing build in each of `burst` jobs, written as Jenkins writes them.
    const b0 = await sample(child);
    const tBurst = performance.now();
    for (let i = 0; i < burst; i++) {
      const dir = jobDirs[Math.floor((i * jobs) / burst)] as string;
      writeBuild(dir, { number: builds + 1, result: 'FAILURE', log: FAILING_LOG });
    }
    const writtenMs = performance.now() - tBurst;
    let noticedMs = NaN;
    let last = b0;
    const deadline = Date.now() + 600_000;
    let peakRss = 0;
    while (Date.now() < deadline) {
      await sleep(100);
      last = await sample(child);
      peakRss = Math.max(peakRss, last.rssMb);
      const seen = last.worked + last.queued - b0.worked;
      if (Number.isNaN(noticedMs) && seen >= burst) noticedMs = performance.now() - tBurst;
      if (last.worked - b0.worked >= burst) break;
    }
    const doneMs = performance.now() - tBurst;
    const burstCpu = last.cpuMs - b0.cpuMs;
    console.log(
      `burst of ${burst} failing builds (written in ${(writtenMs / 1000).toFixed(2)} s): all noticed after ${(noticedMs / 1000).toFixed(2)} s, ` +
        `all worked off (context + state, stand-in backend, concurrency 2) after ${(doneMs / 1000).toFixed(2)} s; ` +
        `CPU ${(burstCpu / 1000).toFixed(2)} s = ${((burstCpu / doneMs) * 100).toFixed(0)} % of one core meanwhile; ` +
        `RSS peak ${peakRss.toFixed(0)} MB (process peak ${last.peakMb.toFixed(0)} MB); ${last.events - b0.events} fs events`,
    );
    const after0 = await sample(child);
    await sleep(5000);
    const after1 = await sample(child);
    console.log(`idle 5 s after the burst: CPU ${(((after1.cpuMs - after0.cpuMs) / (after1.at - after0.at)) * 100).toFixed(2)} %, RSS ${after1.rssMb.toFixed(0)} MB`);
    const workJson = fs.statSync(path.join(dataDir, 'watch', 'work.json')).size;
    const jobsJson = fs.statSync(path.join(dataDir, 'watch', 'jobs.json')).size;
    console.log(`state: jobs.json ${(jobsJson / 1024).toFixed(0)} KiB, work.json ${(workJson / 1024).toFixed(0)} KiB`);
    child.send({ cmd: 'stop' });
    await new Promise((r) => child.once('exit', r));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
