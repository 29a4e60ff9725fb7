/**
 * An upload, from the validated CiContext to a ready context: secrets masked everywhere, the
 * log cleaned, masked, analysed, chunked, embedded and indexed as it streams past (in a worker
 * thread: logIngest.ts, ingestPool.ts), then committed in one transaction (store/contexts.ts).
 * Nothing of the log is held whole: the analyzer keeps a window and its blocks, the stored
 * context at most STORED_LOG_MAX_CHARS of text or the last STORED_TAIL_LINES lines.
 */
import { stepFocus } from '../../core/log/jenkins.js';
import { maskNamedValues, maskSecrets } from '../../core/secrets.js';
import type { CiContext } from '../../protocol/types.js';
import {
  createBuildingContext,
  discardContext,
  finishContext,
  insertChunks,
  insertTerms,
  sqliteWriteTarget,
  TermPostings,
  type StoredExcerpt,
} from '../store/contexts.js';
import { splitLines } from './chunk.js';
import { LocalEmbedder } from './embed.js';
import { INLINE_MAX_CHARS, IngestPool, type IngestSink } from './ingestPool.js';
import type { ChunkRow, LogKeepLimits, LogNotKept } from './logIngest.js';
import type { ContextDeps } from './retrieve.js';
import { WorkerIndexBuilder } from './vectorIndex.js';

/** Rows whose terms are indexed between two turns of the event loop (issue 28: no upload stalls other requests). */
const TERM_ROWS_PER_TURN = 32;

/** The stored context keeps the log text itself up to this size; above, only its tail. */
export const STORED_LOG_MAX_CHARS = 2 * 1024 * 1024;
/** Lines of the tail kept in the stored context when the log is bigger than that. */
export const STORED_TAIL_LINES = 1000;
/** Longest line kept in excerpts and in a stored tail (a 10 MB line must not make a 10 MB row). */
export const STORED_LINE_MAX_CHARS = 2000;

const MiB = 1024 * 1024;
/** CONTEXT_LOG_{HEAD,TAIL,MIDDLE}_MIB in characters (logIngest.ts LogKeepLimits). */
export function logKeepLimits(headMib: number, tailMib: number, middleMib: number): LogKeepLimits {
  return { headChars: headMib * MiB, tailChars: tailMib * MiB, middleChars: middleMib * MiB };
}
/** What a context keeps of a big log unless CONTEXT_LOG_*_MIB say otherwise: 16 + 16 MiB whole, 8 MiB between. */
export const DEFAULT_LOG_KEEP: LogKeepLimits = logKeepLimits(16, 16, 8);

export interface IngestResult {
  contextId: number;
  /** The context as stored (secrets masked): what `received_data` echoes. */
  ciContext: CiContext;
  uploadedAt: number;
  logLineCount: number;
  chunkCount: number;
  failureExcerpts: StoredExcerpt[];
  /** What the context does not hold of a log over the keep limits. */
  logNotKept?: LogNotKept;
}

/** Raised when the chat disappeared during the upload (deleted meanwhile). */
export class ChatGone extends Error {}

/**
 * Every string in a JSON-like value with its secrets masked (keys are kept). Iterative, so the
 * depth of client JSON cannot exhaust the stack (the body reader refuses more than 64 levels).
 */
export function maskDeep<T>(value: T): T {
  const work: [unknown[] | Record<string, unknown>, unknown[] | Record<string, unknown>][] = [];
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return maskSecrets(v);
    if (Array.isArray(v)) {
      const target: unknown[] = [];
      work.push([v, target]);
      return target;
    }
    if (typeof v === 'object' && v !== null) {
      const target: Record<string, unknown> = {};
      work.push([v as Record<string, unknown>, target]);
      return target;
    }
    return v;
  };
  const root = copy(value);
  while (work.length > 0) {
    const [source, target] = work.pop()!;
    if (Array.isArray(source)) for (const v of source) (target as unknown[]).push(copy(v));
    else for (const [k, v] of Object.entries(source)) (target as Record<string, unknown>)[k] = copy(v);
  }
  return root as T;
}

/**
 * The values of `ciEnvironment` and of the build parameters (this build's, the previous and the
 * last successful one's) masked by their names (core/secrets.ts isSecretName: `DB_PASS`,
 * `NPM_TOKEN`, `SSH_KEY`...), on top of the masking of every string by its shape.
 */
export function maskByName(ci: CiContext): CiContext {
  const out: CiContext = { ...ci };
  if (ci.ciEnvironment !== undefined) out.ciEnvironment = maskNamedValues(ci.ciEnvironment);
  const withParameters = <B>(build: B): B => {
    if (typeof build !== 'object' || build === null || !('parameters' in build)) return build;
    return { ...build, parameters: maskNamedValues((build as { parameters: unknown }).parameters) };
  };
  if (ci.buildDetails) {
    const build = withParameters(ci.buildDetails);
    if (build.previousBuild !== undefined) build.previousBuild = withParameters(build.previousBuild);
    if (build.lastSuccessfulBuild !== undefined) build.lastSuccessfulBuild = withParameters(build.lastSuccessfulBuild);
    out.buildDetails = build;
  }
  return out;
}

