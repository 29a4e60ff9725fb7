// The order in which `npm test` hands test files to its workers: the longest first, so that no
// long file starts near the end and runs on alone while the other workers have nothing left (the
// run's tail). Jest's own order is that too, from the times it kept of the last run in its cache
// (and a file that failed last time first). A fresh clone (CI) has no cache, and Jest then orders
// by file size: small but slow files (stream-abandon: 400 cut streams per dialect in 120 lines)
// started in the last sixth of a run and made its tail. So a file Jest has no time for takes its
// time from scripts/testTimes.json (each file's seconds in a full run, written by
// `node scripts/testTimes.mjs <jest --json results>`); a file in neither (a new one) goes first,
// the e2e ones before the others (they mostly wait on processes: a lease expiry, a 15 s database
// outage, and must overlap the CPU-bound rest, not follow it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sequencer from '@jest/test-sequencer';

const Base = Sequencer.default ?? Sequencer;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const TIMES_FILE = path.join(HERE, 'testTimes.json');
const ROOT = path.dirname(HERE);

/** Seconds per test file (path from the repository root) of the recorded run; {} when absent. */
function recordedTimes() {
  try {
    return JSON.parse(fs.readFileSync(TIMES_FILE, 'utf8')).seconds ?? {};
  } catch {
    return {};
  }
}

export default class LongestFirstSequencer extends Base {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.every((t) => t.duration != null)) return sorted; // Jest's own times of the last run
    const recorded = recordedTimes();
    const seconds = (t) => (t.duration != null ? t.duration / 1000 : recorded[path.relative(ROOT, t.path)]);
    const rank = (t) => (this.hasFailed(t) ? -1 : seconds(t) != null ? 2 : t.context.config.displayName?.name === 'e2e' ? 0 : 1);
    // Array.prototype.sort is stable: within a rank, unknown files keep Jest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? seconds(b) - seconds(a) : 0));
  }
}
