/**
 * CTest's verdict on a test program is a row (`21/40 Test #21: pad_one_byte ....Subprocess aborted***Exception:`,
 * `***Failed`, `***Exception: SegFault`) or its closing list (`The following tests FAILED:` over `16 - name
 * (SEGFAULT)`, closed by `Errors while running CTest`); why the program failed is in its own output, which ctest prints above the row with `ctest -V`
 * (each line prefixed with the test's number, `21: ...`) or below it with `--output-on-failure`. A finding that is
 * only that verdict (a test error at `low`, or nothing) takes its class from the output, as the output of any test
 * program says it:
 * - a check that failed (C's `Assertion ... failed.`, a CHECK/ASSERT/EXPECT macro's `failed`, expected/got words):
 *   a test assertion, at the check's line and place;
 * - an uncaught C++ exception (`terminate called after throwing an instance of 'X'`): a test error, X its exception;
 * - an error the program met (`cannot open x: No such file or directory`): a test error, that line its message;
 * - nothing of these, and the verdict is a fatal signal (`SegFault`, `Illegal`, `Bus error`, `Numerical`): the
 *   program crashed, a runtime exception whoever ran it (the decided label, verdicts.ts), at the verdict's row.
 * Evidence of ctest's own format and of C/C++ runtimes, not of a project (docs/notes/analyzer.md, helper t18).
 */
import type { Finding } from '../../protocol/types.js';

