/**
 * The class a finding gains from general verdicts (issue 25, round 6 tuning, helper class6): evidence
 * that holds for a tool no rule names, applied last to every finding (family rules on or off):
 * - VERDICT WORDS on a finding no rule settled: a program that could not be executed (`Can't exec
 *   "x": No such file`, `no such plugin`), resources or disk space exhausted, a coverage gate, a
 *   shell's refusal (`readonly variable`), a test selection that matched nothing, a signature made
 *   by another key, a module the build asks for that is not there, a URL that does not exist; an
 *   error followed by the program's `Usage:` (the invocation is wrong). An excerpt that is only the
 *   step's exit line reads them in the step's output above it;
 * - an exception's own words over the runtime's class: a package that cannot be found is a
 *   dependency, a program a process spawn did not find (`FileNotFoundError: ... 'brotli'` raised
 *   from `subprocess`) a missing tool, a timeout verdict (`did not complete within 5000ms`) a time
 *   limit, a test the runner reports killed by a signal after its timeout a time limit, a crash the
 *   test runner reports as the test's failure (`Test failed with exception: Segmentation fault`) a
 *   test error; the cause an exception's type or reason names (exceptionCause.ts: a connection refused, an
 *   HTTP 407, an allocation refused, a program not on PATH) over the exception;
 * - the ROLE of the command whose output it is (verdictRole.ts): a translator (an input file and an
 *   output) or compiler that rejected its input is a compile error, a linker (object files in) a
 *   link error, a checker (`*lint`, `*hint`, `check*`, `*check`, `spell`) a lint finding, a test
 *   program's check a test assertion or error; an input file's line rejected (`bad configuration
 *   option`, `cannot open 'x'` at a place in the file the command was given) a compile error; an
 *   interpreter's error at a place of the script it runs a runtime exception;
 * - a script's own `exit 1` after it echoed a checker's report naming a place: lint there.
 * A class only when the evidence settles it; else the finding stays as it was.
 */
import type { Finding, FindingClass } from '../../protocol/types.js';
import { byRole, stepAbove } from './verdictRole.js';
import { locatedIn } from './generic.js';
import { withCause } from './causes.js';
import { causeNamed } from './exceptionCause.js';

export type Window = { start_line: number; end_line: number };
type BodyAt = (i: number) => string;

interface Verdict {
  cls: FindingClass;
  re: RegExp;
  /** The next line must match too (a mismatch stated over two lines). */
  next?: RegExp;
}

/**
 * A program the agent lacks, or has in another version, in the words of whatever needed it (helper t18): a process
 * that was never started (Rust's std says `(never executed)` of a spawn that failed, cargo's `could not execute
 * process`; gcc's driver `collect2: fatal error: cannot find 'ld'` of the linker it was told to use), a toolchain's
 * home variable that points at no toolchain (`The JAVA_HOME environment variable is not defined correctly`,
 * `JAVA_HOME is set to an invalid directory`), a project's guard naming the runtime version it needs and the one the
 * agent runs (`needs Node 22 (.nvmrc), but the agent runs v20.20.2`).
 */
export const LACKED_PROGRAM = /\(never executed\)|^collect2: fatal error: cannot find ['‘][\w.+-]+['’]$|\b(?:JAVA|GO|ANDROID|DOTNET|GRADLE|M2|MAVEN|ANT)_(?:HOME|ROOT)\b.{0,30}\b(?:is not defined correctly|is set to an invalid directory|does not point to)\b|\b(?:needs|requires)\s+(?:Node(?:\.js)?|Python|Go|Java|JDK|Ruby|Rust|PHP|Perl|CMake|Maven|Gradle|npm|pnpm|Yarn|\.NET|dotnet|GCC|Clang)\s+v?\d+(?:\.\d+)*\b.{0,40}\bbut\b.{0,40}\b(?:runs?|running|has|have|is|found|got)\s+v?\d+(?:\.\d+)*/i;

