import { describe, expect, it } from '@jest/globals';
import { confusion, confusionReport, type Predicted } from '../scripts/classConfusion.js';

/**
 * The confusion of unseen predictions (scripts/classConfusion.ts) on made-up rows: only wrong predictions make cells,
 * a cell counts the rounds it recurs in once each, and the current rules' class says how many of its cases are right now.
 */
const row = (id: string, round: number, label: Predicted['label'], rules: Predicted['rules'], confidence: Predicted['confidence'] = 'low'): Predicted => ({ id, round, label, rules, confidence });

const rows: Predicted[] = [
  row('a', 11, 'ci-script', 'unknown'),
  row('b', 11, 'ci-script', 'unknown'),
  row('c', 12, 'ci-script', 'unknown'),
  row('d', 13, 'ci-script', 'unknown'),
  row('e', 12, 'network', 'runtime-exception', 'high'),
  row('f', 12, 'network', 'runtime-exception', 'medium'),
  row('g', 13, 'lint', 'lint', 'high'),
  row('h', 13, 'test-assertion', 'test-error'),
];

describe('the confusion of unseen predictions', () => {
  it('counts each wrong cell with its rounds, levels and the cases right now, most rounds first', () => {
    const now = new Map<string, Predicted['rules']>([['a', 'ci-script'], ['c', 'unknown'], ['e', 'network'], ['h', 'test-error']]);
    const pairs = confusion(rows, now);
    expect(pairs.map((p) => [p.label, p.predicted, p.ids.length, p.rounds, p.nowRight])).toEqual([
      ['ci-script', 'unknown', 4, [11, 12, 13], 1],
      ['network', 'runtime-exception', 2, [12], 1],
      ['test-assertion', 'test-error', 1, [13], 0],
    ]);
    expect(pairs[1]).toMatchObject({ high: 1, medium: 1, low: 0 });
  });

  it('prints the pooled figure and only the cells of enough rounds; without a current dump, no right-now count', () => {
    const report = confusionReport(rows, confusion(rows), 2);
    expect(report).toMatch(/^unseen class right 1\/8 \(12\.5 %\), rounds 11,12,13;/);
    expect(report).toContain('| ci-script | unknown | 4 | 3 | 0/0/4 | - |');
    expect(report).not.toContain('| network |');
  });
});
