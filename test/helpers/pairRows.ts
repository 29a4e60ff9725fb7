import type { Db } from '../../backend/db.js';

/** A chat's pairs as the store keeps them (superseded ones too), oldest first: the lease tests' view of qa_pairs. */
export interface PairRow {
  id: number;
  question: string;
  answer_status: string;
  superseded_at: number | string | null;
}

export async function pairRows(db: Db, chatId: number): Promise<PairRow[]> {
  return (await db('qa_pairs').where({ chat_id: chatId }).orderBy('id').select('id', 'question', 'answer_status', 'superseded_at')) as PairRow[];
}
