/**
 * Failing tests whose names a runner prints over several lines (core/finding/tests.ts reads the
 * one-line forms): the name is the lines joined as the runner itself joins them.
 * - mocha's failure header: `1) Suite` over the indented titles of its nested suites and the
 *   test's own, which ends in `:` (`runs every task:`); mocha's full title is them joined by spaces.
 * - PHPUnit's testdox: the class heading (`Checkout (App\Tests\Checkout)`) over its tests'
 *   `✘ Shipping below threshold` lines.
 */

import type { Finding } from '../../protocol/types.js';

export interface MultilineName {
  /** 0-based index in the window of the line with the test's own title (its last line). */
  index: number;
  text: string;
  name: string;
  tool: string;
}

/** mocha's numbered failure header; the titles under it are indented deeper. */
const MOCHA_HEAD = /^(\s*)\d+\) (\S.*?)\s*$/;
/** A line under the header that is a failure's text, not a title. */
// (jasmine's console reporter labels the failure's parts under the same numbered header: `Message:`, `Stack:`.)
const NOT_A_TITLE = /^\s*(?:Failure\/Error\b|\w*(?:Error|Exception)\b|at\s|\+|-|expected\b|(?:Message|Stack):$)/;

/** The failing test named over several lines nearest to (and not after) `before`, else the first after it. */
export function multilineNameIn(lines: readonly string[], before: number): MultilineName | undefined {
  let after: MultilineName | undefined;
  for (let i = 0; i < lines.length; i++) {
    const found = mochaAt(lines, i) ?? testdoxAt(lines, i);
    if (!found) continue;
    if (i > before) return after ?? found;
    after = found;
  }
  return after;
}

function mochaAt(lines: readonly string[], i: number): MultilineName | undefined {
  const head = MOCHA_HEAD.exec(lines[i] ?? '');
  if (!head) return undefined;
  const indent = (head[1] as string).length;
  const parts = [head[2] as string];
  // `1) runs every task:` (a test outside any suite) or the suite's line over its titles.
  for (let k = i; k < Math.min(lines.length, i + 6); k++) {
    const line = k === i ? (head[2] as string) : (lines[k] ?? '');
    if (k > i) {
      const depth = /^\s*/.exec(line)?.[0].length ?? 0;
      if (line.trim() === '' || depth <= indent || NOT_A_TITLE.test(line)) return undefined;
      parts.push(line.trim());
    }
    if (/:$/.test(line.trim())) {
      const name = parts.join(' ').replace(/:$/, '');
      return { index: k, text: (lines[k] ?? '').trim(), name, tool: 'mocha' };
    }
  }
  return undefined;
}

function testdoxAt(lines: readonly string[], i: number): MultilineName | undefined {
  const test = /^\s*✘ (\S.*?)\s*$/.exec(lines[i] ?? '');
  if (!test) return undefined;
  // Up over the class's other tests and their boxes to its heading (not indented).
  for (let k = i - 1; k >= Math.max(0, i - 200); k--) {
    const t = lines[k] ?? '';
    if (t.trim() === '' || /^\s/.test(t)) continue;
    const heading = /^(\S.*\([\w\\]+\))$/.exec(t.trim());
    return heading ? { index: i, text: (lines[i] ?? '').trim(), name: `${heading[1]} ${test[1]}`, tool: 'phpunit' } : undefined;
  }
  return undefined;
}

/** A runner's line for a test file that failed as a whole (jest's `FAIL x.test.js`, vitest's ` FAIL  x.test.js [ x.test.js ]`). */
const SUITE_FILE = String.raw`(\S+\.(?:test|spec)\.[cm]?[jt]sx?|\S*__tests__\/\S+\.[cm]?[jt]sx?)`;
const VITEST_SUITE = new RegExp(String.raw`^(?:FAIL|×|✗|❯)\s+(?:[^\s>]+\s+)?${SUITE_FILE} \[ \S+ \]$`);
const JEST_SUITE = new RegExp(String.raw`^FAIL\s+(?:[^\s>]+\s+)?${SUITE_FILE}(?: \([\d.]+ m?s\))?$`);

/**
 * The test file of a suite that failed to run, above the error at 0-based line `at` (back to the script's command):
 * it names no test, so its file is what failed (vitest's ` FAIL  test/a.test.js [ test/a.test.js ]`, jest's
 * `FAIL test/a.test.js` over `● Test suite failed to run`). The nearest one above the error.
 */
export function failedSuiteAbove(line: (i: number) => string, at: number): { name: string; index: number; tool: string } | undefined {
  for (let k = at; k >= Math.max(0, at - 60); k--) {
    const t = line(k).trim();
    if (/^(?:\+ |\$ )/.test(t)) return undefined;
    const vitest = VITEST_SUITE.exec(t);
    if (vitest) return { name: vitest[1] as string, index: k, tool: 'vitest' };
    const jest = JEST_SUITE.exec(t);
    if (jest && /^● Test suite failed to run$/.test(line(k + 1).trim())) return { name: jest[1] as string, index: k, tool: 'jest' };
  }
  return undefined;
}

/** A test's failure with no test named, in a suite that failed to run: the suite's file is the test (failedSuiteAbove). */
export function withFailedSuite(found: Finding, bodyAt: (i: number) => string): Finding {
  if (found.test !== undefined || (found.class !== 'test-error' && found.class !== 'test-assertion')) return found;
  const suite = failedSuiteAbove(bodyAt, found.message_line - 1);
  return suite ? { ...found, test: { name: suite.name, log_line: suite.index + 1 } } : found;
}

/** make's verdict on a recipe: `make: *** [Makefile:8: check] Terminated` (the target's name). */
const MAKE_VERDICT = /^g?make(?:\[\d+\])?: \*\*\* \[[^\]\s]+:\d+: ([\w.-]+)\] /;
/** A recipe's echoed run of a test program (`./test_queue`, `./tests/test_manifest --quick`), as make echoes it (no `+ `). */
const TEST_PROGRAM = /^\.\/(?:[\w.-]+\/)*(test[\w-]*|[\w-]+_test)(?: .*)?$/;

/**
 * A test program a recipe ran when make's verdict on it ended the build (`./test_queue` echoed over
 * `make: *** [Makefile:6: check] Alarm clock`): the program is the failing test, not the recipe's target
 * (`check`). Only the last program the recipe echoed before the verdict, back to the script's command.
 */
export function withTestProgram(found: Finding, bodyAt: (i: number) => string, count: number): Finding {
  const m = found.message_line - 1;
  let verdict: string | undefined;
  for (let k = m; k < Math.min(count, m + 4) && verdict === undefined; k++) verdict = MAKE_VERDICT.exec(bodyAt(k).trim())?.[1];
  if (verdict === undefined || (found.test !== undefined && found.test.name !== verdict)) return found;
  for (let k = m; k >= Math.max(0, m - 12); k--) {
    const t = bodyAt(k).trim();
    if (/^(?:\+ |\$ )/.test(t)) return found;
    const program = TEST_PROGRAM.exec(t);
    if (program) return { ...found, test: { name: program[1] as string, log_line: k + 1 } };
  }
  return found;
}
