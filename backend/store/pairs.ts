import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db.js';
import type { AnswerStatus, Page, QaPair, Source } from '../../protocol/types.js';
import { isoTime } from '../time.js';
import { nowMs } from './chats.js';
import { selectRows, writeTransaction } from './raw.js';
import { retryOnDeadlock } from './retry.js';

export interface PairRow {
  id: number;
  chat_id: number;
  question: string;
  created_at: number | string;
  answer: string | null;
  answer_status: string | null;
  answer_sources: string | null | Source[];
  answer_created_at: number | string | null;
  superseded_at?: number | string | null;
}

const PAIR_COLUMNS = [
  'id',
  'chat_id',
  'question',
  'created_at',
  'answer',
  'answer_status',
  'answer_sources',
  'answer_created_at',
];

/** Sources are stored as JSON text; mysql2 may hand back parsed JSON, SQLite a string. */
export function parseSources(value: PairRow['answer_sources']): Source[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as Source[]) : [];
  } catch {
    return [];
  }
}

export function presentPair(row: PairRow): QaPair {
  const id = Number(row.id);
  return {
    id,
    qa_pair_id: id,
    chat_id: Number(row.chat_id),
    created_at: isoTime(row.created_at),
    question: { id, content: row.question, created_at: isoTime(row.created_at) },
    answer:
      row.answer_status === null
        ? null
        : {
            id,
            content: row.answer ?? '',
            status: row.answer_status as AnswerStatus,
            sources: parseSources(row.answer_sources),
            created_at: isoTime(row.answer_created_at ?? row.created_at),
          },
  };
}

/** The chat's visible pairs (superseded ones never shown), newest first. */
export async function listPairs(db: Db, chatId: number, limit: number, offset: number): Promise<Page<QaPair>> {
  const visible = () => db('qa_pairs').where({ chat_id: chatId }).whereNull('superseded_at');
  const [rows, countRow] = await Promise.all([
    visible()
      .select(PAIR_COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .offset(offset) as Promise<PairRow[]>,
    visible().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
  ]);
  return { items: rows.map(presentPair), total_items: Number(countRow?.n ?? 0), limit, offset };
}

export const LIST_CHAT_PAIRS_SQL =
  `SELECT ${PAIR_COLUMNS.join(', ')}, ` +
  '(SELECT COUNT(*) FROM qa_pairs WHERE chat_id = ? AND superseded_at IS NULL) AS total_items ' +
  'FROM qa_pairs WHERE chat_id = ? AND superseded_at IS NULL ' +
  'AND EXISTS (SELECT 1 FROM chats WHERE id = ? AND user_id = ?) ' +
  'ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?';

/**
 * A page of the visible pairs of the user's chat, newest first, or null when the chat does not
 * exist or is someone else's. The ownership check, the page and the count share one round trip
 * (`qa_pairs_chat_created_idx`, chats by primary key); an empty page (a chat with no pairs yet,
 * an offset past the end, or no such chat) takes the slower path that tells those apart.
 */
export async function listChatPairs(
  db: Db,
  userId: string,
  chatId: number,
  limit: number,
  offset: number,
): Promise<Page<QaPair> | null> {
  const rows = await selectRows<PairRow & { total_items: number | string }>(db, LIST_CHAT_PAIRS_SQL, [
    chatId,
    chatId,
    chatId,
    userId,
    limit,
    offset,
  ]);
  if (rows.length > 0) return { items: rows.map(presentPair), total_items: Number(rows[0]!.total_items), limit, offset };
  const owned = await db('chats').where({ id: chatId, user_id: userId }).first('id');
  if (!owned) return null;
  return offset > 0 ? listPairs(db, chatId, limit, offset) : { items: [], total_items: 0, limit, offset };
}

/** A visible pair of one of the user's chats, or null (unknown, another user's, or superseded). */
export async function findVisiblePair(db: Db, userId: string, pairId: number): Promise<PairRow | null> {
  const row = (await db('qa_pairs as p')
    .join('chats as c', 'c.id', 'p.chat_id')
    .select(PAIR_COLUMNS.map((c) => `p.${c}`))
    .where('p.id', pairId)
    .andWhere('c.user_id', userId)
    .whereNull('p.superseded_at')
    .first()) as PairRow | undefined;
  return row ?? null;
}

/** Extends the lease while `owner` still holds it; false when it does not any more. */
export async function renewStreamLease(db: Db, chatId: number, leaseMs: number, owner: string): Promise<boolean> {
  const n = await retryOnDeadlock(() => db('chats').where({ id: chatId, stream_owner: owner }).update({ streaming_until: Date.now() + leaseMs }));
  return n > 0;
}

export async function releaseStreamLease(db: Db, chatId: number, owner: string): Promise<void> {
  await retryOnDeadlock(() => db('chats').where({ id: chatId, stream_owner: owner }).update({ streaming_until: null, stream_owner: null }));
}

/**
 * The owner written on one stream's lease: its replica's id and a token of its own. Leases are
 * taken, renewed and released by this exact value, so a stream whose lease expired while it still
 * ran (a stalled event loop) cannot free or extend the lease a newer stream of the same replica
 * took; releaseLeasesOf frees every lease of the replica by the `<replica id>:` prefix (a replica
 * id has no `:`, config.ts).
 */
export function streamLeaseOwner(replicaId: string): string {
  return `${replicaId}:${randomBytes(8).toString('hex')}`;
}

/** The chats whose lease is `replicaId`'s: held by one of its streams, or by the replica itself. */
function leasedBy(q: Knex.QueryBuilder, replicaId: string): Knex.QueryBuilder {
  const prefix = `${replicaId}:`;
  // substr, not LIKE: a replica id may hold `_`, which LIKE reads as a wildcard.
  return q.where((w) => w.where({ stream_owner: replicaId }).orWhereRaw('substr(stream_owner, 1, ?) = ?', [prefix.length, prefix]));
}

/**
 * At the start of a replica: the leases it held before it died (those of each of its streams)
 * are released and their `streaming` pairs marked `interrupted` (the text saved so far stays),
 * in one transaction. Answers how many pairs were marked.
 */
export async function releaseLeasesOf(db: Db, replicaId: string): Promise<number> {
  return db.transaction(async (trx) => {
    const rows = (await leasedBy(trx('chats').select('id'), replicaId)) as { id: number | string }[];
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => Number(r.id));
    const marked = await trx('qa_pairs')
      .whereIn('chat_id', ids)
      .andWhere({ answer_status: 'streaming' })
      .update({ answer_status: 'interrupted' });
    await leasedBy(trx('chats').whereIn('id', ids), replicaId).update({ streaming_until: null, stream_owner: null });
    return marked;
  });
}

