/** The dev half of test/fixtures/realfail (issue 25): the cases `_build/split.tsv` marks `dev` that have an expected.json. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REALFAIL_ROOT = path.join(process.cwd(), 'test', 'fixtures', 'realfail');

export const DEV_CASES: string[] = readFileSync(path.join(REALFAIL_ROOT, '_build', 'split.tsv'), 'utf8')
  .trim()
  .split('\n')
  .map((row) => row.split('\t'))
  .filter((cols) => cols[1] === 'dev' && existsSync(path.join(REALFAIL_ROOT, cols[0] as string, 'expected.json')))
  .map((cols) => cols[0] as string);
