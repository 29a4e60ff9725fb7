/**
 * Worker threads started from the sources (tsx) load whatever the working directory: a linked
 * `cichat serve` run outside the checkout (`cd /tmp && cichat serve`, as the README says) used to
 * fail every streamed log upload with "ingest worker exited" (the eval'd worker looked for tsx
 * in the working directory's node_modules).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT as root } from '../cli/services.js';

function tsxEsmApi(): string {
  const require = createRequire(path.join(root, 'package.json'));
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

test('the ingest worker runs from the sources with a working directory that has no node_modules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-worker-cwd-'));
  try {
    const pool = pathToFileURL(path.join(root, 'backend', 'retrieval', 'ingestPool.ts')).href;
    const script = path.join(dir, 'run.mjs');
    fs.writeFileSync(
      script,
      [
        `import { register } from ${JSON.stringify(tsxEsmApi())};`,
        'register();',
        `const { IngestPool } = await import(${JSON.stringify(pool)});`,
        'const pool = new IngestPool();',
        "async function* source() { yield 'Started by user admin\\n+ make\\nmain.c:3: error: boom\\nFinished: FAILURE\\n'; }",
        'try {',
        '  const summary = await pool.run({ storedMaxChars: 1e6, tailLines: 1000, lineMaxChars: 10000 }, source(), { rows: async () => {} }, false);',
        '  console.log(JSON.stringify({ lines: summary.lineCount }));',
        '} finally { await pool.close(); }',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toMatch(/worker/);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({ lines: 4 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
