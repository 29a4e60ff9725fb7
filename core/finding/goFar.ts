/**
 * A Go (sub)test's verdict whose message is far above it (issue 25; docs/notes/analyzer.md, "Eighth session
 * (helper t10)"): `go test -v` prints `--- FAIL: TestCompare/a_vs_b` only when the parent test ends, while the
 * subtest's own message was printed under its `=== RUN   TestCompare/a_vs_b` line, maybe thousands of lines
 * above (core/log/goTestOutput.ts keeps those lines). When the finding is only the verdict, that message is
 * read: the first `x_test.go:N:` line under the test's `=== RUN` line.
 */
import type { Finding } from '../../protocol/types.js';
import { goTestMessage } from './messages.js';

type BodyAt = (i: number) => string;

/** How far above the verdict the test's `=== RUN` line is looked for (the sparse lines cost nothing where unset). */
const REACH = 200_000;
/** How many lines under `=== RUN` its first message may be. */
const BELOW = 6;

export function withGoTestOutput(found: Finding, lines: readonly (string | undefined)[], bodyAt: BodyAt): Finding {
  if (found.tool !== 'go test' || found.class !== 'test-error' || found.confidence !== 'low') return found;
  if (!/^\s*--- FAIL: \S/.test(found.message)) return found;
  // Sibling subtests' verdicts are listed under their parent's in the order they ran: the first one failed first.
  // Siblings share the verdict's indentation; the parent's verdict above them (less indented) has no message of its own.
  let from = found.message_line - 1;
  const indent = /^\s*/.exec(bodyAt(from))?.[0] ?? '';
  while (from > 0 && bodyAt(from - 1).startsWith(`${indent}--- FAIL: `)) from--;
  const name = (/^\s*--- FAIL: (\S+)/.exec(bodyAt(from)) ?? /^\s*--- FAIL: (\S+)/.exec(found.message))?.[1] as string;
  let header: number | undefined;
  for (let k = from - 1; k >= Math.max(0, from - REACH) && header === undefined; k--) {
    if (lines[k] === undefined || lines[k] === '') continue;
    const t = bodyAt(k).trim();
    if (t === `=== RUN   ${name}` || t === `=== CONT  ${name}`) header = k;
  }
  if (header === undefined) return found;
  const block: string[] = [];
  for (let k = header + 1; k <= Math.min(from - 1, header + BELOW); k++) {
    const t = bodyAt(k);
    if (/^\s*(?:=== (?:RUN|CONT|PAUSE)|--- (?:PASS|FAIL|SKIP):)/.test(t)) break;
    block.push(t);
  }
  const msg = goTestMessage(block);
  if (!msg) return found;
  const at = header + 1 + msg.index;
  const { location: _verdictPlace, ...rest } = found;
  return {
    ...rest,
    ...(found.test ? { test: { name, log_line: from + 1 } } : {}),
    class: msg.assertion ? 'test-assertion' : 'test-error',
    message: bodyAt(at).trim(),
    message_line: at + 1,
    confidence: 'medium',
    ...(msg.expected !== undefined ? { expected: msg.expected } : {}),
    ...(msg.actual !== undefined ? { actual: msg.actual } : {}),
    location: { file: msg.file, line: msg.line, log_line: at + 1 },
    evidence: [at + 1, ...found.evidence.filter((n) => n !== at + 1)].sort((a, b) => (a === at + 1 ? -1 : b === at + 1 ? 1 : a - b)),
  };
}

/** How far above a `go test -v` verdict its test's `=== RUN` line is looked for when a window starts at the verdict. */
const VERBOSE_REACH = 60;

/**
 * A window that starts at `go test -v`'s first verdict (`--- FAIL: TestA`, the excerpt's anchor) has TestA's own
 * message above it, under `=== RUN   TestA` (-v prints a test's output before its verdict), and the next test's
 * below it: read as it was, the window's first `x_test.go:N:` line is the next test's, a later failure (rounds
 * 20/22: mailer_test.go:21 for :11, report_test.go:18 for :11, split_test.go:25 for :18). The window then starts
 * at TestA's `=== RUN` line: the index of that line, or `start` when the window does not start at such a verdict
 * or no message of the test's is between its `=== RUN` line and its verdict.
 */
export function goVerboseStart(start: number, bodyAt: BodyAt): number {
  const name = /^--- FAIL: (\S+) \(/.exec(bodyAt(start).trim())?.[1];
  if (name === undefined) return start;
  const block: string[] = [];
  for (let k = start - 1; k >= Math.max(0, start - VERBOSE_REACH); k--) {
    const t = bodyAt(k);
    if (t.trim() === `=== RUN   ${name}` || t.trim() === `=== CONT  ${name}`) return goTestMessage(block.reverse()) ? k : start;
    if (/^\s*--- (?:PASS|FAIL|SKIP): /.test(t)) return start;
    block.push(t);
  }
  return start;
}

/**
 * Whether the message at `at` is under `=== RUN   T` (or `=== CONT  T`) whose verdict is the first `--- FAIL:` below
 * it: `go test -v`'s output of T, named by that verdict. (A subtest's message under `=== CONT  T/sub` is followed by
 * its parent's verdict first: no.)
 */
export function goVerboseOwn(body: readonly string[], at: number): boolean {
  const name = /^=== (?:RUN {3}|CONT {2})(\S+)$/.exec((body[at - 1] ?? '').trim())?.[1];
  if (name === undefined) return false;
  for (let k = at + 1; k < body.length; k++) {
    const m = /^--- FAIL: (\S+) \(/.exec((body[k] ?? '').trim());
    if (m) return m[1] === name;
  }
  return false;
}
