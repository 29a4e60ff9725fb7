import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import { decodeTable, logScores, modelTableDecoded, type ClassModelTable } from './classModel.js';
import { CLASS_MODEL } from './classModelTable.js';

/**
 * The class model's table (classModelTable.ts, ~125 KB) is decoded on the first finding that needs it only: an
 * `unknown` one (its likely class), one at `high` (calibration.ts reads the excerpt's words to keep it high) or one at
 * medium or low (calibration.ts `supported` reads them to keep its class); importing the analyzer, or a log with no
 * failure found (no finding), never pays for it (a file of its own, so no other test has decoded it in this module
 * registry).
 */
describe('the class model table, decoded when first needed', () => {
  it('is not decoded for a log without a finding, and is for a finding at medium (whether its words support its class)', () => {
    const clean = analyze(['+ make', 'cc -c a.c', 'ok', 'Finished: SUCCESS'].join('\n'));
    expect(clean.every((e) => e.finding === undefined)).toBe(true);
    expect(modelTableDecoded()).toBe(false);
    const medium = analyze(['+ ./release.sh', './release.sh: line 5: VERSION: unbound variable', 'ERROR: script returned exit code 1'].join('\n'));
    expect(medium.map((e) => [e.finding?.class, e.finding?.confidence])).toEqual([
      ['ci-script', 'medium'],
      ['ci-script', 'medium'],
    ]);
    expect(modelTableDecoded()).toBe(true);
  });
});

describe('the table read token by token', () => {
  it('scores as the table read whole does (every token, each class), a token written twice read as its last row', () => {
    // The former decoding: every row into its map at once, a later row of the same token over the earlier.
    const tokens = new Map<string, Map<number, number>>();
    for (const row of CLASS_MODEL.rows.flatMap((chunk) => chunk.split('\n'))) {
      const [token, ...pairs] = row.split(' ');
      tokens.set(token as string, new Map(pairs.map((p) => p.split(':').map(Number) as [number, number])));
    }
    const whole: ClassModelTable = { ...decodeTable(CLASS_MODEL), tokens };
    const lazy = decodeTable(CLASS_MODEL);
    expect(lazy.tokens.size).toBe(tokens.size);
    const all = [...tokens.keys()];
    expect(logScores(lazy, all)).toEqual(logScores(whole, all));
    for (const t of ['#tool:go', 'error', 'm:undefin', 'no-such-token']) expect([t, lazy.tokens.get(t)]).toEqual([t, tokens.get(t)]);
    expect([...lazy.tokens.entries()]).toEqual([...tokens.entries()]);
  });
});
