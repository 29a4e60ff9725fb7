import type { Context } from 'koa';
import { Unprocessable } from './errors.js';

/** The body reader and input checks are the kit's (http/); the backend adds its path and page rules. */
export { MiB, readJsonBody } from '../http/body.js';
export { describeIssue, parseInput as validate } from '../http/validate.js';


/** A positive integer id from the path; anything else is a 404 (no such resource). */
export function idParam(value: string | undefined): number | null {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : null;
}

/** An integer query parameter within [min, max] (default `def`), or 422 naming it. */
export function intQuery(name: string, raw: string | string[] | undefined, def: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return def;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value === undefined || !/^-?\d+$/.test(value.trim())) {
    throw new Unprocessable(max === Infinity ? `${name}: must be an integer >= ${min}` : `${name}: must be between ${min} and ${max}`);
  }
  const n = Number(value);
  if (n < min || n > max) {
    throw new Unprocessable(max === Infinity ? `${name}: must be an integer >= ${min}` : `${name}: must be between ${min} and ${max}`);
  }
  return n;
}

/** `limit` 1-100 (default 20) and `offset` >= 0 (default 0), or 422 naming the field. */
export function pagination(ctx: Context): { limit: number; offset: number } {
  return {
    limit: intQuery('limit', ctx.query.limit, 20, 1, 100),
    offset: intQuery('offset', ctx.query.offset, 0, 0, Number.MAX_SAFE_INTEGER),
  };
}
