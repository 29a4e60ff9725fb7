/**
 * Whether a fail.log prints a labelled place (test/fixtures/realfail/README.md, `location`: "the file:line(:col)
 * the tool names ...; `null` where the log names no source line"). Lenient on purpose: it asks only that the
 * log put the file and the line together, in one of three shapes a tool prints them:
 * - one line holds the file's basename and the line number as its own number token (`ci.sh: line 12:`,
 *   `File ".../x.py", line 5`, `x.go:12:3`, `(Foo.java:12)`, `x.rb:7:in`);
 * - a line names the file and a line below it in the same block (before a blank line) starts with the position
 *   (`  12:3  error ...` under eslint's, stylelint's, yamllint's or html-validate's file heading; rubocop's
 *   `W: 25: 32:` under `== x.rb ==`; htmlhint's `L18 |`) or holds `line N` (tidy's `line 14 column 1` under
 *   `+ tidy x.html`; Maven's `@ line 13, column 19` under `The project ... (/.../pom.xml) has 2 errors`);
 * - Maven's model problem `@ line N, column M` names the POM's line (pom.xml) even where no path is printed;
 * - a unified diff of the file (`--- x` / `+++ x`) has a hunk whose old or new range holds the line
 *   (gofmt -d, isort --diff, terraform fmt -diff, shfmt -d, diff -u of a golden file).
 * A runner's timestamp prefix (GitHub's `2026-11-29T01:59:19.0021060Z `, Jenkins' Timestamper `[2026-11-29T01:59:19.002Z] `
 * and `12:00:01 `) and ANSI colour codes are taken off first, so a date's `25` is no line 25; the basename counts only
 * at a name's start (`vat.R` is not in testthat's `'test-vat.R:5' [success]`). A heading's block runs to its blank line
 * (a long eslint block too), a diff's hunks to the next file's header (a later hunk too): BLOCK only bounds the work.
 * Used by test/realfail-data.test.ts on every case and by the relabel of session 51 (docs/notes/analyzer.md).
 */

/** The timestamp forms core/finding/body.ts takes off a line (kept here: a data check must not move with the analyzer). */
const TIMESTAMP = /^(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?|\[\d{4}-\d\d-\d\dT[\d:.]+Z?\]\s*|\[?\d\d:\d\d:\d\d(?:\.\d+)?\]?\s+(?=\S))/;
const ANSI = /\u001b\[[0-9;]*m/g;
/** How far below a file's name its block or diff is read: past any eslint block or diff a case prints. */
const BLOCK = 20000;

const plain = (log: string): string[] => log.split('\n').map((l) => l.replace(TIMESTAMP, '').replace(ANSI, '').replace(/\r$/, ''));

/** Whether `log` prints `file` (its basename) with `line` in one of the shapes above. */
export function printsPlace(log: string, file: string, line: number): boolean {
  const base = file.replace(/^.*\//, '');
  const named = new RegExp(`(?<![\\w.-])${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const own = new RegExp(`(?<![0-9])${line}(?![0-9])`);
  const heading = new RegExp(`^\\s*(?:[A-Z]:\\s*)?(?:${line}:\\s*\\d+|(?:line\\s+|L)${line}(?![0-9]))|\\bline\\s+${line}(?![0-9])`);
  // Maven's model problems (`... @ line 16, column 19`) are the POM's, whether or not the POM's path is printed.
  const pom = base === 'pom.xml' ? new RegExp(`@ line ${line}, column \\d+`) : null;
  const lines = plain(log);
  // A block below an earlier naming line was read to here already (a stack's frames name the file line after line).
  let readTo = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (pom?.test(l)) return true;
    if (!l.includes(base) || !named.test(l)) continue;
    if (own.test(l)) return true;
    const diffHead = /^(?:---|\+\+\+) /.test(l);
    if (!diffHead && i < readTo) continue;
    let j = i + 1;
    for (; j < Math.min(lines.length, i + 1 + BLOCK); j++) {
      const next = lines[j]!;
      if (diffHead) {
        if (/^(?:diff |--- )/.test(next)) break;
        const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(next);
        if (hunk) {
          const within = (start: string, count: string | undefined) => line >= Number(start) && line < Number(start) + Number(count ?? 1);
          if (within(hunk[1]!, hunk[2]) || within(hunk[3]!, hunk[4])) return true;
        }
        continue;
      }
      if (next.trim() === '') break;
      if (heading.test(next)) return true;
    }
    if (!diffHead && (j >= lines.length || lines[j]!.trim() === '')) readTo = j;
  }
  return false;
}
