import { firstSorted } from './rank.js';

describe('firstSorted (rank.ts)', () => {
  test('gives the first max items of a stable sort, ties in their order', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const items = Array.from({ length: random(60) }, (_, index) => ({ focused: random(4) === 0, score: random(8) / 2, start: random(20), index }));
      const cmp = (x: (typeof items)[number], y: (typeof items)[number]): number => Number(y.focused) - Number(x.focused) || y.score - x.score || x.start - y.start;
      for (const max of [0, 1, 2, 5, 50, 100]) expect(firstSorted(items, max, cmp).map((x) => x.index)).toEqual([...items].sort(cmp).slice(0, max).map((x) => x.index));
    }
  });
});
