/**
 * A Pipeline whose only error lines are Jenkins' own verdicts (ux14): `Failed in branch unit`,
 * `Stage "Package" skipped due to earlier failure(s)`, `ERROR: script returned exit code 1`. None
 * says why; the failed step's last output does (a program that stopped printed its reason last),
 * also when no rule knows its words. The finding is that output's: a rule's finding in the step's
 * last lines, else an error-looking line among them, else the last line the step printed (class
 * unknown; the answers say what it is: backend/answer/local/parallelBranch.ts `failedOutputLine`).
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { failedOutputEnd } from '../log/failingStep.js';
import { ERRORISH } from './generic.js';
import { SUMMARY_LINE } from './rules.js';
import { bodies, lineBody } from './body.js';

type Window = Pick<LogExcerpt, 'start_line' | 'end_line'>;

/** How many lines of the branch's own output (Jenkins' `[Pipeline]` lines aside) are read back from its end. */
const SAID = 5;
/** And how far back at most. */
const REACH = 30;

/**
 * The finding of the failed step's last output for a verdict excerpt (1-based lines), or undefined when
 * the excerpt holds more than Jenkins' verdicts or no failed step is found above it. `bodyAt` is
 * 0-based; `findingIn` reads a window.
 */
export function failedOutputFinding(lines: readonly string[], excerpt: Window, findingIn: (w: Window) => Finding): Finding | undefined {
  const body = bodies(lines, excerpt.start_line - 1, excerpt.end_line);
  if (!body.some((t) => SUMMARY_LINE.test(t.trim())) || !body.every((t) => t.trim() === '' || t.startsWith('[Pipeline] ') || SUMMARY_LINE.test(t.trim()))) return undefined;
  const bodyAt = (i: number): string => lineBody(lines, i);
  const end = failedOutputEnd(excerpt.start_line - 1, bodyAt)?.end;
  if (end === undefined) return undefined;
  let start = end;
  let said = 1;
  while (start > 0 && said < SAID && end - start < REACH && !/^(?:\+ |\$ )/.test(bodyAt(start).trim())) {
    start--;
    const t = bodyAt(start).trim();
    if (t !== '' && !t.startsWith('[Pipeline] ')) said++;
  }
  const read = findingIn({ start_line: start + 1, end_line: end + 1 });
  if (read.class !== 'unknown') return read;
  if (ERRORISH.test(read.message) && !SUMMARY_LINE.test(read.message)) return read;
  return findingIn({ start_line: end + 1, end_line: end + 1 });
}
