/**
 * Where an upload's CPU work runs (issue 28): in a worker thread of a small pool (at most
 * CONTEXT_UPLOADS_MAX, the number of uploads a backend takes at once), fed piece by piece,
 * or, for a log under `INLINE_MAX_CHARS`, on the calling thread (a worker is not worth its
 * start for a few lines). Both run LogIngest, so the result is the same.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './moduleWorker.js';
import { LogIngest, type ChunkRow, type LogIngestOptions, type LogIngestSummary } from './logIngest.js';
import type { ToWorker } from './ingestWorker.js';
import type { ChunkWriteTarget } from '../store/chunkWriter.js';
import { coalesceBytes } from './coalesce.js';

/** Logs shorter than this are ingested on the calling thread (it takes a few milliseconds). */
export const INLINE_MAX_CHARS = 256 * 1024;
/** Pieces of the log at most in the worker's queue, and batches of rows waiting for the database. */
const IN_FLIGHT = 4;
/** The size of the pieces a string log is cut into (for the worker, and on the calling thread). */
export const PIECE_CHARS = 1024 * 1024;
/** How long a writing worker may take to stop after a failure before its thread is ended anyway. */
const ABORT_WAIT_MS = 30_000;

type FromWorker =
  | { type: 'consumed'; job: number }
  | { type: 'rows'; job: number; rows: ChunkRow[] }
  | { type: 'written'; job: number; count: number; vectors: Float32Array }
  | { type: 'aborted'; job: number }
  | { type: 'done'; job: number; summary: LogIngestSummary }
  | { type: 'error'; job: number; message: string; code?: string };

/**
 * Where the rows of a job go: to `rows`, awaited batch by batch (the caller writes them), or,
 * with `write`, into the building context by the worker itself on its own SQLite connection
 * (store/chunkWriter.ts; the local embedder only), the caller getting each batch's vectors in
 * `written` (for the HNSW index).
 */
export type IngestSink =
  | { rows: (rows: ChunkRow[]) => Promise<void> }
  | { write: ChunkWriteTarget; dim: number; written: (vectors: Float32Array[]) => void };

/** An error of the worker, with the driver's code when it had one (a foreign key: the chat is gone). */
function workerError(m: { message: string; code?: string }): Error {
  const err = new Error(`ingest worker: ${m.message}`) as Error & { code?: string };
  if (m.code !== undefined) err.code = m.code;
  return err;
}

/**
 * The worker thread: ingestWorker.ts, compiled or (from the sources) through tsx. Its heap is
 * capped (`heapMb` old generation, an 8 MB young one): what an upload holds live is bounded (the
 * bounded store's tail and middle, the analyzer's blocks, a batch of rows), but left to its own
 * heuristics V8 let the heap grow with the garbage of a big log (issue 28: backend +340 MB at
 * the peak of a 300 MB upload).
 */
function startWorker(heapMb: number | undefined): Worker {
  return startModuleWorker(import.meta.url, 'ingestWorker', heapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 8 } });
}

/**
 * Heap bytes per kept character for the term postings a writing worker holds until the upload's
 * last chunk (store/chunkWriter.ts: every chunk of the kept text, up to 100 terms each; the chunk
 * text their sliced strings keep alive included). Measured (TermPostings over the kept text,
 * 2026-11-25): 2.3 bytes per character on a Maven log naming a new artifact on every line, 3.5
 * on lines of three new identifiers each, plus about 1 for the text; 6 leaves room.
 */
const TERM_HEAP_BYTES_PER_CHAR = 6;

/**
 * The ingest worker's heap for keep limits: room for the tail and middle text kept live (about 2
 * bytes of heap per character), for the term postings of all kept text (head, middle and tail:
 * a worker writing on SQLite keeps them to the end), plus a base. Without the postings' share a
 * log with a new identifier on every line ended a 60 MB upload with the worker out of memory.
 */
