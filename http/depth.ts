import { Unprocessable } from './errors.js';

/**
 * How deep client JSON may nest: every walk over it (null-stripping, secret masking, zod,
 * JSON.stringify when it is stored) recurses, and Node's stack holds a few thousand levels. A
 * real CiContext nests less than ten.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests deeper than `limit` levels of arrays and objects (a scalar is depth 0,
 * `{}` and `[]` depth 1). Iterative, and it stops at the first value past the limit.
 */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** 422 naming the limit when `value` nests deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): void {
  if (deeperThan(value, limit)) {
    throw new Unprocessable(`The JSON body nests deeper than ${limit} levels of objects and arrays (the limit is ${limit}).`);
  }
}
