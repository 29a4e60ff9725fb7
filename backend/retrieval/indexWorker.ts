/**
 * The index worker thread (WorkerIndexBuilder in vectorIndex.ts starts it): an IndexBuilder,
 * the same code as on the main thread, fed vectors by message. Labels in order, repeated
 * vectors skipped, as IndexBuilder does.
 *
 * It is never terminated from outside (Worker.terminate): a thread stopped inside an hnswlib
 * call makes the addon's next N-API call fail, and hnswlib-node's node-addon-api turns the
 * exception it cannot throw into a FATAL ERROR that aborts the whole process (SIGABRT; seen
 * when an upload failed before the worker had finished initIndex). It stops itself instead:
 * `stop[0]` set makes it skip the vectors still queued, and the `close` message (handled after
 * every native call in progress returned) closes its port so it ends on its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IndexBuilder } from './vectorIndex.js';

export type ToIndexWorker = { type: 'add'; id: number; vectors: Float32Array[] } | { type: 'write'; id: number; file: string } | { type: 'close' };

const port = parentPort;
if (port === null) throw new Error('indexWorker.ts runs as a worker thread');
const { dim, stop: stopBuffer } = workerData as { dim: number; stop: SharedArrayBuffer };
const stop = new Int32Array(stopBuffer);
const stopped = (): boolean => Atomics.load(stop, 0) === 1;
const builder = new IndexBuilder(dim);

port.on('message', (msg: ToIndexWorker) => {
  if (msg.type === 'close') {
    port.close();
    return;
  }
  if (stopped()) return;
  try {
    if (msg.type === 'add') {
      builder.add(msg.vectors, stopped);
      if (!stopped()) port.postMessage({ type: 'added', id: msg.id });
    } else {
      builder.index.writeIndexSync(msg.file);
      port.postMessage({ type: 'written', id: msg.id, points: builder.pointCount });
    }
  } catch (err) {
    port.postMessage({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
  }
});
