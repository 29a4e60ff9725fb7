import { pino, type Logger } from 'pino';
import { LogSink } from './logSink.js';

export type { Logger } from 'pino';

/** One sink per process, shared by every logger (one exit hook, one timer). */
let sink: LogSink | undefined;

/**
 * The one logger of a process: pino, JSON lines to stderr (stdout stays free for the CLI that
 * may run the services in-process), at `LOG_LEVEL`. Request-scoped children add `reqId`.
 *
 * Lines are written in batches: up to 4 KiB are gathered and written at once, and whatever is
 * gathered is written within 100 ms (and synchronously when the process exits, however it
 * exits but SIGKILL). One write per access-log line cost the proxy about a tenth of its CPU
 * per request (proxy bench, docs/notes/house.md). The sink is `LogSink`, not
 * `pino.destination()`: see logSink.ts for why (a process that could not exit, issue 27).
 */
export function createLogger(name: string, level = 'info'): Logger {
  sink ??= new LogSink(2, 4096, 100);
  const destination = sink;
  return pino({ name, level, serializers: { err: pino.stdSerializers.err } }, destination);
}
