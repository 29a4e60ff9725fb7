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
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'cli');
const inBundle = (file) => file === join(cli, 'program.ts') || file === join(cli, 'command.ts') || dirname(file) === join(cli, 'commands');

// `cichat analyze` loads the analyzer (core/log, core/finding: ~80 of tsc's files) from one file,
// dist/cli/analyzer.js, which the analyze command's dynamic imports of these modules are pointed
// at: loading them took 157-233 ms of CPU as files and 104-136 ms as one (five alternating runs,
// loaded VM, 2026-11-29; docs/notes/analyzer.md "Eleventh session"), of the ~0.55 CPU s that
// `cichat analyze` of a log of median size costs. The command takes every analyzer module it uses
// from that file, so none of them exists twice in the process (stdin.js, which the command also
// loads, stays its own file with cli/errors.js: its errors are the program's classes).
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
  outfile: join(root, 'dist', 'cli', 'analyzer.js'),
  ...COMMON,
});
if (analyzer.errors.length > 0) process.exit(1);

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
