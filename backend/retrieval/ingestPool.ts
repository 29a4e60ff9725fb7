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

/** Logs shorter than this are ingested on the calling thread (it takes a few milliseconds). */
export const INLINE_MAX_CHARS = 256 * 1024;
/** Pieces of the log at most in the worker's queue, and batches of rows waiting for the database. */
const IN_FLIGHT = 4;
/** The size of the pieces a string log is cut into for the worker. */
export const PIECE_CHARS = 1024 * 1024;

type FromWorker =
  | { type: 'consumed'; job: number }
  | { type: 'rows'; job: number; rows: ChunkRow[] }
  | { type: 'done'; job: number; summary: LogIngestSummary }
  | { type: 'error'; job: number; message: string };

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

/** The ingest worker's heap for keep limits: room for the tail and middle text kept live (about 2 bytes of heap per character), plus a base. */
export function ingestHeapMb(keep: { tailChars: number; middleChars: number }): number {
  return 128 + Math.ceil((2 * (keep.tailChars + keep.middleChars)) / (1024 * 1024));
}

export class IngestPool {
  private readonly idle: Worker[] = [];
  /** Workers dropped after a failure, until their thread has ended (close waits for them). */
  private readonly ending = new Set<Promise<number>>();
  private nextJob = 1;
  /** Workers started so far (for tests and benchmarks). */
  started = 0;

  constructor(
    private readonly maxIdle = 1,
    /** The worker's old-generation heap cap in MB (ingestHeapMb); undefined: V8's default. */
    private readonly heapMb?: number,
  ) {}

  /**
   * Ingests a log arriving as pieces (text or UTF-8 bytes). `onRows` gets each batch of rows in
   * order and is awaited before more is fed (the database sets the pace). `inline` runs it
   * on this thread. A failure of the source, of `onRows` or of the worker ends the job (the
   * worker is dropped) and is thrown.
   */
  async run(
    options: LogIngestOptions,
    source: AsyncIterable<string | Uint8Array>,
    onRows: (rows: ChunkRow[]) => Promise<void>,
    inline = false,
    /** Aborted: the job ends at once (the worker is dropped) and the signal's reason is thrown. */
    signal?: AbortSignal,
  ): Promise<LogIngestSummary> {
    if (inline) return runInline(options, source, onRows, signal);
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
            await onRows(m.rows);
          } catch (err) {
            fail(err instanceof Error ? err : new Error(String(err)));
          }
          batches--;
          poke();
        });
      } else if (m.type === 'done') {
        void chain.then(() => finish(m.summary));
      } else {
        fail(new Error(`ingest worker: ${m.message}`));
      }
    };
    const onError = (err: Error) => fail(err);
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('ingestion stopped'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const onExit = () => fail(new Error('ingest worker exited'));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const post = (m: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(m, transfer);
    let ok = false;
    try {
      post({ type: 'start', job, options });
      for await (const piece of source) {
        if (failure) break;
        for (const part of typeof piece === 'string' ? cut(piece) : [piece]) {
          while (!failure && (inFlight >= IN_FLIGHT || batches >= IN_FLIGHT)) await new Promise<void>((resolve) => (wake = resolve));
          if (failure) break;
          inFlight++;
          if (typeof part === 'string') post({ type: 'text', job, text: part });
          else post({ type: 'bytes', job, bytes: part });
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
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      this.release(worker, ok);
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
    signal?.throwIfAborted();
    if (typeof piece === 'string') ingest.pushText(piece);
    else ingest.pushBytes(piece);
    await drain();
  }
  const summary = ingest.end();
  await drain();
  return summary;
}