/** ctest's row for one test: its number and name, and how it ended. */
const ROW = /^\s*\d+\/\d+ Test\s+#(\d+): (\S+) \.*\s*(\*\*\*Failed\b|Subprocess aborted\*\*\*Exception|\*\*\*Exception: ([\w ]+?)\s{2,}|\*\*\*Exception: (\w[\w ]*?)\s*[\d.]+ sec)/;
/** ctest's closing list of the failed tests: its heading, and a row (`16 - label_missing (SEGFAULT)`). */
const FAILED_LIST = /^The following tests FAILED:$/;
const LISTED = /^\s*(\d+) - (\S+) \(([\w ]+)\)/;
/** A fatal signal in ctest's words (the row's `***Exception: SegFault`, the list's `(SEGFAULT)`). */
const SIGNAL = /^(?:SegFault|SEGFAULT|Illegal|ILLEGAL|Bus error|BUS_ERROR|Numerical|NUMERICAL)$/;
/** ctest's own lines about the test it runs, not the program's output. */
const CTEST_OWN = /^(?:Test command:|Working Directory:|Test timeout computed to be:|Environment variables:|Test (?:Passed|Failed)\.?$)/;
/** A check that failed, in a C/C++ test program's own words. */
const CHECK_FAILED = /Assertion [`'‘].*[`'’] failed\.?$|\b(?:CHECK|ASSERT|EXPECT|REQUIRE|VERIFY)[A-Z_]*\b.{0,200}?\bfailed\b|\bfailed\b.{0,20}\b(?:CHECK|ASSERT|EXPECT|REQUIRE)[A-Z_]*\b|\bexpected\b.{0,80}\b(?:got|but (?:was|got)|actual|received|found)\b|\S = \S.{0,60}?,? (?:expected|want(?:ed)?):? \S|\bgot:? \S.{0,80}?,? want(?:ed)?:? \S|\bassert\w* failed\b/i;
const TERMINATE = /terminate called after throwing an instance of ['‘]([^'’]+)['’]/;
/** An error the program met: an OS error's or its own error words. */
const MET = /\b(?:No such file or directory|Permission denied|Operation not permitted|No space left on device|Cannot allocate memory|Connection refused|Too many open files|cannot|can't|unable to|failed to|error)\b/i;
/** A source file's place in a line (`/ws/tests/b64_tests.c:11:`, `tests/x.cpp:25`). */
const PLACE = /((?:[\w.~@+-]*\/)*[\w.~@+-]+\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|m|mm|cu|f90|f|rs|go|zig)):(\d+)\b/;
/** How far the program's output is read from the row. */
const REACH = 200;

interface Verdict {
  row: number;
  number: string;
  name: string;
  signal: boolean;
}

/** The test's row a finding's message line is, or (ctest's closing list) the row of the list's first test. */
function verdictAt(bodyAt: (i: number) => string, m: number): Verdict | undefined {
  const t = bodyAt(m).trim();
  const row = ROW.exec(t);
  if (row) return { row: m, number: row[1] as string, name: row[2] as string, signal: SIGNAL.test((row[4] ?? row[5] ?? '').trim()) };
  // ctest's last word (`Errors while running CTest`) closes the list just above it.
  let head = m;
  if (/^Errors while running CTest$/.test(t)) while (head > m - 40 && head > 0 && !FAILED_LIST.test(bodyAt(head).trim())) head--;
  if (!FAILED_LIST.test(bodyAt(head).trim())) return undefined;
  const first = LISTED.exec(bodyAt(head + 1));
  if (!first) return undefined;
  const [number, name] = [first[1] as string, first[2] as string];
  for (let k = head - 1; k >= Math.max(0, head - 4000); k--) {
    const r = ROW.exec(bodyAt(k).trim());
    if (r && r[1] === number && r[2] === name) return { row: k, number, name, signal: SIGNAL.test((r[4] ?? r[5] ?? '').trim()) || SIGNAL.test((first[3] as string).trim()) };
  }
  return undefined;
}

/** The program's output: the `N: ` lines above the row (ctest -V), then the lines below it up to ctest's next word (--output-on-failure). */
function outputOf(bodyAt: (i: number) => string, count: number, v: Verdict): { index: number; text: string }[] {
  const above: { index: number; text: string }[] = [];
  const prefix = `${v.number}: `;
  for (let k = v.row - 1; k >= Math.max(0, v.row - REACH); k--) {
    const t = bodyAt(k);
    if (t.trim() === '') continue;
    if (!t.startsWith(prefix)) break;
    above.unshift({ index: k, text: t.slice(prefix.length).trim() });
  }
  const below: { index: number; text: string }[] = [];
  for (let k = v.row + 1; k < Math.min(count, v.row + 1 + REACH); k++) {
    const t = bodyAt(k).trim();
    if (/^(?:Start\s+\d+: |test \d+$|\d+\/\d+ Test\s+#|\d+% tests passed|The following tests|Total Test time|Errors while running CTest)/.test(t)) break;
    if (t !== '') below.push({ index: k, text: t });
  }
  return [...above, ...below].filter((l) => !CTEST_OWN.test(l.text));
}

/** A finding that is only ctest's verdict, with the class and message the test program's output gives (see the head). */
export function withCtestOutput(found: Finding, bodyAt: (i: number) => string, count: number): Finding {
  if (found.class !== 'unknown' && !(found.class === 'test-error' && found.confidence === 'low')) return found;
  const v = verdictAt(bodyAt, found.message_line - 1);
  if (!v) return found;
  const output = outputOf(bodyAt, count, v);
  const test = { name: v.name, log_line: v.row + 1 };
  const base = { ...found, tool: 'ctest', test, evidence: [v.row + 1, ...found.evidence.filter((n) => n !== v.row + 1)] };
  const at = (l: { index: number; text: string }, cls: Finding['class'], confidence: Finding['confidence']): Finding => {
    const { location: _l, exception: _e, ...rest } = base;
    const place = PLACE.exec(l.text);
    return {
      ...rest,
      class: cls,
      confidence,
      message: l.text,
      message_line: l.index + 1,
      ...(place ? { location: { file: place[1] as string, line: Number(place[2]), log_line: l.index + 1 } } : {}),
      evidence: [l.index + 1, ...base.evidence],
    };
  };
  const check = output.find((l) => CHECK_FAILED.test(l.text));
  if (check) return at(check, 'test-assertion', 'medium');
  const thrown = output.find((l) => TERMINATE.test(l.text));
  if (thrown) return { ...at(thrown, 'test-error', 'medium'), exception: TERMINATE.exec(thrown.text)?.[1] as string };
  const met = output.find((l) => MET.test(l.text));
  if (met) return at(met, 'test-error', 'low');
  if (v.signal) {
    const { location: _l, ...rest } = base;
    return { ...rest, class: 'runtime-exception', confidence: 'medium', message: bodyAt(v.row).trim(), message_line: v.row + 1 };
  }
  return found;
}
