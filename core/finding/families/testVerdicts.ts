/**
 * A test's verdict as many runners print it: the expected and the actual value below a failed check, an
 * exception expected and none raised, a strict expected failure that passed, a test that raised instead of
 * answering, a test's output that did not match its pattern (ctest). Rules of the tuning rounds 4 and 5 (issue
 * 25, helpers fix4a, fix5a, fix5b; docs/notes/analyzer.md), kept by what they concern (rv5, session 45). Tried
 * with RULES (rules.ts): after the general rules, before COMPILER_RULES (a place line with an expected value
 * below it is a check's, not a compiler's: `spec/x.lua:10: Expected objects to be the same.`) and after
 * COMPILER_FIRST_RULES (a gcc `static assertion failed` under a compiler's heading is the compiler's).
 */
import type { Rule } from '../ruleTypes.js';
import { SRC } from './shapes.js';

/** A check's report of what it expected and what it got, on the lines below its message. */
const EXPECTED_BELOW = /^\s*(?:ERROR: +)?(?:Expected|Expected value|Wanted)\s*:|^\s*(?:\(\d+\)\s+)?Location\s+\|\s+Observed\s+\|\s+Expected\b/;

export const TEST_VERDICT_RULES: Rule[] = [
  // A test that expected an exception and got none (pytest's `Failed: DID NOT RAISE`, JUnit's
  // `Expected X to be thrown, but nothing was thrown`, chai's `expected [Function] to throw`).
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /\bDID NOT RAISE\b|\bto be thrown, but nothing was thrown\b|\bMissing expected exception\b|\bexpected \[Function(?:: \w+)?\] to throw\b/, read: () => ({}) },
  // A check that failed with its expected value printed below it (busted's `Expected objects to be
  // the same.` over `Passed in:` / `Expected:`, plunit's `wrong answer` over `Expected:` / `Got:`,
  // Octave's `ASSERT errors for:` over its `Observed | Expected` table): an assertion, whatever the
  // tool. The line may carry its place (`spec/x.lua:10: Expected ...`).
  {
    cls: 'test-assertion',
    priority: 57,
    confidence: 'high',
    re: new RegExp(String.raw`^(?:(${SRC}\.\w{1,8}):(\d+): )?(?:error: )?(?:.*\b(?:Expected|expected)\b.*\b(?:to be|to equal|the same|equal)\b|.*\bwrong answer\b|ASSERT errors? for:|assert(?:ion)? ?\(.*\) failed|.*\bassert(?:ion)? failed\b)`),
    near: { re: EXPECTED_BELOW, from: 1, to: 4, required: true },
    read: (m) => (m[1] ? { file: m[1], line: Number(m[2]) } : {}),
  },
  // A test runner's line that a test raised instead of answering (plunit's `test gold: received
  // error: ...`, `test x: raised exception`), at the place line above it: the test's error.
  {
    cls: 'test-error',
    priority: 58,
    confidence: 'high',
    re: /^\s*test (\S+): (?:received error|raised (?:an )?(?:error|exception)|caught (?:an )?(?:error|exception)|uncaught (?:error|exception))\b/,
    near: { re: /^(?:ERROR|FAIL(?:ED)?|Error):? (?<file>\S+\.\w{1,8}):(?<line>\d+):(?:(?<col>\d+):)?$/, from: -2, to: -1 },
    read: (m) => ({ test: m[1] as string }),
  },
  // A test the strict-xfail check failed: it was marked as expected to fail and passed
  // (`[XPASS(strict)] reason`, unittest's `unexpected success`): the test's expectation is wrong.
  { cls: 'test-assertion', priority: 58, confidence: 'high', re: /\[XPASS\(strict\)\]|\bUNEXPECTED SUCCESS\b|\bunexpected(?:ly)? success(?:es)?\b/i, read: () => ({}) },
  // A test whose output did not match the pattern it must print (ctest's PASS_REGULAR_EXPRESSION / FAIL_REGULAR_EXPRESSION).
  { cls: 'test-assertion', priority: 54, confidence: 'high', re: /^\s*\d+\/\d+ Test\s+#\d+: (\S+) \.*\s*\*\*\*Failed\s+(?:Required regular expression not found|Error regular expression found|Regular expression .* found)/, read: (m) => ({ tool: 'ctest', test: m[1] as string }) },
];
