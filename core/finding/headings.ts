/**
 * Windows whose cause is printed just above them, by test runners that put their verdict apart
 * from the failure: doctest's `Failed example:` under its `File "x.py", line N, in f` heading,
 * and a Perl test script that died (its `die` message over Test::More's `# Looks like your test
 * exited with 255`, then the TAP lines and prove's `Dubious, test returned 255`).
 */

/** The window (1-based, inclusive) to read instead, given the cleaned line reader and the excerpt's first line (0-based). */
export function headingWindow(line: (i: number) => string, first: number): { start_line: number; end_line: number } | undefined {
  if (/^Failed example:$/.test(line(first).trim()) && /^File ".*", line \d+, in \S+$/.test(line(first - 1).trim())) {
    let end = first + 1;
    while (end < first + 40 && line(end + 1).trim() !== '' && !/^\*{10,}$/.test(line(end + 1).trim())) end++;
    return { start_line: first, end_line: end + 1 };
  }
  for (let k = first - 1; k >= Math.max(1, first - 40); k--) {
    const t = line(k).trim();
    if (/^(?:\+ |\$ )/.test(t)) break;
    if (/^# Looks like your test (?:exited with \d+|died)/.test(t)) return line(k - 1).trim() !== '' ? { start_line: k, end_line: k + 1 } : undefined;
  }
  return undefined;
}
