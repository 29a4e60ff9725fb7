/**
 * The finding tests' shared readers (core/finding/round*.test.ts): the first excerpt's finding of a
 * real failure of test/fixtures/realfail, a log text read as one window, and the check of a
 * table row (class, message, the location's file and line).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@jest/globals';
import { analyze } from './rulesReading.js';
import { cleanLines } from '../../core/log/clean.js';
import { findingOf } from '../../core/finding/index.js';
import type { Finding } from '../../protocol/types.js';
import { REALFAIL_ROOT } from './realfail.js';

/** The finding of the analyzer's first excerpt of case `id`'s fail.log. */
export const realFinding = (id: string): Finding | undefined => analyze(readFileSync(path.join(REALFAIL_ROOT, id, 'fail.log'), 'utf8'))[0]?.finding;

/** The finding of a log text read as one window. */
export const topFinding = (text: string): Finding => {
  const lines = cleanLines(text);
  return findingOf(lines, { start_line: 1, end_line: lines.length });
};

/** A row of a finding table: the class, a part of the message, the location's file (its end) and line (undefined: none). */
export type FindingRow = [string, string, string, string | undefined, number | undefined];

/**
 * Checks a row. `lineOnlyWithFile`: a row without a file says nothing of the location (the
 * round4a/round5a tables), instead of "no location".
 */
export function expectFinding(found: Finding | undefined, [, cls, message, file, line]: FindingRow, opts: { lineOnlyWithFile?: boolean } = {}): void {
  expect(found?.class).toBe(cls);
  expect(found?.message).toContain(message);
  if (file) expect(found?.location?.file.endsWith(file)).toBe(true);
  if (file || !opts.lineOnlyWithFile) expect(found?.location?.line).toBe(line);
}
