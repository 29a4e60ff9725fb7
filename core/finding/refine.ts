/**
 * What a finding gains from the step it is in (issue 25, round 4 tuning): the command that ran
 * and the step's own output since it. General evidence for tools no rule knows, applied after
 * findingOf (index.ts):
 * - a compiler-shaped diagnostic (`file:line:col: error: ...`) under a linter's command is lint
 *   (cppcheck, clang-tidy print the compiler's form);
 * - a test runner's failure heading that carries the place (`Failure (test-x.R:6): name`, `Test
 *   Failed at f.jl:5`): the check under it is the message;
 * - a failed test with no place: the first project frame under its `stacktrace:` header;
 * - a formatter's unified diff under a linter's or formatter's command (`shfmt -d`): lint, at the
 *   first changed line;
 * - a tool saying a path the script gave it is not there (`tar: site: Cannot stat: No such file or
 *   directory`, unzip's `filename not matched`): the script's error, ci-script;
 * - a task runner's JSON failure (`fatal: [host]: FAILED! => {... "msg": ...}`): its `msg`.
 * Nothing here claims a class the log does not state.
 */
import type { Finding, FindingLocation } from '../../protocol/types.js';
import { ERRORISH, lastCommandIn, locatedIn, STEP_START, type Command } from './generic.js';
import { goCompilerSaid } from './goLinters.js';

type Window = { start_line: number; end_line: number };

