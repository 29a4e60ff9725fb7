import type { Logger } from 'pino';
import { ServiceUnavailable } from '../http/errors.js';
import { errorMiddleware as kitErrorMiddleware } from '../http/middleware.js';

/** The backend answers with the kit's error kinds (http/errors.ts). */
export * from '../http/errors.js';

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

/** The kit's error middleware with the backend's one service failure: an unreachable database is 503. */
export function errorMiddleware(log: Logger) {
  return kitErrorMiddleware({
    logger: log,
    classify: (err) => (isDatabaseUnavailable(err) ? new ServiceUnavailable() : undefined),
    notFoundDetail: (ctx) => `No route for ${ctx.method} ${ctx.path}.`,
  });
}
