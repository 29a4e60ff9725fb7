/**
 * Retrieval over a chat's stored log and the ChatContext the answer engines read. The database
 * says which context is current; the HNSW index of this process is checked against it and
 * rebuilt from the database when it does not match, so any backend replica answers any chat.
 */
import type { IngestPool } from './ingestPool.js';
import type { LogKeepLimits } from './logIngest.js';
import type { ChatContext, LogPassage } from '../answer/engine.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Db } from '../db.js';
import { isoTime } from '../time.js';
import { chunksBySeq, chunksWithTerm, chunkVectors, currentContext, logLines, type ContextRecord } from '../store/contexts.js';
import type { Embedder } from './embed.js';
import { containsTerm, extractTerms, hybridRank } from './terms.js';
import { deleteChatIndex, VectorIndexCache, type IndexTarget } from './vectorIndex.js';

export { deleteChatIndex };

/** What retrieval and uploads need: the database, the embedder and this process's index cache. */
export interface ContextDeps {
  db: Db;
  embedder: Embedder;
  indexes: VectorIndexCache;
  /** The process's lifecycle: uploads are marked with its replica id and tracked while live. */
  lifecycle?: Lifecycle;
  /** Where uploads' CPU work runs (default: one pool per process). */
  ingestPool?: IngestPool;
  /** What a context keeps of a big log (default DEFAULT_LOG_KEEP, ingest.ts). */
  logKeep?: LogKeepLimits;
}

/** The context dependencies of one backend process (one index cache under DATA_DIR/index/). */
export function createContextDeps(db: Db, dataDir: string, embedder: Embedder): ContextDeps {
  return { db, embedder, indexes: new VectorIndexCache(dataDir) };
}

/** Vector candidates fetched per passage asked for, re-ranked by exact terms. */
const CANDIDATES_PER_RESULT = 8;
const MIN_CANDIDATES = 48;
/** Question identifiers looked up exactly, and chunks taken per identifier. */
const MAX_QUERY_TERMS = 4;
const CHUNKS_PER_TERM = 16;

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * (b[i] ?? 0);
  return s;
};

function targetOf(context: ContextRecord): IndexTarget {
  return {
    chatId: context.chatId,
    contextId: context.id,
    uploadedAt: context.uploadedAt,
    embedderId: context.embedderId,
    dim: context.dim,
    count: context.chunkCount,
  };
}

/**
 * The k passages of the context's log best matching `query`: vector neighbours from the HNSW
 * index plus the chunks holding the question's identifiers (exact lookup in their `terms`),
 * ranked by hybridRank. Empty when there is no log, and when
 * the context was embedded by another embedder than this process's (EMBEDDINGS changed): its
 * vectors cannot be compared with the question's until it is uploaded again.
 */
export async function retrieveFromContext(
  deps: ContextDeps,
  context: ContextRecord,
  query: string,
  k: number,
): Promise<LogPassage[]> {
  if (context.chunkCount === 0 || k <= 0) return [];
  if (context.embedderId !== deps.embedder.id || context.dim !== deps.embedder.dim) return [];
  const [queryVector] = await deps.embedder.embed([query]);
  if (!queryVector) return [];
  const target = targetOf(context);
  const neighbours = await deps.indexes.search(
    target,
    () => chunkVectors(deps.db, context.id),
    queryVector,
    Math.max(MIN_CANDIDATES, k * CANDIDATES_PER_RESULT),
  );
  const similarity = new Map(neighbours.map((n) => [n.label, n.similarity]));
  const chunks = await chunksBySeq(
    deps.db,
    context.id,
    neighbours.map((n) => n.label),
  );
  // The question's identifiers also find their chunks exactly, wherever the vectors put them.
  const seen = new Set(chunks.map((c) => c.seq));
  const candidates = chunks.map((c) => ({ ...c, similarity: similarity.get(c.seq) ?? 0 }));
  const lowered = candidates.map((c) => c.text.toLowerCase());
  for (const term of extractTerms(query, MAX_QUERY_TERMS)) {
    // Only a term the vector neighbours miss needs the exact lookup.
    if (lowered.some((text) => containsTerm(text, term))) continue;
    for (const c of await chunksWithTerm(deps.db, context, term, CHUNKS_PER_TERM)) {
      if (seen.has(c.seq)) continue;
      seen.add(c.seq);
      candidates.push({ seq: c.seq, start_line: c.start_line, end_line: c.end_line, text: c.text, similarity: dot(queryVector, c.embedding) });
    }
  }
  const ranked = hybridRank(
    query,
    candidates.sort((a, b) => b.similarity - a.similarity),
  );
  return ranked.slice(0, k).map((c) => ({
    start_line: c.start_line,
    end_line: c.end_line,
    text: c.text,
    score: Math.round(c.score * 1000) / 1000,
  }));
}

/** retrieve(chat, question, k): the chat's current context, searched; [] when none. */
export async function retrieve(deps: ContextDeps, chatId: number, query: string, k: number): Promise<LogPassage[]> {
  const context = await currentContext(deps.db, chatId);
  return context ? retrieveFromContext(deps, context, query, k) : [];
}

/** The chat's context as the answer engines see it, or null when nothing was uploaded. */
export async function loadChatContext(deps: ContextDeps, chatId: number): Promise<ChatContext | null> {
  const context = await currentContext(deps.db, chatId);
  if (!context) return null;
  return {
    // Stored canonical: by the codec on upload, and by migration 011 for older contexts.
    ciContext: context.ciContext,
    uploadedAt: isoTime(context.uploadedAt),
    logLineCount: context.logLineCount,
    ...(context.logNotKept ? { logNotKept: context.logNotKept } : {}),
    failureExcerpts: context.failureExcerpts,
    retrieve: (query, k) => retrieveFromContext(deps, context, query, k),
    readLines: (from, to) => logLines(deps.db, context.id, from, Math.min(to, context.logLineCount)),
  };
}
