/**
 * Back from an excerpt the analyzer chose on a runner's summary (gtest's `[  FAILED  ] 1 test,
 * listed below:`, meson's `Summary of Failures:`, EUnit's `Failed: 1.`) or an exit line, to the
 * tool's own error line above it in the same step: the first line a finding rule matches between
 * the step's command (`+ cmd`, `$ cmd`) and the excerpt.
 */

/** How far above the excerpt the step's output is read. */
const REACH = 80;

/**
 * The 0-based index of the first line above the excerpt (up to the step's command) that
 * `isRuleLine` accepts, or undefined. `first` is the excerpt's first line, 0-based.
 */
export function ruleLineAbove(lines: readonly string[], first: number, bodyOf: (l: string) => string, isRuleLine: (k: number) => boolean, acrossCommands = false, reach = REACH): number | undefined {
  let top: number | undefined;
  for (let k = first - 1; k >= Math.max(0, first - reach); k--) {
    const t = bodyOf(lines[k] ?? '').trim();
    // `bash -x` traces an assignment from a command substitution (`+ name=`) after the substitution ran: its
    // commands (`++ cmd`, one `+` deeper) and their errors are above it, in the same step.
    if (/^\+ [A-Za-z_]\w*=\S*$/.test(t) && substitutionAbove(lines, k, bodyOf)) continue;
    // A script's own `exit 1` ends its check: what the check printed is above, between its commands.
    if (/^(?:\+ |\$ )/.test(t) && !(acrossCommands && !/^\+ (?:set|bash|sh|cd|export)\b/.test(t) && top === undefined)) break;
    if (isRuleLine(k)) top = k;
  }
  return top;
}

/** Whether the traced commands of a command substitution (`++ cmd`) are between line `at` and the step's command above it. */
function substitutionAbove(lines: readonly string[], at: number, bodyOf: (l: string) => string): boolean {
  for (let j = at - 1; j >= Math.max(0, at - REACH); j--) {
    const u = bodyOf(lines[j] ?? '').trim();
    if (/^\+\+ \S/.test(u)) return true;
    if (/^(?:\+ |\$ )/.test(u)) return false;
  }
  return false;
}

/**
 * A formatter's diff below its verdict (`gofmt -d`: `diff x.go.orig x.go` over `@@ -7,8 +7,8 @@`):
 * the file and the first hunk's line in the committed file (the `.orig` side).
 */
export function diffPlace(body: readonly string[], from: number): { file: string; line: number; index: number } | undefined {
  for (let k = from + 1; k < Math.min(body.length, from + 20); k++) {
    const d = /^diff (?:-\S+ )*(\S+)\.orig (\S+)$/.exec((body[k] ?? '').trim());
    if (!d || d[1] !== d[2]) continue;
    for (let j = k + 1; j < Math.min(body.length, k + 4); j++) {
      const h = /^@@ -(\d+)(?:,\d+)? \+\d+/.exec((body[j] ?? '').trim());
      if (h) return { file: d[1] as string, line: Number(h[1]), index: j };
    }
  }
  return undefined;
}

/**
 * A compiler's word on a place printed just above its error at that same place (Perl's `elseif
 * should be elsif at F line 12.` over `syntax error at F line 12, near ") {"`): the 0-based index of
 * the first of those lines, or undefined. Only lines right above, naming the same file and line,
 * and not a warning or a note.
 */
export function samePlaceAbove(lines: readonly string[], messageIndex: number, place: { file: string; line: number }, placeOf: (text: string) => { file: string; line: number; message: string; level?: string } | undefined, bodyOf: (l: string) => string): number | undefined {
  let top: number | undefined;
  for (let k = messageIndex - 1; k >= Math.max(0, messageIndex - 3); k--) {
    const loc = placeOf(bodyOf(lines[k] ?? ''));
    if (!loc || loc.file !== place.file || loc.line !== place.line || loc.message === '' || (loc.level !== undefined && loc.level !== 'error' && loc.level !== 'fatal error')) break;
    top = k;
  }
  return top;
}

/**
 * Down from output that establishes nothing (rspec's `Finished in 14.81 seconds`, printed as
 * `timeout` killed it) to the step's own ending, when that says how the step ended (`script
 * returned exit code 124`: its time limit; 137: killed; make's `Terminated`): the 0-based index of that line, or
 * undefined. Never past the next command the step runs, nor more than 20 lines.
 */
export function endingBelow(lines: readonly string[], from: number, bodyOf: (l: string) => string, isClassedExit: (k: number) => boolean): number | undefined {
  for (let k = from; k < Math.min(lines.length, from + 20); k++) {
    const t = bodyOf(lines[k] ?? '').trim();
    if (/^(?:\+ |\$ )/.test(t)) return undefined;
    if (/exit (?:code|status) \d+|returned \d+/i.test(t)) return isClassedExit(k) ? k : undefined;
    // The parent's word that the program was stopped (make's `*** [Makefile:8: check] Terminated`).
    if (isClassedExit(k)) return k;
  }
  return undefined;
}
