import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** An error with the HTTP status it is answered with; its message is the `detail` a person reads. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message: string) {
    super(401, message);
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    super(413, message);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, message);
  }
}

/** 422: a field out of range or of the wrong type; the message names the field. */
export class Unprocessable extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}

export class BadGateway extends HttpError {
  constructor(message: string) {
    super(502, message);
  }
}

/**
 * The first middleware: renders every error as `{detail}`. Known kinds keep their status and
 * message; anything else is a bug, logged with its stack and answered `500 Internal error`.
 * Errors raised after a proxied response started cannot be rendered (the status line is gone):
 * those are logged and the connection is closed by the proxy itself.
 */
export function errorMiddleware(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      if (ctx.res.headersSent) {
        logger.error({ err, path: ctx.path }, 'error after the response started');
        ctx.res.destroy();
        return;
      }
      ctx.respond = true;
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = { detail: err.message };
        if (err.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="cichat"');
        return;
      }
      // Koa's own errors (ctx.throw, body too large...) carry a status and `expose` for 4xx.
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: unknown }).expose === true) {
        ctx.status = status;
        ctx.body = { detail: (err as Error).message };
        return;
      }
      logger.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'Internal error' };
    }
  };
}
