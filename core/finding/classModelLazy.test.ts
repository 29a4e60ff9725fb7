import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import { decodeTable, logScores, modelTableDecoded, type ClassModelTable } from './classModel.js';
import { CLASS_MODEL } from './classModelTable.js';

/**
 * The class model's table (classModelTable.ts, ~125 KB) is decoded on the first finding that needs it only: an
 * `unknown` one (its likely class) or one at `high` (calibration.ts reads the excerpt's words to keep it high); a log
 * whose findings are all at medium or low never pays for it (a file of its own, so no other test has decoded it in this
 * module registry).
 */
describe('the class model table, decoded when first needed', () => {
  it('is not decoded for findings at medium, and is for one at high (calibration)', () => {
    const medium = analyze(['+ ./release.sh', './release.sh: line 5: VERSION: unbound variable', 'ERROR: script returned exit code 1'].join('\n'));
    expect(medium.map((e) => [e.finding?.class, e.finding?.confidence])).toEqual([
      ['ci-script', 'medium'],
      ['ci-script', 'medium'],
    ]);
    expect(modelTableDecoded()).toBe(false);
    const classed = analyze(['+ make', 'cc -c a.c', "a.c:3:5: error: 'x' undeclared (first use in this function)", 'make: *** [Makefile:2: a.o] Error 1'].join('\n'));
    expect([classed[0]?.finding?.class, classed[0]?.finding?.confidence]).toEqual(['compile-error', 'high']);
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
