#!/usr/bin/env node
// The `cichat` executable. In the packed package (`npm pack`: no TypeScript sources, only
// dist/) it runs the compiled dist/cli/main.js with plain node. In a checkout, commands run
// cli/main.ts in this same process through tsx's ESM loader, so a checkout needs no build step
// (and a stale dist/ is never run in place of the sources). Loading tsx (esbuild) costs about a
// third of a second, so `--help` / `--version` run a cached bundle of main.ts instead
// (cli/helpBundle.js: program.ts and every command file's declaration; help never reaches an
// action, so nothing an action loads is in it).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, 'main.ts');
const all = process.argv.slice(2);
const args = all.includes('--') ? all.slice(0, all.indexOf('--')) : all;
const helpOnly =
  args.length === 0 || args.some((a) => a === '-h' || a === '--help' || a === '-V' || a === '--version') || args[0] === 'help';

/** Modification time and size of each file: a change to any of them changes the stamp. */
function stampOf(files) {
  return files.map((f) => { const s = statSync(f); return `${s.mtimeMs}-${s.size}`; }).join('_');
}

/** FNV-1a of the checkout's path: one bundle per checkout (checkouts may share node_modules). */
function checkoutKey() {
  let h = 0x811c9dc5;
  for (let i = 0; i < here.length; i++) h = Math.imul(h ^ here.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

async function runHelpBundle() {
  const cacheDir = join(here, '..', 'node_modules', '.cache', 'cichat');
  const base = join(cacheDir, `help-${checkoutKey()}`);
  const bundle = `${base}.mjs`;
  // The manifest lists the bundle's source files (esbuild's metafile) with their stamp: any
  // file in the bundle that changes (a command file's options, say) rebuilds it.
  const manifest = `${base}.json`;
  let fresh = false;
  try {
    const m = JSON.parse(readFileSync(manifest, 'utf8'));
    fresh = m.main === main && m.stamp === stampOf(m.inputs) && existsSync(bundle);
  } catch {
    // no manifest yet, or a file of the bundle is gone: rebuild
  }
  if (!fresh) {
    mkdirSync(cacheDir, { recursive: true });
    const started = Date.now();
    const { buildHelpBundle } = await import('./helpBundle.js');
    const { inputs } = await buildHelpBundle(main, bundle);
    // A file saved while the bundle was built may be missing from it: no manifest, so the next call builds again.
    if (inputs.every((f) => statSync(f).mtimeMs < started)) {
      const tmp = `${manifest}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ main, inputs, stamp: stampOf(inputs) }));
      renameSync(tmp, manifest);
    }
  }
  await import(pathToFileURL(bundle).href);
}

const compiled = join(here, '..', 'dist', 'cli', 'main.js');
if (!existsSync(main) && existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else if (helpOnly) {
  try {
    await runHelpBundle();
  } catch {
    await runWithTsx(); // no writable cache (read-only install): take the slow road
  }
} else {
  await runWithTsx();
}

async function runWithTsx() {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    // tsx is a development dependency: a checkout installed without it runs dist/ when built.
    if (existsSync(compiled)) {
      await import(pathToFileURL(compiled).href);
      return;
    }
    process.stderr.write('cichat: this checkout runs its TypeScript sources through tsx, which is not installed (a development dependency)\nhint: run `npm install` in ' + join(here, '..') + ' (or `npm run build` to run the compiled code)\n');
    process.exit(1);
  }
  register();
  await import(pathToFileURL(main).href);
}
