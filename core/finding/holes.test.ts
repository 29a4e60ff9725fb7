/**
 * The analyzer keeps only the lines around its blocks (core/log/analyze.ts): the line array a
 * finding reads from a streamed log has holes. A hole is read as a blank line, wherever it is:
 * nearest to the excerpt, before the command a look-back searches for, after the excerpt.
 */
import { findingOf } from './index.js';

/** A sparse array of `length` lines holding only `kept` (0-based index -> text). */
function sparse(length: number, kept: Record<number, string>): string[] {
  const lines = new Array<string>(length);
  for (const [i, text] of Object.entries(kept)) lines[Number(i)] = text;
  return lines;
}

describe('a finding on a windowed (sparse) line array', () => {
  it('reads a hole between the excerpt and the command before it as blank (the look-back for a lint command)', () => {
    // Line 100 is a hole: `[...before].reverse()` meets it before the command on line 99.
    const lines = sparse(300, { 98: '+ javac A.java', 100: 'A.java:3: error: cannot find symbol', 101: '  symbol: class Foo' });
    expect(99 in lines).toBe(false);
    expect(findingOf(lines, { start_line: 101, end_line: 102 })).toMatchObject({ class: 'compile-error', message_line: 101 });
  });

  it('reads holes as blank in the look-back for the host a network error came from', () => {
    const lines = sparse(300, { 97: '+ curl -fsS https://downloads.example.org/x.tgz', 100: 'curl: (28) Operation timed out after 30001 milliseconds with 0 bytes received' });
    expect(findingOf(lines, { start_line: 101, end_line: 101 })).toMatchObject({ class: 'network', host: 'downloads.example.org' });
  });

  it('reads holes after the excerpt and around a bare exit status as blank', () => {
    const lines = sparse(300, { 150: 'ERROR: script returned exit code 2' });
    expect(() => findingOf(lines, { start_line: 151, end_line: 151 })).not.toThrow();
    const test = sparse(300, { 120: '--- FAIL: TestParse (0.00s)', 122: '    parse_test.go:12: got 1, want 2' });
    expect(findingOf(test, { start_line: 121, end_line: 121 }).class).not.toBe('unknown');
  });
});
