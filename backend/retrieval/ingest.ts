/**
 * An upload, from the validated CiContext to a ready context: secrets masked everywhere, the
 * log cleaned, masked, analysed, chunked, embedded and indexed as it streams past, then
 * committed in one transaction (store/contexts.ts). The log string is read once, line by line;
 * what is kept whole besides it is the cleaned lines the analyzer needs.
 */
import { analyzeLines, excerptText } from '../../core/log/analyze.js';
import { BaselineBuilder, type Baseline } from '../../core/log/baseline.js';
import { cleanLine } from '../../core/log/clean.js';
import { createLineMasker, maskNamedValues, maskSecrets } from '../../core/secrets.js';
import type { CiContext } from '../../protocol/types.js';
import {
  createBuildingContext,
  discardContext,
  finishContext,
  insertChunks,
  insertTerms,
  TermPostings,
  type StoredExcerpt,
} from '../store/contexts.js';
import { Chunker, splitLines, type LogChunk } from './chunk.js';
import { extractTerms } from './terms.js';
import type { ContextDeps } from './retrieve.js';
import { WorkerIndexBuilder } from './vectorIndex.js';

/** The stored context keeps the log text itself up to this size; above, only its tail. */
export const STORED_LOG_MAX_CHARS = 2 * 1024 * 1024;
/** Lines of the tail kept in the stored context when the log is bigger than that. */
export const STORED_TAIL_LINES = 1000;
/** Longest line kept in excerpts and in a stored tail (a 10 MB line must not make a 10 MB row). */
export const STORED_LINE_MAX_CHARS = 2000;
/** Chunks embedded and inserted together (one INSERT, one message to the index worker). */
const EMBED_BATCH = 256;
/** Identifiers of a chunk indexed for exact lookup at most. */
const TERMS_PER_CHUNK = 100;

export interface IngestResult {
  contextId: number;
  /** The context as stored (secrets masked): what `received_data` echoes. */
  ciContext: CiContext;
  uploadedAt: number;
  logLineCount: number;
  chunkCount: number;
  failureExcerpts: StoredExcerpt[];
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
 * The last green build's log (`buildDetails.lastSuccessfulBuild`) as line fingerprints: the
 * failure excerpts are ranked against it, and its text is not stored (only its line count).
 * Masked like the failing log, so a line that held a secret in both compares equal.
 */
function baselineOf(ci: CiContext): { baseline: Baseline; lines: number } | undefined {
  const green = ci.buildDetails?.lastSuccessfulBuild;
  if (typeof green !== 'object' || green === null) return undefined;
  const text = typeof green.consoleLog === 'string' ? green.consoleLog : typeof green.consoleLogTail === 'string' ? green.consoleLogTail : undefined;
  if (text === undefined) return undefined;
  const mask = createLineMasker();
  const builder = new BaselineBuilder();
  for (const raw of splitLines(text)) builder.baseline.addLine(mask(cleanLine(raw)));
  return { baseline: builder.finish(), lines: builder.baseline.lines };
}

const capLine = (line: string): string =>
  line.length > STORED_LINE_MAX_CHARS ? `${line.slice(0, STORED_LINE_MAX_CHARS)} [line cut: ${line.length} characters]` : line;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stores `ci` as the chat's new context. Until the final transaction nothing a reader sees
 * changes; on any failure the half-written upload is removed and the previous context stays.
 */
export async function ingestContext(deps: ContextDeps, chatId: number, ci: CiContext): Promise<IngestResult> {
  const { db, embedder } = deps;
  const log = logOf(ci);
  // Everything but the log is small: mask it whole. The log is masked line by line below.
  const { consoleLog: _log, consoleLogTail: _tail, ...buildRest } = ci.buildDetails ?? {};
  const green = baselineOf(ci);
  if (green && typeof buildRest.lastSuccessfulBuild === 'object' && buildRest.lastSuccessfulBuild !== null) {
    // The passing log is kept as fingerprints only: the stored context says how long it was.
    const { consoleLog: _g, consoleLogTail: _gt, ...greenRest } = buildRest.lastSuccessfulBuild;
    buildRest.lastSuccessfulBuild = { ...greenRest, comparedLogLines: green.lines };
  }
  const stored: CiContext = maskByName(maskDeep({ ...ci, ...(ci.buildDetails ? { buildDetails: buildRest } : {}) }));

  let contextId: number;
  try {
    contextId = await createBuildingContext(db, chatId, embedder, deps.lifecycle?.replicaId ?? null);
  } catch (err) {
    if (isForeignKeyError(err)) throw new ChatGone(`chat ${chatId} is gone`);
    throw err;
  }
  deps.lifecycle?.uploadStarted(contextId);
  const builder = new WorkerIndexBuilder(embedder.dim);
  try {
    const lines: string[] = [];
    let chunkCount = 0;
    let storedChars = 0;
    const terms = new TermPostings();
    if (log) {
      const mask = createLineMasker();
      const chunker = new Chunker();
      let pending: LogChunk[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        const batch = pending;
        pending = [];
        const vectors = await embedder.embed(batch.map((c) => c.text));
        // The index worker inserts these while this thread goes on with the terms and the rows.
        builder.add(vectors);
        const rows = batch.map((c, i) => {
          const seq = chunkCount + i;
          terms.add(seq, extractTerms(c.text, TERMS_PER_CHUNK));
          return { seq, start_line: c.start_line, end_line: c.end_line, text: c.text, embedding: vectors[i]! };
        });
        await insertChunks(db, contextId, rows);
        chunkCount += batch.length;
        await yieldToEventLoop();
      };
      for (const raw of splitLines(log.text)) {
        const line = mask(cleanLine(raw));
        lines.push(line);
        storedChars += line.length + 1;
        for (const chunk of chunker.push(line)) pending.push(chunk);
        if (pending.length >= EMBED_BATCH) await flush();
      }
      pending.push(...chunker.end());
      await flush();
      await insertTerms(db, contextId, terms, chunkCount);
    }
    const failureExcerpts: StoredExcerpt[] = lines.length
      ? analyzeLines(lines, green ? { baseline: green.baseline } : {}).map((e) => ({
          ...e,
          text: excerptText(lines, e).split('\n').map(capLine).join('\n'),
        }))
      : [];
    if (log) {
      const buildDetails = { ...(stored.buildDetails ?? {}) };
      if (storedChars <= STORED_LOG_MAX_CHARS) {
        buildDetails[log.field] = lines.length ? `${lines.join('\n')}\n` : '';
      } else {
        buildDetails.consoleLogTail = `${lines.slice(-STORED_TAIL_LINES).map(capLine).join('\n')}\n`;
      }
      stored.buildDetails = buildDetails;
    }
    const uploadedAt = await finishContext(db, contextId, chatId, {
      ciContext: stored,
      logLineCount: lines.length,
      chunkCount,
      failureExcerpts,
    });
    if (uploadedAt === null) throw new ChatGone(`chat ${chatId} is gone`);
    await deps.indexes.install(
      { chatId, contextId, uploadedAt, embedderId: embedder.id, dim: embedder.dim, count: chunkCount },
      builder,
    );
    return { contextId, ciContext: stored, uploadedAt, logLineCount: lines.length, chunkCount, failureExcerpts };
  } catch (err) {
    await discardContext(db, contextId).catch(() => undefined);
    if (isForeignKeyError(err)) throw new ChatGone(`chat ${chatId} is gone`);
    throw err;
  } finally {
    deps.lifecycle?.uploadEnded(contextId);
    await builder.close();
  }
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
