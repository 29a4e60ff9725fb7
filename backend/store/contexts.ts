/**
 * The contexts and context_chunks tables: an upload is written as a `building` context with
 * its chunks, then made the chat's context in one transaction that also deletes the chat's
 * older contexts. Readers only ever see `ready` contexts, so a failed or interrupted upload
 * leaves the previous context whole.
 */
import type { Knex } from 'knex';
import type { Db } from '../db.js';
import type { CiContext, LogExcerpt } from '../../protocol/types.js';
import { nowMs } from './chats.js';

export type StoredExcerpt = LogExcerpt & { text: string };

/** A chat's current (ready) context as stored. */
export interface ContextRecord {
  id: number;
  chatId: number;
  ciContext: CiContext;
  uploadedAt: number;
  logLineCount: number;
  chunkCount: number;
  failureExcerpts: StoredExcerpt[];
  embedderId: string;
  dim: number;
}

export interface ChunkRow {
  seq: number;
  start_line: number;
  end_line: number;
  text: string;
}

interface ContextRow {
  id: number | string;
  chat_id: number | string;
  ci_context: string | object;
  uploaded_at: number | string | null;
  log_line_count: number | string;
  chunk_count: number | string;
  failure_excerpts: string | object;
  embedder_id: string;
  dim: number | string;
}

/** A `building` context left behind by a crashed process is removed once this old. */
const STALE_BUILDING_MS = 60 * 60 * 1000;

function parseJson<T>(value: string | object): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function present(row: ContextRow): ContextRecord {
  return {
    id: Number(row.id),
    chatId: Number(row.chat_id),
    ciContext: parseJson<CiContext>(row.ci_context),
    uploadedAt: Number(row.uploaded_at ?? 0),
    logLineCount: Number(row.log_line_count),
    chunkCount: Number(row.chunk_count),
    failureExcerpts: parseJson<StoredExcerpt[]>(row.failure_excerpts),
    embedderId: row.embedder_id,
    dim: Number(row.dim),
  };
}

/** Starts an upload: a `building` context no reader sees yet. */
export async function createBuildingContext(
  db: Db,
  chatId: number,
  embedder: { id: string; dim: number },
): Promise<number> {
  const [id] = await db('contexts').insert({
    chat_id: chatId,
    state: 'building',
    ci_context: '{}',
    created_at: nowMs(),
    uploaded_at: null,
    log_line_count: 0,
    chunk_count: 0,
    failure_excerpts: '[]',
    embedder_id: embedder.id,
    dim: embedder.dim,
  });
  return Number(id);
}

/** Float32 vector as little-endian bytes (the BLOB stored). */
export function vectorToBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** BLOB bytes back to a vector (copied: a Buffer slice may not be 4-byte aligned). */
export function bytesToVector(bytes: Buffer | Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** Rows per INSERT: well under SQLite's variable limit and MySQL's max_allowed_packet. */
const INSERT_BATCH = 200;

/** Adds chunks (with their vectors) to a building context. */
export async function insertChunks(
  db: Db,
  contextId: number,
  chunks: { seq: number; start_line: number; end_line: number; text: string; embedding: Float32Array; terms?: string[] }[],
): Promise<void> {
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    await db('context_chunks').insert(
      chunks.slice(i, i + INSERT_BATCH).map((c) => ({
        context_id: contextId,
        seq: c.seq,
        start_line: c.start_line,
        end_line: c.end_line,
        text: c.text,
        embedding: vectorToBytes(c.embedding),
      })),
    );
    const terms = chunks
      .slice(i, i + INSERT_BATCH)
      .filter((c) => c.terms && c.terms.length > 0)
      .map((c) => ({ context_id: contextId, seq: c.seq, terms: ` ${c.terms!.join(' ')} ` }));
    if (terms.length > 0) await db('context_chunk_terms').insert(terms);
  }
}

const isDeadlock = (err: unknown): boolean => {
  const code = (err as { code?: unknown }).code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY';
};

/**
 * Makes a building context the chat's context, in one transaction: it becomes `ready` with
 * its final fields, and the chat's other ready contexts (and building ones abandoned long ago)
 * are deleted with their chunks. Of two uploads racing, the one committed last wins. Returns
 * the upload time (last_upload_at), or null when the chat or the context is gone.
 */
