import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * The one logger of a process: pino, JSON lines to stderr (stdout stays free for the CLI that
 * may run the services in-process), at `LOG_LEVEL`. Request-scoped children add `reqId`.
 *
 * Lines are written in batches: up to 4 KiB are gathered and written at once, and whatever is
 * gathered is written within 100 ms (and synchronously when the process exits, however it
 * exits but SIGKILL). One write per access-log line cost the proxy about a tenth of its CPU
 * per request (proxy bench, docs/notes/house.md).
 */
export function createLogger(name: string, level = 'info'): Logger {
  const destination = pino.destination({ dest: 2, minLength: 4096, periodicFlush: 100 });
  return pino({ name, level, serializers: { err: pino.stdSerializers.err } }, destination);
}
