import type { Logger } from 'pino';
import { ServiceUnavailable } from '../http/errors.js';
import { errorMiddleware as kitErrorMiddleware } from '../http/middleware.js';

/** The backend answers with the kit's error kinds (http/errors.ts). */
export * from '../http/errors.js';

/**
 * Error codes of a database that cannot be reached or went away under a request: 503, not 500.
 * EPIPE and PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR come from a pooled MySQL connection whose server
 * died between two queries (seen in the outage test); ER_SERVER_SHUTDOWN, ER_CONNECTION_KILLED
 * and ER_QUERY_INTERRUPTED from a server being stopped under the query.
 */
const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'KnexTimeoutError',
]);

/**
 * True when an error means the database cannot be reached (503), not a bug (500): a known code,
 * or mysql2's `fatal` mark (the connection itself is gone, whatever the code).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown; fatal?: unknown };
  return (
    (typeof e.code === 'string' && DB_DOWN_CODES.has(e.code)) ||
    (typeof e.name === 'string' && DB_DOWN_CODES.has(e.name)) ||
    e.fatal === true
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
