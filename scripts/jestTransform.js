// Jest's transform for our TypeScript: esbuild, one file at a time. tsconfig.json has
// `isolatedModules` and `verbatimModuleSyntax`, so each file compiles on its own and esbuild
// emits what tsc's transpileModule (ts-jest's path) emits, minus the types. ts-jest spent about
// 7.6 CPU-s transpiling the suite's files on a cold cache (a fresh clone, as in `.ci/run`) and
// every Jest worker loaded the TypeScript compiler first; esbuild does the same files in well
// under a second (docs/notes/house.md, "`npm test` time", seventh session). Type errors are
// `npm run typecheck`'s job (ts-jest ran with `diagnostics: false` too).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const require = createRequire(import.meta.url);
const esbuildVersion = require('esbuild/package.json').version;
const self = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');

// What tsconfig.json says that changes the emitted code (target ES2022: class fields are defined,
// as tsc does for that target; react-jsx: the automatic runtime).
const tsconfigRaw = { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: true, jsx: 'react-jsx' } };

function options(filename, esm) {
  return {
    loader: filename.endsWith('.tsx') ? 'tsx' : 'ts',
    format: esm ? 'esm' : 'cjs',
    target: 'es2022',
    platform: 'node',
    sourcemap: 'external',
    sourcesContent: false,
    sourcefile: filename,
    tsconfigRaw,
  };
}

export default {
  canInstrument: false,
  getCacheKey(source, filename, transformOptions) {
    return createHash('sha1')
      .update(self)
      .update(esbuildVersion)
      .update(String(transformOptions.supportsStaticESM))
      .update(filename)
      .update(transformOptions.configString)
      .update(source)
      .digest('hex');
  },
  process(source, filename, transformOptions) {
    const out = transformSync(source, options(filename, transformOptions.supportsStaticESM));
    return { code: out.code, map: out.map };
  },
};
