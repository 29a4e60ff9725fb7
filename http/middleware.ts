import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { clientErrorDetail, DiskFull, HttpError, isDiskFull, NotFound } from './errors.js';

export interface ErrorMiddlewareOptions {
  logger: Logger;
  /**
   * Maps a service's own failures to an HttpError (the backend: an unreachable database is 503);
   * answers undefined for anything it does not know, which then is a logged 500.
   */
  classify?: (err: unknown) => HttpError | undefined;
  /** Render an unrouted request (404 with no body) as `{detail}` naming the method and path. */
  notFoundDetail?: (ctx: Context) => string;
}

/**
 * The first middleware of both services: renders every error as `{detail}` with its status.
 * A 500 never carries its cause to the client; the log gets the error object with its stack
 * and the request id. An error after a response started cannot be rendered (the status line is
 * gone): it is logged and the connection closed.
 */
export function errorMiddleware(options: ErrorMiddlewareOptions) {
  const { classify, notFoundDetail } = options;
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false && notFoundDetail) {
        throw new NotFound(notFoundDetail(ctx));
      }
      if (ctx.status === 405 && ctx.body === undefined && ctx.respond !== false) {
        ctx.body = { detail: `Method ${ctx.method} is not allowed on ${ctx.path}.` };
      }
    } catch (err) {
      const log = ctx.state.log ?? options.logger;
      if (ctx.res.headersSent) {
        log.error({ err, method: ctx.method, path: ctx.path }, 'error after the response started');
        ctx.res.destroy();
        return;
      }
      if (isClientAbort(err)) {
        // The client closed the request while its body was read (Ctrl-C of an upload): nobody to
        // answer, and no failure of ours. Its ECONNRESET is not the database's (backend/errors.ts).
        log.info({ method: ctx.method, path: ctx.path }, 'the client closed the request before its body was read');
        ctx.status = 400;
        ctx.body = { detail: 'The request was closed before its body arrived.' };
        return;
      }
      ctx.respond = true;
      // A full disk is the same 503 in both services, whatever else a service classifies.
      const known = err instanceof HttpError ? err : isDiskFull(err) ? new DiskFull() : classify?.(err);
      if (known) {
        if (known.status >= 500) log.error({ err, method: ctx.method, path: ctx.path }, known.detail);
        ctx.status = known.status;
        ctx.body = known.code === undefined ? { detail: known.detail } : { detail: known.detail, code: known.code };
        if (known.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="cichat"');
        return;
      }
      const e = err as { status?: unknown; expose?: unknown; message?: unknown; type?: unknown };
      // Koa's own errors (raw-body limits, ctx.throw) carry a 4xx status.
      if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
        ctx.status = e.status;
        ctx.body = { detail: clientErrorDetail(e.status, e) };
        return;
      }
      log.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'Internal error' };
    }
  };
}

/** Node's error for a request whose client went away under it (http server's abortIncoming). */
function isClientAbort(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === 'ECONNRESET' && e.message === 'aborted';
}
