import { escapeRegExp } from './regexp.js';

describe('escapeRegExp', () => {
  it('every character a regular expression gives a meaning to matches itself', () => {
    const text = 'TestParse/a+b(1)[x]{2}|^$.*?\\';
    const re = new RegExp(`^${escapeRegExp(text)}$`);
    expect(re.test(text)).toBe(true);
    expect(re.test('TestParse/aab1x2')).toBe(false);
    expect(escapeRegExp('a.b')).toBe('a\\.b');
  });
});
