import { describe, expect, it } from '@jest/globals';
import { forwardFigures, forwardReport, type ForwardCase } from '../scripts/classModelForward.js';

/**
 * The class model's forward protocol (scripts/classModelForward.ts) on a tiny made-up dump: the
 * model is trained on the rounds before the scored one only, and scored on that round's cases the
 * rules left `unknown` (right, wrong, abstained); a rules class is not scored.
 */
let n = 0;
function kase(round: number, label: ForwardCase['label'], rules: ForwardCase['rules'], text: string): ForwardCase {
  const lines = ['Started by user ci', `+ ${text.split(' ')[0] ?? ''} run`, text, 'Finished: FAILURE'];
  return { id: `c${n++}`, round, label, rules, confidence: rules === 'unknown' ? 'low' : 'high', message: text, start_line: 3, end_line: 3, lines };
}
const DEP = 'fetcher could not resolve artifact widgets from repository central';
const DISK = 'writer no space left on device while writing the cache';
const dump: ForwardCase[] = [
  ...[2, 3, 4].flatMap((r) => [
    ...Array.from({ length: 8 }, () => kase(r, 'dependency-resolution', 'dependency-resolution', DEP)),
    ...Array.from({ length: 8 }, () => kase(r, 'disk-full', 'disk-full', DISK)),
  ]),
  // Round 5, scored: two unknowns in known words (one labelled otherwise: a wrong guess), one in no known word, one rules class.
  kase(5, 'dependency-resolution', 'unknown', DEP),
  kase(5, 'network', 'unknown', DISK),
  kase(5, 'lint', 'unknown', 'zzz qqq'),
  kase(5, 'disk-full', 'disk-full', DISK),
  // A later round: never read when round 5 is scored.
  ...Array.from({ length: 20 }, () => kase(6, 'lint', 'lint', DEP)),
];

describe('the forward protocol', () => {
  it('trains on the earlier rounds only and scores the rules\' unknowns of the round', () => {
    const [f] = forwardFigures([5], (r) => dump.filter((c) => c.round <= r));
    expect(f).toMatchObject({ round: 5, n: 4, rules: 1, unknown: 3, right: 1, wrong: 1, abstained: 1 });
    expect(f?.temperature).toBeGreaterThanOrEqual(1);
    expect(f?.guesses.map((g) => [g.id, g.guess])).toEqual([
      [dump.find((c) => c.round === 5)?.id, 'dependency-resolution'],
      [expect.any(String), 'disk-full'],
      [expect.any(String), expect.any(String)],
    ]);
    const report = forwardReport(f ? [f] : []);
    expect(report).toMatch(/^ {4}5 {2}/m);
    expect(report).toMatch(/^total {2}.* {11}-1$/m);
  });
});
