import { MAX_JSON_DEPTH, assertJsonDepth, deeperThan } from './depth.js';
import { HttpError } from './errors.js';

const nestedArrays = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));
const nestedObjects = (n: number): unknown => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n));

describe('JSON depth bound', () => {
  test('counts levels of arrays and objects; scalars are depth 0', () => {
    expect(deeperThan(1, 0)).toBe(false);
    expect(deeperThan({}, 0)).toBe(true);
    expect(deeperThan({}, 1)).toBe(false);
    expect(deeperThan({ a: [{ b: 1 }] }, 2)).toBe(true);
    expect(deeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(deeperThan(nestedObjects(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(deeperThan(nestedObjects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  test('a 30 KB nest (15000 levels) is refused without exhausting the stack', () => {
    const deep = nestedArrays(15000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError); // what any recursive walk would hit
    expect(deeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
    let caught: unknown;
    try {
      assertJsonDepth(deep);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(HttpError);
    expect((caught as HttpError).status).toBe(422);
    expect((caught as HttpError).detail).toMatch(new RegExp(`limit is ${MAX_JSON_DEPTH}`));
  });

  test('a wide shallow value passes', () => {
    const wide = { items: Array.from({ length: 100_000 }, (_, i) => ({ i, tags: ['x', { y: null }] })) };
    expect(deeperThan(wide, MAX_JSON_DEPTH)).toBe(false);
  });
});
