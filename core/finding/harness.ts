/**
 * Test harnesses that print their verdict apart from the failing test's own output (issue 25;
 * docs/notes/analyzer.md, "Before round 11 (helper t12)"): the window to read is the test's output,
 * found from the verdict by the test's name, however far above it is.
 *
 * - ctest: `The following tests FAILED:` / `Errors while running CTest` close the run; each failed
 *   test's result line (`161/321 Test #161: aliases ....Subprocess aborted***Exception: 0.01 sec`)
 *   is somewhere above, among the passing ones, its output (`--output-on-failure`, `-V`) right under it
 *   up to the next test's `Start N:` or result line.
 * - automake's parallel test harness (`make check`): test-suite.log, as a CI step prints it, holds
 *   per failed test a section headed `FAIL: name` over a `====` underline, the test program's own
 *   output, and the driver's trailer `FAIL name (exit status: N)`.
 */

import type { Finding } from '../../protocol/types.js';

/** ctest's result line for a test that did not pass: `1/1 Test #1: name .....***Timeout   5.02 sec`. */
export const CTEST_RESULT = /^\s*\d+\/\d+ Test\s+#\d+: \S+ \.*\s*(?:\*\*\*\w+|Exit code 0x[0-9a-f]+|Subprocess aborted|Child aborted)/;
/** A command the CI ran: the harness's output above it is another step's. */
const COMMAND = /^(?:\+ |\$ )/;
/** How far above its closing summary a failed test's result line is looked for (a suite of thousands of tests). */
const REACH = 20000;

/**
 * The window (1-based, inclusive) of the first failed ctest result above the summary at line `first`
 * (0-based) and of the output printed under it; `end` (1-based) is the excerpt's last line, the window's
 * end when the result line has no output of its own.
 */
