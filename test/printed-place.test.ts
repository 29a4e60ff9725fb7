/**
 * test/helpers/printedPlace.ts, the data check of a case's labelled place (test/realfail-data.test.ts): the shapes a
 * tool prints a place in, on made-up logs (review rv1, session 51, left item 6; rv2, session 52).
 */
import { printsPlace } from './helpers/printedPlace.js';

const filler = (n: number, text = 'x'): string[] => Array.from({ length: n }, (_, i) => `${text} ${i + 1000}`);

describe('printsPlace', () => {
  it('a later hunk of a long diff of the file', () => {
    const diff = ['diff -u a/src/cart.go b/src/cart.go', '--- a/src/cart.go', '+++ b/src/cart.go', '@@ -3,2 +3,2 @@', ...filler(80, ' ctx'), '@@ -240,3 +240,3 @@', ' x', '-y', '+z'];
    expect(printsPlace(diff.join('\n'), 'src/cart.go', 241)).toBe(true);
    expect(printsPlace(diff.join('\n'), 'src/cart.go', 300)).toBe(false);
    // The next file's hunks are not this file's.
    expect(printsPlace([...diff.slice(0, 4), '--- a/b.go', '+++ b/b.go', '@@ -240,3 +240,3 @@'].join('\n'), 'src/cart.go', 241)).toBe(false);
  });

  it("a long eslint block under the file's heading, to its blank line", () => {
    const block = ['/ws/src/app.js', ...Array.from({ length: 80 }, (_, i) => `  ${i + 1}:5  error  'x' is not defined  no-undef`), '', '  90:1  error  other block'];
    expect(printsPlace(block.join('\n'), 'src/app.js', 75)).toBe(true);
    expect(printsPlace(block.join('\n'), 'src/app.js', 90)).toBe(false);
  });

  it("a runner's timestamps are no line numbers: GitHub's, Jenkins' Timestamper in brackets, HH:MM:SS", () => {
    for (const stamp of ['2026-11-29T01:59:19.0021060Z ', '[2026-11-25T10:15:30.123Z] ', '10:25:30 ', '[10:25:30] ']) {
      expect([stamp, printsPlace(`${stamp}src/app.js`, 'src/app.js', 25)]).toEqual([stamp, false]);
      expect([stamp, printsPlace(`${stamp}/ws/src/app.js\n${stamp}  25:3  error  Missing semicolon`, 'src/app.js', 25)]).toEqual([stamp, true]);
    }
  });

  it('the file and the line on one line; not a name that only ends with the basename', () => {
    expect(printsPlace('  File "/ws/pkg/x.py", line 5, in f', 'pkg/x.py', 5)).toBe(true);
    expect(printsPlace("'test-vat.R:5' [success]", 'R/vat.R', 5)).toBe(false);
  });
});