/** How far above the excerpt's end the step's command is looked for. */
const REACH = 150;
const LIBRARY = /(?:^|\/)(?:vendor|node_modules|site-packages|dist-packages|gems|deps|_build|\.cargo|pkg\/mod)\/|^\(/;

/** The step's command above 0-based line `from` (inclusive) and its index. */
function stepCommand(bodyAt: (i: number) => string, from: number): { index: number; command: Command } | undefined {
  for (let i = from; i >= Math.max(0, from - REACH); i--) {
    const t = bodyAt(i).trim();
    // A diff's `+++ file` header under its `--- file` is not sh -x's nested trace.
    if (!STEP_START.test(t) || (/^\+\+\+ /.test(t) && /^--- /.test(bodyAt(i - 1)))) continue;
    const command = lastCommandIn([t]);
    if (command) return { index: i, command };
  }
  return undefined;
}

const at = (found: Finding, index: number, message: string, extra: Partial<Finding>): Finding => {
  const { location: _l, test: _t, ...rest } = found;
  return { ...rest, message: message.trim(), message_line: index + 1, evidence: [index + 1], confidence: 'medium', ...extra };
};
const place = (file: string, line: number, index: number, column?: number): FindingLocation => ({ file, line, ...(column ? { column } : {}), log_line: index + 1 });

/** A runner's failure heading with its place: testthat's `Failure ('test-x.R:6'): name`, `── Error (test-x.R:6:3): name ──`, Julia's `Test Failed at /ws/test/x.jl:5`. */
const TEST_HEADING = /^(?:[─═━-]+\s*)?(?:\d+\.\s+)?(Failure|Failed|FAIL|Error|ERROR)\s*\(['"]?((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z]\w{0,7}):(\d+)(?::\d+)?['"]?\):\s*(.+?)(?:\s*[─═━-]+)?$|^Test (Failed|Errored) at ((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z]\w{0,7}):(\d+)$/;
/** A tool saying a path it was given is missing: `tar: site: Cannot stat: No such file or directory`, `cp: cannot stat 'x': ...`, unzip's `caution: filename not matched:  x`. */
const MISSING_PATH = /^(?:[\w.+-]+: )?(?:(\S+?): (?:Cannot (?:stat|open)|Not found in archive)(?:: No such file or directory)?|cannot (?:stat|access|open) ['‘"]?([^'’"]+?)['’"]?: No such file or directory|(?:caution: )?filename not matched:\s+(\S+)|cannot find or open (\S+?),?(?: \S+)*?)$/;

/** A failed assertion at a place: `tb/adder_tb.vhd:18:5:@10ns:(assertion error): msg`, `t/x_test.c:12: assertion failed: msg`. */
const ASSERTION_AT = /^((?:[A-Za-z]:)?[\w.~@+\\/-]*\.[A-Za-z]\w{0,7}):(\d+)(?::(\d+))?:.{0,40}?\(?\b(?:assertion (?:error|failure|failed)|assert(?:ion)? failed)\)?:?\s*(.*)$/i;
/** Test code: a test directory, a testbench, a test file's name. */
const TEST_FILE = /(?:^|\/)(?:tb|tests?|spec|testbench)\/|(?:_tb|_test|_spec|Tests?)\.\w+$|(?:^|\/)test_[^/]+$/;

export function refined(found: Finding, lines: readonly string[], excerpt: Window, bodyAt: (i: number) => string): Finding {
  const last = Math.min(lines.length, excerpt.end_line) - 1;
  const step = stepCommand(bodyAt, last);
  const kind = step?.command.kind;
  // A linter printing the compiler's form (`file:line: error: x`, or a whole file's `file: error: x`).
  const fileLevel = /^[^\s:]+\.\w{1,12}: (?:error|warning): /.test(found.message);
  const typeCheck = goCompilerSaid(step?.command.program, found.message);
  if (found.class === 'compile-error' && kind === 'lint' && step && !typeCheck && (found.location !== undefined || fileLevel) && found.message_line - 1 > step.index) return { ...found, class: 'lint', tool: step.command.program };
  // A compile error or lint finding no rule named the tool of: the step's program printed it (esbuild, rollup).
  if ((found.class === 'compile-error' || found.class === 'lint') && !found.tool && step && found.message_line - 1 > step.index && step.command.kind) return { ...found, tool: step.command.program };
  // An assertion that failed at a place in test code (a testbench's `tb/x_tb.vhd:18:5:@10ns:(assertion error): msg`)
  // is a test's assertion, whatever the simulator or runtime says after it.
  if ((found.class === 'runtime-exception' && found.confidence !== 'high') || found.class === 'unknown') {
    for (let i = excerpt.start_line - 1; i <= Math.min(last, found.message_line - 1); i++) {
      const m = ASSERTION_AT.exec(bodyAt(i).trim());
      if (!m || !TEST_FILE.test(m[1] as string)) continue;
      return at(found, i, m[4] || bodyAt(i), { class: 'test-assertion', location: place(m[1] as string, Number(m[2]), i, m[3] ? Number(m[3]) : undefined), ...(step ? { tool: step.command.program } : {}) });
    }
  }
  const weak = found.class === 'unknown' || (found.class === 'test-error' && found.confidence === 'low');
  if (weak) {
    for (let i = excerpt.start_line - 1; i <= last; i++) {
      const m = TEST_HEADING.exec(bodyAt(i).trim());
      if (!m) continue;
      let k = i + 1;
      while (k <= Math.min(lines.length - 1, i + 3) && bodyAt(k).trim() === '') k++;
      // testthat 3 prints an error's condition classes first (`<subscriptOutOfBoundsError/error/condition>`): the words are below.
      if (/^<[\w.]+(?:\/[\w.]+)+>$/.test(bodyAt(k).trim()) && bodyAt(k + 1).trim() !== '') k++;
      const verdict = m[1] ?? m[5];
      const message = m[5] !== undefined ? bodyAt(i).trim() : bodyAt(k).trim();
      const file = (m[2] ?? m[6]) as string;
      return at(found, m[5] !== undefined ? i : k, message || bodyAt(i).trim(), {
        class: /^(?:Error|ERROR|Errored)$/.test(verdict ?? '') ? 'test-error' : 'test-assertion',
        location: place(file, Number(m[3] ?? m[7]), i),
        ...(m[4] ? { test: { name: m[4], log_line: i + 1 } } : {}),
        ...(kind === 'test' || !step ? {} : { tool: step.command.program }),
      });
    }
  }
  // A failed test with no place: the first project frame under its `stacktrace:` header.
  if ((found.class === 'test-assertion' || found.class === 'test-error') && !found.location) {
    const from = found.message_line - 1;
    for (let i = from + 1; i < Math.min(lines.length, from + 20); i++) {
      if (!/^\s*(?:stacktrace|Stacktrace|Backtrace|backtrace|Stack ?trace):\s*$/.test(bodyAt(i))) continue;
      for (let k = i + 1; k < Math.min(lines.length, i + 12) && /^\s+\S/.test(bodyAt(k)); k++) {
        const loc = locatedIn(bodyAt(k).trim());
        if (loc && !LIBRARY.test(loc.file)) return { ...found, location: place(loc.file, loc.line, k, loc.column) };
      }
      break;
    }
  }
  if (found.class !== 'unknown' || !step) return found;
  const out: number[] = [];
  for (let i = step.index + 1; i <= last && out.length < 200; i++) out.push(i);
  // A formatter's diff (`--- f.orig` / `+++ f` / `@@ -2,8 +2,8 @@`) under a linter's or formatter's command.
  if (kind === 'lint') {
    for (const i of out) {
      if (!/^--- \S/.test(bodyAt(i)) || !/^\+\+\+ \S/.test(bodyAt(i + 1))) continue;
      const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(bodyAt(i + 2));
      if (!hunk) continue;
      const file = (/^\+\+\+ (\S+)/.exec(bodyAt(i + 1))?.[1] as string).replace(/^b\//, '').replace(/:(?:before|after)$/, '');
      const line = firstChange(bodyAt, i + 3, Math.min(lines.length - 1, i + 200), Number(hunk[1]));
      // The formatter's own verdict on that file just above its diff (isort's `ERROR: /x/f.py Imports
      // are incorrectly sorted`) says more than the diff's header.
      const verdict = i - 1 > step.index && ERRORISH.test(bodyAt(i - 1)) && bodyAt(i - 1).includes(file.replace(/^.*\//, '')) ? i - 1 : i;
      return at(found, verdict, bodyAt(verdict), { class: 'lint', tool: step.command.program, location: place(file, line, i + 2) });
    }
  }
  // A path the script gave a tool is not there.
  if (kind !== 'compile' && kind !== 'test') {
    const args = step.command.text.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, '').replace(/\/$/, ''));
    for (const i of out) {
      const m = MISSING_PATH.exec(bodyAt(i).trim());
      const path = m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').replace(/\/$/, '') : '';
      if (path && args.includes(path)) return at(found, i, bodyAt(i), { class: 'ci-script', tool: step.command.program });
    }
  }
  // A task runner's JSON failure: `fatal: [localhost]: FAILED! => {` ... `"msg": "..."` ... `}`.
  for (const i of out) {
    const head = /^fatal: \[[^\]]+\]: (FAILED|UNREACHABLE)! => \{$/.exec(bodyAt(i).trim());
    if (!head) continue;
    let msg: number | undefined;
    let assertion = false;
    for (let k = i + 1; k <= Math.min(last, i + 60) && !/^\}/.test(bodyAt(k)); k++) {
      if (/^\s*"msg": "/.test(bodyAt(k))) msg = k;
      if (/^\s*"(?:assertion|failed_when_result)": /.test(bodyAt(k))) assertion = true;
    }
    if (msg === undefined) break;
    const text = (/"msg": "(.*)",?$/.exec(bodyAt(msg).trim())?.[1] ?? '').replace(/\\"/g, '"');
    return at(found, msg, text, { class: head[1] === 'UNREACHABLE' ? 'network' : assertion ? 'ci-script' : 'unknown', tool: step.command.program, ...(head[1] === 'UNREACHABLE' || assertion ? {} : { confidence: 'low' }) });
  }
  return found;
}

/**
 * The line of the file as it is that a hunk (from 0-based `from`, its first line numbered `start`)
 * first changes: its first removed line; a hunk that only inserts, the line before which it does.
 * Context lines (a blank one is a lone space the log trimmed) and removed lines count; added ones do not.
 */
function firstChange(bodyAt: (i: number) => string, from: number, last: number, start: number): number {
  let line = start;
  let inserted: number | undefined;
  for (let k = from; k <= last; k++) {
    const t = bodyAt(k);
    if (/^-(?!--)/.test(t)) return line;
    if (/^\+(?!\+\+)/.test(t)) inserted ??= line;
    else if (/^(?: |$)/.test(t)) line++;
    else break;
  }
  return inserted ?? line;
}
