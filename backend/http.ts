import { z } from 'zod';

/** The body reader and input checks are the kit's (http/); the backend adds its path and page rules. */
export { MiB, readJsonBody } from '../http/body.js';
export { describeIssue, inputOf, parseInput, validate } from '../http/validate.js';

/** A positive integer id from the path; anything else is a 404 (no such resource). */
export function idParam(value: string | undefined): number | null {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : null;
}

/**
 * A whole number in a query parameter, at least `min` (and at most `max`); absent or empty is
 * `def`. Anything else fails with `problem`, which the 422 names the parameter with.
 */
export function queryInt(min: number, def: number, max = Number.MAX_SAFE_INTEGER) {
  const problem = max === Number.MAX_SAFE_INTEGER ? `must be a whole number >= ${min}` : `must be between ${min} and ${max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return def;
      const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
      if (!(n >= min && n <= max)) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return n;
    });
}

/**
 * Pagination (CONTRACT section 2): `limit` 1-100, default 20; `offset` >= 0, default 0. The
 * wire's `PaginationQuery` (protocol/schemas.ts) describes the same parameters in the API document.
 */
export const pageQuery = z.object({ limit: queryInt(1, 20, 100), offset: queryInt(0, 0) });
export type PageQuery = z.infer<typeof pageQuery>;
