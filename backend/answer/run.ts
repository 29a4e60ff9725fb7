import type { Context } from 'koa';
import type { AppDeps } from '../app.js';
import { openEventStream } from '../stream.js';
import type { AnswerStatus, Source } from '../../protocol/types.js';
import { finishAnswer, recentHistory, releaseStreamLease, renewStreamLease, saveProgress, startPair } from '../store/pairs.js';
import type { ChatContext } from './engine.js';

export interface StreamJob {
  chatId: number;
  question: string;
  /** For retry and edit: the pair from which the history is cut. */
  supersedeFrom?: number;
  leaseMs: number;
}

const HISTORY_TURNS = 6;
const PROGRESS_SAVE_MS = 2000;

/**
 * Creates the pair and streams its answer as SSE: `started`, `chunk`s, then `done`, or
 * `error` when the engine fails after the stream began (pair `failed`). A client that goes
 * away aborts the engine through the signal; the pair is saved `interrupted` with its partial
 * text and the chat's stream lease is released. The caller holds the lease already.
 */
export async function streamAnswer(ctx: Context, deps: AppDeps, job: StreamJob): Promise<void> {
  const { db, log } = deps;
  const engine = deps.engine;
  if (!engine) throw new Error('No answer engine configured');
  const pairId = await startPair(db, job.chatId, job.question, job.supersedeFrom);
  const stream = openEventStream(ctx, deps.pingIntervalMs ?? 15_000);
  stream.send({ event: 'started', qa_pair_id: pairId });

  // Runs detached from the request: Koa sends headers and pipes the PassThrough meanwhile.
  void (async () => {
    let text = '';
    let sources: Source[] = [];
    let status: AnswerStatus = 'complete';
    let failure: string | undefined;
    const renew = setInterval(() => {
      renewStreamLease(db, job.chatId, job.leaseMs).catch((err: unknown) => log.warn({ err }, 'lease renewal failed'));
    }, Math.max(1000, Math.floor(job.leaseMs / 3)));
    renew.unref();
    let lastSave = Date.now();
    try {
      const [history, context] = await Promise.all([
        recentHistory(db, job.chatId, pairId, HISTORY_TURNS),
        deps.loadContext ? deps.loadContext(job.chatId) : Promise.resolve<ChatContext | null>(null),
      ]);
      if (stream.signal.aborted) throw stream.signal.reason;
      const userId = (ctx.state as { userId?: string }).userId;
      const answer = await engine.answer({ question: job.question, history, context, signal: stream.signal, chatId: job.chatId, ...(userId !== undefined ? { userId } : {}) });
      sources = answer.sources;
      for await (const piece of answer.pieces) {
        if (stream.signal.aborted) break;
        if (piece === '') continue;
        text += piece;
        stream.send({ event: 'chunk', content: piece });
        if (Date.now() - lastSave > PROGRESS_SAVE_MS) {
          lastSave = Date.now();
          await saveProgress(db, pairId, text);
        }
      }
      if (stream.signal.aborted) status = 'interrupted';
    } catch (err) {
      if (stream.signal.aborted) {
        status = 'interrupted';
      } else {
        status = 'failed';
        failure = err instanceof Error && err.message ? err.message : 'The answer engine failed.';
        log.error({ err, pairId }, 'answer engine failed');
      }
    } finally {
      clearInterval(renew);
    }
    try {
      await finishAnswer(db, pairId, text, status, sources);
    } catch (err) {
      log.error({ err, pairId }, 'could not save the answer');
      if (status === 'complete') {
        status = 'failed';
        failure = 'The answer could not be saved.';
      }
    }
    try {
      await releaseStreamLease(db, job.chatId);
    } catch (err) {
      log.error({ err, chatId: job.chatId }, 'could not release the stream lease');
    }
    if (status === 'failed') stream.send({ event: 'error', detail: failure ?? 'The answer engine failed.' });
    else if (status === 'complete') stream.send({ event: 'done' });
    stream.end();
  })();
}
