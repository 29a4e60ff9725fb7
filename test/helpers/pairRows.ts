import type { Db } from '../../backend/db.js';
import { beginAnswer, finishAnswerAndRelease } from '../../backend/store/pairs.js';

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

/** An earlier, finished question of the user's chat (what a retry or edit starts from), made as the backend makes one. */
export async function completedPair(db: Db, userId: string, chatId: number, question: string): Promise<number> {
  const begun = await beginAnswer(db, { userId, chatId, question, leaseMs: 60_000, owner: 'earlier-answer' });
  if (begun.kind !== 'started') throw new Error(`could not start the earlier answer: ${begun.kind}`);
  await finishAnswerAndRelease(db, begun.pairId, '', 'complete', [], { chatId, owner: 'earlier-answer' });
  return begun.pairId;
}
