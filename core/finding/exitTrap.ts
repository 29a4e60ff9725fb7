/**
 * A shell's EXIT trap run after the failure (issue 25; docs/notes/analyzer.md, "Round 11 opened (helper t12)"):
 * `trap 'upload; gzip out/report.json' EXIT` runs its commands when `set -e` stops the script, and what they print
 * (`gzip: out/report.json: No such file or directory`) is the failure's aftermath. The cause is the output of the
 * command that failed just before the trap's commands start.
 */

type BodyAt = (i: number) => string;

const TRAP = /^\+ trap (?:'([^']*)'|"([^"]*)") (?:\w+ )*(?:EXIT|ERR)\b/;
const TRACED = /^\+ (\S+)/;
/** How far above the excerpt the trap's declaration is looked for. */
const REACH = 400;

/** The programs a trap's body runs, in order (`echo "x"; gzip -c a > b && ls -l out/` -> echo, gzip, ls). */
function programsOf(body: string): string[] {
  return body
    .split(/;|&&|\|\||\|/)
    .map((part) => /^\s*(?:\w+=\S*\s+)*([^\s'"]+)/.exec(part)?.[1] ?? '')
    .filter(Boolean);
}

/**
 * When line `at` (0-based) lies in the EXIT (or ERR) trap's run after a failure, the window (1-based, inclusive)
 * of the command that failed before it: from the line after that command's trace to the line before the trap's
 * first command. Else undefined.
 */
export function beforeExitTrap(at: number, bodyAt: BodyAt): { start_line: number; end_line: number } | undefined {
  let declared = -1;
  let programs: string[] = [];
  for (let k = at; k >= Math.max(0, at - REACH); k--) {
    const m = TRAP.exec(bodyAt(k).trim());
    if (!m) continue;
    declared = k;
    programs = programsOf(m[1] ?? m[2] ?? '');
    break;
  }
  if (declared < 0 || programs.length === 0) return undefined;
  const traces: number[] = [];
  for (let k = declared + 1; k <= at; k++) if (TRACED.test(bodyAt(k).trim())) traces.push(k);
  const program = (k: number): string => (TRACED.exec(bodyAt(k).trim())?.[1] ?? '').replace(/^.*\//, '');
  const need = Math.min(2, programs.length);
  for (let t = 1; t < traces.length; t++) {
    const run = traces.slice(t, t + need);
    if (run.length < need || !run.every((k, j) => program(k) === (programs[j] as string).replace(/^.*\//, ''))) continue;
    const start = traces[t] as number;
    const failed = traces[t - 1] as number;
    // The failed command printed something, and the excerpt is in the trap's run.
    if (start - failed < 2 || at < start) return undefined;
    return { start_line: failed + 2, end_line: start };
  }
  return undefined;
}
