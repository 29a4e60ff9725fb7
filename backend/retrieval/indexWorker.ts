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
import { parentPort } from 'node:worker_threads';
import { IndexBuilder } from './vectorIndex.js';
import { lowerThreadPriority } from './threadPriority.js';

export type ToIndexWorker =
  | { type: 'start'; dim: number; stop: SharedArrayBuffer }
  | { type: 'add'; id: number; vectors: Float32Array[] }
  | { type: 'write'; id: number; file: string }
  | { type: 'done' }
  | { type: 'close' };

const port = parentPort;
if (port === null) throw new Error('indexWorker.ts runs as a worker thread');
// Background work: the event loop's requests get a core before this thread (threadPriority.ts).
lowerThreadPriority();
// One upload's index at a time (`start` ... `write`, then `done`): a worker is kept for the next
// upload (vectorIndex.ts), so a thread's start (and, from the sources, tsx's) is paid once.
let builder: IndexBuilder | undefined;
let stop = new Int32Array(new SharedArrayBuffer(4));
const stopped = (): boolean => Atomics.load(stop, 0) === 1;

port.on('message', (msg: ToIndexWorker) => {
  if (msg.type === 'close') {
    port.close();
    return;
  }
  if (msg.type === 'start') {
    stop = new Int32Array(msg.stop);
    builder = new IndexBuilder(msg.dim);
    return;
  }
  if (msg.type === 'done') {
    builder = undefined;
    return;
  }
  if (stopped() || builder === undefined) return;
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
