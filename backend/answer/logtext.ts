/**
 * Reading the build log the way the offline engine needs it: the line a person would quote as
 * "the error", the names of failing tests, and Markdown code blocks that survive any log text.
 */
import type { ChatContext } from './engine.js';
import { failingCommandAbove, interleavedParallelAt, untracedScriptAbove } from '../../core/log/failingStep.js';
import { branchOfLine, pipelinePlaceOf, unstamped } from './pipelineText.js';

/** A piece of the log with its 1-based line numbers. */
export interface LogSpan {
  start_line: number;
  end_line: number;
  text: string;
}

const ERROR_LINE =
  /●|\bFAIL:?\s|is not recognized as an internal or external command|\.go:\d+:\d+: |\b(error|errors|exception|fatal|panic|failed|failure|cannot|can't|could not|couldn't|not found|no such|denied|refused|timed? ?out|undefined|unresolved|segmentation fault|killed|exit(ed)? (with )?(code|status)|non-zero|assert|no space left|out of memory)|\bERR!/i;
const NOISE_LINE = /^\s*(\[(INFO|DEBUG)\]|at\s|\.\.\.|[-=*#_]{3,}\s*$)/;

/** Whether one log line reads like an error (not an INFO line or a stack frame). */
export function looksLikeError(line: string): boolean {
  return ERROR_LINE.test(line) && !NOISE_LINE.test(line);
}

/**
 * Lines that count or conclude rather than state: a test runner's tally, a build tool's verdict,
 * an exit status. Quoted as "the error" they tell a person nothing they did not know.
 */
const TALLY_LINE =
  /\b(tests? run:|\d+ (tests?|examples?|specs?|assertions?)\b.*\b(failed|failures?|errors?)\b|\d+ (failed|failures?|errors?)\b.*\d+ (passed|ok|succeeded)|build (failure|failed)|exited with|exit (code|status)|returned exit code|make(\[\d+\])?: \*\*\*|npm err!\s*(code|errno|\s*$)|(failures?|errors?):\s*$|<<< (failure|error)!?\s*$)/i;
/** Lines that state what went wrong: an exception with its message, a diagnostic, an assertion. */
const STATEMENT_LINE =
  /(\b[\w.$]*(Error|Exception|Failure)\b(:|\s*\()|\b(error|fatal error)(\[\w+\])?:\s*\S|\bexpected\b.*\b(but|got|received|was|to be|instead)\b|\bassert\w*\b.*\b(fail|false|equal|expected)|\bpanic:|●|\bE {2,}\S|no such file|permission denied|cannot find|could not (find|resolve|open)|undefined reference|unresolved|segmentation fault|out of memory|command not found|not recognized as)/i;
/** How far into a block the line that states the error is looked for. */
const STATEMENT_WINDOW = 20;

/**
 * The line of a span that states the error, with its number: the first error-looking line,
 * unless that line only counts or concludes (`Tests run: 4, Failures: 1`, `BUILD FAILURE`,
 * `exit code 1`); then, among the block's first lines, the first that states what went wrong (an
 * exception and its message, a compiler diagnostic, an assertion), else the first error-looking
 * line that is not a tally. `isError` is false when no line looks like an error and the first
 * line stands in.
 */
export function headlineOf(span: LogSpan): { line: number; text: string; isError: boolean } {
  const lines = span.text.split('\n');
  let fallback: { line: number; text: string; isError: boolean } | undefined;
  let firstError: { line: number; text: string; isError: boolean } | undefined;
  let firstNonTally: { line: number; text: string; isError: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as string).trim();
    if (!text) continue;
    const line = span.start_line + i;
    fallback ??= { line, text, isError: false };
    const statement = STATEMENT_LINE.test(text);
    if ((!statement && !ERROR_LINE.test(text)) || NOISE_LINE.test(text)) continue;
    const found = { line, text, isError: true };
    const tally = TALLY_LINE.test(text);
    if (!firstError) {
      if (!tally) return found; // the usual case: the block opens with its message
      firstError = found;
    } else if (!tally) {
      if (statement) return found;
      firstNonTally ??= found;
    }
    if (i >= STATEMENT_WINDOW) break;
  }
  return firstNonTally ?? firstError ?? fallback ?? { line: span.start_line, text: '', isError: false };
}

/** Shortens one line for a sentence, keeping its start (where the error kind usually is). */
export function clip(text: string, max = 160): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

/** `[L120-L131]`: the citation form both engines use. */
export function cite(span: { start_line: number; end_line: number }): string {
  return `[L${span.start_line}-L${span.end_line}]`;
}

/** `[L12-L12]` for one log line. */
export const at = (line: number): string => cite({ start_line: line, end_line: line });

/**
 * A fenced code block around log text; the fence is longer than any backtick run inside so a
 * log that prints Markdown cannot close it early. Long spans keep their first `maxLines`.
 */
export function codeBlock(text: string, maxLines = 25): { block: string; hiddenLines: number } {
  const lines = text.replace(/\n+$/, '').split('\n');
  const shown = lines.slice(0, maxLines);
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return { block: `${fence}text\n${shown.join('\n')}\n${fence}`, hiddenLines: lines.length - shown.length };
}

/**
 * A line without the clock a CI put before it: GitHub Actions' `2026-11-29T01:02:03.456Z `, Jenkins' Timestamper
 * `[2026-11-29T01:02:03.456Z] ` or a console copied with its times shown (`01:02:03 `): pipelineText.ts `unstamped`.
 */
export function withoutStamp(line: string): string {
  return unstamped(line);
}

/** Inline code that survives backticks in the value. */

export function inlineCode(text: string): string {
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * The stored log's text as one span with its true line numbers, when the context carries it:
 * the whole log (`consoleLog`, when its length agrees with the stored line count), else its end
 * (`consoleLogTail`, which ends at the stored log's last line). Undefined when neither is there.
 */
export function storedLogSpan(ctx: ChatContext): LogSpan | undefined {
  const build = ctx.ciContext.buildDetails;
  // Counted, not split: the log may be megabytes and this runs per question.
  const linesOf = (value: unknown): { text: string; count: number } | undefined => {
    if (typeof value !== 'string' || value === '') return undefined;
    const text = value.endsWith('\n') ? value.slice(0, -1) : value;
    let count = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
    return { text, count };
  };
  const whole = linesOf(build?.consoleLog);
  if (whole && whole.count === ctx.logLineCount) return { start_line: 1, end_line: whole.count, text: whole.text };
  const tail = linesOf(build?.consoleLogTail);
  if (tail && tail.count <= ctx.logLineCount) {
    return { start_line: ctx.logLineCount - tail.count + 1, end_line: ctx.logLineCount, text: tail.text };
  }
  return undefined;
}

/**
 * How an answer names the lines it read for a claim of absence ("... prints no X"): `the log` when they are all of it,
 * else `the part of the log I read (lines A-B of N)`: a stored tail or a capped read says nothing of the other lines.
 */
export function logReadWords(ctx: ChatContext, read: { start_line: number; end_line: number }): string {
  return read.start_line <= 1 && read.end_line >= ctx.logLineCount ? 'the log' : `the part of the log I read (lines ${read.start_line}-${read.end_line} of ${ctx.logLineCount})`;
}

const TEST_NAME_PATTERNS: RegExp[] = [
  // Jest: "● Suite › does a thing"
  /^\s*●\s+(?!Console\b)(.+?)\s*$/,
  // Jest/Vitest file summary: "FAIL src/foo.test.ts"
  /^\s*FAIL\s+(\S+\.(?:[cm]?[jt]sx?))\b/,
  // pytest: "FAILED tests/test_x.py::test_y - AssertionError" and "tests/test_x.py::test_y FAILED"
  /^\s*FAILED\s+(\S+::\S+)/,
  /^\s*(\S+::\S+)\s+FAILED\b/,
  // Go: "--- FAIL: TestParse (0.00s)"
  /^\s*--- FAIL:\s+(\S+)/,
  // Maven surefire (JUnit 4 and 5) and its summary
  /^\[ERROR\]\s+(\w+)\(([\w.$]+)\)\s+Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/,
  /^\[ERROR\]\s+([\w.$]+\.[\w$]+)\s+Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/,
  /^\[ERROR\]\s{2,}([\w$]+(?:\.[\w$]+)+):\d+\b/,
  // Gradle: "FooTest > testBar FAILED"
  /^\s*([\w.$]+\s+>\s+.+?)\s+FAILED\s*$/,
  // cargo test: "test parser::tests::rejects_empty ... FAILED"
  /^\s*test\s+(\S+)\s+\.\.\.\s+FAILED\b/,
  // RSpec: "rspec ./spec/models/user_spec.rb:12 # User validates email"
  /^\s*rspec\s+(\S+:\d+)/,
  // dotnet test: "Failed Namespace.Class.Method [12 ms]"
  /^\s*Failed\s+([\w.]+)\s+\[/,
  // PHPUnit: "1) App\Tests\FooTest::testBar"
  /^\s*\d+\)\s+([\w\\]+::\w+)/,
];

/** Every line a TEST_NAME_PATTERNS entry can match holds one of these. */
const MIGHT_NAME_A_TEST = /FAIL|●|\[ERROR\]|Failed|rspec|^\s*\d+\)/;

export interface FailingTest {
  name: string;
  line: number;
}

/** Names of failing tests printed in the spans, each with the line it was seen on, first seen first. */
export function failingTestsIn(spans: LogSpan[], max = 20): FailingTest[] {
  const found = new Map<string, number>();
  for (const span of spans) {
    const lines = span.text.split('\n');
    for (let i = 0; i < lines.length && found.size < max; i++) {
      const line = lines[i] as string;
      // One cheap test keeps a 40k-line log from meeting every pattern.
      if (!MIGHT_NAME_A_TEST.test(line)) continue;
      for (const pattern of TEST_NAME_PATTERNS) {
        const m = pattern.exec(line);
        if (!m || !m[1]) continue;
        // JUnit 4 prints method(Class): report it as Class.method.
        const name = m[2] ? `${m[2]}.${m[1]}` : m[1];
        // Summaries repeat a test by its short name (OrderServiceTest.rejectsEmptyCart after
        // com.example.api.OrderServiceTest.rejectsEmptyCart): one entry, the full name.
        const known = [...found.keys()].find((k) => k === name || k.endsWith(`.${name}`) || name.endsWith(`.${k}`));
        if (known === undefined) found.set(name, span.start_line + i);
        else if (name.length > known.length) {
          const line = found.get(known) as number;
          found.delete(known);
          found.set(name, line);
        }
        break;
      }
    }
  }
  return [...found.entries()].map(([name, line]) => ({ name, line })).sort((a, b) => a.line - b.line);
}

/** The failure kinds a build engineer recognises at a glance, each with what it means and a first fix. */
export type FailureKind =
  | 'memory'
  | 'disk'
  | 'missing-command'
  | 'docker'
  | 'permission'
  | 'dependency'
  | 'network'
  | 'timeout'
  | 'compile'
  | 'test';

interface KindRule {
  kind: FailureKind;
  /** How a person names it: "a timeout", "a network problem". */
  label: string;
  pattern: RegExp;
  meaning: string;
  nextStep: string;
}

/**
 * Order matters: the more specific shape first ("Could not resolve dependencies" is a
 * dependency problem even though it says "resolve"; a test that timed out is still a test).
 */
const KIND_RULES: KindRule[] = [
  {
    kind: 'memory',
    label: 'running out of memory',
    pattern: /OutOfMemoryError|GC overhead limit exceeded|Cannot allocate memory|JavaScript heap out of memory|exit code 137|OOMKilled|\bKilled\b|Killed process|ENOMEM|\bMemoryError\b/i,
    meaning: 'the process hit its memory limit (the JVM heap, Node\'s heap, or the container\'s limit) and was stopped.',
    nextStep:
      'give the build more memory (`-Xmx` in `MAVEN_OPTS`/`org.gradle.jvmargs`, `NODE_OPTIONS=--max-old-space-size=…`, a larger container or agent), or find what grew: the stack above names the code that was allocating.',
  },
  {
    kind: 'disk',
    label: 'a full disk',
    pattern: /No space left on device|ENOSPC|disk quota exceeded|not enough (free )?disk space/i,
    meaning: "the agent's disk (or the workspace volume) is full, so the step could not write.",
    nextStep: 'free space on that agent (old workspaces, `docker system prune`, old builds), then re-run.',
  },
  {
    kind: 'missing-command',
    label: 'a missing command',
    pattern: /command not found|: not found\s*$|is not recognized as an internal or external command|exit code 127\b|executable file not found in \$PATH/im,
    meaning: 'the shell could not find that program on the agent: it is not installed there, or not on the `PATH` of the step.',
    nextStep:
      'install the tool on the agent, or run the step where it exists (a `tools {}` entry, `agent { docker { image … } }`, or the agent label that has it); `which <tool>` in a step shows what the agent sees.',
  },
  {
    kind: 'docker',
    label: 'a Docker daemon problem',
    pattern: /Cannot connect to the Docker daemon|Is the docker daemon running|permission denied while trying to connect to the Docker daemon|error during connect: .*docker/i,
    meaning: 'the Docker client on the agent could not talk to a Docker daemon: it is not running there, or the Jenkins user may not use its socket.',
    nextStep:
      'on that agent check the daemon (`systemctl status docker`) and that the Jenkins user may use it (member of the `docker` group, then reconnect the agent); or run the step on an agent label that has Docker.',
  },
  {
    kind: 'permission',
    label: 'a permission or credentials problem',
    pattern:
      /Permission denied|EACCES|Operation not permitted|\bEPERM\b|exit code 126\b|access denied|Authentication failed|401 Unauthorized|403 Forbidden|could not read Username|Invalid username or password|Bad credentials|not authorized/i,
    meaning: 'the step was not allowed to run, touch that file or use that remote: a missing executable bit, files owned by another user, or credentials that are missing, expired or lack access.',
    nextStep:
      'for a script, make it executable in git (`git update-index --chmod=+x <file>`) or call it through its interpreter (`sh ./gradlew`); for files, check who owns the workspace (`ls -l`); for a remote, check the credentials the step uses.',
  },
  {
    kind: 'dependency',
    label: 'a dependency resolution problem',
    pattern:
      /Could not resolve dependencies|Could not find artifact|Could not resolve all (?:files|dependencies|artifacts)|Could not find [\w.-]+:[\w.-]+:[\w.-]+|Failure to find [\w.-]+:|No matching version found|npm ERR! (?:code )?(?:E404|ETARGET|ERESOLVE)|unable to resolve dependency tree|Could not find a version that satisfies the requirement|No matching distribution found|version solving failed|Unable to find a match|go: [\w./-]+@[\w.-]+: (?:reading|unknown revision)/i,
    meaning: 'the build asked for a dependency (a library, artifact or package version) the repository did not have, or could not reach.',
    nextStep:
      'check that exact name and version is published in the repository the log names (a typo, an unreleased version, a snapshot not deployed), and that the agent uses the right repository settings (`settings.xml`, `.npmrc`, `pip.conf`).',
  },
  {
    kind: 'network',
    label: 'a network problem',
    pattern:
      /Could not resolve host|UnknownHostException|Temporary failure in name resolution|Name or service not known|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|Connection refused|Connection reset|Connection timed out|Network is unreachable|No route to host|unable to access '[^']+'|Could not transfer artifact|certificate verify failed|PKIX path building failed|SSLHandshakeException|TLS handshake timeout|proxy error|502 Bad Gateway|503 Service Unavailable/i,
    meaning: 'the agent could not reach a host it needed (DNS, firewall, proxy, TLS, or the remote being down).',
    nextStep:
      'from that agent, try the same host (`curl -v <url>`, `nslookup <host>`); check DNS, proxy settings (`http_proxy`, `settings.xml` mirrors) and certificates. If it works now, it was transient: re-run.',
  },
  {
    kind: 'timeout',
    label: 'a timeout',
    pattern: /Timeout has been exceeded|due to timeout|Build timed out|timed out|deadline exceeded|\bTimeoutException\b|timeout of \d+\s*m?s exceeded|exceeded the timeout/i,
    meaning: 'a step ran longer than the time it was allowed (a `timeout {}` block, a tool\'s own limit), so it was stopped.',
    nextStep:
      'look at what the step was doing just before (a hung test, a service that never came up, a slow download); raise the limit only if the work really takes that long.',
  },
  {
    kind: 'compile',
    label: 'a compile error',
    pattern:
      /cannot find symbol|\.java:\d+: error:|^\S+\.go:\d+:\d+: |error TS\d+|error\[E\d+\]|\bSyntaxError\b|COMPILATION ERROR|Compilation failed|compilation failure|undefined reference|error CS\d+|\.(?:c|cc|cpp|h|hpp|go|kt|swift|scala):\d+(?::\d+)?: (?:fatal )?error|^e: .*\.kt|Unresolved reference/im,
    meaning: 'the compiler rejected the code, so nothing after compilation (tests, packaging) ran.',
    nextStep: 'fix the code at the file and line the error names; the change that last touched that file is the usual suspect. Build locally the same way to check.',
  },
  {
    kind: 'test',
    label: 'a failing test',
    pattern:
      /There are test failures|Tests run:.*(?:Failures: [1-9]|Errors: [1-9])|AssertionError|AssertionFailedError|ComparisonFailure|expected:? ?<.*> but was|\bFAILED\b.*::|--- FAIL:|\d+ (?:tests? )?failed|Tests:\s+\d+ failed|<<< (?:FAILURE|ERROR)!/i,
    meaning: 'the code compiled, but a test\'s assertion did not hold.',
    nextStep: 'reproduce the failing test locally and compare with the assertion above.',
  },
];

export interface FailureDiagnosis {
  kind: FailureKind;
  label: string;
  meaning: string;
  nextStep: string;
  /** The line (1-based, in the log) that shows the kind, when the span holds it. */
  line?: number;
  lineText?: string;
}

/** The failure kind `span` shows, with the line that shows it; undefined for an unknown shape. */
export function diagnose(span: LogSpan, opts: { related?: LogSpan[] } = {}): FailureDiagnosis | undefined {
  const related = opts.related ?? [];
  const failing = failingTestsIn([span, ...related], 1);
  const allText = [span, ...related].map((r) => r.text).join('\n');
  for (const rule of KIND_RULES) {
    if (!rule.pattern.test(span.text)) continue;
    const lines = span.text.split('\n');
    const index = lines.findIndex((l) => rule.pattern.test(l));
    const nextStep = rule.kind === 'test' ? (reproduceCommand(allText, failing) ?? rule.nextStep) : rule.nextStep;
    return {
      kind: rule.kind,
      label: rule.label,
      meaning: rule.meaning,
      nextStep,
      ...(index >= 0 ? { line: span.start_line + index, lineText: (lines[index] as string).trim() } : {}),
    };
  }
  if (failing.length > 0) {
    const rule = KIND_RULES.find((r) => r.kind === 'test') as KindRule;
    return { kind: 'test', label: rule.label, meaning: rule.meaning, nextStep: reproduceCommand(allText, failing) ?? rule.nextStep, line: failing[0]?.line };
  }
  return undefined;
}

/** How a person names a kind when asking about it ("was it a timeout?"), for yes/no answers. */
/** A shell's read of a variable nothing set (`set -u`: `X: unbound variable`; `${X:?}`: `X: parameter null or not set`); group 1 the name. */
export const UNSET_VARIABLE = /(?:^|:\s)([A-Za-z_]\w*): (?:unbound variable|parameter (?:null or )?not set)/;

export const KIND_QUESTIONS: [FailureKind, RegExp][] = [
  ['memory', /\b(out of memory|oom|memory|heap|ram)\b/],
  ['disk', /\b(disk|space|storage)\b/],
  ['missing-command', /\b(command not found|missing (command|tool|binary|program)|not installed)\b/],
  ['docker', /\b(docker|daemon)\b/],
  ['permission', /\b(permissions?|denied|access rights?|credentials?|auth\w*|unauthori[sz]ed|forbidden)\b/],
  ['dependency', /\b(dependenc(y|ies)|artifact|package version|resolution)\b/],
  ['network', /\b(network|dns|connection|connectivity|proxy|firewall|unreachable)\b/],
  ['timeout', /\b(time ?outs?|timed out|took too long|hung|hang)\b/],
  ['compile', /\b(compil\w*|syntax)\b/],
  ['test', /\b(a test|tests?) (fail\w*|broke)\b/],
];

/** The failure kind a question asks about, if it asks about one. */
export function kindAskedAbout(q: string): FailureKind | undefined {
  return KIND_QUESTIONS.find(([, pattern]) => pattern.test(q))?.[0];
}

export function labelOfKind(kind: FailureKind): string {
  return (KIND_RULES.find((r) => r.kind === kind) as KindRule).label;
}

function reproduceCommand(text: string, failingTests: FailingTest[]): string | undefined {
  const test = failingTests[0]?.name;
  if (!test) return undefined;
  if (/\[ERROR\]|surefire|failsafe/.test(text) && /\./.test(test)) {
    const dot = test.lastIndexOf('.');
    const cls = test.slice(0, dot).split('.').pop() ?? test;
    return `reproduce it locally with \`mvn -Dtest=${cls}#${test.slice(dot + 1)} test\`, then compare with the assertion above.`;
  }
  if (/::/.test(test) && /FAILED|pytest/i.test(text)) return `reproduce it locally with \`pytest ${test}\`.`;
  if (/^Test\w+$/.test(test)) return `reproduce it locally with \`go test -run '^${test}$' ./...\`.`;
  if (/ > /.test(test)) {
    const [cls, method] = test.split(' > ');
    return `reproduce it locally with \`./gradlew test --tests '${cls}.${method}'\`.`;
  }
  return undefined;
}

/**
 * A first thing to try for the failure shape `text` shows, or undefined when the shape is not
 * a well-known one. General CI knowledge, phrased as a suggestion, never as a fact about the build.
 */
export function nextStepFor(text: string, failingTests: FailingTest[] = []): string | undefined {
  const found = diagnose({ start_line: 1, end_line: 1, text });
  if (found) return found.nextStep;
  return reproduceCommand(text, failingTests) ?? (failingTests.length > 0 ? 'reproduce the failing test locally and compare with the assertion above.' : undefined);
}

// ---------------------------------------------------------------------------------------------
// Facts Jenkins prints in the console: the nearest thing to a build fact when the upload holds
// only a log.

let lastSplit: { text: string; lines: string[] } | undefined;

/**
 * The lines of `text`, split once: one question looks up several facts in the same stored log
 * (megabytes), and splitting it for each would cost more than the lookups.
 */
function splitCached(text: string): string[] {
  if (lastSplit?.text !== text) lastSplit = { text, lines: text.split('\n') };
  return lastSplit.lines;
}

/** One line of the log, with its 1-based number. */
export interface LogLine {
  line: number;
  text: string;
}

/** The first line of `span` (from the start, or from the end with `fromEnd`) that `pattern` matches (a RegExp, or a function acting as one). */
export function findLine(span: LogSpan | undefined, pattern: RegExp | ((line: string) => RegExpExecArray | null), opts: { fromEnd?: boolean; from?: number; to?: number } = {}): (LogLine & { match: RegExpExecArray }) | undefined {
  if (!span) return undefined;
  const lines = splitCached(span.text);
  const lo = Math.max(0, (opts.from ?? span.start_line) - span.start_line);
  const hi = Math.min(lines.length - 1, (opts.to ?? span.end_line) - span.start_line);
  for (let k = 0; k <= hi - lo; k++) {
    const i = opts.fromEnd ? hi - k : lo + k;
    const m = typeof pattern === 'function' ? pattern(lines[i] as string) : pattern.exec(lines[i] as string);
    if (m) return { line: span.start_line + i, text: (lines[i] as string).trim(), match: m };
  }
  return undefined;
}

/** Lines `from`..`to` of the stored log span, or undefined when the span does not hold them all. */
export function linesOf(span: LogSpan, from: number, to: number): LogSpan | undefined {
  if (from < span.start_line || to > span.end_line || from > to) return undefined;
  const lines = splitCached(span.text).slice(from - span.start_line, to - span.start_line + 1);
  return { start_line: from, end_line: to, text: lines.join('\n') };
}

const EXIT_CODE = /(?:script returned exit code|exit(?:ed)? (?:with )?(?:code|status)|returned (?:status|exit) code|Process exited with (?:code|status))\s*:?\s*(\d+)/i;

export interface FailingStep {
  command?: LogLine & { command: string };
  stage?: LogLine & { stage: string };
  /** No stage was open at the error and none was skipped: the last stage the log shows starting before it (pipelineText.ts). */
  lastStage?: LogLine & { stage: string };
  /** The parallel branch the failure belongs to (its lines' `[name] ` prefix, or `Failed in branch name`). */
  branch?: LogLine & { branch: string };
  exitCode?: LogLine & { code: number };
  /** The error is inside a parallel block whose branches print at once, unprefixed (`[Pipeline] parallel` at this line): no command is named. */
  interleaved?: number;
  /** A GitHub Actions step's script of several lines (its `Run` header and lines), run untraced: no command is named. */
  untracedScript?: { start_line: number; end_line: number };
}

/**
 * Where the failure at `errorLine` happened: the last command echoed before it, the pipeline
 * stage it was in and its parallel branch (pipelineText.ts), and the exit code Jenkins reported
 * after it.
 */
export function failingStepOf(span: LogSpan, errorLine: number): FailingStep {
  const out: FailingStep = {};
  const lines = splitCached(span.text);
  const place = pipelinePlaceOf(lines, span.start_line, errorLine);
  const own = place.branch?.line === errorLine ? place.branch.name : undefined;
  const branches = new Set(own === undefined ? [] : [own]);
  // The command that ended the step (core/log/failingStep.ts), read without the line's clock and, inside a parallel
  // branch, only among that branch's lines.
  const bodyAt = (i: number): string | undefined => {
    const line = lines[i];
    if (line === undefined) return undefined;
    const body = unstamped(line);
    if (own === undefined) return body;
    return branchOfLine(body, branches) === own ? body.slice(own.length + 3) : undefined;
  };
  const command = failingCommandAbove(Math.min(lines.length - 1, errorLine - span.start_line), bodyAt);
  const block = own === undefined && !command ? interleavedParallelAt(Math.min(lines.length - 1, errorLine - span.start_line), bodyAt) : undefined;
  if (block !== undefined) out.interleaved = span.start_line + block;
  const script = !command && block === undefined ? untracedScriptAbove(Math.min(lines.length - 1, errorLine - span.start_line), bodyAt) : undefined;
  if (script) out.untracedScript = { start_line: span.start_line + script.line, end_line: span.start_line + script.line + script.lines };
  // Jenkins prints a step's `ERROR: script returned exit code N` after the stages closed (ux7): the
  // stage is then the one the failing command ran in.
  let stageOfCommand: ReturnType<typeof pipelinePlaceOf>['stage'];
  if (command) {
    const line = span.start_line + command.line;
    const at = place.afterStages === true ? pipelinePlaceOf(lines, span.start_line, line) : undefined;
    // A command of declarative Pipeline's post actions ran after the failure (cleanup, notices): never the failing one.
    const inPost = place.afterStages === true && at?.stage?.name.startsWith('Declarative: Post') === true;
    if (!inPost) {
      out.command = { line, text: (lines[command.line] as string).trim(), command: command.command };
      stageOfCommand = at?.stage;
    }
  }
  const stage = place.stage ?? stageOfCommand;
  if (stage) out.stage = { line: stage.line, text: (lines[stage.line - span.start_line] ?? '').trim(), stage: stage.name };
  else if (place.lastStage) out.lastStage = { line: place.lastStage.line, text: (lines[place.lastStage.line - span.start_line] ?? '').trim(), stage: place.lastStage.name };
  if (place.branch) out.branch = { line: place.branch.line, text: (lines[place.branch.line - span.start_line] ?? '').trim(), branch: place.branch.name };
  const exit = findLine(span, EXIT_CODE, { from: errorLine }) ?? findLine(span, EXIT_CODE, { fromEnd: true, to: errorLine });
  if (exit) out.exitCode = { line: exit.line, text: exit.text, code: Number(exit.match[1]) };
  return out;
}

/** What common exit codes mean, for a short gloss beside the number. */
export function exitCodeMeaning(code: number): string | undefined {
  switch (code) {
    case 1:
      return 'a general failure reported by the tool itself';
    case 2:
      return 'a misuse or a failure the tool reports as code 2 (make, tsc, bash)';
    case 126:
      return 'the command was found but could not be run (permission or not executable)';
    case 127:
      // The shell's code for a command it could not find, and env's and exec's for a program they could not start: the log's own line says which.
      return 'the command, or the program it starts, was not found';
    case 128:
      return "git's fatal error code";
    case 130:
      return 'interrupted (Ctrl-C / SIGINT)';
    case 137:
      return 'killed (SIGKILL), usually by the out-of-memory killer or a hard timeout';
    case 143:
      return 'terminated (SIGTERM), usually an abort or a timeout';
    default:
      return undefined;
  }
}

const thousands = (n: number): string => n.toLocaleString('en-US');

/**
 * What a big log's context does not hold, as the sentence an answer resting on the log adds
 * (the bounded store, issue 28): "Lines 1,204-2,980,511 of 3,000,000 were not kept: ...".
 */
export function notKeptSentence(notKept: NonNullable<ChatContext['logNotKept']>): string {
  const shown = notKept.ranges.slice(0, 3).map(([a, b]) => (a === b ? thousands(a) : `${thousands(a)}-${thousands(b)}`));
  const more = notKept.ranges.length - shown.length;
  const which = `${shown.join(', ')}${more > 0 ? ` and ${more} more range${more === 1 ? '' : 's'}` : ''}`;
  const mib = (notKept.chars / 1048576).toFixed(notKept.chars >= 10 * 1048576 ? 0 : 1);
  return (
    `Lines ${which} of ${thousands(notKept.totalLines)} were not kept (${thousands(notKept.lines)} lines, ${mib} MiB): ` +
    'this context holds the log\'s first and last parts, the failing steps\' lines and the ranked failure excerpts ' +
    '(limits CONTEXT_LOG_HEAD_MIB / CONTEXT_LOG_TAIL_MIB / CONTEXT_LOG_MIDDLE_MIB), so what those lines said is not in this answer.'
  );
}
