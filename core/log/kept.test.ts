import { FAST_HOLES_MAX, heldIndexes, sparseArray } from './kept.js';

describe('heldIndexes', () => {
  it('gives the indexes a sparse array holds, ascending, below the end', () => {
    const lines = sparseArray(1_000_000);
    for (const i of [999_999, 7, 500_000, 0, 12]) lines[i] = `line ${i}`;
    expect([...heldIndexes(lines, 1_000_000)]).toEqual([0, 7, 12, 500_000, 999_999]);
    expect([...heldIndexes(lines, 500_000)]).toEqual([0, 7, 12]);
    expect([...heldIndexes(lines, 2_000_000)]).toEqual([0, 7, 12, 500_000, 999_999]);
    expect([...heldIndexes(sparseArray(0), 10)]).toEqual([]);
  });

  it('gives every index of any other array, holes too', () => {
    const lines = ['a', '', 'c'];
    lines[5] = 'f';
    expect([...heldIndexes(lines, 10)]).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...heldIndexes(lines, 2)]).toEqual([0, 1]);
  });
});

describe('sparseArray', () => {
  it('holds only the lines set, holes elsewhere, below and above FAST_HOLES_MAX alike', () => {
    for (const total of [5000, FAST_HOLES_MAX, FAST_HOLES_MAX + 1, 1_000_000]) {
      const lines = sparseArray(total);
      lines[3] = 'a';
      lines[total - 1] = 'b';
      expect(lines.length).toBe(total);
      expect(2 in lines).toBe(false);
      expect(3 in lines).toBe(true);
      const seen: number[] = [];
      lines.forEach((_, i) => seen.push(i));
      expect(seen).toEqual([3, total - 1]);
      expect(Object.keys(lines)).toEqual(['3', String(total - 1)]);
      expect([...heldIndexes(lines, total)]).toEqual([3, total - 1]);
      expect(lines.findIndex((l) => l === 'b')).toBe(total - 1);
    }
  });
});
