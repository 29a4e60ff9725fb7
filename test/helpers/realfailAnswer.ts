/**
 * The offline engine's answer to "Why did the build fail?" or "How do I fix it?" for a tuned real-failure case, as
 * composeLocalAnswer gives it for realfailContext's context. answer-claims, answers-realfail, answers-fix-realfail and
 * answers-fix-fx2 ask these two questions of the same cases, and the first two ask "why?" of every case with and
 * without the workspace (~3100 pairs, ~1.7 ms of CPU each): the answer is kept beside the case's excerpts and snippets
 * (test/helpers/realfailContext.ts), under the same hash of the code, so each is composed once per code version by
 * whichever file asks first, by the code under test. test/realfail-context.test.ts checks that a kept answer is what
 * the code composes now.
 */
import { composeLocalAnswer } from '../../backend/answer/local/index.js';
import { contextKey, kept, realfailContext, tunedLog } from './realfailContext.js';

/** The two questions every per-case sweep asks (others are composed by the file that asks them). */
export type SharedQuestion = 'Why did the build fail?' | 'How do I fix it?';

/** Tuned case `id`'s answer text to `question`, with its project as the workspace when `withWorkspace`. */
export async function realfailAnswer(id: string, question: SharedQuestion, withWorkspace: boolean): Promise<string> {
  const log = tunedLog(id);
  const kind = `${question === 'How do I fix it?' ? 'fix' : 'why'}${withWorkspace ? '-ws' : ''}`;
  return kept(id, kind, contextKey(id, log, withWorkspace), async () => (await composeLocalAnswer(question, (await realfailContext(id, withWorkspace)).ctx)).text);
}
