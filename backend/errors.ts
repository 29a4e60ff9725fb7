import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** An error a client can act on; rendered as `{detail}` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(detail: string) {
    super(400, detail);
  }
}
export class Unauthorized extends HttpError {
  constructor(detail = 'Authentication required: send Authorization: Bearer <JWT> signed by the cichat controller.') {
    super(401, detail);
  }
}
export class NotFound extends HttpError {
  constructor(detail: string) {
    super(404, detail);
  }
}
export class Conflict extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}
export class PayloadTooLarge extends HttpError {
  constructor(detail: string) {
    super(413, detail);
  }
}
export class UnsupportedMediaType extends HttpError {
  constructor(detail = 'Send the body as JSON with Content-Type: application/json.') {
    super(415, detail);
  }
}
export class Unprocessable extends HttpError {
  constructor(detail: string) {
    super(422, detail);
  }
}
export class ServiceUnavailable extends HttpError {
  constructor(detail = 'The database is unavailable; try again shortly.') {
    super(503, detail);
  }
}

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'KnexTimeoutError',
]);

/** True when an error means the database cannot be reached (503), not a bug (500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown; errno?: unknown };
  return (
    (typeof e.code === 'string' && DB_DOWN_CODES.has(e.code)) ||
    (typeof e.name === 'string' && DB_DOWN_CODES.has(e.name))
  );
}

/** First middleware: renders every error as `{detail}`; unknown errors are a logged 500. */
export function errorMiddleware(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new NotFound(`No route for ${ctx.method} ${ctx.path}.`);
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        ctx.body = { detail: `Method ${ctx.method} is not allowed on ${ctx.path}.` };
      }
    } catch (err) {
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = { detail: err.detail };
        return;
      }
      const e = err as { status?: unknown; expose?: unknown; message?: unknown; type?: unknown };
      // Errors raised by koa's own body parsing (raw-body / http-errors) carry a status.
      if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
        ctx.status = e.status;
        ctx.body = { detail: clientErrorDetail(e.status, e) };
        return;
      }
      if (isDatabaseUnavailable(err)) {
        log.error({ err }, 'database unavailable');
        ctx.status = 503;
        ctx.body = { detail: new ServiceUnavailable().detail };
        return;
      }
      log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'Internal error' };
    }
  };
}

function clientErrorDetail(status: number, e: { type?: unknown; message?: unknown }): string {
  if (status === 413) return 'The request body is over the size limit.';
  if (status === 415) return new UnsupportedMediaType().detail;
  if (status === 400) {
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      return 'The body must be UTF-8 encoded JSON.';
    }
    return 'The request body is not valid JSON.';
  }
  return typeof e.message === 'string' ? e.message : 'Bad request';
}
