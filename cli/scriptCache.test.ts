import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from './services.js';
import { cacheFileData, loadScript } from './scriptCache.js';

const BUNDLE = `const path = require('node:path');
function where() { return new Error('here').stack; }
function strict() { return this === undefined; }
exports.joined = path.join('a', 'b');
exports.where = where;
exports.strict = strict;
module.exports.calls = (exports.calls ?? 0) + 1;
`;

describe("a CommonJS bundle through V8's code cache (cli/scriptCache.ts, issue 28)", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-script-cache-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("runs the bundle as Node runs a CommonJS file: its exports, require, strict mode, the file's line numbers", () => {
    const file = path.join(dir, 'bundle.cjs');
    fs.writeFileSync(file, BUNDLE);
    const first = loadScript(file, path.join(dir, 'none.v8'));
    expect(first.cacheRejected).toBeUndefined();
    expect(first.exports.joined).toBe(path.join('a', 'b'));
    expect(first.exports.calls).toBe(1);
    const strict = first.exports.strict as () => boolean;
    expect(strict()).toBe(true);
    expect((first.exports.where as () => string)()).toContain(`${file}:2:`);
  });

  it('takes the cached data made after a run, refuses data of another source, and runs either way', () => {
    const file = path.join(dir, 'bundle.cjs');
    const cache = path.join(dir, 'bundle.v8');
    fs.writeFileSync(file, BUNDLE);
    const made = loadScript(file);
    expect((made.exports.where as () => string)()).toContain('bundle.cjs');
    fs.writeFileSync(cache, cacheFileData(made));
    const cached = loadScript(file, cache);
    expect(cached.cacheRejected).toBe(false);
    expect(cached.exports.joined).toBe(path.join('a', 'b'));
    // A rebuilt bundle of the same length beside the old cache (V8 would take its data: it checks
    // a source's length only): refused, the new source runs.
    fs.writeFileSync(file, BUNDLE.replace("'a', 'b'", "'a', 'c'"));
    const rebuilt = loadScript(file, cache);
    expect(rebuilt.cacheRejected).toBe(true);
    expect(rebuilt.exports.joined).toBe(path.join('a', 'c'));
    // The hash right, the data not V8's (of a source this process has not compiled yet: V8 keeps
    // the scripts it compiled, and compiles none of them again with or without cached data).
    const other = `${BUNDLE}exports.other = true;\n`;
    fs.writeFileSync(file, other);
    fs.writeFileSync(cache, Buffer.concat([createHash('sha256').update(other).digest(), Buffer.from('not a code cache')]));
    expect(loadScript(file, cache)).toMatchObject({ cacheRejected: true, exports: { other: true } });
  });

  // `npm run build` (npm test builds dist/ first): the analyzer's module runs its script with a cache V8 takes.
  const built = path.join(PACKAGE_ROOT, 'dist', 'cli', 'analyzerScript.cjs');
  (fs.existsSync(built) ? it : it.skip)("dist/: the analyzer's cached data is taken by a plain node, and the module exports the analyzer", () => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const code = `
      const { loadScript } = await import(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist', 'cli', 'scriptCache.js'))});
      const { cacheRejected } = loadScript(${JSON.stringify(built)}, ${JSON.stringify(built.replace(/\.cjs$/, '.v8'))});
      const analyzer = await import(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist', 'cli', 'analyzer.js'))});
      const result = analyzer.analyzeLines(['step 1', 'npm ERR! code ELIFECYCLE', 'Finished: FAILURE']);
      console.log(JSON.stringify({ cacheRejected, exports: Object.keys(analyzer).length, top: result[0]?.start_line }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { cacheRejected: boolean; exports: number; top: number };
    expect(out.cacheRejected).toBe(false);
    expect(out.exports).toBeGreaterThan(10);
    expect(out.top).toBeGreaterThan(0);
  });
});