export function ingestHeapMb(keep: { headChars: number; tailChars: number; middleChars: number }): number {
  const live = 2 * (keep.tailChars + keep.middleChars);
  const terms = TERM_HEAP_BYTES_PER_CHAR * (keep.headChars + keep.tailChars + keep.middleChars);
  return 128 + Math.ceil((live + terms) / (1024 * 1024));
}

export class IngestPool {
  private readonly idle: Worker[] = [];
  /** Workers dropped after a failure, until their thread has ended (close waits for them). */
  private readonly ending = new Set<Promise<number>>();
  private nextJob = 1;
  /** Workers started so far (for tests and benchmarks). */
  started = 0;
  /** Batches of rows the workers wrote themselves (`write` sinks), for tests. */
  batchesWritten = 0;

  constructor(
    private readonly maxIdle = 1,
    /** The worker's old-generation heap cap in MB (ingestHeapMb); undefined: V8's default. */
    private readonly heapMb?: number,
  ) {}

  /**
   * Ingests a log arriving as pieces (text or UTF-8 bytes). The sink's `rows` gets each batch
   * of rows in order and is awaited before more is fed (the database sets the pace); or the
   * worker writes them (`write`). `inline` runs it on this thread (`rows` sinks only). A failure
   * of the source, of the sink or of the worker ends the job and is thrown: a worker that writes
   * is first stopped (it has written its last row when this throws); any other is dropped.
   */
  async run(
    options: LogIngestOptions,
    source: AsyncIterable<string | Uint8Array>,
    sink: IngestSink,
    inline = false,
    /** Aborted: the job ends at once and the signal's reason is thrown. */
    signal?: AbortSignal,
  ): Promise<LogIngestSummary> {
    if (inline) {
      if (!('rows' in sink)) throw new Error('an inline ingestion cannot write in a worker');
      return runInline(options, source, sink.rows, signal);
    }
    const onRows = 'rows' in sink ? sink.rows : undefined;
    const writing = 'write' in sink ? sink : undefined;
    const stop = new Int32Array(new SharedArrayBuffer(4));
    let workerStopped = false;
    let aborted: ((clean: boolean) => void) | undefined;
    const worker = this.acquire();
    const job = this.nextJob++;
    let inFlight = 0;
    let batches = 0;
    let chain = Promise.resolve();
    let failure: Error | undefined;
    let wake: (() => void) | undefined;
    let finish!: (s: LogIngestSummary) => void;
    const done = new Promise<LogIngestSummary>((resolve) => (finish = resolve));
    const poke = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const fail = (err: Error) => {
      failure ??= err;
      poke();
      finish(undefined as unknown as LogIngestSummary);
    };
    const onMessage = (m: FromWorker) => {
      // job 0: the worker's module failed to load (moduleWorker.ts); its cause, not just "exited"
      if (m.job !== job && !(m.job === 0 && m.type === 'error')) return;
      if (m.type === 'consumed') {
        inFlight--;
        poke();
      } else if (m.type === 'rows') {
        batches++;
        chain = chain.then(async () => {
          if (failure) return;
          try {
            await onRows!(m.rows);
          } catch (err) {
            fail(err instanceof Error ? err : new Error(String(err)));
          }
          batches--;
          poke();
        });
      } else if (m.type === 'written') {
        this.batchesWritten++;
        if (failure || !writing) return;
        try {
          const dim = writing.dim;
          writing.written(Array.from({ length: m.count }, (_, i) => m.vectors.slice(i * dim, (i + 1) * dim)));
        } catch (err) {
          fail(err instanceof Error ? err : new Error(String(err)));
        }
      } else if (m.type === 'aborted') {
        aborted?.(true);
      } else if (m.type === 'done') {
        void chain.then(() => finish(m.summary));
      } else {
        // The worker closed its connection before saying so: nothing more is written.
        workerStopped = true;
        fail(workerError(m));
      }
    };
    const onError = (err: Error) => fail(err);
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('ingestion stopped'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const onExit = () => {
      workerStopped = true;
      aborted?.(false);
      fail(new Error('ingest worker exited'));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const post = (m: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(m, transfer);
    let ok = false;
    try {
      post({ type: 'start', job, options, ...(writing ? { write: writing.write, stop: stop.buffer as SharedArrayBuffer } : {}) });
      // Byte pieces joined while more are at hand (coalesce.ts): fewer messages and wake-ups.
      for await (const piece of coalesceBytes(source)) {
        if (failure) break;
        for (const part of 'text' in piece ? cut(piece.text) : [piece]) {
          while (!failure && (inFlight >= IN_FLIGHT || batches >= IN_FLIGHT)) await new Promise<void>((resolve) => (wake = resolve));
          if (failure) break;
          inFlight++;
          if (typeof part === 'string') post({ type: 'text', job, text: part });
          // A joined piece is ours alone: moved to the worker, not copied.
          else post({ type: 'bytes', job, bytes: part.bytes }, part.owned ? [part.bytes.buffer as ArrayBuffer] : undefined);
        }
      }
      if (!failure) post({ type: 'end', job });
      const summary = await done;
      if (failure) throw failure;
      await chain;
      if (failure) throw failure;
      ok = true;
      return summary;
    } finally {
      // A writing worker is stopped, not cut: it may be inside a better-sqlite3 call, and the
      // caller discards the building context only once the worker writes no more.
      let stoppedCleanly = false;
      if (!ok && writing && !workerStopped) {
        Atomics.store(stop, 0, 1);
        const acknowledged = new Promise<boolean>((resolve) => {
          aborted = resolve;
          setTimeout(() => resolve(false), ABORT_WAIT_MS).unref();
        });
        post({ type: 'abort', job });
        stoppedCleanly = await acknowledged;
      }
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      this.release(worker, ok || stoppedCleanly);
    }
  }

  private acquire(): Worker {
    const worker = this.idle.pop();
    if (worker !== undefined) {
      worker.ref();
      return worker;
    }
    this.started++;
    return startWorker(this.heapMb);
  }

  private release(worker: Worker, healthy: boolean): void {
    if (healthy && this.idle.length < this.maxIdle) {
      worker.unref();
      this.idle.push(worker);
    } else {
      // The ingest worker runs only JavaScript (LogIngest loads no native module), so cutting
      // it anywhere is safe; close() still waits for the thread to be gone.
      const ended = worker.terminate();
      this.ending.add(ended);
      const forget = () => void this.ending.delete(ended);
      ended.then(forget, forget);
    }
  }

  /** Stops the idle workers and waits until every worker thread of the pool has ended. */
  async close(): Promise<void> {
    const workers = this.idle.splice(0);
    await Promise.all([...workers.map((w) => w.terminate()), ...this.ending]);
  }
}

function* cut(text: string): Generator<string> {
  for (let i = 0; i < text.length; i += PIECE_CHARS) yield text.slice(i, i + PIECE_CHARS);
}

async function runInline(
  options: LogIngestOptions,
  source: AsyncIterable<string | Uint8Array>,
  onRows: (rows: ChunkRow[]) => Promise<void>,
  signal?: AbortSignal,
): Promise<LogIngestSummary> {
  const queue: ChunkRow[][] = [];
  const ingest = new LogIngest(options, (rows) => queue.push(rows));
  const drain = async () => {
    while (queue.length > 0) await onRows(queue.shift()!);
  };
  for await (const piece of source) {
    // A long text (a JSON upload's whole log) in the worker's pieces: its batches reach the
    // database, and a stop is seen, as they are made, not only after the whole log (tt5, session 45).
    for (const part of typeof piece === 'string' ? cut(piece) : [piece]) {
      signal?.throwIfAborted();
      if (typeof part === 'string') ingest.pushText(part);
      else ingest.pushBytes(part);
      await drain();
    }
  }
  const summary = ingest.end();
  await drain();
  return summary;
}
