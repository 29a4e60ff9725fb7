import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { Unprocessable } from './errors.js';
import { readJsonBody, type ReadJsonOptions } from './body.js';

/** Formats the first zod issue as `field: message`, the 422 detail the contract asks for. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input.';
  const { path, message } = innermost(issue);
  const field = path.length ? path.map(String).join('.') : 'body';
  return `${field}: ${message}`;
}

/**
 * A union (`activePlugins`: a map or an array) fails as one issue; when exactly one of its
 * branches had the right outer type and failed deeper, that deeper issue names the field better.
 */
function innermost(issue: z.core.$ZodIssue, base: PropertyKey[] = []): { path: PropertyKey[]; message: string } {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && Array.isArray(issue.errors)) {
    const deeper = issue.errors.filter((branch) => branch.length > 0 && !(branch[0]?.code === 'invalid_type' && branch[0].path.length === 0));
    const first = deeper.length === 1 ? deeper[0]?.[0] : undefined;
    if (first) return innermost(first, path);
  }
  return { path, message: issue.message };
}

/** Parses `value` with `schema`, throwing 422 naming the first wrong field. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Unprocessable(describeIssue(parsed.error));
  return parsed.data;
}

/** The schemas of one route's input; each part is optional. */
export interface InputSchemas<B, Q, P> {
  body?: z.ZodType<B>;
  /** Read with `bodyOptions` (limit, missing Content-Type) before validation. */
  bodyOptions?: ReadJsonOptions;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
}

/** What `validate` leaves for the handler in `ctx.state.input`. */
export interface ValidInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
}

/** The validated input of a route that used `validate(schemas)`. */
export function inputOf<B = unknown, Q = unknown, P = unknown>(ctx: Context): ValidInput<B, Q, P> {
  const input = (ctx.state as { input?: ValidInput<B, Q, P> }).input;
  if (input === undefined) throw new Error('validate() did not run before this handler');
  return input;
}

/**
 * Route middleware: reads the JSON body (when a body schema is given), then checks body, query
 * and path parameters against their zod schemas, answering 422 naming the first wrong field.
 * The handler reads typed values with `inputOf<...>(ctx)` (or the typed `handler` form below).
 * The same schemas describe the API in the OpenAPI document.
 */
export function validate<B = undefined, Q = undefined, P = undefined>(schemas: InputSchemas<B, Q, P>) {
  return async function validateInput(ctx: Context, next: Next): Promise<void> {
    const params = schemas.params ? parseInput(schemas.params, (ctx as { params?: unknown }).params ?? {}) : (undefined as P);
    const query = schemas.query ? parseInput(schemas.query, lastValues(ctx.query)) : (undefined as Q);
    const body = schemas.body
      ? parseInput(schemas.body, await readJsonBody(ctx, schemas.bodyOptions ?? { limit: 1024 * 1024 }))
      : (undefined as B);
    (ctx.state as { input?: ValidInput<B, Q, P> }).input = { body, query, params };
    await next();
  };
}

/** A repeated query parameter counts with its last value (`?limit=5&limit=10` is 10). */
function lastValues(query: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(query)) out[k] = Array.isArray(v) ? v[v.length - 1] : v;
  return out;
}
