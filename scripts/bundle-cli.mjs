#!/usr/bin/env node
// `npm run build` (and `npm test`'s build), after tsc: dist/cli/program.js becomes one file
// holding program.ts, cli/command.ts and every command file (cli/commands/*.ts), instead of
// tsc's twelve. Every command's declaration is loaded by every call (issue 31 point 7: each
// command is declared in its own file), and node spends about 1-3 ms on each ESM file it loads:
// as twelve files `node dist/cli/main.js --help` took 30-50 ms longer than with the
// declarations in program.ts (measured on the shared 2-core VM); as one, the same.
//
// Only those files are copied in: nothing else imports them, so no module exists twice (errors'
// classes and io's stdioPolicy stay one instance). Every other import, static or dynamic, stays
// an import of its own dist/ file, its path rewritten to be relative to dist/cli/.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ANALYZER_SCRIPT = join(root, 'dist', 'cli', 'analyzerScript.cjs');
const ANALYZER_CACHE = join(root, 'dist', 'cli', 'analyzerScript.v8');

// `node scripts/bundle-cli.mjs --analyzer-cache` (run by the build below, in a process of its own):
// V8's code cache of the analyzer's script after it analysed a small made-up log, and the module
// that loads the script with it (dist/cli/analyzer.js, cli/scriptCache.ts).
if (process.argv[2] === '--analyzer-cache') {
  const { cacheFileData, loadScript } = await import(pathToFileURL(join(root, 'dist', 'cli', 'scriptCache.js')).href);
  const loaded = loadScript(ANALYZER_SCRIPT);
  const a = loaded.exports;
  // What `cichat analyze FILE` runs: two reads of the file, the excerpts with their findings, their lines.
  const log = join(root, 'scripts', 'analyzer-warmup.txt');
  const result = await a.analyzeReadTwice(() => a.readFilePieces(log), {}, (offset) => a.readFilePieces(log, offset));
  for (const e of result.excerpts) for (let n = e.start_line; n <= e.end_line; n++) result.line(n);
  writeFileSync(ANALYZER_CACHE, cacheFileData(loaded));
  const names = Object.keys(a).sort();
  writeFileSync(
    join(root, 'dist', 'cli', 'analyzer.js'),
    [
      '// Written by scripts/bundle-cli.mjs: the analyzer (core/log/{analyze,reread,lines,baseline} and what they',
      '// import) from one CommonJS file, compiled with V8\'s code cache of it (cli/scriptCache.ts).',
      "import { fileURLToPath } from 'node:url';",
      "import { loadScript } from './scriptCache.js';",
      'const at = (name) => fileURLToPath(new URL(name, import.meta.url));',
      "const m = loadScript(at('./analyzerScript.cjs'), at('./analyzerScript.v8')).exports;",
      `export const { ${names.join(', ')} } = m;`,
      '',
    ].join('\n'),
  );
  process.exit(0);
}
const cli = join(root, 'cli');
const inBundle = (file) => file === join(cli, 'program.ts') || file === join(cli, 'command.ts') || dirname(file) === join(cli, 'commands');

// `cichat analyze` loads the analyzer (core/log, core/finding: ~80 of tsc's files) from one file,
// dist/cli/analyzer.js, which the analyze command's dynamic imports of these modules are pointed
// at: loading them took 157-233 ms of CPU as files and 104-136 ms as one (five alternating runs,
// loaded VM, 2026-11-29; docs/notes/analyzer.md "Eleventh session"), of the ~0.55 CPU s that
// `cichat analyze` of a log of median size costs. The command takes every analyzer module it uses
// from that file, so none of them exists twice in the process (stdin.js, which the command also
// loads, stays its own file with cli/errors.js: its errors are the program's classes). That file
// is a small module which runs the analyzer's CommonJS bundle (analyzerScript.cjs) with V8's
// code cache of it (analyzerScript.v8, made above): every 8th LogChunks log, each its own
// `cichat analyze`, 0.94x the CPU of the bundle as an ES module (docs/notes/analyzer.md
// "Twelfth session").
/** esbuild's options shared by both bundles: ES modules for Node 20, packages left as imports. */
const COMMON = {
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};
const ANALYZER_MODULES = ['analyze', 'reread', 'lines', 'baseline'].map((m) => join(root, 'core', 'log', `${m}.ts`));
const analyzer = await build({
  stdin: { contents: ANALYZER_MODULES.map((m) => `export * from ${JSON.stringify(m)};`).join('\n'), resolveDir: root, loader: 'ts' },
  outfile: ANALYZER_SCRIPT,
  ...COMMON,
  // A script, not a module: V8's code cache is for scripts (vm.Script); Node 20 has none for ES modules.
  format: 'cjs',
});
if (analyzer.errors.length > 0) process.exit(1);
// The cache is made in a process without NODE_OPTIONS: V8 takes cached data only from a process
// with the same V8 flags, and `cichat analyze` is run without any.
const env = { ...process.env };
delete env.NODE_OPTIONS;
if (spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--analyzer-cache'], { stdio: 'inherit', env }).status !== 0) process.exit(1);

const result = await build({
  entryPoints: [join(cli, 'program.ts')],
  outfile: join(root, 'dist', 'cli', 'program.js'),
  ...COMMON,
  plugins: [
    {
      name: 'only-program-and-commands',
      setup(b) {
        b.onResolve({ filter: /^\./ }, (args) => {
          const target = resolve(args.resolveDir, args.path);
          if (args.kind !== 'dynamic-import' && inBundle(target.replace(/\.js$/, '.ts'))) return undefined;
          if (args.kind === 'dynamic-import' && ANALYZER_MODULES.includes(target.replace(/\.js$/, '.ts'))) return { path: './analyzer.js', external: true };
          const path = relative(cli, target);
          return { path: path.startsWith('.') ? path : `./${path}`, external: true };
        });
      },
    },
  ],
});
if (result.errors.length > 0) process.exit(1);
