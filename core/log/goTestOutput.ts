/**
 * Go test output far above its verdict (issue 25; docs/notes/analyzer.md, "Eighth session (helper t10)").
 * `go test -v` prints a (sub)test's messages (`    semver_test.go:46: Compare(a, b) = 1, want -1`) under
 * its `=== RUN   T/sub` line, and the `--- FAIL: T/sub` verdicts only when the parent test ends: with a
 * table of many subtests the message can be thousands of lines above the verdict, past what the analyzer
 * keeps around an excerpt. These lines, and the `=== RUN` line just above each, are kept here so that the
 * finding can read them (core/finding/goFar.ts); at most MAX lines, the first ones.
 */

/** How many lines are kept at most (a verbose suite logging with t.Log on every subtest stays bounded). */
const MAX = 4000;
/** A Go test's own message: indented by the testing package (4 spaces a level), after an optional CI timestamp. */
const OUTPUT = /^(?:\d{4}-\d\d-\d\dT[\d:.]+Z )?\s{4,}[\w./-]+_test\.go:\d+: \S/;
const HEADER = /=== (?:RUN|CONT) +\S/;

export class GoTestOutput {
  private readonly kept = new Map<number, string>();

  /** Line i (0-based) was pushed with `text`; `previous` reads line i-1 (still in the analyzer's window). */
  note(i: number, text: string, previous: () => string): void {
    if (this.kept.size >= MAX || !text.includes('_test.go:') || !OUTPUT.test(text)) return;
    this.kept.set(i, text);
    if (i > 0 && !this.kept.has(i - 1)) {
      const above = previous();
      if (HEADER.test(above)) this.kept.set(i - 1, above);
    }
  }

  /** Sets the kept lines into the finding's sparse `lines` where nothing else set them. */
  fill(lines: (string | undefined)[]): void {
    for (const [i, text] of this.kept) if (lines[i] === undefined) lines[i] = text;
  }
}