/** Words any tool uses for a cause the general word rules (words.ts) do not name. */
export const VERDICT_WORDS: readonly Verdict[] = [
  // A program the machine lacks, in the words of whatever tried to run it.
  { cls: 'missing-tool', re: /\bCan't exec "[\w.+-]+": No such file or directory\b|\bno such (?:plugin|program|command|executable)\b|\bexecutable should be ['"`][\w.+-]+['"`]|\bspawn(?:Sync)? [\w.+-]+ ENOENT\b|\bexecvp?\b.{0,40}\bNo such file or directory\b/i },
  { cls: 'missing-tool', re: LACKED_PROGRAM },
  { cls: 'out-of-memory', re: /\b(?:cache |memory )?resources? exhausted\b/i },
  { cls: 'disk-full', re: /\b(?:too big|too large|insufficient|not enough)\b.{0,30}\b(?:remaining|available|free) (?:disk )?space\b/i },
  // A coverage gate: the measured total under the required one.
  { cls: 'lint', re: /\bcoverage\b.{0,80}\b(?:(?:is )?less than|(?:is )?below|(?:is )?lower than|does not meet|not met)\b/i },
  // The script's shell refused its own statement; the invocation selected nothing to run.
  { cls: 'ci-script', re: /^(?:\S+: )?(?:line \d+: )?[A-Za-z_]\w*: readonly variable$|\bNo tests? (?:matching|found matching)\b.{0,80}\b(?:were|was) (?:executed|run|found)\b/ },
  // A signature made by another key than the one the build trusts.
  { cls: 'permission-credentials', re: /\b(?:signature|key id)\b.{0,80}\bis [0-9A-Fa-f]{8,}\s*$/, next: /^but\b.{0,60}\bkey\b/ },
  { cls: 'permission-credentials', re: /\b(?:bad|invalid|untrusted) signature\b|\bsignature verification failed\b|\bsignature (?:does not|doesn't) match\b/i },
  // A module or package the build names that the machine does not have; a URL the build fetches that is not there.
  { cls: 'dependency-resolution', re: /\bunknown (?:module|package|librar(?:y|ies))(?:\(s\)|s)?\b.{0,20}:\s*\S|\bURL ['"][^'"]+['"] (?:doesn't|does not) exist\b/i },
];

/** A CI's or a shell's line that only says the step failed. */
const EXIT_LINE = /exit (?:code|status) \d+|returned \d+|^Finished: |marked build as failure|exited with \d+/i;
/** A runner's line that the program printed its usage (a wrong invocation). */
const USAGE = /^(?:npm (?:ERR!|error) )?[Uu]sage:(?:\s|$)/;

function at(found: Finding, k: number, text: string, cls: FindingClass): Finding {
  return { ...found, class: cls, message: text.trim(), message_line: k + 1, confidence: 'medium', evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
}

/** The first line of lines a..b-1 a verdict's words name, the message line first. */
function wordsIn(bodyAt: BodyAt, a: number, b: number, first: number): { index: number; cls: FindingClass } | undefined {
  const order = [first, ...Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k).filter((k) => k !== first)];
  for (const k of order) {
    const t = bodyAt(k).trim();
    if (t === '' || /^\++ /.test(t)) continue;
    const v = VERDICT_WORDS.find((w) => w.re.test(t) && (!w.next || w.next.test(bodyAt(k + 1).trim())));
    if (v) return { index: k, cls: v.cls };
  }
  return undefined;
}

/** A timeout's verdict in a test's or a runtime's message. */
const TIMEOUT_VERDICT = /\bdid not (?:complete|finish|resolve|return|settle|end) (?:with)?in \d+(?:\.\d+)?\s*(?:ms|s|seconds?|milliseconds?)\b|^(?:Error: )?Timeout\b.{0,20}\b(?:did not|exceeded|after|of \d)|\bexceeded (?:the )?timeout of \d/i;
/** A process spawn in a trace: the program it started is what was not found. */
const SPAWN_FRAME = /\bsubprocess\.py\b|\b_execute_child\b|\bPopen\b|\bchild_process\b|\bProcessBuilder\b|\bos\.exec\w*\b|\bspawn\b/;

/**
 * A program the agent lacks, said on the message line itself, over a class a rule gave without certainty (a compiler's
 * or a script's error at medium: cargo's `error: could not execute process ... (never executed)`, collect2's). Applied
 * last to every finding (index.ts findingOf); an unknown finding gets it from VERDICT_WORDS, with the words near it.
 */
export function lackedProgram(found: Finding): Finding | undefined {
  return found.confidence !== 'high' && found.class !== 'missing-tool' && found.class !== 'unknown' && LACKED_PROGRAM.test(found.message) ? { ...found, class: 'missing-tool', confidence: 'medium' } : undefined;
}

/** The runtime's class corrected by the exception's own words. */
function byMessage(found: Finding, bodyAt: BodyAt, excerpt: Window): Finding | undefined {
  const msg = found.message;
  // A package the program imports that is not installed (`Cannot find package 'x'`, a bundler's `failed to resolve import "x"`): not a relative path.
  if ((found.class === 'runtime-exception' || found.class === 'test-error') && /\b(?:Cannot find (?:package|module)|(?:[Ff]ailed to|[Cc]ould not|[Cc]annot|[Uu]nable to) resolve (?:import|module|package)) ['"](?![./])(?:@[\w.-]+\/)?[\w.-]+['"]/.test(msg)) return { ...found, class: 'dependency-resolution', confidence: 'medium' };
  if (found.class === 'runtime-exception' && /No such file or directory: ['"][\w.+-]+['"]$|\bENOENT\b.*\bspawn\b|\bspawn(?:Sync)? [\w.+-]+ ENOENT\b/.test(msg)) {
    const a = Math.max(0, excerpt.start_line - 41);
    for (let k = a; k < found.message_line; k++) if (SPAWN_FRAME.test(bodyAt(k))) return { ...found, class: 'missing-tool', confidence: 'medium' };
  }
  if ((found.class === 'test-error' || found.class === 'runtime-exception' || found.class === 'test-assertion') && TIMEOUT_VERDICT.test(msg)) return { ...found, class: 'timeout-aborted', confidence: 'medium' };
  // The cause the exception's type or reason names (exceptionCause.ts): the cause wins over the exception it raised.
  if (found.class === 'runtime-exception' || found.class === 'test-error') {
    const cause = causeNamed(found.exception ? `${found.exception}: ${msg}` : msg);
    if (cause) return { ...found, class: cause, confidence: 'medium' };
  }
  // A test's failure report whose diagnostics say it was ended by a signal under a time limit.
  if (found.class === 'test-error') {
    let signal = false;
    let limit = false;
    for (let k = found.message_line; k < found.message_line + 25; k++) {
      const t = bodyAt(k).trim();
      if (/^(?:\.\.\.|1\.\.\d+)$/.test(t) || /^(?:not )?ok \d/.test(t)) break;
      if (/^signal:\s*SIG(?:TERM|KILL|ALRM|INT)\b/.test(t)) signal = true;
      if (/^timeout:\s*\d/.test(t)) limit = true;
    }
    if (signal && limit) return { ...found, class: 'timeout-aborted', confidence: 'medium' };
    if (comparedBelow(found, bodyAt)) return { ...found, class: 'test-assertion', confidence: 'medium' };
  }
  // A crash the test runner reports as the test's failure: the test's error.
  if (found.class === 'runtime-exception' && /^SIG|[Ss]egmentation|^Abort/.test(found.exception ?? '') && /\btest\b.{0,20}\bfailed\b|\bfailed\b.{0,20}\btest\b/i.test(msg)) {
    for (let k = found.message_line; k < found.message_line + 3; k++) {
      const named = /^\[\s*FAILED\s*\]\s+(\w+)\s*$|^(?:FAIL|FAILED|not ok \d+ -)\s+(\w+)/.exec(bodyAt(k).trim());
      if (named) return { ...found, class: 'test-error', confidence: 'medium', test: { name: (named[1] ?? named[2]) as string, log_line: k + 1 } };
    }
  }
  return undefined;
}

/** The value a check got, and the one it wanted, as the runner's keys (`got:` over `want:`, TAP's `actual:` and `expected:`). */
// A diff's legend says the same (jest's and vitest's `- Expected` over `+ Received`, mocha's `+ expected - actual`).
const GOT_KEY = /^(?:got|actual|received|found)\s*:|^\+ (?:Received|Actual)\b|^\+ expected - actual$/i;
const WANTED_KEY = /^(?:want|wanted|expected)\s*:|^- Expected\b|^\+ expected - actual$/i;

/** A test's failure report whose detail compares the value the test got with the one it wanted: an assertion, not an error. */
function comparedBelow(found: Finding, bodyAt: BodyAt): boolean {
  let got = false;
  let wanted = false;
  for (let k = found.message_line; k < found.message_line + 40; k++) {
    const t = bodyAt(k).trim();
    if (GOT_KEY.test(t)) got = true;
    if (WANTED_KEY.test(t)) wanted = true;
    if (/^(?:\.\.\.|1\.\.\d+)$/.test(t) || /^(?:not )?ok \d/.test(t) || /^(?:FAIL|PASS|ok)(?:\s|$)|^--- (?:FAIL|PASS)|^=== RUN/.test(t) || /^\++ /.test(t)) break;
  }
  return got && wanted;
}

/** A script's own `exit N` after it echoed a place-naming report that a checker's command produced. */
function echoedReport(found: Finding, bodyAt: BodyAt): Finding | undefined {
  if (found.class !== 'ci-script' || !/^exit [1-9]\d*$/.test(found.message)) return undefined;
  const exitAt = found.message_line - 1;
  for (let k = exitAt - 1; k >= Math.max(0, exitAt - 20); k--) {
    const t = bodyAt(k).trim();
    if (/^\++ /.test(t)) continue;
    const place = /^((?:[\w.~@+-]+\/)*[\w.~@+-]+\.[A-Za-z]\w{0,7}):(\d+):\s+(\S.*)$/.exec(t);
    if (!place) continue;
    const step = stepAbove(bodyAt, k, (c) => c.lint);
    if (!step) return undefined;
    return { ...at(found, k, t, 'lint'), tool: step.command.program, location: { file: place[1] as string, line: Number(place[2]), log_line: k + 1 } };
  }
  return undefined;
}

/** A syntax error among a compiler's errors: the undefined names reported before it are what it left undefined. */
const SYNTAX_ERROR = /\b(?:syntax error|parse error|(?:instruction|expression|statement|declaration|operand|identifier|token) expected\b|expected (?:instruction|expression|statement|declaration|operand|identifier)\b)/i;

/**
 * pytest's report of one test under its banner (`____ test_x ____`) down to the next banner or `====` line: the
 * first line of its last group of `E` lines (the exception pytest raised at the innermost frame; of a chained
 * exception, `During handling of the above exception`, the last one), 0-based; undefined without `E` lines.
 */
function pytestRaised(bodyAt: BodyAt, banner: number, lineCount: number): number | undefined {
  let last: number | undefined;
  for (let k = banner + 1; k < Math.min(lineCount, banner + 800); k++) {
    const u = bodyAt(k);
    if (/^(?:_{3,} .+ _{3,}|={3,}.*)$/.test(u.trim())) break;
    if (/^E\s+\S/.test(u) && !/^E\s/.test(bodyAt(k - 1))) last = k;
  }
  return last;
}

/** The message a heading, a banner or a consequence stands for (see verdictOf). */
function messageOf(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: BodyAt): Finding {
  const msgAt = found.message_line - 1;
  const t = bodyAt(msgAt).trim();
  // A check's heading that says only that it failed (`[----] tests/x.c:15: Assertion Failed`): its detail below.
  if (found.class === 'test-assertion' && /(?:^|:\s*)assertion failed:?$/i.test(t)) {
    for (let k = msgAt + 1; k < Math.min(lines.length, msgAt + 4); k++) {
      const detail = bodyAt(k).trim().replace(/^\[[-\w ]{1,8}\]\s*/, '');
      if (detail !== '') return { ...found, message: detail, message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
    }
  }
  // An operating system's bare reason as the deepest cause (`Caused by:` over `Permission denied (os error
  // 13)`): it names nothing; the level above says what it was refused (`failed to create directory `x``).
  if (/^(?:Permission denied|Operation not permitted|No space left on device|Read-only file system|No such file or directory|Disk quota exceeded|Too many open files|Is a directory|Not a directory)(?: \((?:os error|errno:?) \d+\))?$/i.test(t)) {
    let k = msgAt - 1;
    while (k > msgAt - 4 && bodyAt(k).trim() === '') k--;
    if (/^Caused by:?$/.test(bodyAt(k).trim())) {
      k--;
      while (k > msgAt - 8 && bodyAt(k).trim() === '') k--;
      const level = bodyAt(k).trim();
      if (level !== '' && !/^Caused by:?$/.test(level)) return { ...found, message: level, message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
    }
  }
  // jest's matcher hint (`expect(received).toThrow(expected)`) only names the check; a sentence in its
  // detail says what happened (`Received function did not throw`), where labelled values (`Expected: 3`) do not.
  if (found.class === 'test-assertion' && /^expect\(.*\)\.(?:not\.|resolves\.|rejects\.)*\w+\(.*\)(?:\s+\/\/.*)?$/.test(t)) {
    for (let k = msgAt + 1; k < Math.min(lines.length, msgAt + 12); k++) {
      const u = bodyAt(k).trim();
      if (/^>?\s*\d+ \||^at\s/.test(u)) break;
      if (u === '' || /^[A-Z][\w ]{0,40}:\s/.test(u) || /^[-+] /.test(u)) continue;
      if (/^(?:Received|Expected)\b [a-z]/.test(u)) return { ...found, message: u, message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
      break;
    }
  }
  // A runner's banner (`____ ERROR at setup of test_x ____`, `---- name stdout ----`): the first error under it.
  if ((found.class === 'test-error' || found.class === 'test-assertion') && /^([_=-])\1{2,} .+ \1{3,}$/.test(t)) {
    // pytest's section (`____ test_x ____` down to the next banner): the exception is its last group of `E` lines.
    const raised = /^_{3,} /.test(t) ? pytestRaised(bodyAt, msgAt, lines.length) : undefined;
    if (raised !== undefined) return { ...found, message: bodyAt(raised).trim().replace(/^E\s+/, ''), message_line: raised + 1, evidence: [raised + 1, ...found.evidence.filter((e) => e !== raised + 1)] };
    for (let k = msgAt + 1; k < Math.min(lines.length, msgAt + 10); k++) {
      const u = bodyAt(k).trim();
      if (/^[_=-]{3,}|^failures:$/.test(u)) break;
      // An exception's name over its message (`ScopeMismatch: You tried to ...`) says what failed too.
      if (/^E\s+\S/.test(u) || /^(?:[a-z_]\w*\.)*[A-Z][a-z]+[A-Z]\w*: \S/.test(u) || (/\b(?:error|not found|failed|exception)\b/i.test(u) && !/^(?:file|>)\s/.test(u))) return { ...found, message: u.replace(/^E\s+/, ''), message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
    }
  }
  // Gradle's test event (`dev.acme.XTest > name FAILED`): the exception it prints indented under it (`    java.lang.StackOverflowError`).
  if ((found.class === 'test-error' || found.class === 'test-assertion') && /^\S+ > .+ FAILED$/.test(t)) {
    const u = bodyAt(msgAt + 1);
    if (/^\s{2,}(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Error|Exception|Failure|Throwable)\b/.test(u)) return { ...found, message: u.trim(), message_line: msgAt + 2, evidence: [msgAt + 2, ...found.evidence.filter((e) => e !== msgAt + 2)] };
  }
  // A compiler's undefined name, then a syntax error in the same run: the syntax error.
  if (found.class === 'compile-error' && /\bundefined (?:symbol|name|reference|label|identifier)\b|\bnot defined\b|\bundeclared\b/i.test(found.message)) {
    const here = locatedIn(t);
    for (let k = msgAt + 1; here && k < Math.min(lines.length, Math.max(excerpt.end_line, msgAt + 1) + 5, msgAt + 30); k++) {
      const p = locatedIn(bodyAt(k).trim());
      if (!p || p.file !== here.file) break;
      if (SYNTAX_ERROR.test(p.message)) {
        const line = bodyAt(k).trim();
        return { ...found, message: line, message_line: k + 1, location: { file: p.file, line: p.line, ...(p.column ? { column: p.column } : {}), log_line: k + 1 }, evidence: [k + 1, ...found.evidence.filter((e) => e !== k + 1)] };
      }
    }
  }
  return found;
}

/**
 * The test a runner names failing around a test's finding that names none, nearest first: a
 * verdict beside a name (`[FAIL] suite::name: (0.00s)`, `Test: name ...FAILED`), an item of a
 * failure list (`1) test: Suite::name (F) line: 17 f`, `1) Scenario: name # f:3`), a scenario's
 * heading, a function the runner says failed (`name() returned non-zero`); else a failure mark
 * (`✘ [fail]: name`). Check's own report `file:line:E:suite:name:0:` is a tool rule (its format).
 */
const NAMED: readonly RegExp[] = [
  /^\[\s*(?:FAIL|FAILED|ERROR)\s*\]\s+([\w:.$/-]+?)(?::\s.*)?$/,
  /^(?:Test|Testing):?\s+(\S+)\s*\.{2,}\s*FAIL(?:ED)?\b/,
  /^\d+\) (?:test: )?(\S.*?)(?: \([FE]\) .*| # \S+)?$/,
  /^Scenario(?: Outline)?: (\S.*?)(?:\s+#\s.*)?$/,
  /^(?:\S+:ERROR\s+)?(\w+)\(\) (?:returned non-zero|failed)\b/,
  /^\S+\.\w+:\d+:[EF]:[\w-]+:(\w+):\d+: /,
];
// The name without the time a runner prints after it: vitest's `× name 6ms`, node --test's spec reporter's
// `✖ name (1.603161ms)`, mocha's `(105ms)`.
const MARKED = /^[✘✗×✖]\s+(?:\[fail\]:\s*)?(\S.*?)(?:\s+\(?\d+(?:\.\d+)?\s?m?s\)?)?$/;

function withTest(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (found.test || !/^(?:test-assertion|test-error|timeout-aborted)$/.test(found.class)) return found;
  const msgAt = found.message_line - 1;
  const order: number[] = [];
  for (let d = 0; d <= 40; d++) for (const k of d === 0 ? [msgAt] : [msgAt - d, msgAt + d]) if (k >= 0 && k < lines.length && (k < msgAt || d <= 15)) order.push(k);
  // Up to the step's command above (an earlier step's tests are not this one's).
  const cut = order.find((k) => k < msgAt && /^\++ |^\$ /.test(bodyAt(k).trim()));
  const inStep = order.filter((k) => cut === undefined || k > cut);
  for (const shapes of [NAMED, [MARKED]]) {
    for (const k of inStep) {
      const t = bodyAt(k).trim();
      const m = shapes.map((re) => re.exec(t)).find((x) => x !== null);
      if (m?.[1]) return { ...found, test: { name: m[1], log_line: k + 1 } };
    }
  }
  return found;
}

/** The finding with what the general verdicts above settle; the finding itself when they settle nothing. */
export function verdictOf(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: BodyAt): Finding {
  return withTest(withCause(settled(found, lines, excerpt, bodyAt), lines, bodyAt), lines, bodyAt);
}

/**
 * jest's heading over an error it prints without the error's class (`● Test suite failed to run`
 * over `Cannot find module './x' from 'src/a.js'` and its `at` frames): the detail's first line is
 * the message, raised in the test (the frames show it was thrown); the test is the heading's, or for
 * a suite that did not run, the suite's file (`FAIL test/a.test.js` above).
 */
function underRunnerHeading(found: Finding, bodyAt: BodyAt): Finding | undefined {
  const msgAt = found.message_line - 1;
  const heading = /^● (.+)$/.exec(bodyAt(msgAt).trim());
  // jest's `Test suite failed to run`: the file threw while it loaded (a setup file's own check, a missing
  // variable), before any test ran; no test's check failed, whatever a general reading made of it (jest's docs).
  const suiteDidNotRun = found.class === 'test-assertion' && found.confidence !== 'high' && /^● Test suite failed to run$/.test(found.message.trim());
  if ((found.class !== 'unknown' && !suiteDidNotRun) || !heading) return undefined;
  let detail: number | undefined;
  let framed = false;
  for (let k = msgAt + 1; k < msgAt + 40; k++) {
    const t = bodyAt(k).trim();
    if (/^● |^(?:Test Suites|Tests):\s/.test(t)) break;
    if (t === '') continue;
    detail ??= k;
    if (/^at \S.*(?:\(\S+:\d+:\d+\)|\S+:\d+:\d+)$/.test(t)) framed = true;
  }
  if (detail === undefined || !framed) return undefined;
  let test: Finding['test'];
  if (/^Test suite failed to run$/.test(heading[1] as string)) {
    for (let k = msgAt - 1; k >= Math.max(0, msgAt - 10) && !test; k--) {
      const suite = /^FAIL (\S+)$/.exec(bodyAt(k).trim());
      if (suite) test = { name: suite[1] as string, log_line: k + 1 };
    }
  } else test = { name: heading[1] as string, log_line: msgAt + 1 };
  const message = bodyAt(detail).trim();
  return { ...found, class: 'test-error', tool: 'jest', message, message_line: detail + 1, confidence: 'medium', ...(test ? { test } : {}), evidence: [detail + 1, ...found.evidence.filter((e) => e !== detail + 1), msgAt + 1].sort((a, b) => a - b) };
}

/**
 * `git diff --exit-code` (or `--quiet`) after a generator or formatter (`go mod tidy`, `npm run gen`) that
 * printed a diff: the committed file is not what the tool makes of it, a check like a formatter's. The
 * tool is the command before the diff; the file is the diff's.
 */
function generatedDiff(found: Finding, bodyAt: BodyAt): Finding | undefined {
  const msgAt = found.message_line - 1;
  let diffAt: number | undefined;
  for (let k = msgAt; k >= Math.max(0, msgAt - 60); k--) {
    const t = bodyAt(k).trim();
    if (/^diff --git a\/\S+ b\/\S+$/.test(t)) diffAt = k;
    if (!/^\+ /.test(t)) continue;
    if (diffAt === undefined || !/^\+ git (?:-\S+ )*diff\b.*--(?:exit-code|quiet)\b/.test(t)) return undefined;
    let before: string | undefined;
    for (let j = k - 1; j >= Math.max(0, k - 40) && before === undefined; j--) before = /^\+ (\S+(?: (?!-)[\w:-]+){0,2})/.exec(bodyAt(j).trim())?.[1];
    const file = /^diff --git a\/(\S+) b\//.exec(bodyAt(diffAt).trim())?.[1] as string;
    return { ...found, class: 'lint', message: bodyAt(diffAt).trim(), message_line: diffAt + 1, tool: before ?? 'git diff', confidence: 'medium', location: { file, log_line: diffAt + 1 }, evidence: [diffAt + 1, k + 1] };
  }
  return undefined;
}

function settled(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: BodyAt): Finding {
  if (found.class === 'unknown') {
    const diff = generatedDiff(found, bodyAt);
    if (diff) return diff;
  }
  const headed = underRunnerHeading(found, bodyAt);
  const corrected = byMessage(headed ?? found, bodyAt, excerpt) ?? echoedReport(found, bodyAt) ?? headed;
  if (corrected) return corrected;
  if (found.class !== 'unknown') return messageOf(found, lines, excerpt, bodyAt);
  const a = Math.max(0, excerpt.start_line - 1);
  const b = Math.min(lines.length, Math.max(excerpt.end_line, a + 1));
  const msgAt = found.message_line - 1;
  const words = wordsIn(bodyAt, a, b, msgAt);
  if (words) return at(found, words.index, bodyAt(words.index), words.cls);
  // An excerpt that is only the step's exit: the step's output above it.
  if (EXIT_LINE.test(found.message)) {
    const step = stepAbove(bodyAt, msgAt, () => true);
    if (step) {
      const above = wordsIn(bodyAt, step.index + 1, msgAt, step.index + 1);
      if (above) return at(found, above.index, bodyAt(above.index), above.cls);
    }
  }
  // The program printed its usage under the error: it refused the invocation.
  for (let k = Math.max(a, msgAt); k < Math.min(lines.length, msgAt + 15); k++) if (USAGE.test(bodyAt(k).trim())) return { ...found, class: 'ci-script', confidence: 'medium' };
  return byRole(found, lines, { start_line: a + 1, end_line: b }, bodyAt) ?? found;
}
