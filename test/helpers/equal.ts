/**
 * `expect(actual).toEqual(expected)` for big values: thousands of rows, Buffers of embeddings.
 * Jest's `toEqual` walks a Buffer byte by byte through its generic iterable comparison (seconds
 * for a few MB: 8 of context-json-log's 12 CPU-s; docs/notes/house.md, "`npm test` time"). When
 * Node's strict deep equality already holds (stricter than `toEqual`: prototypes, undefined
 * properties and -0 count), Jest is handed the expected value itself, which it accepts at once;
 * otherwise it compares the two exactly as before and prints its diff. So the assertion passes
 * and fails exactly when `toEqual` does.
 */
import { isDeepStrictEqual } from 'node:util';

export function expectEqual<T>(actual: T, expected: T): void {
  expect(isDeepStrictEqual(actual, expected) ? expected : actual).toEqual(expected);
}
