/**
 * Commands a shell script tolerated (round 7 tuning, session 55): under `sh -xe` a script stops at the
 * first command that fails, unless the script says `cmd || true` (or `cmd || :`); the shell then
 * traces `+ true`. What the command printed before that `+ true` (a traceback, `No such image`, a
 * linter's missing config) did not fail the build: the analyzer ranks it as the output of a command
 * that passed.
 */

/** A shell's trace of a command (`+ cmd`, `++ cmd` in a substitution). */
const TRACE = /^\++ \S/;
/** The trace of `true` or `:`, the no-op `|| true` runs. */
const NO_OP = /^\++ (?:true|:)$/;

export interface Tolerance {
  /** The last traced command (0-based), else -1. */
  lastTrace: number;
  /** The lines (0-based, inclusive) of each tolerated command and its output, in order. */
  ranges: [number, number][];
}

/** Notes a command line (`body`, line `at`): a no-op after another traced command's output tolerates that command. */
export function noteTolerated(body: string, at: number, t: Tolerance): void {
  if (!TRACE.test(body)) return;
  if (NO_OP.test(body)) {
    if (t.lastTrace >= 0 && at - t.lastTrace > 1) t.ranges.push([t.lastTrace, at - 1]);
    t.lastTrace = -1;
    return;
  }
  t.lastTrace = at;
}

/** Whether line `i` lies in a tolerated command's lines (`ranges` in order). */
export function tolerated(ranges: readonly (readonly [number, number])[], i: number): boolean {
  for (let k = ranges.length - 1; k >= 0; k--) {
    const [a, b] = ranges[k]!;
    if (i > b) return false;
    if (i >= a) return true;
  }
  return false;
}
