import type { Context } from 'koa';
import { z } from 'zod';
import { BadRequest, PayloadTooLarge, Unprocessable, UnsupportedMediaType } from './errors.js';

export const MiB = 1024 * 1024;

/**
 * Reads the request body as JSON within `limit` bytes: 415 when it is not declared JSON,
 * 413 over the limit (stops reading at once), 400 for invalid UTF-8 or malformed JSON.
 * An empty body reads as `{}`.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const length = Number(ctx.get('content-length') || 0);
  const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return {};
  if (!ctx.is('application/json', '+json')) throw new UnsupportedMediaType();
  const limitText = `${Math.round(limit / MiB)} MiB`;
  if (length > limit) throw new PayloadTooLarge(`The request body is over the ${limitText} limit.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.unpipe();
      ctx.req.resume();
      throw new PayloadTooLarge(`The request body is over the ${limitText} limit.`);
    }
    chunks.push(chunk);
  }
  if (size === 0) return {};
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  chunks.length = 0;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BadRequest('The request body is not valid UTF-8.');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequest('The request body is not valid JSON.');
  }
}

/** Formats the first zod issue as `field: message`, the 422 detail the contract asks for. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input.';
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  return `${field}: ${issue.message}`;
}

/** Validates `value` against `schema`, throwing 422 naming the field. */
export function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Unprocessable(describeIssue(parsed.error));
  return parsed.data;
}

/** Length in characters (code points), as MySQL's utf8mb4 columns count them. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A string of min..max characters (code points), with the contract's message. */
export function textField(min: number, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .refine((s) => charLength(s) >= min && charLength(s) <= max, {
      message: `must be between ${min} and ${max} characters`,
    });
}

/** A positive integer id from the path; anything else is a 404 (no such resource). */
export function idParam(value: string | undefined): number | null {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : null;
}

function intQuery(name: string, raw: string | string[] | undefined, def: number, min: number, max: number): number {
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
