import { bodyOf, lineBody } from './body.js';
import { FAST_HOLES_MAX, sparseArray } from '../log/kept.js';

describe('lineBody', () => {
  it('is bodyOf of the line, a hole reading as blank, a changed line read again, below and above FAST_HOLES_MAX alike', () => {
    for (const total of [10, FAST_HOLES_MAX, FAST_HOLES_MAX + 1]) {
      const lines = sparseArray(total);
      lines[1] = '[2024-01-01T00:00:00.000Z] error: first  ';
      lines[total - 1] = '  at x (y.js:1:2)';
      expect(lineBody(lines, 1)).toBe(bodyOf(lines[1]!));
      expect(lineBody(lines, 0)).toBe(bodyOf(''));
      expect(lineBody(lines, total - 1)).toBe(bodyOf(lines[total - 1]!));
      lines[1] = 'error: second';
      expect(lineBody(lines, 1)).toBe('error: second');
      expect(lineBody(['a ', 'b'], 0)).toBe('a');
    }
  });
});
