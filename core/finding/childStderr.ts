/**
 * Node's built-in test runner (`node --test`, TAP reporter) runs each test file in a child process and prints what
 * the child wrote to stderr as TAP comment lines (`# ` before each line), above the file's `# Subtest:` and its
 * `not ok N - <file>` (issue 25, session 47, helper nt1; docs/notes/analyzer.md "Session 47 (helper nt1)"). A
 * file that dies before its tests run (an error thrown while loading it, a module the resolver refuses, an
 * assertion at its top level) leaves only `error: 'test failed'` in the verdict's YAML: the cause is Node's own
 * report of the uncaught error in those comment lines, which ends, as Node always ends it, with `Node.js vN.N.N`.
 *
 * `withChildStderr` gives the log with those lines as the child printed them (the `# ` taken off), so the readers
 * of Node's report (its head line `Error [ERR_X]: msg`, its `at` frames: tests.ts, frames.ts) read it as they read
 * the spec reporter's output, which prints the child's stderr bare. Line numbers do not change. Only a block that
 * ends in Node's `# Node.js v...` line is taken: any other TAP comment (Test::More's `#   Failed test`, the
 * runner's `# tests 1` summary) stays as it is. The real outputs: test/fixtures/grammar/node-test-tap-*.log and
 * test/fixtures/ux8/shop-monorepo/fail.log.
 */
import { bodyOf, lineBody } from './body.js';
import { heldIndexes } from '../log/kept.js';

/** The last line Node prints under an uncaught error's report (`Node.js v20.20.2`), as a TAP comment. */
const NODE_VERSION_COMMENT = /^\s*# Node\.js v\d+\.\d+\.\d+\s*$/;
/** A TAP comment line (`# text`, a bare `#`). */
const COMMENT = /^\s*#(?: |$)/;
/** The runner's own comments, which are not the child's output: `# Subtest: name` starts the next file's verdict. */
const RUNNER_COMMENT = /^\s*# Subtest: /;
/** How far above its `Node.js v` line a child's report may begin (a long stack, an error's properties). */
const REPORT_MAX = 120;

const VIEWS = new WeakMap<readonly string[], readonly string[]>();

/** The line without its TAP comment mark (`# `), the CI's marks before it kept. */
function uncommented(raw: string): string {
  const body = bodyOf(raw);
  const at = raw.indexOf(body);
  if (at < 0) return raw;
  const mark = /^\s*# ?/.exec(body)?.[0] ?? '';
  return raw.slice(0, at) + body.slice(mark.length) + raw.slice(at + body.length);
}

/** `lines` with node --test's TAP comments of a child's uncaught-error report un-commented; `lines` itself when there is none. */
export function withChildStderr(lines: readonly string[]): readonly string[] {
  const seen = VIEWS.get(lines);
  if (seen) return seen;
  let view: string[] | undefined;
  // Only the lines the array holds: the analyzer's result for a long log is sparse (kept.ts `sparseArray`), and a
  // loop over every index read ~1 M holes of a dictionary (~25 ms on the LogChunks logs as one stream, issue 28).
  for (const i of heldIndexes(lines, lines.length)) {
    const line = lines[i] ?? '';
    // Cheap first: only a line that mentions Node's version can end a report.
    if (!line.includes('# Node.js v') || !NODE_VERSION_COMMENT.test(bodyOf(line))) continue;
    let start = i;
    while (start > 0 && i - start < REPORT_MAX) {
      const above = lineBody(lines, start - 1);
      if (!COMMENT.test(above) || RUNNER_COMMENT.test(above) || NODE_VERSION_COMMENT.test(above)) break;
      start--;
    }
    view ??= [...lines];
    for (let k = start; k <= i; k++) view[k] = uncommented(lines[k] ?? '');
  }
  const out = view ?? lines;
  VIEWS.set(lines, out);
  VIEWS.set(out, out);
  return out;
}

/** The runner's verdict on a test file: the spec reporter's `✖ /ws/test/x.test.js (12.5ms)`, TAP's `# Subtest: x` or `not ok 1 - x`. */
const FILE_VERDICT = /^(?:✖ \S.*\(\d+(?:\.\d+)?m?s\)|# Subtest: \S.*|not ok \d+ - \S.*)$/;
/** Where a child's report cannot reach above: Jenkins' own lines, another verdict, the TAP header. */
const REPORT_BOUND = /^(?:\[Pipeline\]|[✔✖ℹ▶﹣] |TAP version \d+|# Subtest: |(?:not )?ok \d+\b)/;
/** The head of Node's report: `Error: msg`, `AssertionError [ERR_ASSERTION]: msg`, `Uncaught 'x'` (a thrown non-error). */
const REPORT_HEAD = /^(?:[\w$.]*(?:Error|Exception)\b(?: \[[A-Z_\d]+\])?:|Uncaught\b)/;
/** A frame of Node's stack: `    at f (/ws/src/a.js:2:21)`, `    at /ws/src/a.js:2:21`. */
const NODE_FRAME = /^\s+at (?:.+ \()?\S+:\d+:\d+\)?(?: \{)?$/;

/**
 * An excerpt that starts at node --test's verdict on a file (the spec reporter prints the child's stderr bare, then
 * `✖ <file> (ms)` over `'test failed'`) right under the child's report of an uncaught error (its last line
 * `Node.js vN.N.N`): the excerpt from the report's first line (the head, and the place and source line Node prints
 * over it), so the report's readers see it. Else the excerpt.
 */
export function withChildReport(lines: readonly string[], excerpt: { start_line: number; end_line: number }): { start_line: number; end_line: number } {
  const first = excerpt.start_line - 1;
  const version = first - 1;
  const at = (k: number): string => lineBody(lines, k);
  if (version < 0 || !FILE_VERDICT.test(at(first).trim()) || !/^Node\.js v\d+\.\d+\.\d+$/.test(at(version).trim())) return excerpt;
  let head = version - 1;
  let framed = false;
  while (head > 0 && version - head < REPORT_MAX && !REPORT_HEAD.test(at(head)) && !REPORT_BOUND.test(at(head).trim())) {
    if (NODE_FRAME.test(at(head))) framed = true;
    head--;
  }
  if (!framed || !REPORT_HEAD.test(at(head))) return excerpt;
  // Node's place and source line over the head (`/ws/lib/a.js:3`, the line, its `^`, a blank): up to 4 lines, within the step.
  let start = head;
  while (start > 0 && head - start < 4 && !/^\+ |^\$ /.test(at(start - 1)) && !REPORT_BOUND.test(at(start - 1).trim())) start--;
  return { start_line: start + 1, end_line: excerpt.end_line };
}