/**
 * Pairs left `streaming` in chats whose lease is gone or expired (their stream died with its
 * process) become `interrupted`: a pair streams only under a live lease.
 */
export async function interruptOrphanedPairs(db: Db): Promise<number> {
  const now = Date.now();
  // Only the few `streaming` pairs are looked at (qa_pairs_status_idx), each chat by its key.
  return db('qa_pairs')
    .where({ answer_status: 'streaming' })
    .whereNotExists(
      db('chats')
        .select(db.raw('1'))
        .whereRaw('chats.id = qa_pairs.chat_id')
        .andWhere('streaming_until', '>=', now),
    )
    .update({ answer_status: 'interrupted' });
}

/** The answer of beginAnswer: the new pair's id, or why there is none. */
export type BeginResult =
  | { kind: 'started'; pairId: number }
  | { kind: 'missing' }
  | { kind: 'busy'; until: number | null };

/**
 * Starts an answer in one transaction, for the user's chat: the chat's stream lease taken for
 * `owner` (one answer streams per chat, enforced in the database so any replica agrees; an expired
 * lease means its holder died, and its `streaming` pairs become `interrupted`, their saved text
 * kept), `supersedeFrom` and every later pair superseded (retry and edit: they leave the history),
 * the new pair inserted `streaming` and the chat's `updated_at` moved. `missing` when the chat is
 * not the user's (nothing changed), `busy` when a live stream holds the lease. The request's
 * `started` event waits for this: one round trip of prepared statements (raw.ts writeTransaction)
 * where two knex transactions and the chat's lookup took three.
 */
