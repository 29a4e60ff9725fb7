#!/usr/bin/env node
// Writes scripts/testTimes.json, the seconds each test file took in full runs, from Jest's --json
// results of those runs (the longest of them per file):
// `node scripts/testTimes.mjs "<what runs they were>" <results.json>...` (the results of
// `npm test -- --json --outputFile=/tmp/r.json`, or of the command in docs/notes/house.md).
// scripts/testSequencer.js orders a fresh clone's files by it, the longest first. Only the order
// matters, so the figures of runs on a loaded machine serve (a quiet run's are all shorter).
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const [run, ...resultsFiles] = process.argv.slice(2);
if (!run || resultsFiles.length === 0) {
  process.stderr.write('usage: node scripts/testTimes.mjs "<what runs they were>" <jest --json results file>...\n');
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = {};
for (const file of resultsFiles) {
  for (const r of JSON.parse(fs.readFileSync(file, 'utf8')).testResults) {
    if (!(r.endTime > r.startTime)) continue; // a file that did not run (failed to load)
    const name = path.relative(root, r.name);
    seconds[name] = Math.max(seconds[name] ?? 0, Math.round((r.endTime - r.startTime) / 100) / 10);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
fs.writeFileSync(path.join(root, 'scripts', 'testTimes.json'), `${JSON.stringify({ run, seconds: sorted }, null, 1)}\n`);
process.stdout.write(`scripts/testTimes.json: ${Object.keys(sorted).length} files\n`);
