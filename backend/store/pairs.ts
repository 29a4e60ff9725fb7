import type { Db } from '../db.js';
import type { AnswerStatus, Page, QaPair, Source } from '../../protocol/types.js';
import { isoTime } from '../time.js';

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
