/**
 * The cases of test/fixtures/realfail (issue 25) that tests may read: the `dev` cases of
 * `_build/split.tsv`, and the held-out cases of the first round, whose figures were reported
 * and which have been open for tuning since. A case of a later held-out round (`"round": 2` or
 * more in its expected.json) is never read here: it is for the figures only. Rounds 2 and 3 were measured, reported
 * and then tuned on; HELDOUT_ROUND is the round being held out now.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HELDOUT_ROUND } from '../../bench/realCases.js';

export const REALFAIL_ROOT = path.join(process.cwd(), 'test', 'fixtures', 'realfail');

const rows = readFileSync(path.join(REALFAIL_ROOT, '_build', 'split.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((row) => row.split('\t'))
  .filter((cols) => existsSync(path.join(REALFAIL_ROOT, cols[0] as string, 'expected.json')));

/** The case's held-out round (1 when it names none). */
function roundOf(id: string): number {
  const v: unknown = JSON.parse(readFileSync(path.join(REALFAIL_ROOT, id, 'expected.json'), 'utf8'));
  const round = typeof v === 'object' && v !== null ? (v as { round?: unknown }).round : undefined;
  return typeof round === 'number' ? round : 1;
}

/**
 * The held-out round being measured now: its cases are never read by tests. One number with the benches' `--tuning`
 * (bench/realCases.ts), so opening a round is one edit: two copies could disagree and let a test read a held-out case.
 */
export { HELDOUT_ROUND };

/** Every case directory (expected.json present), in id order. */
const allIds = readdirSync(REALFAIL_ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(REALFAIL_ROOT, d.name, 'expected.json')))
  .map((d) => d.name)
  .sort();

export const DEV_CASES: string[] = rows.filter((cols) => cols[1] === 'dev').map((cols) => cols[0] as string);

/**
 * The cases open for tuning: every case of a round before HELDOUT_ROUND (round 1's dev and
 * held-out cases, round 2's held-out cases, measured and reported on 2026-11-24, round 3's,
 * measured on 2026-11-25, round 4's, measured at 02:32 UTC that day, round 5's, measured at 03:17, and every
 * later round once measured: round 11's at 2026-11-29 02:10 UTC, round 12's at 03:30, round 13's at 03:53 (opened at 04:35), rounds 14 and 15 (measured 04:30 and 05:21, opened at 06:30), round 16 (measured 05:21, opened at 09:50), round 17 (measured 08:05, opened at 12:40), round 18 (measured 10:25, opened at 15:30), round 19 (measured 12:35-13:00 at 7d87154f, opened at 18:20), round 20 (measured at 2db9ffdf, opened at 21:05), round 21 (measured at d5196271, opened 2026-11-30 ~01:00), round 22 (measured at 4efaca37, opened 2026-11-30 ~04:00), round 23 (measured at 1f2a69a8, opened 2026-11-30 ~06:00), round 24 (measured at 619ff6c6, opened 2026-11-30 ~09:00), round 25 (measured at 6996a2f3, opened 2026-11-30 ~12:00), round 26 (measured at e828994b, opened 2026-11-30 ~15:00), round 27 (measured at 07118cf9, opened 2026-11-30 ~18:30), each opened for tuning then).
 */
export const TUNED_CASES: string[] = allIds.filter((id) => roundOf(id) < HELDOUT_ROUND);

/**
 * The files under test/fixtures whose names match `name` (the logs: `/\.(?:log|txt)$/`), in walk
 * order, leaving out every real-failure case that is not tuned (a held-out round's case is never
 * read by a test). For the checks that run on every fixture log (core/log/prefilter.test.ts,
 * core/log/lines.test.ts).
 */
export function fixtureFiles(name: RegExp): string[] {
  const tuned = new Set(TUNED_CASES);
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!(d === REALFAIL_ROOT && existsSync(path.join(p, 'expected.json')) && !tuned.has(e.name))) walk(p);
      } else if (name.test(e.name)) files.push(p);
    }
  };
  walk(path.dirname(REALFAIL_ROOT));
  return files;
}
