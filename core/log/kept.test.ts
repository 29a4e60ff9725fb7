import { heldIndexes, sparseArray } from './kept.js';

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