export function ctestWindow(line: (i: number) => string, first: number, end: number): { start_line: number; end_line: number } | undefined {
  let top = -1;
  for (let k = first - 1; k >= Math.max(0, first - REACH); k--) {
    const t = line(k);
    if (COMMAND.test(t.trim()) || /^Test project /.test(t.trim())) break;
    if (CTEST_RESULT.test(t)) top = k;
  }
  if (top < 0) return undefined;
  // Its output: up to the next test's start or result, the run's summary, or 40 lines.
  let last = top;
  while (last + 1 < first && last - top < 40 && !/^\s*(?:Start\s+\d+: |\d+\/\d+ Test\s+#\d+: )|^\d+% tests passed/.test(line(last + 1))) last++;
  return { start_line: top + 1, end_line: last > top ? last + 1 : end };
}

/**
 * ctest -V (or `--verbose`) prints a test's own output above its result line, each line under the test's number
 * (`100: tests/t_leap.c:20: days_in_year(1900): expected 365, got 366` over `100/240 Test #100: leap_1900 ...***Failed`).
 * A test error read at the result line becomes the test's check when that output has one: a place and the value it
 * wanted, as harnessFinding reads a check (helper t14).
 */
export function withCtestVerboseCheck(found: Finding, line: (i: number) => string, resultLine: number): Finding {
  if (found.class !== 'test-error' || found.confidence !== 'low') return found;
  const number = /^\s*\d+\/\d+ Test\s+#(\d+): /.exec(line(resultLine - 1))?.[1];
  if (number === undefined) return found;
  let first: { index: number; text: string; file: string; line: number } | undefined;
  for (let k = resultLine - 2; k >= Math.max(0, resultLine - 400); k--) {
    const t = line(k);
    if (!t.startsWith(`${number}: `)) break;
    const text = t.slice(number.length + 2).trim();
    const m = /^((?:[\w.-]+\/)*[\w.-]+\.\w+):(\d+): .*\b(?:want|wanted|expected)\b/i.exec(text);
    if (m) first = { index: k, text, file: m[1] as string, line: Number(m[2]) };
  }
  if (!first) return found;
  const at = first.index + 1;
  return { ...found, class: 'test-assertion', confidence: 'medium', message: first.text, message_line: at, location: { file: first.file, line: first.line, log_line: at }, evidence: [at, ...found.evidence.filter((n) => n !== at)] };
}

/** automake's trailer of a failed test's log: `FAIL tests/x (exit status: 1)`. */
const AUTOMAKE_TRAILER = /^(FAIL|ERROR|XPASS) (\S+) \(exit status: \d+\)$/;

/**
 * The section of test-suite.log holding the failed test's own output, when line `at` (0-based) is its
 * trailer: the window (1-based, inclusive) from the line under the `FAIL: name` heading's underline to the
 * trailer, and the test's name.
 */
export function automakeSection(line: (i: number) => string, at: number): { start_line: number; end_line: number; name: string } | undefined {
  const m = AUTOMAKE_TRAILER.exec(line(at).trim());
  if (!m) return undefined;
  const heading = `${m[1] as string}: ${m[2] as string}`;
  for (let k = at - 1; k >= Math.max(1, at - 400); k--) {
    if (COMMAND.test(line(k).trim())) return undefined;
    if (line(k).trim() === heading && /^=+$/.test(line(k + 1).trim())) return { start_line: k + 3, end_line: at + 1, name: m[2] as string };
  }
  return undefined;
}

/**
 * The finding of a failed test's own output read from its harness section: what the rules found there, with
 * the test named; else the section's error line, a failed check when it carries a place and the value it
 * wanted (`tests/t.c:12: f(x) = "a", want "b"`), an error of the test otherwise.
 */
export function harnessFinding(found: Finding, name: string, verdictLine: number): Finding {
  const test = found.test ?? { name, log_line: verdictLine };
  if (found.class !== 'unknown') return { ...found, test };
  const check = found.location !== undefined && /\b(?:want|wanted|expected)\b/i.test(found.message);
  return { ...found, class: check ? 'test-assertion' : 'test-error', confidence: check ? 'medium' : 'low', tool: found.tool ?? 'automake', test, evidence: [...found.evidence, verdictLine] };
}

/** make's report that a recipe's program died of a signal: `make: *** [Makefile:8: check] Floating point exception`. */
const MAKE_SIGNAL = /^g?make(?:\[\d+\])?: \*\*\* \[[^\]]*\] (?:Segmentation fault|Floating point exception|Aborted|Illegal instruction|Bus error)/;
/** A test program as a recipe runs it (`./test_stats`, `tests/unit_tests`, `./ring_test --quick`). */
const TEST_PROGRAM = /^(?:\S*\/)?(?:test[_-]\w+|\w+[_-]tests?)(?:\s|$)/;

/**
 * Whether the window's signal (make's report of a recipe killed by one) killed a test program: the recipe line make
 * echoed just above names one (`./test_stats`). A program of the project's own (`./lookup`) is a run-time crash.
 */
export function testProgramKilled(body: readonly string[], index: number | undefined): boolean {
  if (index === undefined || !MAKE_SIGNAL.test((body[index] ?? '').trim())) return false;
  for (let k = index - 1; k >= Math.max(0, index - 5); k--) {
    const t = (body[k] ?? '').trim();
    if (t !== '' && !CXX_TERMINATE.test(t)) return TEST_PROGRAM.test(t);
  }
  return false;
}

/**
 * The C++ runtime's report of an uncaught exception before it aborts the program (`terminate called after throwing an
 * instance of 'std::out_of_range'` and its `what():  ...` line): the program's own last words, between the command make
 * echoed and make's report of the abort.
 */
const CXX_TERMINATE = /^terminate called (?:after throwing an instance of '[^']+'|without an active exception|recursively)$|^what\(\):/;

/** The line of make's report that a recipe's program died of a signal, at most 3 lines below `index` (0-based in `body`). */
export function makeSignalBelow(body: readonly string[], index: number): number | undefined {
  for (let k = index + 1; k <= Math.min(body.length - 1, index + 3); k++) if (MAKE_SIGNAL.test((body[k] ?? '').trim())) return k;
  return undefined;
}
