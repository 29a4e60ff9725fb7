import type { Db } from '../db.js';
import type { Chat, CiContext, Page } from '../../protocol/types.js';
import { JOB_NAME_MAX } from '../migrations/009_chat_job.js';
import { isoTime } from '../time.js';
import { selectRows } from './raw.js';

export interface ChatRow {
  id: number;
  user_id: string;
  title: string;
  created_at: number | string;
  updated_at: number | string;
  job_name: string | null;
  build_number: number | string | null;
}

export function presentChat(row: ChatRow): Chat {
  return {
    id: Number(row.id),
    user_id: row.user_id,
    title: row.title,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    job_name: row.job_name ?? null,
    build_number: row.build_number == null ? null : Number(row.build_number),
  };
}

const CHAT_COLUMNS = ['id', 'user_id', 'title', 'created_at', 'updated_at', 'job_name', 'build_number'];

/** The chats columns that say which job and build a chat is about. */
export interface ChatSubjectColumns {
  job_name: string | null;
  build_number: number | null;
}

const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/**
 * The job and build of a stored (canonical) CiContext: jobDetails.fullName, else ciEnvironment
 * JOB_NAME, else jobDetails.name; buildDetails.number, else BUILD_NUMBER when it is a whole
 * number. Null for what the context does not say. Migration 009 computes the same in SQL.
 */
export function chatSubjectOf(ci: CiContext): ChatSubjectColumns {
  const env = ci.ciEnvironment ?? {};
  const job = nonEmpty(ci.jobDetails?.fullName) ?? nonEmpty(env.JOB_NAME) ?? nonEmpty(ci.jobDetails?.name);
  const number = ci.buildDetails?.number;
  let build: number | null = null;
  if (typeof number === 'number' && Number.isInteger(number) && number >= 0 && number <= 2147483647) build = number;
  else if (typeof env.BUILD_NUMBER === 'string' && /^[0-9]{1,9}$/.test(env.BUILD_NUMBER)) build = Number(env.BUILD_NUMBER);
  return { job_name: job === undefined ? null : [...job].slice(0, JOB_NAME_MAX).join(''), build_number: build };
}

/**
 * A clock that never goes backwards and moves at least 1 ms per call within a process, so
 * "most recently updated first" is stable even for changes made in the same millisecond.
 */
let lastNow = 0;
export function nowMs(): number {
  const t = Date.now();
  lastNow = t > lastNow ? t : lastNow + 1;
  return lastNow;
}

export async function createChat(db: Db, userId: string, title: string): Promise<Chat> {
  const now = nowMs();
  const [id] = await db('chats').insert({ user_id: userId, title, created_at: now, updated_at: now });
  return presentChat({ id: Number(id), user_id: userId, title, created_at: now, updated_at: now, job_name: null, build_number: null });
}

/** The user's chat, or null when it does not exist or belongs to someone else. */
export async function findChat(db: Db, userId: string, chatId: number): Promise<ChatRow | null> {
  const row = (await db('chats').select(CHAT_COLUMNS).where({ id: chatId, user_id: userId }).first()) as
    | ChatRow
    | undefined;
  return row ?? null;
}

export const LIST_CHATS_SQL =
  'SELECT id, user_id, title, created_at, updated_at, job_name, build_number, (SELECT COUNT(*) FROM chats WHERE user_id = ?) AS total_items ' +
  'FROM chats WHERE user_id = ? ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?';

/**
 * A page of the user's chats, most recently updated first, in one round trip: the count rides
 * along as a scalar subquery (`chats_user_updated_idx` serves both). Only a page past the end
 * needs a second query for the count.
 */
export async function listChats(db: Db, userId: string, limit: number, offset: number): Promise<Page<Chat>> {
  const rows = await selectRows<ChatRow & { total_items: number | string }>(db, LIST_CHATS_SQL, [userId, userId, limit, offset]);
  let total = rows.length > 0 ? Number(rows[0]!.total_items) : 0;
  if (rows.length === 0 && offset > 0) {
    const countRow = (await db('chats').where({ user_id: userId }).count({ n: '*' }).first()) as { n: number | string } | undefined;
    total = Number(countRow?.n ?? 0);
  }
  return { items: rows.map(presentChat), total_items: total, limit, offset };
}

/** Renames the user's chat; null when it is not theirs. */
export async function renameChat(db: Db, userId: string, chatId: number, title: string): Promise<Chat | null> {
  const now = nowMs();
  const n = await db('chats').where({ id: chatId, user_id: userId }).update({ title, updated_at: now });
  if (n === 0) return null;
  const row = await findChat(db, userId, chatId);
  return row ? presentChat(row) : null;
}

/** Deletes the chat and (by cascade) its pairs and contexts; false when it is not theirs. */
export async function deleteChat(db: Db, userId: string, chatId: number): Promise<boolean> {
  // Pairs, contexts and chunks go with it through ON DELETE CASCADE, in one statement.
  const n = await db('chats').where({ id: chatId, user_id: userId }).delete();
  return n > 0;
}
