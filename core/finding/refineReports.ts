/**
 * What a finding gains from the lines around it (issue 25, round 4's open cases, helper fix4a),
 * applied after refine.ts. General evidence, each for shapes several tools share:
 * - a lint verdict with no place (`ESLint found too many warnings (maximum: 0).`): the first
 *   finding of the stylish report above it (`  2:3  warning  message  rule` under its file);
 * - a test runner's YAML diagnostics (TAP 13, `node --test`: `failureType`, `error`, `location`,
 *   `stack`): the error is the message, a timeout's failure type is a timeout, the place is the
 *   first project frame of the stack, else the test's `location`;
 * - an exception the test runner caught outside any test (`This error originated in "x.test.js"
 *   test file`, an uncaught error under a test command) is the tests' error, not a program's;
 * - a failed test with no place: the test's first place in its own section of the report that is
 *   not a library's (pytest's `tests/test_x.py:8: ` over a library's frames).
 */
import type { Finding, FindingLocation } from '../../protocol/types.js';
import { lastCommandIn, locatedIn, STEP_START } from './generic.js';
import { heldIndexes } from '../log/kept.js';
import { OVER_WARNING_LIMIT } from './families/qualityGates.js';

type Window = { start_line: number; end_line: number };

const LIBRARY = /(?:^|\/)(?:vendor|node_modules|site-packages|dist-packages|gems|deps|_build|\.cargo|pkg\/mod|lib\/python[\d.]*)\/|^\(|^node:|^internal\//;
const place = (file: string, line: number, index: number, column?: number): FindingLocation => ({ file, line, ...(column ? { column } : {}), log_line: index + 1 });
/** A stylish report's finding: `  2:3  warning  Unexpected console statement  no-console`. */
const STYLISH = /^\s+(\d+):(\d+)\s+(?:error|warning|✖|⚠)\s+\S/;
/** A YAML diagnostic key of a TAP reporter: `  failureType: 'hookFailed'`, `  error: 'msg'`. */
const YAML_KEY = /^\s+(failureType|error|message|location|at|stack|exitCode):\s*(.*)$/;

/** The step's command (sh -x's `+ cmd`) above 0-based line `from`: its index. */
function commandAbove(bodyAt: (i: number) => string, from: number, reach = 200): { index: number; kind?: string } | undefined {
  for (let i = from; i >= Math.max(0, from - reach); i--) {
    const t = bodyAt(i).trim();
    if (!STEP_START.test(t) || /^\+\+\+ /.test(t)) continue;
    const command = lastCommandIn([t]);
    if (command) return { index: i, ...(command.kind ? { kind: command.kind } : {}) };
  }
  return undefined;
}

/** A quoted YAML scalar's text. */
const unquote = (v: string): string => v.trim().replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1').replace(/''/g, "'");

export function refinedByReports(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  const out = refinedOnce(found, lines, excerpt, bodyAt);
  return out.location ? { ...out, location: { ...out.location, file: namedPath(out.location.file, lines, out.message_line - 1, bodyAt) } } : out;
}

/**
 * A place read off a JVM frame is the package's path (`app/Main.kt` from `at app.MainKt.f(Main.kt:5)`),
 * not always the file's: when the path appears nowhere in the log and a command the build ran named
 * a file of the same name (`+ kotlinc src/Main.kt ...`), that file is the one.
 */
function namedPath(file: string, lines: readonly string[], upTo: number, bodyAt: (i: number) => string): string {
  const base = file.split('/').pop() ?? file;
  if (base === file || !/\.(?:kt|kts|java|scala|groovy)$/.test(base)) return file;
  const named: string[] = [];
  // A line the array does not hold reads as blank: neither names the file.
  for (const i of heldIndexes(lines, Math.max(0, upTo) + 1)) {
    const t = bodyAt(i);
    if (t.includes(file)) return file;
    if (!t.includes(base) || !/^\s*(?:\+ |\$ )/.test(t)) continue;
    for (const w of t.trim().split(/\s+/)) if (w.endsWith(`/${base}`) && !w.startsWith('-')) named.push(w.replace(/^\.\//, ''));
  }
  return named.length > 0 && named.every((w) => w === named[0]) ? (named[0] as string) : file;
}

function refinedOnce(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  const last = Math.min(lines.length, excerpt.end_line) - 1;
  const msg = found.message_line - 1;
  // Output with no verdict, and the linter's verdict just below it (eslint's `too many warnings`
  // after its stylish report, a line the log analyzer does not take as a failure): that verdict.
  if (found.class === 'unknown') {
    for (let i = last + 1; i < Math.min(lines.length, last + 8); i++) {
      const t = bodyAt(i).trim();
      if (/^(?:\[Pipeline\]|ERROR: script returned|##\[error\]|Build step |Finished: |\+ |\$ )/.test(t)) break;
      if (!OVER_WARNING_LIMIT.test(t)) continue;
      const { location: _l, test: _t, ...rest } = found;
      return refinedByReports({ ...rest, class: 'lint', confidence: 'medium', message: t, message_line: i + 1, evidence: [i + 1] }, lines, { start_line: i + 1, end_line: i + 1 }, bodyAt);
    }
  }
  // A lint verdict with no place: the stylish report's first finding above it, under its file.
  if (found.class === 'lint' && !found.location && msg >= 0) {
    const cmd = commandAbove(bodyAt, msg);
    let first: FindingLocation | undefined;
    for (let i = msg - 1; i > (cmd?.index ?? msg - 60) && i >= 0; i--) {
      const m = STYLISH.exec(bodyAt(i));
      if (!m) continue;
      let k = i - 1;
      while (k >= 0 && STYLISH.test(bodyAt(k))) k--;
      const heading = bodyAt(k).trim();
      if (/^\S+\.\w{1,8}$/.test(heading)) first = place(heading, Number(m[1]), i, Number(m[2]));
    }
    if (first) return { ...found, location: first };
  }
  // A TAP reporter's YAML block in the excerpt.
  if (/^(?:unknown|test-error|test-assertion|timeout-aborted)$/.test(found.class)) {
    const keys = new Map<string, { value: string; index: number }>();
    const frames: number[] = [];
    for (let i = Math.max(0, excerpt.start_line - 1); i <= last; i++) {
      const t = bodyAt(i);
      const m = YAML_KEY.exec(t);
      if (m && !keys.has(m[1] as string)) keys.set(m[1] as string, { value: m[2] as string, index: i });
      if (keys.has('stack') && i > (keys.get('stack')?.index ?? 0) && /^\s{3,}\S/.test(t)) frames.push(i);
      if (/^\s+\.\.\.$/.test(t) && keys.has('failureType')) break;
    }
    const failure = keys.get('failureType');
    const error = keys.get('error') ?? keys.get('message');
    // node --test's verdict on a file whose child process died (`error: 'test failed'` with its `exitCode`) says only
    // that: the child's own report of the error above it (its stderr, childStderr.ts), read already, says why.
    const childDied = error && unquote(error.value) === 'test failed' && keys.has('exitCode');
    if (childDied && found.exception !== undefined && found.class !== 'unknown' && msg >= 0 && msg < error.index) return found;
    if (failure && error && unquote(error.value) && !/^[|>]-?$/.test(error.value.trim())) {
      const type = unquote(failure.value);
      const cls = /[Tt]imeout/.test(type) ? 'timeout-aborted' : found.class === 'unknown' ? 'test-error' : found.class;
      let where: FindingLocation | undefined;
      for (const k of frames) {
        // A frame: `createApp (file:///ws/src/app.js:3:11)`, `at f (src/x.js:3:11)`, `src/x.js:3:11`.
        const fr = /(?:^|\(|\s)(?:file:\/\/)?((?:[A-Za-z]:)?[^\s():]+\.\w+):(\d+):(\d+)\)?$/.exec(bodyAt(k).trim());
        if (fr && !LIBRARY.test(fr[1] as string)) {
          where = place(fr[1] as string, Number(fr[2]), k, Number(fr[3]));
          break;
        }
      }
      const at = keys.get('location') ?? keys.get('at');
      const loc = at ? locatedIn(unquote(at.value).replace(/file:\/\//, '')) : undefined;
      if (!where && loc && at) where = place(loc.file, loc.line, at.index, loc.column);
      const { location: _l, ...rest } = found;
      return { ...rest, class: cls, message: unquote(error.value), message_line: error.index + 1, evidence: [error.index + 1, failure.index + 1], ...((where ?? found.location) ? { location: where ?? found.location } : {}) };
    }
  }
  // An error the test runner caught outside a test, or raised under a test command.
  if (found.class === 'runtime-exception' && msg >= 0) {
    let originated = false;
    for (let i = msg + 1; i < Math.min(lines.length, msg + 30); i++) if (/^This error originated in "[^"]+" test file\b/.test(bodyAt(i).trim())) originated = true;
    if (originated) return { ...found, class: 'test-error' };
  }
  // A failed test (or a test's timeout) with no place: pytest's `tests/test_x.py:8: ` in its section.
  if (/^(?:test-error|test-assertion|timeout-aborted)$/.test(found.class) && !found.location && found.test && msg >= 0) {
    for (let i = Math.max(0, Math.min(found.test.log_line, excerpt.start_line) - 1); i < msg; i++) {
      const m = /^((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z]\w{0,7}):(\d+):(?: \w+)?$/.exec(bodyAt(i).trim());
      if (m && !LIBRARY.test(m[1] as string) && !m[1]?.startsWith('/')) return { ...found, location: place(m[1] as string, Number(m[2]), i) };
    }
  }
  return found;
}
