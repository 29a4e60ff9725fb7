import { codeAt, includes, lengthOf, startsWith } from './str.js';

describe('String.prototype\'s methods as constants (str.ts)', () => {
  test('give what the methods give, on every representation a line comes in', () => {
    const long = 'x'.repeat(20) + 'Failed in branch [a]';
    const lines = ['', 'a', 'plain line', long.slice(3), 'Saving to: ‘/tmp/x’', 'Saving to: ‘/tmp/x’'.slice(2), Buffer.from('bytes line').latin1Slice(0, 10), 'ab'.concat('c'.repeat(30))];
    for (const s of lines) {
      for (const i of [0, 1, 5, s.length - 1, s.length, s.length + 1, -1, 2 ** 32]) expect(Object.is(codeAt(s, i), s.charCodeAt(i))).toBe(true);
      expect(lengthOf(s)).toBe(s.length);
      for (const part of ['', 'a', 'line', 'branch', '‘', 'xx']) {
        expect(includes(s, part)).toBe(s.includes(part));
        expect(startsWith(s, part)).toBe(s.startsWith(part));
      }
    }
  });
});
