import { logBudgets, tailOfLog } from './context.js';

const MiB = 1024 * 1024;

describe('logBudgets: the 60 MiB of an upload shared by the failing and the passing log', () => {
  it('gives each log all it needs when both fit', () => {
    expect(logBudgets(10 * MiB, 5 * MiB)).toEqual({ log: 55 * MiB, baseline: 5 * MiB });
    expect(logBudgets(10 * MiB, 0)).toEqual({ log: 60 * MiB, baseline: 0 });
  });

  it('keeps at least 44 MiB for the failing log and at most 16 MiB for the passing one', () => {
    expect(logBudgets(100 * MiB, 100 * MiB)).toEqual({ log: 44 * MiB, baseline: 16 * MiB });
    expect(logBudgets(0, 100 * MiB)).toEqual({ log: 44 * MiB, baseline: 16 * MiB });
    expect(logBudgets(58 * MiB, 10 * MiB)).toEqual({ log: 50 * MiB, baseline: 10 * MiB });
  });

  it('never exceeds 60 MiB together', () => {
    for (const f of [0, 1, 30, 44, 45, 59, 60, 200]) {
      for (const b of [0, 1, 8, 16, 17, 60, 200]) {
        const budget = logBudgets(f * MiB, b * MiB);
        expect(Math.min(f * MiB, budget.log) + Math.min(b * MiB, budget.baseline)).toBeLessThanOrEqual(60 * MiB);
      }
    }
  });

  it('cuts a log to its end at a line start', () => {
    expect(tailOfLog('aaa\nbbb\nccc\n', 6)).toEqual({ log: 'ccc\n', cut: true });
  });
});
