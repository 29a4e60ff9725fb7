#!/usr/bin/env node
// `npm test`: builds dist/ (unless it is newer than every source file), then runs the three Jest
// projects (unit, integration, e2e) in one run, four files at a time, with the e2e processes
// started from dist/ (CICHAT_TEST_DIST=1: half the CPU of a process through tsx). On two cores
// the suite is CPU-bound; the e2e files mostly wait on processes (a lease expiry, a database
// outage) and overlap the rest; files go out longest first by a recorded run's times
// (scripts/testSequencer.js, scripts/testTimes.json). Measured on this
// machine: 2m48s for 970 tests before; see docs/notes/house.md for the figures of today's run.
// Extra arguments go to jest (`npm test -- --maxWorkers=2`, `npm test -- test/chats.test.ts`).
// Prints one closing line for the whole run, "N passed, N failed[, N skipped]", and its time.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const extra = process.argv.slice(2);
const started = Date.now();
const SOURCES = ['protocol', 'core', 'jenkins', 'http', 'backend', 'controller', 'cli', 'web', 'knexfile.ts', 'tsconfig.json', 'tsconfig.build.json'];

/** Newest modification time (ms) of the files under `p` (test files left out). */
function newest(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return /\.test\.tsx?$/.test(p) ? 0 : st.mtimeMs;
  let t = 0;
  for (const name of fs.readdirSync(p)) t = Math.max(t, newest(path.join(p, name)));
  return t;
}

function build() {
  const built = fs.existsSync('dist/cli/main.js') ? newest('dist') : 0;
  if (built > 0 && SOURCES.every((s) => newest(s) < built)) {
    process.stderr.write('== build: dist/ is newer than the sources, kept\n');
    return true;
  }
  const t0 = Date.now();
  fs.rmSync('dist', { recursive: true, force: true });
  // --noCheck: emit only. The files tsc writes are the same bytes with or without it (tsconfig.json has
  // isolatedModules: no emit depends on a type), and type errors are `npm run typecheck`'s job, which CI runs
  // first; checking here too cost ~9 of the build's ~15 CPU-s (docs/notes/house.md, "`npm test` time", session 49).
  const tsc = spawnSync(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit' });
  // dist/cli/program.js as `npm run build` makes it: one file with the command declarations.
  const bundled = tsc.status === 0 && spawnSync(process.execPath, ['scripts/bundle-cli.mjs'], { stdio: 'inherit' }).status === 0;
  if (!bundled) {
    process.stderr.write('== build failed (npm run build): the e2e tests run the compiled package, so nothing was run\n');
    return false;
  }
  process.stderr.write(`== build: dist/ in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  return true;
}

if (!build()) process.exit(1);

const jest = path.resolve('node_modules/jest/bin/jest.js');
const env = {
  ...process.env,
  CICHAT_TEST_DIST: '1',
  // Jest needs VM modules; its "experimental feature" notice is the only warning a run would print (issue 27).
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --disable-warning=ExperimentalWarning`.trim(),
};
const workersGiven = extra.some((a) => /^(--maxWorkers|-w|--runInBand|-i)(=|$)/.test(a));
const results = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-jest-')), 'results.json');
const child = spawnSync(process.execPath, [jest, ...(workersGiven ? [] : ['--maxWorkers=4']), '--json', `--outputFile=${results}`, ...extra], {
  stdio: 'inherit',
  env,
});
let status = child.status ?? 1;
let line;
try {
  const r = JSON.parse(fs.readFileSync(results, 'utf8'));
  line = `${r.numPassedTests} passed, ${r.numFailedTests} failed`;
  const skipped = r.numPendingTests + r.numTodoTests;
  if (skipped > 0) line += `, ${skipped} skipped`;
  if (r.numFailedTests > 0 || r.numFailedTestSuites > 0) status = status || 1;
} catch {
  // No results file: jest itself failed to start (its error is above).
  line = '0 passed, 0 failed (jest did not run)';
  status = status || 1;
}
fs.rmSync(path.dirname(results), { recursive: true, force: true });
const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(`\nTests: ${line}\n${line}\nnpm test took ${seconds} s\n`);
process.exit(status);
