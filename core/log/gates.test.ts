import { readFileSync } from 'node:fs';
import path from 'node:path';
import './analyze.js';
import { SHAPES, SHAPE_GATES } from './shapes.js';
import { GATE_TABLE } from './gateTable.js';
import { gateFor, gateTableSource, patternKey } from './gates.js';
import { gateOf } from './prefilter.js';

const plain = (g: ReturnType<typeof gateOf>) => ({ first: g.first === null ? null : [...g.first], nonAscii: g.nonAscii, clauses: g.clauses.map((c) => [...c]) });

describe('the prefilter gates table (gates.ts, gateTable.ts)', () => {
  test('gateTable.ts is what the patterns derive now (else: npm run gates)', () => {
    const file = readFileSync(path.join(process.cwd(), 'core/log/gateTable.ts'), 'utf8');
    expect(file).toBe(gateTableSource());
  });

  test('every shape gets from the table the gate its pattern derives', () => {
    SHAPES.forEach((shape, k) => {
      expect(GATE_TABLE[patternKey(shape.re)]).toBeDefined();
      expect(plain(SHAPE_GATES[k]!)).toEqual(plain(gateOf(shape.re)));
    });
  });

  test('a pattern the table does not hold is derived', () => {
    const re = /^zq(?:xv|wk) \d+ jjq$/;
    expect(GATE_TABLE[patternKey(re)]).toBeUndefined();
    expect(plain(gateFor(re))).toEqual(plain(gateOf(re)));
    expect(gateFor(re).first?.[122]).toBe(1);
  });

  test('the key tells flags and sources apart', () => {
    expect(patternKey(/abc/)).not.toBe(patternKey(/abc/i));
    expect(patternKey(/abc/)).not.toBe(patternKey(/abd/));
    expect(patternKey(/abc/)).toBe(patternKey(new RegExp('abc')));
  });
});
