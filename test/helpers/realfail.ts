/**
 * The cases of test/fixtures/realfail (issue 25) that tests may read: the `dev` cases of
 * `_build/split.tsv`, and the held-out cases of the first round, whose figures were reported
 * and which have been open for tuning since. A case of a later held-out round (`"round": 2` or
 * more in its expected.json) is never read here: it is for the figures only.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

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

export const DEV_CASES: string[] = rows.filter((cols) => cols[1] === 'dev').map((cols) => cols[0] as string);

/** Dev cases and the first round's held-out cases (open since round 2). */
export const TUNED_CASES: string[] = rows.filter((cols) => cols[1] === 'dev' || (cols[1] === 'heldout' && roundOf(cols[0] as string) < 2)).map((cols) => cols[0] as string);
