import pino from 'pino';
import type { Logger } from 'pino';

/** JSON logs to stderr (stdout stays free for the CLI that may spawn us). */
export function createLogger(level: string, name = 'cichat-backend'): Logger {
  return pino({ name, level }, pino.destination(2));
}
