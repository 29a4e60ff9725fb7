import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** The request-id header: taken from the caller when sane, else made; forwarded and returned. */
export const REQUEST_ID_HEADER = 'x-request-id';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a sane token (<= 128 of `[A-Za-z0-9._:-]`), else a new UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value !== undefined && SANE_ID.test(value) ? value : randomUUID();
}

declare module 'koa' {
  interface DefaultState {
    /** This request's id (`X-Request-Id`). */
    requestId?: string;
    /** The process logger with this request's id on every line. */
    log?: Logger;
  }
}

/**
 * Koa middleware, first in the chain: sets the request id (request header too, so a proxy
 * forwards it), returns it in `X-Request-Id`, gives the request a child logger carrying it, and
 * writes one access-log line at `info` when the response is finished (or the client left).
 */
export function requestContext(logger: Logger) {
  return async function withRequestContext(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    const reqId = requestIdOf(ctx.req.headers);
    ctx.req.headers[REQUEST_ID_HEADER] = reqId;
    ctx.state.requestId = reqId;
    const log = logger.child({ reqId });
    ctx.state.log = log;
    ctx.set('X-Request-Id', reqId);
    const res = ctx.res;
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      accessLog(log, ctx.method, ctx.originalUrl, res.statusCode, started, !res.writableFinished);
    };
    res.once('finish', done);
    res.once('close', done);
    await next();
  };
}

/** One access-log line: method, url, status, milliseconds, and whether the client left first. */
export function accessLog(log: Logger, method: string, url: string, status: number, started: bigint, aborted: boolean): void {
  if (!log.isLevelEnabled('info')) return;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  log.info({ method, url, status, ms: Math.round(ms * 100) / 100, ...(aborted ? { aborted: true } : {}) }, 'request');
}
