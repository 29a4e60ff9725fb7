import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { editMessageBodySchema, sendMessageBodySchema } from '../../protocol/schemas.js';
import type { AppDeps } from '../deps.js';
import { userIdOf } from '../auth.js';
import { Conflict, NotFound, Unprocessable } from '../errors.js';
import { idParam, inputOf, validate } from '../http.js';
import { beginAnswer, finishAnswerAndRelease, findVisiblePair, releaseStreamLease, streamLeaseOwner } from '../store/pairs.js';
import { streamAnswer, type AnswerDeps } from '../services/answer.js';
import { openEventStream } from '../stream.js';

/** The wire schemas (protocol/schemas.ts), which the controller's OpenAPI document describes. */
export const sendBody = sendMessageBodySchema;
export type SendBody = z.infer<typeof sendBody>;
export const editBody = editMessageBodySchema;
export type EditBody = z.infer<typeof editBody>;

/** The 409 of a chat with a stream: says when the chat is free at the latest should that stream be dead. */
export function streamingConflict(chatId: number, until: number | null, now = Date.now()): Conflict {
  const base = `Chat ${chatId} already has an answer streaming: wait for it to finish or stop it.`;
  if (until === null) return new Conflict(base);
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new Conflict(
    `${base} If that stream was cut off, the chat is free again at ${new Date(until).toISOString()} (in ${seconds} s).`,
  );
}

/** send, retry and edit (CONTRACT section 2, "Streams"). */
export function registerMessageRoutes(router: Router, deps: AppDeps): void {
  const answers: AnswerDeps = { db: deps.db, log: deps.log, lifecycle: deps.lifecycle, engine: deps.engine, loadContext: deps.context.loadContext };
  // The chat's lease and the new pair in one transaction (beginAnswer), then the stream: `started`
  // waits for nothing else. A chat that is not the caller's is 404, one with a live stream 409.
  const begin = async (ctx: Context, chatId: number, question: string, notFound: string, supersedeFrom?: number) => {
    // This stream's own lease owner: a late stream of this replica cannot free it (streamLeaseOwner).
    const owner = streamLeaseOwner(deps.lifecycle.replicaId);
    const userId = userIdOf(ctx);
    const begun = await beginAnswer(deps.db, { userId, chatId, question, supersedeFrom, leaseMs: deps.streamLeaseMs, owner });
    if (begun.kind === 'missing') throw new NotFound(notFound);
    if (begun.kind === 'busy') throw streamingConflict(chatId, begun.until);
    try {
      await streamAnswer(answers, { chatId, question, pairId: begun.pairId, leaseMs: deps.streamLeaseMs, owner, userId }, () =>
        openEventStream(ctx, deps.pingIntervalMs),
      );
    } catch (err) {
      // The stream never opened: the pair is `failed` (empty) and the chat free at once, in one
      // transaction, rather than `streaming` until a sweep.
      await finishAnswerAndRelease(deps.db, begun.pairId, '', 'failed', [], { chatId, owner }).catch(async (saveErr: unknown) => {
        deps.log.error({ err: saveErr, pairId: begun.pairId }, 'could not mark the unopened answer failed');
        await releaseStreamLease(deps.db, chatId, owner);
      });
      throw err;
    }
  };

  router.post('/messages/send', validate({ body: sendBody }), async (ctx) => {
    const { body } = inputOf<SendBody>(ctx);
    if (body.content.trim() === '') throw new Unprocessable('content: must not be blank');
    const chatId = Number(body.chat_id);
    const notFound = `Chat ${body.chat_id} not found.`;
    if (!Number.isSafeInteger(chatId)) throw new NotFound(notFound);
    await begin(ctx, chatId, body.content, notFound);
  });

  const pairOf = async (ctx: Context) => {
    const pairId = idParam(ctx.params.pairId);
    const pair = pairId === null ? null : await findVisiblePair(deps.db, userIdOf(ctx), pairId);
    if (!pair) throw new NotFound(`Message ${ctx.params.pairId ?? ''} not found.`);
    return pair;
  };

  router.post('/messages/:pairId/retry', async (ctx) => {
    const pair = await pairOf(ctx);
    await begin(ctx, Number(pair.chat_id), pair.question, `Message ${ctx.params.pairId ?? ''} not found.`, Number(pair.id));
  });

  router.put('/messages/:pairId/edit', validate({ body: editBody }), async (ctx) => {
    const pair = await pairOf(ctx);
    const { body } = inputOf<EditBody>(ctx);
    if (body.new_content.trim() === '') throw new Unprocessable('new_content: must not be blank');
    await begin(ctx, Number(pair.chat_id), body.new_content, `Message ${ctx.params.pairId ?? ''} not found.`, Number(pair.id));
  });
}