/** Which field carries the build log, and the log (undefined when the context has none). */
function logOf(ci: CiContext): { field: 'consoleLog' | 'consoleLogTail'; text: string } | undefined {
  const build = ci.buildDetails;
  if (!build) return undefined;
  if (typeof build.consoleLog === 'string') return { field: 'consoleLog', text: build.consoleLog };
  if (typeof build.consoleLogTail === 'string') return { field: 'consoleLogTail', text: build.consoleLogTail };
  return undefined;
}

/**
 * Stores `ci` as the chat's new context. Until the final transaction nothing a reader sees
 * changes; on any failure the half-written upload is removed and the previous context stays.
 */
export async function ingestContext(
  deps: ContextDeps,
  chatId: number,
  ci: CiContext,
  /** `log`: the build's log given apart (the JSON route's unescaped pieces), in place of the one `ci` holds. */
  options: { inline?: boolean; log?: LogSource } = {},
): Promise<IngestResult> {
  const text = options.log === undefined ? logOf(ci) : undefined;
  const log = options.log ?? (text === undefined ? undefined : { field: text.field, pieces: [text.text], chars: text.text.length });
  const greenLog = greenLogOf(ci);
  return ingestLog(deps, chatId, ci, log, {
    ...(greenLog !== undefined ? { green: greenLog } : {}),
    ...(options.inline !== undefined ? { inline: options.inline } : {}),
  });
}

/** A log arriving in pieces (text or UTF-8 bytes), for the context field it fills. */
export interface LogSource {
  field: 'consoleLog' | 'consoleLogTail';
  pieces: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  /** Its length when known (a small log is ingested on the calling thread). */
  chars?: number;
}

/** The process's ingest workers (ContextDeps.ingestPool overrides it). */
const sharedPool = new IngestPool();

/**
 * Stores `ci` (its log, if any, given apart as `log`) as the chat's new context. The log's CPU
 * work (cleaning, masking, analysis, chunking, local embedding, terms) runs in a worker thread
 * fed piece by piece; this thread writes the rows. Until the final transaction nothing a reader
 * sees changes; on any failure (the source's too: a client gone mid-upload) the half-written
 * upload is removed and the previous context stays.
 */
