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

/** The line of a span that states the error (the first error-looking one), with its number. */
export function headlineOf(span: LogSpan): { line: number; text: string } {
  const lines = span.text.split('\n');
  let fallback: { line: number; text: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] as string).trim();
    if (!text) continue;
    const line = span.start_line + i;
    fallback ??= { line, text };
    if (ERROR_LINE.test(text) && !NOISE_LINE.test(text)) return { line, text };
  }
  return fallback ?? { line: span.start_line, text: '' };
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
 * The stored log's lines when the context carries the log text itself and its length agrees
 * with the stored log's line count (so line numbers are right); undefined otherwise.
 */
export function fullLogLines(ctx: ChatContext): string[] | undefined {
  const build = ctx.ciContext.buildDetails;
  for (const text of [build?.consoleLog, build?.consoleLogTail]) {
    if (typeof text !== 'string' || text === '') continue;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    if (lines.length === ctx.logLineCount) return lines;
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
