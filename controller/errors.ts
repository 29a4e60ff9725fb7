import type { Logger } from 'pino';
import { errorMiddleware as kitErrorMiddleware } from '../http/middleware.js';

/** The controller answers with the kit's error kinds (http/errors.ts), as the backend does. */
export * from '../http/errors.js';

/** The kit's error middleware: `{detail}` for every error, a logged 500 `Internal error` for bugs. */
export function errorMiddleware(logger: Logger) {
  return kitErrorMiddleware({ logger });
}
