/**
 * The ingest worker thread (ingestPool.ts starts it): runs LogIngest for one upload at a time,
 * fed with pieces of the log, so the backend's event loop only moves bytes. Every piece is
 * acknowledged (`consumed`) once processed: the feeder keeps a few in flight, no more.
 *
 * With a `write` target (SQLite, the local embedder) the worker also writes the chunk rows and
 * the term index of the building context itself, on its own connection (store/chunkWriter.ts),
 * and hands the main thread only the vectors, for the HNSW index worker (`written`). An `abort`
 * ends such a job: the worker closes its connection and answers `aborted`, after which it
 * writes nothing more (the main thread then discards the building context). The stop flag
 * makes it skip what is still queued before the abort.
 */
import { parentPort } from 'node:worker_threads';
import { ChunkWriter, type ChunkWriteTarget } from '../store/chunkWriter.js';
import { TermPostings } from '../store/contextRows.js';
import { LogIngest, type ChunkRow, type LogIngestOptions } from './logIngest.js';
import { lowerThreadPriority } from './threadPriority.js';

export type ToWorker =
  | { type: 'start'; job: number; options: LogIngestOptions; write?: ChunkWriteTarget; stop?: SharedArrayBuffer }
  | { type: 'text'; job: number; text: string }
  | { type: 'bytes'; job: number; bytes: Uint8Array }
  | { type: 'end'; job: number }
  | { type: 'abort'; job: number };

interface Job {
  job: number;
  ingest: LogIngest;
  writer?: ChunkWriter;
  /** The term index of what the writer wrote, written at the end. */
  terms?: TermPostings;
  stop?: Int32Array;
}

let current: Job | undefined;
const port = parentPort;
if (port === null) throw new Error('ingestWorker.ts runs as a worker thread');
// Background work: the event loop's requests get a core before this thread (threadPriority.ts).
lowerThreadPriority();

const stopped = (j: Job): boolean => j.stop !== undefined && Atomics.load(j.stop, 0) === 1;

function start(m: Extract<ToWorker, { type: 'start' }>): Job {
  if (m.write === undefined) return { job: m.job, ingest: new LogIngest(m.options, (rows) => port!.postMessage({ type: 'rows', job: m.job, rows })) };
  const dim = m.options.localDim;
  if (dim === undefined) throw new Error('the worker writes rows only with the local embedder');
  const writer = new ChunkWriter(m.write);
  const terms = new TermPostings();
  const j: Job = { job: m.job, writer, terms, ingest: undefined as unknown as LogIngest, ...(m.stop ? { stop: new Int32Array(m.stop) } : {}) };
  j.ingest = new LogIngest(m.options, (rows: ChunkRow[]) => {
    if (stopped(j)) return;
    writer.writeChunks(rows as (ChunkRow & { embedding: Float32Array })[]);
    for (const r of rows) terms.add(r.seq, r.terms);
    const vectors = new Float32Array(rows.length * dim);
    rows.forEach((r, i) => vectors.set(r.embedding!, i * dim));
    port!.postMessage({ type: 'written', job: m.job, count: rows.length, vectors }, [vectors.buffer]);
  });
  return j;
}

port.on('message', (m: ToWorker) => {
  try {
    if (m.type === 'start') {
      current = start(m);
      return;
    }
    if (current === undefined || current.job !== m.job) {
      // An abort for a job that already ended (its error was sent): nothing is open.
      if (m.type === 'abort') port.postMessage({ type: 'aborted', job: m.job });
      return;
    }
    const j = current;
    if (m.type === 'abort') {
      current = undefined;
      j.writer?.close();
      port.postMessage({ type: 'aborted', job: m.job });
      return;
    }
    if (stopped(j)) return;
    if (m.type === 'text') j.ingest.pushText(m.text);
    else if (m.type === 'bytes') j.ingest.pushBytes(m.bytes);
    else {
      const summary = j.ingest.end();
      if (j.writer && j.terms) {
        j.writer.writeTerms(j.terms, summary.chunkCount);
        j.writer.close();
      }
      current = undefined;
      port.postMessage({ type: 'done', job: m.job, summary });
      return;
    }
    port.postMessage({ type: 'consumed', job: m.job });
  } catch (err) {
    current?.writer?.close();
    current = undefined;
    const code = (err as { code?: unknown }).code;
    port.postMessage({ type: 'error', job: m.job, message: err instanceof Error ? (err.stack ?? err.message) : String(err), ...(typeof code === 'string' ? { code } : {}) });
  }
});