export async function finishContext(
  db: Db,
  contextId: number,
  chatId: number,
  fields: { ciContext: CiContext; logLineCount: number; chunkCount: number; failureExcerpts: StoredExcerpt[] },
): Promise<number | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction(async (trx: Knex.Transaction) => {
        const uploadedAt = nowMs();
        const n = await trx('contexts')
          .where({ id: contextId, chat_id: chatId, state: 'building' })
          .update({
            state: 'ready',
            uploaded_at: uploadedAt,
            ci_context: JSON.stringify(fields.ciContext),
            log_line_count: fields.logLineCount,
            chunk_count: fields.chunkCount,
            failure_excerpts: JSON.stringify(fields.failureExcerpts),
          });
        if (n === 0) return null;
        await trx('contexts')
          .where({ chat_id: chatId })
          .whereNot({ id: contextId })
          .andWhere((q) => q.where({ state: 'ready' }).orWhere('created_at', '<', uploadedAt - STALE_BUILDING_MS))
          .delete();
        return uploadedAt;
      });
    } catch (err) {
      if (attempt < 3 && isDeadlock(err)) continue;
      throw err;
    }
  }
}

/** Removes a building context that will not be finished (the upload failed). */
export async function discardContext(db: Db, contextId: number): Promise<void> {
  await db('contexts').where({ id: contextId, state: 'building' }).delete();
}

/** The chat's current context: its ready one (the newest, should two ever coexist). */
export async function currentContext(db: Db, chatId: number): Promise<ContextRecord | null> {
  const row = (await db('contexts')
    .where({ chat_id: chatId, state: 'ready' })
    .orderBy([
      { column: 'uploaded_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first()) as ContextRow | undefined;
  return row ? present(row) : null;
}

/** Epoch ms of the chat's current upload, or null. */
export async function lastUploadAt(db: Db, chatId: number): Promise<number | null> {
  const row = (await db('contexts')
    .select('uploaded_at')
    .where({ chat_id: chatId, state: 'ready' })
    .orderBy('uploaded_at', 'desc')
    .first()) as { uploaded_at: number | string | null } | undefined;
  return row?.uploaded_at == null ? null : Number(row.uploaded_at);
}

/** Every chunk vector of a context, in `seq` order (what an index is rebuilt from). */
export async function chunkVectors(db: Db, contextId: number): Promise<Float32Array[]> {
  const rows = (await db('context_chunks')
    .select('seq', 'embedding')
    .where({ context_id: contextId })
    .orderBy('seq')) as { seq: number; embedding: Buffer }[];
  return rows.map((r) => bytesToVector(r.embedding));
}

/** Chunks of a context by their `seq`. */
export async function chunksBySeq(db: Db, contextId: number, seqs: number[]): Promise<ChunkRow[]> {
  if (seqs.length === 0) return [];
  const rows = (await db('context_chunks')
    .select('seq', 'start_line', 'end_line', 'text')
    .where({ context_id: contextId })
    .whereIn('seq', seqs)) as ChunkRow[];
  return rows.map((r) => ({ seq: Number(r.seq), start_line: Number(r.start_line), end_line: Number(r.end_line), text: r.text }));
}

/**
 * Chunks of a context whose identifiers include `term` (lowercase, as extractTerms gives it),
 * with their vectors, at most `limit`, in log order.
 */
export async function chunksWithTerm(
  db: Db,
  contextId: number,
  term: string,
  limit: number,
): Promise<(ChunkRow & { embedding: Float32Array })[]> {
  const seqs = (await db('context_chunk_terms')
    .select('seq')
    .where({ context_id: contextId })
    .andWhereRaw('INSTR(terms, ?) > 0', [` ${term} `])
    .orderBy('seq')
    .limit(limit)) as { seq: number }[];
  if (seqs.length === 0) return [];
  const rows = (await db('context_chunks')
    .select('seq', 'start_line', 'end_line', 'text', 'embedding')
    .where({ context_id: contextId })
    .whereIn(
      'seq',
      seqs.map((r) => Number(r.seq)),
    )
    .orderBy('seq')) as (ChunkRow & { embedding: Buffer })[];
  return rows.map((r) => ({
    seq: Number(r.seq),
    start_line: Number(r.start_line),
    end_line: Number(r.end_line),
    text: r.text,
    embedding: bytesToVector(r.embedding),
  }));
}

/** Number of contexts of any state for the chat (tests check nothing half-stored remains). */
export async function countContexts(db: Db, chatId: number): Promise<{ ready: number; building: number; chunks: number }> {
  const rows = (await db('contexts').select('state').count({ n: '*' }).where({ chat_id: chatId }).groupBy('state')) as {
    state: string;
    n: number | string;
  }[];
  const chunks = (await db('context_chunks')
    .join('contexts', 'contexts.id', 'context_chunks.context_id')
    .where('contexts.chat_id', chatId)
    .count({ n: '*' })
    .first()) as { n: number | string } | undefined;
  const by = (s: string) => Number(rows.find((r) => r.state === s)?.n ?? 0);
  return { ready: by('ready'), building: by('building'), chunks: Number(chunks?.n ?? 0) };
}
