/**
 * Starts a worker thread on one of our modules, from the sources or the build alike: the compiled
 * `<name>.js` beside the caller, or (when the caller itself runs as TypeScript: tsx, Jest) the
 * `<name>.ts` module through tsx's loader registered inside the new thread. A module that fails
 * to load posts `{ type: 'error', id: -1, job: 0, message }` (both pools' error shape) and exits.
 * tsx is resolved here, beside this module: an eval'd worker resolves bare names from the working
 * directory, where a linked `cichat serve` run outside the checkout finds no tsx.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (callerUrl.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, callerUrl).href;
    const code =
      `import(${JSON.stringify(tsxApi())}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })` +
      `.catch((err) => { require('node:worker_threads').parentPort.postMessage({ type: 'error', id: -1, job: 0, message: String(err && err.stack || err) }); process.exit(1); });`;
    return new Worker(code, { ...options, eval: true });
  }
  return new Worker(new URL(`./${name}.js`, callerUrl), options);
}

/** tsx's ESM API as this module resolves it (Jest's import.meta has no `resolve`: the bare name there). */
function tsxApi(): string {
  const meta = import.meta as { resolve?: (specifier: string) => string };
  return typeof meta.resolve === 'function' ? meta.resolve('tsx/esm/api') : 'tsx/esm/api';
}