export async function ingestLog(
  deps: ContextDeps,
  chatId: number,
  ci: CiContext,
  log: LogSource | undefined,
  options: { green?: string; inline?: boolean } = {},
): Promise<IngestResult> {
  const { db, embedder } = deps;
  // Everything but the log is small: mask it whole. The log is masked line by line.
  const { consoleLog: _log, consoleLogTail: _tail, ...buildRest } = ci.buildDetails ?? {};
  const stored: CiContext = maskByName(maskDeep({ ...ci, ...(ci.buildDetails ? { buildDetails: buildRest } : {}) }));
  const withGreenLines = (lines: number) => {
    const green = stored.buildDetails?.lastSuccessfulBuild;
    if (stored.buildDetails && typeof green === 'object' && green !== null) {
      // The passing log is kept as fingerprints only: the stored context says how long it was.
      const { consoleLog: _g, consoleLogTail: _gt, ...greenRest } = green;
      stored.buildDetails = { ...stored.buildDetails, lastSuccessfulBuild: { ...greenRest, comparedLogLines: lines } };
    }
  };

  let contextId: number;
  try {
    contextId = await createBuildingContext(db, chatId, embedder, deps.lifecycle?.replicaId ?? null);
  } catch (err) {
    if (isForeignKeyError(err)) throw new ChatGone(`chat ${chatId} is gone`);
    throw err;
  }
  // Stopped when the backend stops (server.ts): the upload then discards its context below.
  const stop = new AbortController();
  deps.lifecycle?.uploadStarted(contextId, () => stop.abort(new Error('the backend is stopping: upload cut')));
  const builder = new WorkerIndexBuilder(embedder.dim);
  try {
    let chunkCount = 0;
    let lineCount = 0;
    let failureExcerpts: StoredExcerpt[] = [];
    let logNotKept: LogNotKept | undefined;
    const terms = new TermPostings();
    if (log) {
      // The local embedder is pure computation: the worker runs its own copy (any other, such as
      // a remote API or a subclass, embeds here).
      const local = Object.getPrototypeOf(embedder) === LocalEmbedder.prototype;
      const inline = options.inline ?? (log.chars !== undefined && log.chars < INLINE_MAX_CHARS);
      // On a SQLite file the worker writes the rows itself on its own connection: better-sqlite3
      // is synchronous, and the inserts on this thread stalled every other request (issue 28).
      const target = local && !inline ? sqliteWriteTarget(db, contextId) : undefined;
      const sink: IngestSink = target
        ? {
            write: target,
            dim: embedder.dim,
            written: (vectors) => {
              stop.signal.throwIfAborted();
              builder.add(vectors);
              chunkCount += vectors.length;
            },
          }
        : {
            rows: async (rows: ChunkRow[]) => {
              stop.signal.throwIfAborted();
              const vectors = local ? rows.map((r) => r.embedding ?? new Float32Array(embedder.dim)) : await embedder.embed(rows.map((r) => r.text));
              // The index worker inserts these while this thread writes the rows.
              builder.add(vectors);
              // A batch's terms are tens of thousands of map updates: other requests get turns between slices.
              for (let k = 0; k < rows.length; k++) {
                const r = rows[k]!;
                terms.add(r.seq, r.terms);
                if (k % TERM_ROWS_PER_TURN === TERM_ROWS_PER_TURN - 1) await new Promise<void>((resolve) => setImmediate(resolve));
              }
              await insertChunks(
                db,
                contextId,
                rows.map((r, i) => ({ seq: r.seq, start_line: r.start_line, end_line: r.end_line, text: r.text, embedding: vectors[i]! })),
              );
              chunkCount += rows.length;
            },
          };
      const pool = deps.ingestPool ?? sharedPool;
      const summary = await pool.run(
        {
          ...(local ? { localDim: embedder.dim } : {}),
          ...(options.green !== undefined ? { green: options.green } : {}),
          focus: focusOf(ci, log.field),
          storedMaxChars: STORED_LOG_MAX_CHARS,
          tailLines: STORED_TAIL_LINES,
          lineMaxChars: STORED_LINE_MAX_CHARS,
          keep: deps.logKeep ?? DEFAULT_LOG_KEEP,
        },
        toAsync(log.pieces),
        sink,
        inline,
        stop.signal,
      );
      stop.signal.throwIfAborted();
      // The worker wrote the term index with the chunks (its last act before `done`).
      if (!target) await insertTerms(db, contextId, terms, chunkCount);
      else if (summary.chunkCount !== chunkCount) throw new Error(`ingest worker wrote ${summary.chunkCount} chunks, ${chunkCount} reached the index`);
      lineCount = summary.lineCount;
      failureExcerpts = summary.excerpts;
      logNotKept = summary.notKept;
      const buildDetails = { ...(stored.buildDetails ?? {}) };
      if (summary.storedLog !== undefined) buildDetails[log.field] = summary.storedLog;
      else buildDetails.consoleLogTail = summary.storedTail ?? '';
      stored.buildDetails = buildDetails;
      if (summary.greenLines !== undefined) withGreenLines(summary.greenLines);
    } else if (options.green !== undefined) {
      withGreenLines(greenLineCount(options.green));
    }
    const uploadedAt = await finishContext(db, contextId, chatId, {
      ciContext: stored,
      logLineCount: lineCount,
      chunkCount,
      failureExcerpts,
      logNotKept: logNotKept ?? null,
    });
    if (uploadedAt === null) throw new ChatGone(`chat ${chatId} is gone`);
    await deps.indexes.install(
      { chatId, contextId, uploadedAt, embedderId: embedder.id, dim: embedder.dim, count: chunkCount },
      builder,
    );
    return { contextId, ciContext: stored, uploadedAt, logLineCount: lineCount, chunkCount, failureExcerpts, ...(logNotKept ? { logNotKept } : {}) };
  } catch (err) {
    await discardContext(db, contextId).catch(() => undefined);
    if (isForeignKeyError(err)) throw new ChatGone(`chat ${chatId} is gone`);
    throw err;
  } finally {
    // The index worker has ended before the upload counts as ended: a backend stopping waits
    // for the uploads (server.ts), so it never exits with the thread inside hnswlib.
    await builder.close();
    deps.lifecycle?.uploadEnded(contextId);
  }
}

async function* toAsync<T>(pieces: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  for await (const piece of pieces) yield piece;
}

/** The failing pipeline steps' own lines (`buildDetails.failingSteps[].logLines`) in the uploaded log's numbering. */
function focusOf(ci: CiContext, field: 'consoleLog' | 'consoleLogTail'): [number, number][] {
  const build = ci.buildDetails;
  if (!build || !Array.isArray(build.failingSteps)) return [];
  const start = typeof build.consoleLogTailStartLine === 'number' ? build.consoleLogTailStartLine : undefined;
  return stepFocus(build.failingSteps, field, start);
}

/** The green build's log text, when the context carries one. */
function greenLogOf(ci: CiContext): string | undefined {
  const green = ci.buildDetails?.lastSuccessfulBuild;
  if (typeof green !== 'object' || green === null) return undefined;
  return typeof green.consoleLog === 'string' ? green.consoleLog : typeof green.consoleLogTail === 'string' ? green.consoleLogTail : undefined;
}

function greenLineCount(text: string): number {
  let n = 0;
  for (const _ of splitLines(text)) n++;
  return n;
}

function isForeignKeyError(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown };
  return (
    e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    e.code === 'ER_NO_REFERENCED_ROW_2' ||
    e.code === 'ER_NO_REFERENCED_ROW' ||
    e.errno === 1452
  );
}
