#!/usr/bin/env node
// The `cichat` executable. In the packed package (`npm pack`: no TypeScript sources, only
// dist/) it runs the compiled dist/cli/main.js with plain node. In a checkout, commands run
// cli/main.ts in this same process through tsx's ESM loader, so a checkout needs no build step
// (and a stale dist/ is never run in place of the sources). Loading tsx (esbuild) costs about a
// third of a second, so `--help` / `--version` run a cached bundle of main.ts instead: help
// never reaches a command's action, so nothing else needs compiling.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const main = join(here, 'main.ts');
const all = process.argv.slice(2);
const args = all.includes('--') ? all.slice(0, all.indexOf('--')) : all;
const helpOnly =
  args.length === 0 || args.some((a) => a === '-h' || a === '--help' || a === '-V' || a === '--version') || args[0] === 'help';

async function runHelpBundle() {
  const sources = [main, ...['program.ts', 'io.ts', 'options.ts', 'errors.ts', 'version.ts'].map((f) => join(here, f))];
  const stamp = sources.map((f) => { const s = statSync(f); return `${s.mtimeMs}-${s.size}`; }).join('_').replace(/\./g, '');
  const cacheDir = join(here, '..', 'node_modules', '.cache', 'cichat');
  const bundle = join(cacheDir, `help-${stamp}.mjs`);
  if (!existsSync(bundle)) {
    const { buildSync } = await import('esbuild');
    const out = buildSync({
      entryPoints: [main], bundle: true, format: 'esm', platform: 'node', target: 'node20',
      packages: 'external', external: ['./commands/*', './client.js'], write: false, logLevel: 'silent',
    });
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${bundle}.${process.pid}.tmp`;
    writeFileSync(tmp, out.outputFiles[0].contents);
    renameSync(tmp, bundle);
    for (const old of readdirSync(cacheDir)) {
      if (old.startsWith('help-') && join(cacheDir, old) !== bundle && old.endsWith('.mjs')) rmSync(join(cacheDir, old), { force: true });
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
