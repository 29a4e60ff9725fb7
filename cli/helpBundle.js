// The help bundle of cli/bin.js: cli/main.ts with the modules it imports statically (program.ts,
// every command file's declaration, errors, io, output...) in one ESM file, so that `cichat
// --help` runs with plain node, without tsx (issue 18). Help never runs an action, and actions
// load what they need with `await import()` (cli/command.ts), so every dynamic import is left
// out: the client, Ink, React, the log analyzer are neither bundled nor loaded. Packages stay
// imports (commander is the only one a declaration needs). Plain JS: bin.js runs it with node.
import { build } from 'esbuild';
import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import process from 'node:process';

/** Builds the bundle of `main` into `outFile` (written whole, then renamed) and answers what it holds. */
export async function buildHelpBundle(main, outFile) {
  const result = await build({
    entryPoints: [main],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'dynamic-imports-stay-out',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
        },
      },
    ],
  });
  const tmp = `${outFile}.${process.pid}.tmp`;
  writeFileSync(tmp, result.outputFiles[0].contents);
  renameSync(tmp, outFile);
  const output = Object.values(result.metafile.outputs)[0];
  return {
    /** The source files in the bundle (absolute paths). */
    inputs: Object.keys(result.metafile.inputs).map((f) => resolve(f)),
    /** What the bundle imports when it is loaded: packages and node: modules. */
    imports: [...new Set(output.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path))],
    bytes: output.bytes,
  };
}
