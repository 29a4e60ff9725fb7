/**
 * The answer job (issue 31: a service, no Koa in it): runs the engine for the pair its caller made
 * with the chat's stream lease (store/pairs.ts beginAnswer), streams its events to a sink and saves the answer.
 */
import type { Logger } from 'pino';
import { requestLog } from '../../http/request.js';
import type { Db } from '../db.js';
import { STOP_DETAIL, type Lifecycle, type StopReason } from '../lifecycle.js';
import type { AnswerStatus, Source, StreamEvent } from '../../protocol/types.js';
import {
  finishAnswerAndRelease,
  pairExists,
  recentHistory,
  releaseStreamLease,
  renewStreamLease,
  saveProgress,
} from '../store/pairs.js';
import type { AnswerEngine, ChatContext } from '../answer/engine.js';

/** Where an answer's events go (an SSE response in the backend; anything that can take events in a test). */
export interface AnswerSink {
  send(event: StreamEvent): void;
  end(): void;
  /** Aborted when the reader goes away. */
  readonly signal: AbortSignal;
}

/** What the answer job needs: no HTTP framework, only the store, the engine and the chat's context. */
export interface AnswerDeps {
  db: Db;
  /** The process logger; the job writes with its request's child (http/request.ts requestLog). */
  log: Logger;
  lifecycle: Lifecycle;
  engine: AnswerEngine;
  /** The chat's uploaded context for the engines (null when none). */
  loadContext: (chatId: number) => Promise<ChatContext | null>;
}

export interface StreamJob {
  chatId: number;
  question: string;
  /** The pair the caller made with the lease (store/pairs.ts beginAnswer). */
  pairId: number;
  leaseMs: number;
  /** The lease's owner, as the caller took it (store/pairs.ts streamLeaseOwner): renewed and released by it. */
  owner: string;
  /** The chat's user: on whose behalf the openai engine's workspace tools run. */
  userId?: string;
}

const HISTORY_TURNS = 6;
/** Partial text is saved at least this often while chunks arrive... */
export const PROGRESS_SAVE_MS = 1000;
/** ...and whenever this many characters arrived since the last save. */
export const PROGRESS_SAVE_CHARS = 2000;

/**
 * Creates the pair and streams its answer as SSE: `started`, `chunk`s, then `done`, or
 * `error` when the engine fails after the stream began (pair `failed`) or when the backend
 * ends the stream itself (shutting down, or the chat deleted: `interrupted`). A client that
 * goes away aborts the engine through the signal; the pair is saved `interrupted` with its
 * partial text and the chat's stream lease is released. The caller holds the lease already and
 * made the pair with it (`job.pairId`).
 */
export async function streamAnswer(deps: AnswerDeps, job: StreamJob, openSink: () => AnswerSink): Promise<void> {
  const { db, lifecycle, engine } = deps;
  // The request's logger: every line of the job (it outlives the handler) carries its reqId.
  const log = requestLog(deps.log);
  const owner = job.owner;
  const pairId = job.pairId;
  // The sink (the response) opens once the pair exists: a refusal before it is a plain HTTP error.
  const stream = openSink();
  stream.send({ event: 'started', qa_pair_id: pairId });

  const stopper = new AbortController();
  let stopReason: StopReason | undefined;
  const signal = AbortSignal.any([stream.signal, stopper.signal]);
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const stop = (reason: StopReason) => {
    if (stopReason) return;
    stopReason = reason;
    stopper.abort(new Error(STOP_DETAIL[reason]));
  };
  lifecycle.addStream({ chatId: job.chatId, stop, done });
  if (lifecycle.closing) stop('shutdown');

  // Runs detached from the caller: the route returns and the response is written meanwhile.
  void (async () => {
    let text = '';
    let sources: Source[] = [];
    let status: AnswerStatus = 'complete';
    let failure: string | undefined;
    const renew = setInterval(() => {
      renewStreamLease(db, job.chatId, job.leaseMs, owner).then(
        (held) => {
          if (!held) log.warn({ chatId: job.chatId, pairId }, 'the stream lease was lost');
        },
        (err: unknown) => log.warn({ err }, 'lease renewal failed'),
      );
    }, Math.max(500, Math.floor(job.leaseMs / 5)));
    renew.unref();
    let lastSave = Date.now();
    let savedChars = 0;
    try {
      // `started` leaves before any retrieval or composition: the route returns, the response
      // is piped and its first bytes written before this job does anything else (the SQLite
      // driver is synchronous, so without this turn they would leave with the first chunk).
      await new Promise<void>((resolve) => setImmediate(resolve));
      const [history, context] = await Promise.all([
        recentHistory(db, job.chatId, pairId, HISTORY_TURNS),
        deps.loadContext(job.chatId),
      ]);
      if (signal.aborted) throw signal.reason;
      const answer = await engine.answer({ question: job.question, history, context, signal, chatId: job.chatId, ...(job.userId !== undefined ? { userId: job.userId } : {}) });
      sources = answer.sources;
      for await (const piece of answer.pieces) {
        if (signal.aborted) break;
        if (piece === '') continue;
        text += piece;
        stream.send({ event: 'chunk', content: piece });
        if (Date.now() - lastSave >= PROGRESS_SAVE_MS || text.length - savedChars >= PROGRESS_SAVE_CHARS) {
          lastSave = Date.now();
          savedChars = text.length;
          if (!(await saveProgress(db, pairId, text)) && !(await pairExists(db, pairId))) stop('deleted');
        }
      }
      if (signal.aborted) status = 'interrupted';
    } catch (err) {
      if (signal.aborted) {
        status = 'interrupted';
      } else {
        status = 'failed';
        failure = err instanceof Error && err.message ? err.message : 'The answer engine failed.';
        log.error({ err, pairId }, 'answer engine failed');
      }
    } finally {
      clearInterval(renew);
    }
    let released = false;
    if (stopReason !== 'deleted') {
      try {
        // The answer's final state and the lease's release together: a client that sees the
        // answer final may stream in the chat again at once.
        const saved = await finishAnswerAndRelease(db, pairId, text, status, sources, { chatId: job.chatId, owner });
        released = true;
        if (!saved) stop('deleted');
      } catch (err) {
        log.error({ err, pairId }, 'could not save the answer');
        if (status === 'complete') {
          status = 'failed';
          failure = 'The answer could not be saved.';
        }
      }
    }
    if (!released) {
      try {
        await releaseStreamLease(db, job.chatId, owner);
      } catch (err) {
        log.error({ err, chatId: job.chatId }, 'could not release the stream lease');
      }
    }
    if (stopReason) stream.send({ event: 'error', detail: STOP_DETAIL[stopReason] });
    else if (status === 'failed') stream.send({ event: 'error', detail: failure ?? 'The answer engine failed.' });
    else if (status === 'complete') stream.send({ event: 'done' });
    stream.end();
  })().finally(settle);
}
