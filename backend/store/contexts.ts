/**
 * The contexts and context_chunks tables: an upload is written as a `building` context with
 * its chunks, then made the chat's context in one transaction that also deletes the chat's
 * older contexts. Readers only ever see `ready` contexts, so a failed or interrupted upload
 * leaves the previous context whole.
 */
import path from 'node:path';
import type { Knex } from 'knex';
import type { ChunkWriteTarget } from './chunkWriter.js';
import { isMysql, type Db } from '../db.js';
import type { CiContext, LogExcerpt } from '../../protocol/types.js';
import { chatSubjectOf, nowMs } from './chats.js';
import { bytesToVector, termBucket, termBuckets, termRows, vectorToBytes, type TermPostings } from './contextRows.js';

export { bytesToVector, TERM_POSTINGS, TermPostings, termBucket, termBuckets, vectorToBytes } from './contextRows.js';

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
  /** What a big log's context does not hold (migration 012); null when it holds the whole log. */
  logNotKept: LogNotKept | null;
  embedderId: string;
  dim: number;
}

/** Lines of a big log the context does not hold (backend/retrieval/logIngest.ts makes it). */
export interface LogNotKept {
  lines: number;
  chars: number;
  ranges: [number, number][];
  totalLines: number;
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
  log_not_kept?: string | object | null;
  embedder_id: string;
  dim: number | string;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
    logNotKept: row.log_not_kept === null || row.log_not_kept === undefined ? null : parseJson<LogNotKept>(row.log_not_kept),
    embedderId: row.embedder_id,
    dim: Number(row.dim),
  };
}

