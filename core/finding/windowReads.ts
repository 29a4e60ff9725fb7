/**
 * What the finding of a window (index.ts `findingIn`) reads of it whichever rule set is active (ablation.ts): its
 * bodies, the assertion, the error raised, the traces, the test it names, whether it is in a test. A finding reads an
 * excerpt's windows once with the families' rules and once on general evidence alone, and reads on from them (the
 * report around, the lines above): on the tuned real failures 46 % of `findingIn`'s windows were one it had read
 * already (docs/notes/analyzer.md "Session 53 (helper sp17)"). So these reads are kept per lines array and window, and
 * only the rules' hits are read per rule set. Every reader here is a function of the lines alone; what is kept is
 * shared, never changed.
 */
import { compiledJvmSources, markUncompiled, traceEndBelow, tracesIn, type Trace } from './frames.js';
import { goVerboseOwn } from './goFar.js';
import { testProgramKilled } from './harness.js';
import { goTestMessage } from './messages.js';
import { assertionIn, raisedIn, testNameIn, TEST_CONTEXT, type Assertion, type Raised, type TestName } from './tests.js';
import { raisedFromTestCode } from './windowReaders.js';
import { bodies, lineBody } from './body.js';

/** The lines findingIn reads before a window (a test runner's heading) and after it (a trace printed below). */
const BEFORE = 40;
const AFTER = 20;

export interface WindowReads {
  /** The first line of `before` (0-based). */
  readonly from: number;
  readonly before: readonly string[];
  readonly body: readonly string[];
  /** before, then body. */
  readonly all: readonly string[];
  /** The BEFORE lines after the window. */
  readonly summary: readonly string[];
  readonly assertion: Assertion | undefined;
  readonly raised: Raised | undefined;
  readonly goFirst: ReturnType<typeof goTestMessage>;
  /** The index of the first Go test message that is its test's own (`--- FAIL:` over it, or -v's own). */
  readonly goAnchor: number | undefined;
  readonly traces: readonly Trace[];
  /** testNameIn(all, at, summary), kept per `at`. */
  named(at: number): TestName | undefined;
  /** Whether the window reads as in a test without a test named: a test's context line, a raise from test code, a test program killed. */
  inTest(): boolean;
}

const KEPT = new WeakMap<readonly string[], Map<string, WindowReads>>();

/** The reads of the window of lines start..end (0-based, inclusive) of `lines`. */
export function windowReads(lines: readonly string[], start: number, end: number): WindowReads {
  let perLines = KEPT.get(lines);
  if (perLines === undefined) KEPT.set(lines, (perLines = new Map()));
  const key = `${start}:${end}`;
  let reads = perLines.get(key);
  if (reads === undefined) perLines.set(key, (reads = readWindow(lines, start, end)));
  return reads;
}

function readWindow(lines: readonly string[], start: number, end: number): WindowReads {
  const from = Math.max(0, start - BEFORE);
  const before = bodies(lines, from, start);
  const body = bodies(lines, start, end + 1);
  const assertion = assertionIn(body);
  // Rust >= 1.73 prints a panic's message under its `thread 'x' panicked at f.rs:l:c:` heading: a window that starts
  // at the message still has the heading just above it.
  const headAbove = before.length > 0 && /panicked at .*:\s*$/.test(before[before.length - 1] as string) ? raisedIn([before[before.length - 1] as string, body[0] ?? '']) : undefined;
  const raised = raisedIn(body) ?? (headAbove?.index === 1 ? { ...headAbove, index: 0 } : undefined);
  const all = [...before, ...body];
  const summary = bodies(lines, end + 1, end + 1 + BEFORE);
  // go test (non -v) prints each `--- FAIL: T` over its own messages, -v under its `=== RUN   T` (goFar.ts): the first message's test is the one named.
  const goFirst = goTestMessage(body);
  const goAnchor = goFirst && (/^\s*--- FAIL: /.test(body[goFirst.index - 1] ?? '') || goVerboseOwn(body, goFirst.index)) ? goFirst.index : undefined;
  // A trace printed below the excerpt (a Go panic's goroutine dump, a message's further lines over its frames) still belongs to it.
  const traceEnd = traceEndBelow((k) => lineBody(lines, k), end, lines.length, AFTER * 3);
  const traces = tracesIn(traceEnd > end ? [...body, ...bodies(lines, end + 1, traceEnd + 1)] : body, start + 1);
  // A JVM frame of a class the log's compiler commands did not build (a vendored jar's) is not the project's own.
  const jvm = traces.find((t) => t.kind === 'jvm');
  if (jvm) markUncompiled(jvm, compiledJvmSources(lines, (k) => lineBody(lines, k), end + 1));
  const names = new Map<number, TestName | undefined>();
  let inTest: boolean | undefined;
  return {
    from,
    before,
    body,
    all,
    summary,
    assertion,
    raised,
    goFirst,
    goAnchor,
    traces,
    named: (at) => {
      if (!names.has(at)) names.set(at, testNameIn(all, at, summary));
      return names.get(at);
    },
    inTest: () => (inTest ??= body.some((l) => TEST_CONTEXT.test(l.trim())) || raisedFromTestCode(body) || testProgramKilled(all, raised === undefined ? undefined : before.length + raised.index)),
  };
}
