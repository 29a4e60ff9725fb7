import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The one logger of a process: pino, JSON lines to stderr (stdout stays free for the CLI that
 * may run the services in-process), at `LOG_LEVEL`. Request-scoped children add `reqId`.
 */
export function createLogger(name: string, level = 'info'): Logger {
  return pino({ name, level, serializers: { err: pino.stdSerializers.err } }, pino.destination(2));
}
