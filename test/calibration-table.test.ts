/**
 * The calibration's threshold (scripts/calibration.ts, core/finding/calibrationTable.ts): chosen on the forward
 * protocol's unseen rounds by the +2/-1 gain, a tie to the lower threshold; each round's nested figure uses the rounds
 * before it only; the generated file names the rounds it was chosen on, which must be every forward round open for
 * tuning (a round opened and added to FORWARD_COMMITS makes it stale until `npm run calibration` is run).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { CALIBRATION } from '../core/finding/calibrationTable.js';
import { calibrationFigures, calibrationSource, CALIBRATION_FILE, chooseHighAt, gainAt, HIGH_AT_GRID, scoredRound, scoredRoundBoth, type Scored } from '../scripts/calibration.js';
import { FORWARD_COMMITS, forwardRounds, type ForwardCase } from '../scripts/classModelForward.js';

let n = 0;
const s = (round: number, right: boolean, p: number): Scored => ({ id: `s${n++}`, round, right, p });

describe('the calibration threshold', () => {
  it('gains +2 for a wrong high lowered and -1 for a right one; picks the best, a tie to the lower, 0 when nothing gains', () => {
    const scored = [s(1, false, 0.01), s(1, false, 0.04), s(1, true, 0.08), s(1, true, 0.12), s(1, true, 0.13), s(1, true, 0.9)];
    expect(gainAt(scored, 0)).toBe(0);
    expect(gainAt(scored, 0.05)).toBe(4);
    expect(gainAt(scored, 0.1)).toBe(3);
    expect(gainAt(scored, 0.15)).toBe(1);
    expect(chooseHighAt(scored)).toBe(0.05);
    // A tie: 0.02 lowers one wrong (+2), 0.05 and above two wrong and two right (+2): the lower.
    const tie = [s(1, false, 0.01), s(1, true, 0.03), s(1, true, 0.035), s(1, false, 0.04)];
    expect([gainAt(tie, 0.02), gainAt(tie, 0.05)]).toEqual([2, 2]);
    expect(chooseHighAt(tie)).toBe(0.02);
    expect(chooseHighAt([s(1, true, 0.01), s(1, true, 0.9)])).toBe(0);
  });

  it('nested: a round is figured at the threshold the rounds before it choose, never its own', () => {
    const scored = [s(11, false, 0.03), s(11, false, 0.04), s(11, true, 0.9), s(12, true, 0.03), s(12, false, 0.2), s(12, true, 0.8)];
    const figs = calibrationFigures(scored);
    expect(figs.nested.map((f) => [f.round, f.t])).toEqual([
      [11, 0],
      [12, 0.05],
    ]);
    expect(figs.nested[1]).toMatchObject({ high: 3, wrong: 1, keptHigh: 2, keptWrong: 1 });
    expect(figs.highAt).toBe(chooseHighAt(scored));
  });

  it('scores the classes below high apart from the highs, by the same model', () => {
    const kase = (id: string, round: number, label: ForwardCase['label'], rules: ForwardCase['rules'], confidence: ForwardCase['confidence'], text: string): ForwardCase => ({ id, round, label, rules, confidence, message: text, start_line: 2, end_line: 2, lines: ['+ step run', text, 'Finished: FAILURE'] });
    const NET = 'connect to host refused by the server';
    const DISK = 'no space left on device while writing';
    const dump = [
      ...[2, 3].flatMap((r) => [...Array.from({ length: 6 }, (_, i) => kase(`n${r}${i}`, r, 'network', 'network', 'high', NET)), ...Array.from({ length: 6 }, (_, i) => kase(`d${r}${i}`, r, 'disk-full', 'disk-full', 'high', DISK))]),
      kase('high', 4, 'network', 'network', 'high', NET),
      kase('medium-wrong', 4, 'network', 'disk-full', 'medium', NET),
      kase('low-right', 4, 'disk-full', 'disk-full', 'low', DISK),
      kase('unknown', 4, 'disk-full', 'unknown', 'low', DISK),
    ];
    const both = scoredRoundBoth(4, dump);
    expect(both.high.map((x) => x.id)).toEqual(['high']);
    expect(both.below.map((x) => [x.id, x.right])).toEqual([
      ['medium-wrong', false],
      ['low-right', true],
    ]);
    expect(both.below[0]?.p).toBeLessThan(0.25);
    expect(both.below[1]?.p).toBeGreaterThan(0.5);
  });

  it('scores a round with a model trained on the rounds before it only', () => {
    const kase = (id: string, round: number, label: ForwardCase['label'], rules: ForwardCase['rules'], text: string): ForwardCase => ({ id, round, label, rules, confidence: 'high', message: text, start_line: 2, end_line: 2, lines: ['+ step run', text, 'Finished: FAILURE'] });
    const NET = 'connect to host refused by the server';
    const DISK = 'no space left on device while writing';
    const dump = [
      ...[2, 3].flatMap((r) => [...Array.from({ length: 6 }, (_, i) => kase(`n${r}${i}`, r, 'network', 'network', NET)), ...Array.from({ length: 6 }, (_, i) => kase(`d${r}${i}`, r, 'disk-full', 'disk-full', DISK))]),
      kase('wrong', 4, 'network', 'disk-full', NET),
      kase('right', 4, 'disk-full', 'disk-full', DISK),
      // A later round whose words say the opposite: never read for round 4.
      ...Array.from({ length: 40 }, (_, i) => kase(`late${i}`, 5, 'disk-full', 'disk-full', NET)),
    ];
    const scored = scoredRound(4, dump);
    expect(scored.map((x) => [x.id, x.right])).toEqual([
      ['wrong', false],
      ['right', true],
    ]);
    expect(scored[0]?.p).toBeLessThan(0.1);
    expect(scored[1]?.p).toBeGreaterThan(0.5);
  });
});

describe('core/finding/calibrationTable.ts', () => {
  it('was chosen on every forward round open for tuning, with the commit each was measured at (else: npm run calibration)', () => {
    expect(CALIBRATION.rounds).toEqual(Object.fromEntries(forwardRounds().map((r) => [r, FORWARD_COMMITS[r]])));
  });

  it('holds a threshold of the grid, the one its own figures say was chosen, written as the script writes it', () => {
    expect(HIGH_AT_GRID).toContain(CALIBRATION.highAt);
    const text = readFileSync(CALIBRATION_FILE, 'utf8');
    expect(text).toContain(`// chosen highAt ${CALIBRATION.highAt}, every round at it:`);
    const report = text.split('\n').filter((l) => l.startsWith('// ') && !l.startsWith('// Generated')).map((l) => l.slice(3));
    expect(calibrationSource(CALIBRATION.highAt, CALIBRATION.rounds, report, CALIBRATION.keepAt)).toBe(text);
    // Below high: the threshold a class said at medium or low must reach (calibration.ts `supported`), chosen the same way.
    expect(HIGH_AT_GRID).toContain(CALIBRATION.keepAt);
    expect(text).toContain(`// chosen keepAt ${CALIBRATION.keepAt}, every round at it`);
  });
});