/** Starts an upload: a `building` context no reader sees yet. */
export async function createBuildingContext(
  db: Db,
  chatId: number,
  embedder: { id: string; dim: number },
  owner: string | null = null,
): Promise<number> {
  const [id] = await db('contexts').insert({
    chat_id: chatId,
    owner,
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

/**
 * Bound parameters per INSERT: well under SQLite's limit (32766 since 3.32) and MySQL's 65535;
 * chunk rows (text up to 4000 characters and a vector) are also capped in number so that one
 * statement stays a few MB, under MySQL's max_allowed_packet.
 */
const MAX_BINDINGS = 8000;
// 64 rows (~300 KB) is one SQLite statement of a few ms on the event loop; 256 took up to 170 ms
// under load and stalled every other request (issue 28, npm run bench -- upload).
const CHUNK_ROWS_PER_INSERT = 64;

/**
 * Inserts rows as multi-row `INSERT ... VALUES (...), (...)` statements (knex writes SQLite
 * multi-row inserts as `SELECT ... UNION ALL SELECT ...`, and compiles every row's object).
 */
async function insertRows(db: Db, table: string, columns: string[], rows: unknown[][], maxRows: number): Promise<void> {
  if (rows.length === 0) return;
  const perStatement = Math.max(1, Math.min(maxRows, Math.floor(MAX_BINDINGS / columns.length)));
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const head = `insert into ${table} (${columns.join(', ')}) values `;
  // Inside a transaction (a migration) the pool's only SQLite connection is the transaction's.
  const sqlite = !isMysql(db) && !(db as { isTransaction?: boolean }).isTransaction;
  for (let i = 0; i < rows.length; i += perStatement) {
    // better-sqlite3 runs each statement on this thread: let other requests in between.
    if (i > 0) await yieldToEventLoop();
    const batch = rows.slice(i, i + perStatement);
    const bindings: unknown[] = [];
    for (const row of batch) for (const value of row) bindings.push(value);
    const sql = head + Array(batch.length).fill(tuple).join(', ');
    if (sqlite) await runOnSqlite(db, sql, bindings);
    else await db.raw(sql, bindings as Knex.RawBinding[]);
  }
}

/** What knex's better-sqlite3 connection is (its pool hands out the Database itself). */
interface SqliteConnection {
  prepare(sql: string): { run(...bindings: unknown[]): unknown };
}

/**
 * Runs one statement on the pooled better-sqlite3 connection itself: knex's own path (binding
 * rewriting, per-value preparation) cost as much as SQLite's work for big multi-row inserts.
 */
async function runOnSqlite(db: Db, sql: string, bindings: unknown[]): Promise<void> {
  const connection = (await db.client.acquireConnection()) as SqliteConnection;
  try {
    connection.prepare(sql).run(bindings);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * Where the ingest worker may write a building context's rows on a connection of its own
 * (chunkWriter.ts): the SQLite file, absolute; undefined for MySQL (its driver does not block
 * this thread), an in-memory database (a second connection would be another database) and
 * inside a transaction (its rows must be its own).
 */
export function sqliteWriteTarget(db: Db, contextId: number): ChunkWriteTarget | undefined {
  if (isMysql(db) || (db as { isTransaction?: boolean }).isTransaction) return undefined;
  const file = (db.client.config.connection as { filename?: unknown } | undefined)?.filename;
  if (typeof file !== 'string' || file === '' || file === ':memory:' || file.startsWith('file:')) return undefined;
  return { file: path.resolve(file), contextId };
}

/** Adds chunks (with their vectors) to a building context. */
export async function insertChunks(
  db: Db,
  contextId: number,
  chunks: { seq: number; start_line: number; end_line: number; text: string; embedding: Float32Array }[],
): Promise<void> {
  await insertRows(
    db,
    'context_chunks',
    ['context_id', 'seq', 'start_line', 'end_line', 'text', 'embedding'],
    chunks.map((c) => [contextId, c.seq, c.start_line, c.end_line, c.text, vectorToBytes(c.embedding)]),
    CHUNK_ROWS_PER_INSERT,
  );
}

/**
 * Writes a building context's term index (contextRows.ts termRows): one context_terms row per
 * non-empty bucket. A few hundred to a few thousand rows however many terms the log has (a row
 * per term cost 0.3 s per 10 MB of log on SQLite).
 */
export async function insertTerms(db: Db, contextId: number, terms: TermPostings, chunkCount: number): Promise<void> {
  const rows: unknown[][] = [];
  for (const row of termRows(terms, chunkCount)) {
    // Joining 16k buckets took ~100 ms on the event loop for a 200 MB log (bench upload).
    if (row === undefined) await yieldToEventLoop();
    else rows.push([contextId, row[0], row[1]]);
  }
  await insertRows(db, 'context_terms', ['context_id', 'bucket', 'terms'], rows, TERM_ROWS_PER_INSERT);
}

/** Term rows per INSERT (a row is a few KB). */
const TERM_ROWS_PER_INSERT = 256;

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
  fields: { ciContext: CiContext; logLineCount: number; chunkCount: number; failureExcerpts: StoredExcerpt[]; logNotKept?: LogNotKept | null },
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
            log_not_kept: fields.logNotKept ? JSON.stringify(fields.logNotKept) : null,
          });
        if (n === 0) return null;
        // The chat list's job and build follow the current context (null when it names none).
        await trx('chats').where({ id: chatId }).update(chatSubjectOf(fields.ciContext));
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

/** A `building` context of this replica not among its live uploads is dead once this old. */
export const OWN_BUILDING_GRACE_MS = 60 * 1000;

/**
 * Deletes the `building` contexts (and by cascade their chunks and terms) that no upload will
 * finish: every one of `owner` at its start (`ownLive` empty), else those of `owner` that are not
 * in `ownLive` and older than a minute; and anyone's older than an hour (their replica died and
 * did not come back). Answers how many contexts went.
 */
export async function sweepBuildingContexts(db: Db, owner: string, ownLive: number[], atStart: boolean): Promise<number> {
  const now = nowMs();
  return db('contexts')
    .where({ state: 'building' })
    .andWhere((q) => {
      q.where((own) => {
        own.where({ owner });
        if (!atStart) own.andWhere('created_at', '<', now - OWN_BUILDING_GRACE_MS);
        if (ownLive.length > 0) own.whereNotIn('id', ownLive);
      }).orWhere('created_at', '<', now - STALE_BUILDING_MS);
    })
    .delete();
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

/** Longest line a log read answers (a giant line is cut there, marked). */
export const LOG_LINE_MAX_CHARS = 10_000;

/**
 * Lines `from`..`to` (1-based, inclusive) of a context's stored log (cleaned and masked, as the
 * answers cite it), rebuilt from the chunks that cover them. Chunks overlap (the same line in
 * two chunks is taken once); a line longer than the chunk budget is stored as consecutive
 * one-line chunks, which are joined again (up to LOG_LINE_MAX_CHARS).
 */
export async function logLines(db: Db, contextId: number, from: number, to: number): Promise<{ n: number; text: string }[]> {
  const rows = (await db('context_chunks')
    .select('seq', 'start_line', 'end_line', 'text')
    .where({ context_id: contextId })
    .andWhere('start_line', '<=', to)
    .andWhere('end_line', '>=', from)
    .orderBy('seq')) as ChunkRow[];
  const lines = new Map<number, string>();
  let pieceOf: number | undefined;
  for (const row of rows) {
    const start = Number(row.start_line);
    const end = Number(row.end_line);
    if (start === end && pieceOf === start && lines.has(start)) {
      // The next piece of a giant line (pieces follow each other in seq order).
      const joined = (lines.get(start) ?? '') + row.text;
      lines.set(start, joined.length > LOG_LINE_MAX_CHARS ? joined.slice(0, LOG_LINE_MAX_CHARS) : joined);
      continue;
    }
    pieceOf = start === end ? start : undefined;
    const texts = start === end ? [row.text] : row.text.split('\n');
    for (let i = 0; i < texts.length; i++) {
      const n = start + i;
      if (n < from || n > to || lines.has(n)) continue;
      lines.set(n, texts[i] ?? '');
    }
  }
  return [...lines.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([n, text]) => ({ n, text: text.length >= LOG_LINE_MAX_CHARS ? `${text.slice(0, LOG_LINE_MAX_CHARS)} [line cut at ${LOG_LINE_MAX_CHARS} characters]` : text }));
}

/**
 * Chunks of a context whose identifiers include `term` (lowercase, as extractTerms gives it),
 * with their vectors, at most `limit` (up to TERM_POSTINGS), in log order: the term's bucket
 * row by primary key, then the chunks by theirs.
 */
export async function chunksWithTerm(
  db: Db,
  context: { id: number; chunkCount: number },
  term: string,
  limit: number,
): Promise<(ChunkRow & { embedding: Float32Array })[]> {
  if (limit <= 0 || term === '' || /\s/.test(term)) return [];
  const contextId = context.id;
  const row = (await db('context_terms')
    .select('terms')
    .where({ context_id: contextId, bucket: termBucket(term, termBuckets(context.chunkCount)) })
    .first()) as { terms: string } | undefined;
  if (!row) return [];
  const at = row.terms.indexOf(`\n${term} `);
  if (at < 0) return [];
  const from = at + term.length + 2;
  const seqs = row.terms.slice(from, row.terms.indexOf('\n', from)).split(',').slice(0, limit).map(Number);
  const rows = (await db('context_chunks')
    .select('seq', 'start_line', 'end_line', 'text', 'embedding')
    .where({ context_id: contextId })
    .whereIn('seq', seqs)
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
