/**
 * Tests and exceptions in a failure's window: the failing test's name (pytest, unittest,
 * JUnit/Surefire, Gradle, jest, vitest, go test, cargo test, TAP), the assertion evidence
 * (`AssertionError`, expected/actual, `assert ... failed`) and the values it compared when the
 * log prints them, and the exception or panic a runtime raised (Python, JVM, Node, Go, Rust,
 * signals).
 */

import type { FindingClass } from '../../protocol/types.js';
import { REJECTED_NOT_RESOLVED } from './rejected.js';
import { PatternGates } from '../log/gates.js';
import { multilineNameIn } from './testNames.js';
import { escapeRegExp } from '../regexp.js';
import { nodeRejectedAt, uncaughtAt, type GrammarRuntime, type Uncaught } from './uncaught.js';

export interface Located {
  /** 0-based index into the window. */
  index: number;
  text: string;
}

export interface TestName extends Located {
  name: string;
  tool: string;
}

export const TEST_NAMES: { re: RegExp; tool: string; name: (m: RegExpExecArray) => string }[] = [
  { re: /^_{3,} (?:ERROR (?:at setup of |at teardown of |collecting ))?(\S.*?) _{3,}$/, tool: 'pytest', name: (m) => m[1] as string },
  { re: /^(?:FAILED|ERROR) (\S+::\S+)(?: - .*)?$/, tool: 'pytest', name: (m) => m[1] as string },
  { re: /^(\S+::\S+) (?:FAILED|ERROR)\b/, tool: 'pytest', name: (m) => m[1] as string },
  { re: /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/, tool: 'unittest', name: (m) => ((m[2] as string).endsWith(`.${m[1]}`) ? (m[2] as string) : `${m[2]}.${m[1]}`) },
  { re: /^(?:\[ERROR\]\s+)?(\w+)\(([\w.$]+)\)\s+Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/, tool: 'surefire', name: (m) => `${m[2]}.${m[1]}` },
  // A parameterized test's invocation carries its index after the parameters (JUnit 5: `m(String, String)[4]`).
  { re: /^(?:\[ERROR\]\s+)?([\w$]+(?:\.[\w$]+)+)\.([\w$]+)(?:\([\w$.,\s[\]<>]*\))?(?:\[\d+\])?\s+(?:--\s+)?Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/, tool: 'surefire', name: (m) => `${m[1]}.${m[2]}` },
  { re: /^([\w.$]+) > (.+?) FAILED$/, tool: 'gradle', name: (m) => `${m[1]} > ${m[2]}` },
  { re: /^● (?!Console\b|Test suite failed to run)(.+?)$/, tool: 'jest', name: (m) => m[1] as string },
  // vitest names the project of a workspace (`projects`) between FAIL and the file: ` FAIL  parse  test/a.test.js > name`.
  { re: /^(?:FAIL|×|✗|❯)\s+(?:[^\s>]+\s+)?(\S+\.(?:test|spec)\.[cm]?[jt]sx?) > (.+?)(?:\s+\d+ms)?$/, tool: 'vitest', name: (m) => `${m[1]} > ${m[2]}` },
  { re: /^--- FAIL: (\S+)/, tool: 'go test', name: (m) => m[1] as string },
  // `panic: test timed out after 5s` lists the tests still running: `\tTestX (5s)`.
  { re: /^(Test\w+(?:\/\S+)?) \(\d+(?:\.\d+)?(?:m|s|ms|h)\S*\)$/, tool: 'go test', name: (m) => m[1] as string },
  { re: /^---- (\S.*?) stdout ----$/, tool: 'cargo test', name: (m) => m[1] as string },
  { re: /^test (\S+) \.\.\. FAILED$/, tool: 'cargo test', name: (m) => m[1] as string },
  // A program's own threads are no tests: `main`, and a thread spawned without a name (`<unnamed>`); libtest names its threads after the tests.
  { re: /^thread '(?!main'|<unnamed>')([^']+)'(?: \(\d+\))? panicked at/, tool: 'cargo test', name: (m) => m[1] as string },
  { re: /^not ok \d+(?: -)? (.+?)(?:\s+# (?:TODO|SKIP)\b.*)?$/, tool: 'tap', name: (m) => m[1] as string },
  // EUnit (verbose): `mod_tests: name_test...*failed*` (its `**error:...` below).
  { re: /^(\w+: \w+)\.\.\.(?:\[[\d.]+ s\] )?\*failed\*$/, tool: 'eunit', name: (m) => m[1] as string },
  // EUnit's generated test (a `_test_` generator's fun): `mod_tests:311: -fields_test_/0-fun-3- (empty memo kept)...*failed*`
  // is named by its module and its title (session 47, gr1).
  { re: /^(\w+):\d+: -\w+\/\d+-fun-\d+- \((.+)\)\.\.\.(?:\[[\d.]+ s\] )?\*failed\*$/, tool: 'eunit', name: (m) => `${m[1]}: ${m[2]}` },
  // googletest's result line (`[  FAILED  ] Suite.Test (0 ms)`), its summary's `[  FAILED  ] 1 test, listed below:` not.
  { re: /^\[ {2}FAILED {2}\] ([A-Za-z_][\w/]*\.[\w/]+)(?: \(\d+ ms\))?$/, tool: 'googletest', name: (m) => m[1] as string },
  // tcltest: `==== name description FAILED` (and `==== name FAILED` under the case's contents).
  { re: /^==== (\S+)(?: .+)? FAILED$/, tool: 'tcltest', name: (m) => m[1] as string },
  // prove's summary: `t/window.t (Wstat: 65280 (exited 255) Tests: 3 Failed: 0)`.
  { re: /^(\S+\.t) \(Wstat: \d+/, tool: 'prove', name: (m) => m[1] as string },
  { re: /^\d+\/\d+ Test\s+#\d+: (\S+) \.*\s*(?:\*\*\*\w+|Exit code|Subprocess aborted|Child aborted)/, tool: 'ctest', name: (m) => m[1] as string },
  { re: /^(?:\[ERROR\]\s+)?([A-Z][\w$]*(?:Test|Tests|IT|Spec)\w*)\.(\w+):\d+ /, tool: 'surefire', name: (m) => `${m[1]}.${m[2]}` },
  { re: /^\d+\) test (.+) \(([\w.]+)\)$/, tool: 'exunit', name: (m) => `${m[2]}: ${m[1]}` },
  { re: /^\d+\) ([\w\\]+::\w+)/, tool: 'phpunit', name: (m) => m[1] as string },
  { re: /^(?:\[info\] )?- (.+?) \*\*\* FAILED \*\*\*$/, tool: 'scalatest', name: (m) => m[1] as string },
  { re: /^([A-Z]\w*#test\w*) \[[^\]]+\]:?$/, tool: 'minitest', name: (m) => m[1] as string },
  // minitest with a described name (`TestKramdown#test_: kramdown when x should y.  [/ws/test/t.rb:106]`), or an `Error:` block's
  // `Class#test_name:` without a place (Rails' `FooTest#test_bar:`, `TestRenderer#test_groups_by_type:`; not mocha's `1) Error:` over it, ux10).
  { re: /^((?:[A-Z]\w*::)*[A-Z]\w*#test\S*(?: .+?)?)\s+\[[^\]]+:\d+\]:?$|^((?:[A-Z]\w*::)*[A-Z]\w*#test_\w+):$/, tool: 'minitest', name: (m) => (m[1] ?? m[2]) as string },
  // rspec's summary: `rspec ./spec/x_spec.rb:27 # Invoice#total adds the tax`: the example's full description.
  { re: /^(?:rspec) (\S+:\d+) # (.+)$/, tool: 'rspec', name: (m) => m[2] as string },
  // Ant's JUnit task: `Testcase: testTotal took 0.01 sec` over its `FAILED`; `Test com.x.FooTest FAILED`.
  { re: /^Testcase: (\w+)(?:\(([\w.$]+)\))? took [\d.]+ sec$/, tool: 'junit', name: (m) => (m[2] ? `${m[2]}.${m[1]}` : (m[1] as string)) },
  { re: /^Test ([\w.$]+) FAILED$/, tool: 'junit', name: (m) => m[1] as string },
];

/** Which TEST_NAMES shapes may match a line (core/log/gates.ts): the others are not tried. */
const TEST_NAME_GATES = new PatternGates(TEST_NAMES.map((t) => t.re));

const MIGHT_NAME_A_TEST = /FAIL|ERROR|Wstat|Testcase: |_{3}|●|›|❯|×|✗|---|panicked|not ok|\d\) |\*\*\*|#|rspec|[Tt]est|Spec|IT\.|::| > /;

/** The failing test the window names, nearest to (and not after) `before` when given. */
export function testNameIn(lines: readonly string[], before = lines.length, summary: readonly string[] = []): TestName | undefined {
  let found: TestName | undefined;
  for (let i = 0; i < lines.length; i++) {
    // One cheap test first: every TEST_NAMES shape holds one of these.
    if (!MIGHT_NAME_A_TEST.test(lines[i] ?? '')) continue;
    const text = (lines[i] ?? '').trim().replace(/^\[(?:ERROR|INFO)\]\s+(?=\w+\(|[\w.$]+(?:\([^)]*\))? (?:-- )?Time)/, '');
    TEST_NAME_GATES.read(text);
    const candidates = TEST_NAME_GATES.candidates();
    for (let c = 0; c < candidates.length; c++) {
      const k = candidates[c]!;
      const t = TEST_NAMES[k]!;
      const m = t.re.exec(text);
      if (!m) continue;
      // A Rust panic on the main thread is no test.
      if (t.tool === 'cargo test' && m[1] === 'main') break;
      if (i <= before || !found) found = { index: i, text, name: t.name(m).trim(), tool: t.tool };
      break;
    }
    if (found && i > before) break;
  }
  // Catch2 names its test case between two rules of dashes, over the case's `file:line`.
  for (let i = Math.min(before, lines.length - 4); i >= 0 && !found; i--) {
    if (/^-{20,}$/.test((lines[i] ?? '').trim()) && /^-{20,}$/.test((lines[i + 2] ?? '').trim()) && /^\S+:\d+$/.test((lines[i + 3] ?? '').trim()) && (lines[i + 1] ?? '').trim() !== '') {
      found = { index: i + 1, text: (lines[i + 1] ?? '').trim(), name: (lines[i + 1] ?? '').trim(), tool: 'catch2' };
    }
  }
  // doctest: `File "x.py", line 11, in mod.func` over its `Failed example:` names the function tested.
  for (let i = Math.min(before, lines.length - 2); i >= 0 && !found; i--) {
    const m = /^File ".*", line \d+, in (\S+)$/.exec((lines[i] ?? '').trim());
    if (m && (lines[i + 1] ?? '').trim() === 'Failed example:') found = { index: i, text: (lines[i] ?? '').trim(), name: m[1] as string, tool: 'doctest' };
  }
  // Names a runner prints over several lines (mocha's `1) Suite` over its test's `runs x:`, PHPUnit
  // testdox's class heading over its `✘ test`): tests/multiline.ts.
  found ??= multilineNameIn(lines, before);
  // Nothing named in the window: the lines right after it (a runner's summary, Go's list of the
  // tests a timeout interrupted).
  if (!found) {
    for (let i = 0; i < Math.min(summary.length, 12) && !found; i++) {
      const text = (summary[i] ?? '').trim();
      TEST_NAME_GATES.read(text);
      const candidates = TEST_NAME_GATES.candidates();
      for (let c = 0; c < candidates.length; c++) {
        const k = candidates[c]!;
        const t = TEST_NAMES[k]!;
        const m = t.re.exec(text);
        if (m && !(t.tool === 'cargo test' && m[1] === 'main')) {
          found = { index: lines.length + i, text, name: t.name(m).trim(), tool: t.tool };
          break;
        }
      }
    }
  }
  // pytest's header names the function; its summary (`FAILED path::test`) the node id to run.
  if (found?.tool === 'pytest' && !found.name.includes('::')) {
    const short = found.name;
    for (const line of [...lines, ...summary]) {
      const m = /^(?:FAILED|ERROR) (\S+::(\S+?))(?: - .*)?$/.exec(line.trim());
      if (m && ((m[2] as string) === short || (m[2] as string).endsWith(`::${short}`) || (m[2] as string).replace(/\[.*\]$/, '') === short)) return { ...found, name: m[1] as string };
    }
  }
  return found;
}

/** Runners' "starting this test" lines and the line that closes each (a result for that test). */
const RUNNING: { re: RegExp; done: (name: string) => RegExp; tool: string }[] = [
  { re: /^(?:\[INFO\]\s+)?Running ((?:[\w$]+\.)*[A-Z][\w$]*)$/, done: (n) => new RegExp(`Tests run: .*(?:in|-) ${escapeRegExp(n)}$`), tool: 'surefire' },
  { re: /^=== RUN\s+(Test\S*)$/, done: (n) => new RegExp(`^\\s*--- (?:PASS|FAIL|SKIP): ${escapeRegExp(n)} `), tool: 'go test' },
  { re: /^\[ RUN {6}\] (\S+)$/, done: (n) => new RegExp(`^\\[ +(?:OK|FAILED|SKIPPED) +\\] ${escapeRegExp(n)}\\b`), tool: 'googletest' },
  { re: /^\s*Start\s+\d+: (\S+)$/, done: (n) => new RegExp(`Test\\s+#\\d+: ${escapeRegExp(n)} `), tool: 'ctest' },
];

/**
 * The test a runner had started and not finished by line `upTo` (surefire's `Running X`, go's
 * `=== RUN`, googletest's `[ RUN      ]`, ctest's `Start N:`): what the process was running when
 * it ran out of memory or time, or was killed.
 */
export function runningTestIn(lines: readonly string[], upTo: number): TestName | undefined {
  for (let i = Math.min(upTo, lines.length - 1); i >= 0; i--) {
    const text = (lines[i] ?? '').trim();
    for (const r of RUNNING) {
      const m = r.re.exec(text);
      if (!m) continue;
      const name = m[1] as string;
      const done = r.done(name);
      for (let k = i + 1; k <= upTo; k++) if (done.test((lines[k] ?? '').trim())) return undefined;
      return { index: i, text, name, tool: r.tool };
    }
  }
  return undefined;
}

/** A runner's own output shows a test failing (even when the name is not in the window). */
export const TEST_CONTEXT =
  /^(?:\d+ failing$|\d+\) \S|E {2,}\S|_{3,} \S.* _{3,}$|FAILED \S+::|--- FAIL:|---- \S+ stdout ----|● |(?:FAIL|ERROR): \w+ \(|Tests run: .*(?:Failures|Errors): [1-9]|.*<<< (?:FAILURE|ERROR)!|\S+ > .+ FAILED$|test \S+ \.\.\. FAILED|not ok \d+)|(?:\/|^)(?:test_\w+\.py|\w+_test\.(?:py|go)|\w+Tests?\.(?:java|kt)|[\w.-]+\.(?:test|spec)\.[cm]?[jt]sx?)\b/;

export interface Assertion extends Located {
  expected?: string;
  actual?: string;
  exception?: string;
  /** C's assert() names its own place: `prog: tests/t.c:8: test_x: Assertion `e' failed.` */
  file?: string;
  line?: number;
  function?: string;
  /** The program or file is a test's (tests/, test_x, x_test): the assertion is a test's. */
  inTest?: boolean;
}

/** glibc's assert(): `test_ring: tests/test_ring.c:8: test_fills_up: Assertion `ring_push(&r, i)' failed.` */
const C_ASSERT = /^(\S+): ((?:[A-Za-z]:)?[^\s:]+\.(?:c|cc|cpp|cxx|h|hpp)):(\d+): (?:([^:]+?): )?Assertion [`'].*' failed\.$/;

const clean = (v: string | undefined): string | undefined => {
  const t = v?.trim().replace(/\s+\/\/ [\w. ]+$/, '').replace(/[.,;]$/, '');
  return t ? t : undefined;
};

/**
 * The first line of the window that shows an assertion failing, with the values when the log
 * labels them (expected/actual, received, got/want, but was).
 */
export function assertionIn(lines: readonly string[]): Assertion | undefined {
  // node --test reports in TAP with a YAML block: `error: |-` over the message, `name: 'AssertionError'`.
  if (lines.some((l) => /^\s+(?:name: '?AssertionError'?|code: '?ERR_ASSERTION'?)\s*$/.test(l))) {
    const head = lines.findIndex((l) => /^\s+error: (?:[|>]-?)?\s*$/.test(l));
    const next = head >= 0 ? (lines[head + 1] ?? '').trim() : '';
    if (next) {
      const yaml = (key: string): string | undefined => lines.map((l) => new RegExp(`^\\s+${key}: (.+)$`).exec(l)?.[1]).find((v) => v !== undefined && v !== '|-');
      return { index: head + 1, text: next, exception: 'AssertionError', ...pair(yaml('expected'), yaml('actual')) };
    }
  }
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const text = raw.trim().replace(/^(?:\[ERROR\]\s+|E\s{2,})/, '');
    // A `.resolves` matcher on a promise that rejected (vitest's `AssertionError: promise rejected "Error: x" instead
    // of resolving`, jest's `Received promise rejected instead of resolved`): the code threw, no value was compared.
    if (REJECTED_NOT_RESOLVED.test(text) || (/^expect\(.+\)\.resolves\./.test(text) && lines.slice(i + 1, i + 4).some((l) => REJECTED_NOT_RESOLVED.test(l.trim())))) continue;
    let m = /((?:[\w$]+\.)*(?:AssertionError|AssertionFailedError|ComparisonFailure|AssertError|MultipleFailuresError)|Minitest::Assertion|Test::Unit::AssertionFailedError)\b:?\s*(.*)$/.exec(text);
    // The name in prose or in code (a docstring's `Raises an AssertionError if ...`, source `raise AssertionError(x)`
    // that pytest quotes around its `E` lines) reports no failure; Gradle's short form `java.lang.AssertionError at
    // T.java:15` does.
    if (m && /^(?:\s+(?!at\s)[a-z]|\()/.test(text.slice((m.index ?? 0) + (m[1] as string).length))) m = null;
    if (m && !/^\s*at\s/.test(raw)) {
      const values = valuesOf(m[2] ?? '') ?? valuesNear(lines, i);
      return { index: i, text, exception: (m[1] as string).split(/\.|::/).pop() as string, ...values };
    }
    // pytest's `E   assert ...` is its rewritten assertion; under an `E     File "x.py", line N` it is
    // that file's source line quoted by a SyntaxError (a test module that does not parse), not an assertion.
    if (/^assert\b/.test(text) && /^E\s{2,}/.test(raw.trim()) && !/^E\s+File "[^"]+", line \d+/.test((lines[i - 1] ?? '').trim())) return { index: i, text, exception: 'AssertionError' };
    // TAP diagnostics of a failed check: Test::More's `#   Failed test 'x'`, bats' ``#   `[ "$a" = b ]' failed``.
    if (/^#\s+(?:Failed test\b|`.*' failed$)/.test(text)) return { index: i, text };
    const c = C_ASSERT.exec(text);
    if (c) {
      const fn = c[4]?.replace(/^(?:[\w\s*]+\s)?(\w+)\s*\(.*$/, '$1');
      const testish = /(?:^|\/)(?:tests?\/|test_|\w+_test\b|\w*Test\w*\.)/;
      return { index: i, text, file: c[2] as string, line: Number(c[3]), ...(fn ? { function: fn } : {}), inTest: testish.test(c[1] as string) || testish.test(c[2] as string) };
    }
    // A test program's own check macro at its place: `tests/t.c:11: CHECK_EQ(clamp(10, 0, 10), 10) failed: 9 != 10`.
    const check = /^((?:[A-Za-z]:)?[^\s:]+\.\w+):(\d+):\s+(?:\w+: )?(?:[A-Z]+_)?(?:CHECK|ASSERT|EXPECT|REQUIRE|VERIFY|check|assert|expect|require)\w*\(.*\)\s+failed\b/.exec(text);
    if (check) {
      const testish = /(?:^|\/)(?:tests?\/|test_|\w+_test\b|\w*Test\w*\.)/;
      return { index: i, text, file: check[1] as string, line: Number(check[2]), inTest: testish.test(check[1] as string), ...valuesNear(lines, i) };
    }
    m = /\b(XCTAssert\w*|assert\w*|Assert\.\w+|expect\w*) failed\b|\bAssertion failed\b|^Assertion with .+ failed|Failed asserting that/.exec(text);
    if (m) return { index: i, text, ...valuesNear(lines, i) };
    m = /^(?:thread '[^']+'(?: \(\d+\))? panicked at .*?:\s*)?assertion(?: `(\w+ [=!]= \w+)`| failed| `[^`]+` failed)/.exec(text);
    if (m) return { index: i, text, ...valuesNear(lines, i) };
    // A local variable's dump (pytest --showlocals: `expected = call(...)` over `actual = ...`) labels no value.
    if (/^expect\(.+\)\.(?:not\.|resolves\.|rejects\.)*to\w+\(/.test(text) || (/^[Ee]xpected:? (?!= ).+/.test(text) && /^(?:Received|Actual|actual|got):? (?!= )/.test((lines[i + 1] ?? '').trim()))) {
      return { index: i, text, ...valuesNear(lines, i) };
    }
    m = /\bexpected:? ?<(.*)> but was:? ?<(.*)>/.exec(text);
    if (m) return { index: i, text, ...(clean(m[1]) ? { expected: clean(m[1]) } : {}), ...(clean(m[2]) ? { actual: clean(m[2]) } : {}) };
  }
  return undefined;
}

/** Values in the assertion's own message: `expected: <1> but was: <2>`, `expected 3 to be 4`, `got 3, want 4`. */
function valuesOf(message: string): { expected?: string; actual?: string } | undefined {
  let m = /expected:? ?<(.*?)> but was:? ?<(.*?)>/.exec(message);
  if (m) return pair(m[1], m[2]);
  m = /^expected (.+?) to (?:be|equal|deeply equal|strictly equal) (.+)$/.exec(message);
  if (m) return pair(m[2], m[1]);
  m = /\bgot:? (.+?),? want:? (.+)$/.exec(message);
  if (m) return pair(m[2], m[1]);
  m = /\bexpected:? (.+?),? (?:but )?(?:got|was|received|actual):? (.+)$/i.exec(message);
  if (m) return pair(m[1], m[2]);
  return undefined;
}

function pair(expected: string | undefined, actual: string | undefined): { expected?: string; actual?: string } {
  const e = clean(expected);
  const a = clean(actual);
  return { ...(e ? { expected: e } : {}), ...(a ? { actual: a } : {}) };
}

/** Values labelled on the lines after an assertion: jest's Expected/Received, Rust's left/right are not labelled as such. */
function valuesNear(lines: readonly string[], i: number): { expected?: string; actual?: string } {
  let expected: string | undefined;
  let actual: string | undefined;
  for (let k = i; k < Math.min(lines.length, i + 8); k++) {
    const t = (lines[k] ?? '').trim().replace(/^E\s{2,}/, '');
    const e = /^(?:-\s+)?[Ee]xpected(?: value)?:\s+(.+)$/.exec(t);
    const a = /^(?:\+\s+)?(?:Received|Actual|actual|got|But was)(?: value)?:\s+(.+)$/.exec(t);
    if (e && expected === undefined) expected = e[1];
    if (a && actual === undefined) actual = a[1];
  }
  return pair(expected, actual);
}

export interface Raised extends Located {
  exception: string;
  runtime: 'python' | 'jvm' | 'node' | 'go' | 'rust' | 'ruby' | 'signal' | GrammarRuntime;
  /** What a runtime's grammar (uncaught.ts) adds: its tool, a rejection before running, a test framework's report. */
  grammar?: Uncaught;
  /** The runtime refused the code as it loaded it (a syntax error): nothing ran (uncaught.ts). */
  rejected?: true;
}

/**
 * An exception type whose name says the credentials or the permission were refused (`smtplib.SMTPAuthenticationError`,
 * Ruby's `Net::SMTPAuthenticationError`, `NoCredentialsError`, `AccessDeniedException`, `PermissionError`): the type's
 * name is the library's own verdict, whatever the message quotes (test/fixtures/grammar *-smtp-auth).
 */
const PERMISSION_EXCEPTION = /^\w*(?:Authentication|Authori[sz]ation|Unauthori[sz]ed|Forbidden|AccessDenied|Credentials?|Permission)\w*(?:Error|Exception|Failure)$/;

/**
 * The class an exception's own grammar or type settles, whatever ran it (a program or a test): the runtime refused
 * the source as it loaded it (compile-error), the code asked for another version of the interpreter itself (uncaught.ts
 * `interpreter`: missing-tool), its package loader found no package of that name (uncaught.ts `unavailable`:
 * dependency-resolution), the type's name says the credentials or a permission were refused
 * (permission-credentials). Undefined: an error raised while running, which the caller classes by whether a test was
 * running.
 */
export function raisedClass(raised: Raised): FindingClass | undefined {
  if (raised.rejected) return 'compile-error';
  if (raised.grammar?.interpreter) return 'missing-tool';
  if (raised.grammar?.unavailable) return 'dependency-resolution';
  // R could not open a URL and its warning says why (a status the server answered, or no connection): the network's.
  if (raised.grammar?.fetched) return 'network';
  if (PERMISSION_EXCEPTION.test(raised.exception)) return 'permission-credentials';
  // FTP's reply 530 (RFC 959: "Not logged in"), whatever the client's type (ftplib's `error_perm: 530 Login incorrect.`).
  if (/^530 /.test(raised.text.replace(/^[\w.]+:\s*/, ''))) return 'permission-credentials';
  return undefined;
}

/** Ruby: `ActionView::Template::Error: undefined method ...`, `NoMethodError: ...` over `file.rb:N:in` frames. */
const RUBY_EXCEPTION = /^((?:[A-Z]\w*::)*(?:[A-Z]\w*)?(?:Error|Exception)|NoMethodError|NameError|ArgumentError|TypeError|RuntimeError|LoadError|SystemExit):? (.+)$/;
const RUBY_FRAME_LINE = /^\s*(?:from |# )?\S+\.(?:rb|rake|erb):\d+:in [`']/;

// A module's own exception is often named just `Error` or `error`, qualified by the module (`locale.Error`, `shutil.Error`,
// `struct.error`, `re.error`: the standard library's convention).
const PY_EXCEPTION = /^((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning|Iteration|Failure)|(?:[a-z_]\w*\.)+(?:Error|error)|KeyError|IndexError|StopIteration|KeyboardInterrupt|SystemExit)(?::\s(.*))?$/;
/**
 * Python's traceback grammar: the first line at the margin after the indented frames (`  File "f.py", line N, in g` and
 * its source line) names the exception raised, whatever its type is called. A module's type qualified by its module
 * (`http.client.IncompleteRead: ...`, `subprocess.TimeoutExpired: ...`, `graphviz.backend.execute.ExecutableNotFound`)
 * is the exception there even where its name says neither Error nor Exception (session 46, t21).
 */
// A module's own lower-case exception qualified by its module is the exception there too (`ftplib.error_perm: 530 Login
// incorrect.`, `socket.gaierror: ...`: the standard library's older convention; session 49).
const PY_QUALIFIED_EXCEPTION = /^((?:[a-z_]\w*\.)+[A-Za-z_]\w*)(?::\s(.*))?$/;
const JVM_EXCEPTION = /^(?:Exception in thread "[^"]+" |Caused by: )?((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable|Failure))(?::\s*(.*))?$/;
// util.inspect marks an error that refers to itself (spawnSync's `error` property) with `<ref *1> ` before its head.
const NODE_EXCEPTION = /^(?:Uncaught |<ref \*\d+> )?((?:Type|Reference|Range|Syntax|Eval|URI|Assertion|Aggregate)?Error|[A-Z]\w*(?:Error|Exception)|UnhandledPromiseRejection) ?(?:\[\w+\])?: (.+)$/;

/** Whether an exception's message (`m`, the part after its name) names the same subject as the exception line `outer`. */
function sameSubject(outer: string, m: string | undefined): boolean {
  const subject = (t: string): string => t.trim().replace(/[/$]/g, '.');
  const said = JVM_EXCEPTION.exec(outer)?.[2];
  return m !== undefined && said !== undefined && subject(m) !== '' && subject(m) === subject(said);
}

/**
 * The exception the window shows being raised: the last Python exception after a traceback,
 * the innermost JVM `Caused by:` (else the exception over the first `at` frame), a Node error
 * over `at` frames, a Go `panic:`, a Rust panic, or a fatal signal.
 */
/** Node's print of an uncaught error's place above line `i`: `file:///a/b.js:12` (or `node:internal/...:N`), the source line, a caret line. */
function nodeArrowAbove(lines: readonly string[], i: number): boolean {
  const k = (lines[i - 1] ?? '').trim() === '' ? i - 2 : i - 1;
  return /^\s*\^+\s*$/.test(lines[k] ?? '') && /^(?:file:\/\/|node:)\S+:\d+$/.test((lines[k - 2] ?? '').trim());
}

export function raisedIn(lines: readonly string[]): Raised | undefined {
  let python: Raised | undefined;
  let jvm: Raised | undefined;
  let node: Raised | undefined;
  let ruby: Raised | undefined;
  let sawTraceback = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    // A runtime whose grammar uncaught.ts knows (Erlang, Elixir, Lua, Tcl, R): its own report of what nothing caught.
    const uncaught = uncaughtAt((k) => lines[k] ?? '', i);
    if (uncaught) return { index: uncaught.index, text: uncaught.text, exception: uncaught.exception, runtime: uncaught.runtime, grammar: uncaught, ...(uncaught.rejected ? { rejected: true as const } : {}) };
    const text = raw.trim().replace(/^(?:\[ERROR\]\s+|E\s{2,})/, '');
    if (/^Traceback \(most recent call last\):|\STraceback \(most recent call last\):$/.test(text)) sawTraceback = true;
    const pytestE = /^E\s{2,}/.test(raw.trim());
    const afterFrames = sawTraceback && !pytestE && /^\s/.test(lines[i - 1] ?? '') && !/^\s/.test(raw);
    let m = PY_EXCEPTION.exec(text) ?? (afterFrames ? PY_QUALIFIED_EXCEPTION.exec(text) : null);
    if (m && (sawTraceback || pytestE) && !/^\s/.test(raw.replace(/^E\s{2,}/, ''))) {
      // pytest prints the exception on its first E line; a traceback on its last line.
      if (!(pytestE && python)) python = { index: i, text, exception: (m[1] as string).split('.').pop() as string, runtime: 'python' };
      continue;
    }
    m = JVM_EXCEPTION.exec(text);
    // An exception whose words start on the next line (H2's `JdbcSQLSyntaxErrorException: ` over `Table "X" not found; SQL
    // statement:` and the statement) has its frames under those lines.
    const bare = m !== null && /:\s*$/.test(raw) && lines.slice(i + 1, i + 6).some((l) => /^\s*at\s/.test(l));
    if (m && (/^\s*at\s/.test(lines[i + 1] ?? '') || /^(?:Exception in thread|Caused by:)/.test(text) || /^\s*at\s/.test(lines[i + 2] ?? '') || bare)) {
      // The innermost cause is what went wrong; the wrappers above it only carried it. A cause that
      // names the very thing its wrapper names (the JVM's `NoClassDefFoundError: a/b/C` over
      // `ClassNotFoundException: a.b.C`) tells nothing more: the wrapper, the JVM's verdict, stays.
      if (!jvm || (/^Caused by:/.test(text) && !sameSubject(jvm.text, m[2]))) jvm = { index: i, text, exception: (m[1] as string).split('.').pop() as string, runtime: 'jvm' };
      continue;
    }
    m = RUBY_EXCEPTION.exec(text);
    if (m && !ruby && lines.slice(i + 1, i + 5).some((l) => RUBY_FRAME_LINE.test(l))) {
      ruby = { index: i, text, exception: (m[1] as string).split('::').pop() as string, runtime: 'ruby' };
      continue;
    }
    m = NODE_EXCEPTION.exec(text);
    // Node prints `at` frames under the error; vitest `❯ fn file:line:col`.
    // Or, uncaught, over the place it threw, that line of source and a caret (`file:///app/src/a.js:1`, `import ...`, `^^^`).
    if (m && !node && (lines.slice(i + 1, i + 13).some((l) => /^\s*at\s|^\s*❯ (?:[\w$.<>]+ )?[^\s:()]+:\d+:\d+\s*$/.test(l)) || nodeArrowAbove(lines, i))) {
      node = { index: i, text, exception: m[1] as string, runtime: 'node', ...(nodeRejectedAt((k) => lines[k] ?? '', i) ? { rejected: true as const } : {}) };
      continue;
    }
    // Ruby's uncaught exception: `script.rb:7:in `title_of': undefined method `x' for nil:NilClass (NoMethodError)`.
    m = /^\S+\.(?:rb|rake):\d+:in [`'][^'`]+': (.+) \(((?:[A-Z]\w*::)*[A-Z]\w*)\)$/.exec(text);
    if (m && !ruby) ruby = { index: i, text: `${m[1]} (${m[2]})`, exception: (m[2] as string).split('::').pop() as string, runtime: 'ruby' };
    if (/^WARNING: DATA RACE$/.test(text)) return { index: i, text, exception: 'data race', runtime: 'go' };
    if (/^panic: /.test(text) && !/^panic: test timed out/.test(text)) return { index: i, text, exception: 'panic', runtime: 'go' };
    if (/^fatal error: (?:all goroutines are asleep|concurrent map|runtime:|stack overflow)/.test(text)) return { index: i, text, exception: 'fatal error', runtime: 'go' };
    if (/^Error: Could not find or load main class /.test(text)) return { index: i, text, exception: 'ClassNotFoundException', runtime: 'jvm' };
    m = /^thread '([^']+)'(?: \(\d+\))? panicked at (.*)$/.exec(text);
    if (m) {
      // The message is on the same line (old) or the next one (Rust >= 1.73).
      const next = (lines[i + 1] ?? '').trim();
      const message = /:\s*$/.test(text) && next ? next : text;
      return { index: /:\s*$/.test(text) && next ? i + 1 : i, text: message, exception: 'panic', runtime: 'rust' };
    }
    // ASan, LSan: `==123==ERROR: AddressSanitizer: ...`; TSan reports as a warning (`WARNING: ThreadSanitizer: data race (pid=1)`) and exits 66.
    m = /^==\d+==ERROR: (\w+Sanitizer)|^(?:==\d+==)?WARNING: (ThreadSanitizer): /.exec(text);
    if (m) return { index: i, text, exception: (m[1] ?? m[2]) as string, runtime: 'signal' };
    // bash's report of a child killed by SIGABRT: `ci.sh: line 5: 29585 Aborted   ./build/heatmap`.
    if (/^\S+: line \d+: +\d+ Aborted\b/.test(text)) return { index: i, text, exception: 'SIGABRT', runtime: 'signal' };
    m = /(Segmentation fault|SIGSEGV|SIGABRT|SIGBUS|SIGFPE|Aborted \(core dumped\)|Bus error|Floating point exception|Illegal instruction)/.exec(text);
    if (m && !/^\s*at\s/.test(raw)) return { index: i, text, exception: m[1] === 'Segmentation fault' ? 'SIGSEGV' : (m[1] as string).replace(/ \(core dumped\)/, ''), runtime: 'signal' };
  }
  return python ?? jvm ?? node ?? ruby;
}

/** A panic the runtime raises on its own (an unwrap, an index, arithmetic, a borrow), not a check the test made. */
const RUNTIME_PANIC = /^called `(?:Result|Option)::|\bindex out of bounds\b|^attempt to (?:add|subtract|multiply|divide|negate|shift|calculate)|\boverflow\b|\bdivide by zero\b|\bnot a char boundary\b|\bout of range\b|^explicit panic$|\balready (?:mutably )?borrowed\b|^not (?:yet )?implemented\b|^internal error: entered unreachable code/;
/** A Rust test file: an integration test under `tests/`, a `*_test.rs` or `tests.rs` module. */
const RUST_TEST_FILE = /(?:^|\/)tests\/[^\s:]*\.rs$|(?:_test|_tests|(?:^|\/)tests)\.rs$/;

/**
 * A Rust panic raised at a line of the test's own file with the test's own words (`assert!(ok, "90m should parse
 * as 5400 s, got {:?}", got)`, `panic!("...")` in the test): a check the test made that did not hold. A panic in the
 * code under test, or the runtime's own (`called `Result::unwrap()` on an `Err` value`), is an error of the test.
 */
export function isTestCheckPanic(lines: readonly string[], raised: Raised): boolean {
  if (raised.runtime !== 'rust') return false;
  const heading = [lines[raised.index - 1] ?? '', lines[raised.index] ?? ''].map((l) => /panicked at (?:'.*', )?((?:[\w.-]+\/)*[\w.-]+\.rs):\d+:\d+/.exec(l)?.[1]).find(Boolean);
  const message = raised.text.replace(/^thread '[^']*'(?: \(\d+\))? panicked at '(.*)', \S+$/, '$1').trim();
  if (heading === undefined || RUNTIME_PANIC.test(message)) return false;
  if (RUST_TEST_FILE.test(heading)) return true;
  // A unit test in the crate's own `mod tests` (the panicking thread is the test, `tests::name`) whose message states
  // the value it wanted (`f(x) = 36.59, want 36.6`): the test's check, as harnessFinding reads a C test's (helper t13).
  const thread = /^thread '([^']*)'/.exec((lines[raised.index - 1] ?? '').trim())?.[1] ?? /^thread '([^']*)'/.exec(raised.text)?.[1];
  const nextLine = (lines[raised.index + 1] ?? '').trim();
  return thread !== undefined && /(?:^|::)tests::\w+$/.test(thread) && /\b(?:want|wanted|expected)\b/i.test(`${message} ${nextLine}`);
}
