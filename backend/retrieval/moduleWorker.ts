/**
 * Starts a worker thread on one of our modules, from the sources or the build alike: the compiled
 * `<name>.js` beside the caller, or (when the caller itself runs as TypeScript: tsx, Jest)
 * `<name>.ts` bundled into one plain ESM file (our modules inlined, packages left as imports)
 * that the thread runs with plain node. The bundle is kept in the checkout's
 * `node_modules/.cache/cichat/` with a manifest of its source files and their stamps (as
 * cli/bin.js keeps its help bundle): it is rebuilt only when one of them changed.
 * Before, the thread registered tsx's loader and compiled the module itself: 186 ms of CPU per
 * thread started, against 30 ms for the bundle (the index worker, plain node, docs/notes/house.md
 * "`npm test` time"), paid by every upload's first index worker and every ingest worker.
 * A module that fails to load (or to build) posts `{ type: 'error', id: -1, job: 0, message }`
 * (both pools' error shape) and exits. Packages are resolved from the bundle's place, inside the
 * checkout: a linked `cichat serve` run outside the checkout finds them whatever its working
 * directory.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type * as Esbuild from 'esbuild';

export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (callerUrl.endsWith('.ts')) {
    let code: string;
    try {
      const bundle = sourceBundle(fileURLToPath(new URL(`./${name}.ts`, callerUrl)));
      code = `import(${JSON.stringify(pathToFileURL(bundle).href)}).catch((err) => { ${reportAndExit('String(err && err.stack || err)')} });`;
    } catch (err) {
      code = reportAndExit(JSON.stringify(`${name}.ts could not be bundled: ${err instanceof Error ? err.message : String(err)}`));
    }
    return new Worker(code, { ...options, eval: true });
  }
  return new Worker(new URL(`./${name}.js`, callerUrl), options);
}

function reportAndExit(message: string): string {
  return `require('node:worker_threads').parentPort.postMessage({ type: 'error', id: -1, job: 0, message: ${message} }); process.exit(1);`;
}

/** Bundles made or checked by this process: entry -> bundle file (checked once per process). */
const bundles = new Map<string, string>();

/** Modification time and size of each file: a change to any of them changes the stamp. */
function stampOf(files: string[]): string {
  return files
    .map((f) => {
      const s = fs.statSync(f);
      return `${s.mtimeMs}-${s.size}`;
    })
    .join('_');
}

/** FNV-1a of a path: one bundle per checkout (checkouts may share node_modules). */
function keyOf(p: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The checkout holding `file`: the nearest folder above it with a node_modules. */
function checkoutOf(file: string): string {
  for (let dir = path.dirname(file); ; ) {
    if (fs.existsSync(path.join(dir, 'node_modules'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no node_modules above ${file}`);
    dir = up;
  }
}

interface Manifest {
  entry: string;
  inputs: string[];
  stamp: string;
}

/** The bundle of `entry` (a .ts file), built now unless the kept one is as new as its sources. */
function sourceBundle(entry: string): string {
  const known = bundles.get(entry);
  if (known !== undefined) return known;
  const root = checkoutOf(entry);
  const cacheDir = path.join(root, 'node_modules', '.cache', 'cichat');
  const base = path.join(cacheDir, `worker-${path.basename(entry, '.ts')}-${keyOf(entry)}`);
  const bundle = `${base}.mjs`;
  const manifest = `${base}.json`;
  let fresh = false;
  try {
    const m = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Manifest;
    fresh = m.entry === entry && m.stamp === stampOf(m.inputs) && fs.existsSync(bundle);
  } catch {
    // no manifest yet, or a file of the bundle is gone: build
  }
  if (!fresh) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const started = Date.now();
    // Loaded here only: from the build, workers start from dist/ and esbuild is never needed.
    const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
    const result = esbuild.buildSync({
      entryPoints: [entry],
      absWorkingDir: root,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const out = result.outputFiles[0];
    if (out === undefined) throw new Error('esbuild wrote no bundle');
    const tmp = `${bundle}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, out.contents);
    fs.renameSync(tmp, bundle);
    const inputs = Object.keys(result.metafile.inputs).map((f) => path.resolve(root, f));
    // A file saved while the bundle was built may be missing from it: no manifest, so the next start builds again.
    if (inputs.every((f) => fs.statSync(f).mtimeMs < started)) {
      const tmpManifest = `${manifest}.${process.pid}.tmp`;
      fs.writeFileSync(tmpManifest, JSON.stringify({ entry, inputs, stamp: stampOf(inputs) } satisfies Manifest));
      fs.renameSync(tmpManifest, manifest);
    }
  }
  bundles.set(entry, bundle);
  return bundle;
}
