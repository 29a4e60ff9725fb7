/**
 * Runs in every test file (jest.config.js `setupFilesAfterEnv`). Jest loads our modules afresh
 * for each test file but keeps the process (a worker runs dozens of files): state a module
 * leaves in the process outlives its file. On Node 20 each AsyncLocalStorage that was used stays
 * in a process-wide list visited at the creation of every promise and async resource; the
 * request-log store of http/request.ts is used by every file that serves a request, so without
 * this the 40th file of a worker paid for 39 stores on every `await` (docs/notes/house.md,
 * "`npm test` time").
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { stopRequestLogs } from '../../http/request.js';

afterAll(() => {
  stopRequestLogs();
});

// CICHAT_TEST_CPU_LOG=<file>: one line per test file, its path, the CPU of the worker process
// (all threads) and of the processes it started and reaped, and the wall time, in seconds
// (docs/notes/house.md, "`npm test` time"). A worker runs one file at a time, so the figures are
// the file's own even in a parallel run. The file's own afterAll hooks run after this one (Jest
// runs them in the order they were declared), so its teardown is not counted.
const cpuLog = process.env.CICHAT_TEST_CPU_LOG;
if (cpuLog) {
  const childTicks = (): number => {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[13]) + Number(f[14]); // cutime + cstime (fields 16, 17), in 1/100 s
  };
  const cpu0 = process.cpuUsage();
  const child0 = childTicks();
  const t0 = Date.now();
  afterAll(() => {
    const cpu = process.cpuUsage(cpu0);
    const own = (cpu.user + cpu.system) / 1e6;
    const children = (childTicks() - child0) / 100;
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '?');
    fs.appendFileSync(cpuLog, `${file}\t${own.toFixed(2)}\t${children.toFixed(2)}\t${((Date.now() - t0) / 1000).toFixed(2)}\n`);
  });
}

// A worker that Jest ends (it removes its IPC listener and waits 500 ms for the process to go)
// exits at once instead of freeing its environment: with 40-odd files' module graphs its heap is
// 450-800 MB, and tearing that down took 300-450 ms of CPU after an empty event loop (no handle
// was left open), so on a loaded machine Jest printed "A worker process has failed to exit
// gracefully" (docs/notes/house.md, "`npm test` time"). The real process, not Jest's copy of it.
// The hook is made in the process's own realm: a function of this file's context would keep the
// first file's whole module graph alive for the worker's life.
const realProcess = vm.runInThisContext('process') as NodeJS.Process;
if (process.env.JEST_WORKER_ID !== undefined && typeof realProcess.send === 'function') {
  (vm.runInThisContext(`(function (p) {
    if (p.cichatExitOnEnd) return;
    p.cichatExitOnEnd = true;
    p.on('removeListener', function (event) {
      // jest-worker's child removes its 'message' listener only when told to end (processChild.js).
      if (event === 'message' && p.listenerCount('message') === 0) setImmediate(function () { p.exit(0); });
    });
  })`) as (p: NodeJS.Process) => void)(realProcess);
}
