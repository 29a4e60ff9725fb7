/**
 * The failing test's own frame (helper fx2, issue 25 deliverable 3): a test's error placed in the code
 * under test (`src/app.js:3`, raised there) was reached from a line of a test file the same stack names
 * (`test/app.test.js:8`). That line is the other half of the fix (the test's setup, the input it passes,
 * the expectation it states), and the file a runner takes to run the test alone (`node --test FILE`,
 * `npx jest FILE`). Read from the log's stack with the analyzer's frame readers; nothing is guessed.
 */
import type { Finding } from '../../../protocol/types.js';
import { tracesIn } from '../../../core/finding/frames.js';
import type { LogSpan } from '../logtext.js';
import { around } from './remedyShape.js';

/**
 * A test file by its name or directory, in the usual layouts (`test/`, `tests/`, `__tests__/`, `spec/`, `x.test.js`,
 * `test_x.py`, `x_test.go`, `x_test.cc`, `XTest.java`, `x_spec.rb`); fixNamed.ts reads it too (a caller is not a test's frame).
 */
export const TEST_FILE = /(?:^|\/)(?:tests?|__tests__|spec)\/|\.(?:test|spec)\.\w+$|(?:^|\/)test_[^/]+\.py$|_test\.\w+$|Tests?\.(?:java|kt|scala|groovy|cs)$|_spec\.rb$/;

const TEST_CLASSES = new Set(['test-assertion', 'test-error']);

export interface TestFrame {
  /** The test file as the workspace names it (relative when the log's path is under the build's workspace). */
  file: string;
  line: number;
  /** The log line that names the frame. */
  log_line: number;
}

/** The root of the workspace the log's absolute paths are under: the finding's file minus the workspace's name for it. */
function rootOf(logFile: string, workspaceFile: string | undefined): string | undefined {
  if (!workspaceFile || workspaceFile.startsWith('/') || !logFile.startsWith('/')) return undefined;
  return logFile.endsWith(`/${workspaceFile}`) ? logFile.slice(0, -workspaceFile.length - 1) : undefined;
}

/**
 * The innermost test-file frame on the stack that placed a test's error outside the tests, or undefined
 * (no stack, the place is itself a test file, no test frame on it). `workspaceFile` is the finding's file
 * as the workspace names it, used to make the test file's path relative the same way; `known` the workspace
 * paths the context holds (a JVM frame's package path is matched to one).
 */
export function testFrameOf(stored: LogSpan | undefined, f: Finding, workspaceFile?: string, known: readonly string[] = []): TestFrame | undefined {
  const loc = f.location;
  if (!stored || !loc || loc.line === undefined || !TEST_CLASSES.has(f.class) || TEST_FILE.test(loc.file)) return undefined;
  const from = Math.min(loc.log_line, f.message_line);
  const window = around(stored, from, 40, 60);
  if (window.length === 0) return undefined;
  const first = window[0]?.line ?? from;
  const lines = window.map((l) => l.text);
  for (const trace of tracesIn(lines, first)) {
    // The trace that holds the finding's place: the test frame is on that stack, outside (after) the place.
    const same = (a: string, b: string): boolean => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
    const at = trace.frames.findIndex((x) => same(x.file, loc.file) && x.line === loc.line);
    if (at < 0) continue;
    const frame = trace.frames.slice(at + 1).find((x) => !x.library && TEST_FILE.test(x.file) && x.line !== undefined);
    if (!frame || frame.line === undefined) continue;
    const root = rootOf(trace.frames[at]?.file ?? loc.file, workspaceFile);
    const under = root && frame.file.startsWith(`${root}/`) ? frame.file.slice(root.length + 1) : frame.file.replace(/^\.\//, '');
    // A JVM frame names its file by package (`net/x/ATest.java`): the workspace's path for it when it has one.
    const file = known.find((p) => p === under || p.endsWith(`/${under}`)) ?? under;
    return { file, line: frame.line, log_line: frame.log_line };
  }
  return pytestLongFrame(window, loc.log_line, workspaceFile, loc.file);
}

/** pytest's long form names each frame but the last by its place alone (`tests/test_x.py:9: `, the message left empty) over a `_ _ _` rule. */
const PYTEST_ENTRY = /^((?:[A-Za-z]:)?[^\s:()"']+\.py):(\d+):\s*$/;
const PYTEST_RULE = /^(?:_ ){3,}_?\s*$/;
/** What ends a test's report above its frames: its heading (`____ test_x ____`) or a section's (`==== FAILURES ====`). */
const PYTEST_HEADING = /^(?:_{3,} .+ _{3,}|={3,}.*={3,})\s*$/;

/**
 * The test file's frame of pytest's long form (its default `--tb=auto`), which the analyzer's frame readers do not take
 * for a frame (the line is only a place): the innermost one above the raise site (`hooks/deliver.py:9: TypeError`),
 * within the same test's report.
 */
function pytestLongFrame(window: readonly { line: number; text: string }[], raiseLine: number, workspaceFile: string | undefined, logFile: string): TestFrame | undefined {
  const at = window.findIndex((l) => l.line === raiseLine);
  for (let i = at - 1; i >= 0; i--) {
    const text = (window[i]?.text ?? '').trim();
    if (PYTEST_HEADING.test(text)) return undefined;
    const m = PYTEST_ENTRY.exec(text);
    if (!m || !PYTEST_RULE.test(window[i + 1]?.text ?? '') || !TEST_FILE.test(m[1] as string)) continue;
    const root = rootOf(logFile, workspaceFile);
    const file = root && (m[1] as string).startsWith(`${root}/`) ? (m[1] as string).slice(root.length + 1) : (m[1] as string).replace(/^\.\//, '');
    return { file, line: Number(m[2]), log_line: window[i]?.line as number };
  }
  return undefined;
}
