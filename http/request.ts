import { AsyncLocalStorage } from 'node:async_hooks';
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

/** The logger of the request being served (a child carrying its `reqId`), where there is one. */
const requestLogs = new AsyncLocalStorage<Logger>();

/**
 * The logger for a line written now: the request's (with its `reqId`) when this code runs on
 * behalf of one (its handler, the answer job it started, the context service it called, the
 * model client's retries), else `fallback` (start-up, sweeps, the watcher). It follows
 * `await`s and timers made within the request; an event listener runs in the context of
 * whatever emitted the event (a keep-alive socket may have been opened by another request), so
 * code driven by events (the proxy) is given its request's logger explicitly instead.
 */
export function requestLog(fallback: Logger): Logger {
  return requestLogs.getStore() ?? fallback;
}

/**
 * Switches this module's request-logger tracking off (requestLog answers the fallback until the
 * next request runs). For Jest, which loads this module afresh for every test file in one
 * process: on Node 20 every AsyncLocalStorage left enabled is visited at the creation of every
 * promise and async resource of the process, so each finished file's instance would slow every
 * later file (test/helpers/perFile.ts switches it off after each file).
 */
export function stopRequestLogs(): void {
  requestLogs.disable();
}

/** Runs `fn` with `log` as the request logger of everything it starts (see requestLog). */
export function withRequestLog<T>(log: Logger, fn: () => T): T {
  return requestLogs.run(log, fn);
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
    await requestLogs.run(log, next);
  };
}

/** One access-log line: method, url, status, milliseconds, and whether the client left first. */
export function accessLog(log: Logger, method: string, url: string, status: number, started: bigint, aborted: boolean): void {
  if (!log.isLevelEnabled('info')) return;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  log.info({ method, url, status, ms: Math.round(ms * 100) / 100, ...(aborted ? { aborted: true } : {}) }, 'request');
}
