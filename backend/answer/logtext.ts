/**
 * Reading the build log the way the offline engine needs it: the line a person would quote as
 * "the error", the names of failing tests, and Markdown code blocks that survive any log text.
 */
import type { ChatContext } from './engine.js';

/** A piece of the log with its 1-based line numbers. */
export interface LogSpan {
  start_line: number;
  end_line: number;
  text: string;
}

const ERROR_LINE =
  /\b(error|errors|exception|fatal|panic|failed|failure|cannot|can't|could not|couldn't|not found|no such|denied|refused|timed? ?out|undefined|unresolved|segmentation fault|killed|exit(ed)? (with )?(code|status)|non-zero|assert)/i;
const NOISE_LINE = /^\s*(\[(INFO|DEBUG)\]|at\s|\.\.\.|[-=*#_]{3,}\s*$)/;

/**
 * The line of a span that states the error (the first error-looking one), with its number;
 * `isError` is false when no line looks like an error and the first line stands in.
 */
export function headlineOf(span: LogSpan): { line: number; text: string; isError: boolean } {
  const lines = span.text.split('\n');
  let fallback: { line: number; text: string; isError: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as string).trim();
    if (!text) continue;
    const line = span.start_line + i;
    fallback ??= { line, text, isError: false };
    if (ERROR_LINE.test(text) && !NOISE_LINE.test(text)) return { line, text, isError: true };
  }
  return fallback ?? { line: span.start_line, text: '', isError: false };
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

/**
 * A first thing to try for the failure shape `text` shows, or undefined when the shape is not
 * a well-known one. General CI knowledge, phrased as a suggestion, never as a fact about the build.
 */
export function nextStepFor(text: string, failingTests: FailingTest[] = []): string | undefined {
  const test = failingTests[0]?.name;
  if (/OutOfMemoryError|Cannot allocate memory|exit code 137|\bKilled\b|JavaScript heap out of memory/i.test(text)) {
    return 'it looks like memory ran out: give the build more (`MAVEN_OPTS=-Xmx…`, `NODE_OPTIONS=--max-old-space-size=…`, a larger container or agent).';
  }
  if (/No space left on device/i.test(text)) return "the agent's disk is full: clean old workspaces and builds on it, then re-run.";
  if (/command not found|: not found$|is not recognized as an internal or external command/im.test(text)) {
    return 'the agent lacks that tool: install it there, or run the step in a container or `tools {}` block that has it.';
  }
  if (/Permission denied|EACCES/i.test(text)) return 'a permission problem: check file ownership in the workspace and the credentials the step uses.';
  if (/Could not resolve|Could not transfer artifact|UnknownHostException|ETIMEDOUT|ECONNREFUSED|ECONNRESET|Connection refused|Temporary failure in name resolution|ENOTFOUND/i.test(text)) {
    return 'a network or repository problem: check the agent can reach that host; if it is transient, re-run.';
  }
  if (test) {
    if (/\[ERROR\]|surefire|failsafe/.test(text) && /\./.test(test)) {
      const dot = test.lastIndexOf('.');
      const cls = test.slice(0, dot).split('.').pop() ?? test;
      return `reproduce it locally with \`mvn -Dtest=${cls}#${test.slice(dot + 1)} test\`.`;
    }
    if (/::/.test(test) && /FAILED|pytest/i.test(text)) return `reproduce it locally with \`pytest ${test}\`.`;
    if (/^Test\w+$/.test(test)) return `reproduce it locally with \`go test -run '^${test}$' ./...\`.`;
    if (/ > /.test(test)) {
      const [cls, method] = test.split(' > ');
      return `reproduce it locally with \`./gradlew test --tests '${cls}.${method}'\`.`;
    }
    return 'reproduce the failing test locally and compare with the assertion above.';
  }
  if (/cannot find symbol|error\[E\d+\]|error TS\d+|SyntaxError|compilation failed|COMPILATION ERROR|undefined reference/i.test(text)) {
    return 'a compile error: fix the code at the file and line above (usually the most recent change to it).';
  }
  if (/timed? ?out|Timeout/i.test(text)) return 'a timeout: check what the step waits on; raise the timeout only if the work is really that slow.';
  return undefined;
}
