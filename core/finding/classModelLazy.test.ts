import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import { decodeTable, logScores, modelTableDecoded, type ClassModelTable } from './classModel.js';
import { CLASS_MODEL } from './classModelTable.js';

/**
 * The class model's table (classModelTable.ts, ~125 KB) is decoded on the first `unknown` finding only: a log whose
 * failure the rules class never pays for it (a file of its own, so no other test has decoded it in this module registry).
 */
describe('the class model table, decoded when first needed', () => {
  it('is not decoded for a finding the rules classed, and is for an unknown one', () => {
    const classed = analyze(['+ make', 'cc -c a.c', "a.c:3:5: error: 'x' undeclared (first use in this function)", 'make: *** [Makefile:2: a.o] Error 1'].join('\n'));
    expect(classed[0]?.finding?.class).toBe('compile-error');
    expect(modelTableDecoded()).toBe(false);
    const unknown = analyze(['+ ./deploy.sh', 'rollout: step 3 of 5 did not settle', 'ERROR: script returned exit code 1'].join('\n'));
    expect(unknown[0]?.finding?.class).toBe('unknown');
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
