#!/usr/bin/env node
// `npm test`: the unit and integration projects in parallel, then the e2e project in band (its
// tests start processes, tmux and MariaDB instances of their own, which compete badly for two
// cores). Extra arguments go to both jest runs. Prints one closing line for the whole run,
// "N passed, N failed[, N skipped]", and the time it took.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const extra = process.argv.slice(2);
const jest = path.resolve('node_modules/jest/bin/jest.js');
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() };
const started = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0, suitesFailed: 0 };
let status = 0;

function run(label, args) {
  const results = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-jest-')), 'results.json');
  const t0 = Date.now();
  const child = spawnSync(process.execPath, [jest, ...args, '--json', `--outputFile=${results}`, ...extra], { stdio: 'inherit', env });
  if (child.status !== 0) status = child.status ?? 1;
  try {
    const r = JSON.parse(fs.readFileSync(results, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    totals.suitesFailed += r.numFailedTestSuites;
    process.stderr.write(`== ${label}: ${r.numPassedTests} passed, ${r.numFailedTests} failed in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  } catch {
    // No results file: jest itself failed to start (its error is above).
    if (status === 0) status = 1;
  }
  fs.rmSync(path.dirname(results), { recursive: true, force: true });
}

run('unit + integration', ['--selectProjects', 'unit', 'integration']);
run('e2e', ['--selectProjects', 'e2e', '--runInBand']);

const seconds = ((Date.now() - started) / 1000).toFixed(1);
let line = `${totals.passed} passed, ${totals.failed} failed`;
if (totals.skipped > 0) line += `, ${totals.skipped} skipped`;
process.stdout.write(`\nTests: ${line}\n${line}\nnpm test took ${seconds} s\n`);
process.exit(status !== 0 || totals.failed > 0 || totals.suitesFailed > 0 ? status || 1 : 0);