export async function beginAnswer(
  db: Db,
  job: { userId: string; chatId: number; question: string; supersedeFrom?: number; leaseMs: number; owner: string },
): Promise<BeginResult> {
  const { userId, chatId } = job;
  return retryOnDeadlock(() =>
    writeTransaction<BeginResult>(db, async (tx) => {
      const now = nowMs();
      const taken = await tx.run(
        'UPDATE chats SET streaming_until = ?, stream_owner = ?, updated_at = ? ' +
          'WHERE id = ? AND user_id = ? AND (streaming_until IS NULL OR streaming_until < ?)',
        [now + job.leaseMs, job.owner, now, chatId, userId, now],
      );
      if (taken.changes === 0) {
        const [row] = await tx.rows<{ streaming_until: number | string | null }>('SELECT streaming_until FROM chats WHERE id = ? AND user_id = ?', [
          chatId,
          userId,
        ]);
        if (row === undefined) return { kind: 'missing' };
        return { kind: 'busy', until: row.streaming_until == null ? null : Number(row.streaming_until) };
      }
      // The dead stream's pairs, found by the chat's index and marked by key: one UPDATE by chat and
      // status could walk the status index and lock every chat's streaming pair (deadlocks with
      // other streams ending at the same moment).
      const dead = await tx.rows<{ id: number | string }>("SELECT id FROM qa_pairs WHERE chat_id = ? AND answer_status = 'streaming'", [chatId]);
      if (dead.length > 0) {
        await tx.run(
          `UPDATE qa_pairs SET answer_status = 'interrupted' WHERE id IN (${dead.map(() => '?').join(', ')}) AND answer_status = 'streaming'`,
          dead.map((r) => Number(r.id)),
        );
      }
      if (job.supersedeFrom !== undefined) {
        await tx.run('UPDATE qa_pairs SET superseded_at = ? WHERE chat_id = ? AND id >= ? AND superseded_at IS NULL', [now, chatId, job.supersedeFrom]);
      }
      const pair = await tx.run(
        'INSERT INTO qa_pairs (chat_id, question, created_at, answer, answer_status, answer_sources, answer_created_at) ' +
          "VALUES (?, ?, ?, '', 'streaming', '[]', ?)",
        [chatId, job.question, now, now],
      );
      return { kind: 'started', pairId: pair.insertId };
    }),
  );
}

/** Saves the answer's final text, status and sources; false when the pair is gone (chat deleted). */
export async function finishAnswer(
  db: Db,
  pairId: number,
  content: string,
  status: AnswerStatus,
  sources: Source[],
): Promise<boolean> {
  const n = await retryOnDeadlock(() =>
    db('qa_pairs').where({ id: pairId }).update({ answer: content, answer_status: status, answer_sources: JSON.stringify(sources) }),
  );
  return n > 0;
}

/**
 * finishAnswer and releaseStreamLease in one transaction: whoever reads the answer as final
 * (`interrupted`, `complete`, `failed`) finds the chat free to stream again, with no moment
 * between the two where a retry or an edit would get 409.
 */
export async function finishAnswerAndRelease(
  db: Db,
  pairId: number,
  content: string,
  status: AnswerStatus,
  sources: Source[],
  lease: { chatId: number; owner: string },
): Promise<boolean> {
  return retryOnDeadlock(() =>
    db.transaction(async (trx) => {
      const n = await trx('qa_pairs').where({ id: pairId }).update({ answer: content, answer_status: status, answer_sources: JSON.stringify(sources) });
      await trx('chats').where({ id: lease.chatId, stream_owner: lease.owner }).update({ streaming_until: null, stream_owner: null });
      return n > 0;
    }),
  );
}

/**
 * Saves partial text while streaming, so a crash loses at most about a second of it. False
 * when the pair is no longer streaming (deleted with its chat, or marked by another replica).
 */
export async function saveProgress(db: Db, pairId: number, content: string): Promise<boolean> {
  const n = await retryOnDeadlock(() => db('qa_pairs').where({ id: pairId, answer_status: 'streaming' }).update({ answer: content }));
  return n > 0;
}

/** Whether the pair still exists (its chat was not deleted). */
export async function pairExists(db: Db, pairId: number): Promise<boolean> {
  return (await db('qa_pairs').where({ id: pairId }).first('id')) !== undefined;
}

/** The last `n` visible exchanges of the chat before `beforePairId`, oldest first. */
export async function recentHistory(
  db: Db,
  chatId: number,
  beforePairId: number,
  n: number,
): Promise<{ question: string; answer: string }[]> {
  const rows = (await db('qa_pairs')
    .select('question', 'answer')
    .where({ chat_id: chatId })
    .whereNull('superseded_at')
    .andWhere('id', '<', beforePairId)
    .orderBy('id', 'desc')
    .limit(n)) as { question: string; answer: string | null }[];
  return rows.reverse().map((r) => ({ question: r.question, answer: r.answer ?? '' }));
}
