import type { Logger } from 'pino';
import { createLogger as kitLogger } from '../http/logger.js';

/** JSON logs to stderr (stdout stays free for the CLI that may spawn us). */
export function createLogger(level: string, name = 'cichat-backend'): Logger {
  return kitLogger(name, level);
}
