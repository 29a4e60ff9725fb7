/**
 * The ingest worker thread (ingestPool.ts starts it): runs LogIngest for one upload at a time,
 * fed with pieces of the log, so the backend's event loop only moves bytes. Every piece is
 * acknowledged (`consumed`) once processed: the feeder keeps a few in flight, no more.
 */
import { parentPort } from 'node:worker_threads';
import { LogIngest, type LogIngestOptions } from './logIngest.js';

export type ToWorker =
  | { type: 'start'; job: number; options: LogIngestOptions }
  | { type: 'text'; job: number; text: string }
  | { type: 'bytes'; job: number; bytes: Uint8Array }
  | { type: 'end'; job: number };

let current: { job: number; ingest: LogIngest } | undefined;
const port = parentPort;
if (port === null) throw new Error('ingestWorker.ts runs as a worker thread');

port.on('message', (m: ToWorker) => {
  try {
    if (m.type === 'start') {
      current = { job: m.job, ingest: new LogIngest(m.options, (rows) => port.postMessage({ type: 'rows', job: m.job, rows })) };
      return;
    }
    if (current === undefined || current.job !== m.job) return;
    if (m.type === 'text') current.ingest.pushText(m.text);
    else if (m.type === 'bytes') current.ingest.pushBytes(m.bytes);
    else {
      const summary = current.ingest.end();
      current = undefined;
      port.postMessage({ type: 'done', job: m.job, summary });
      return;
    }
    port.postMessage({ type: 'consumed', job: m.job });
  } catch (err) {
    current = undefined;
    port.postMessage({ type: 'error', job: m.job, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
