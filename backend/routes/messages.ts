import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { editMessageBodySchema, sendMessageBodySchema } from '../../protocol/schemas.js';
import type { AppDeps } from '../app.js';
import { userIdOf } from '../auth.js';
import { Conflict, NotFound, Unprocessable } from '../errors.js';
import { MiB, idParam, readJsonBody, validate } from '../http.js';
import { findChat } from '../store/chats.js';
import { acquireStreamLease, findVisiblePair, releaseStreamLease } from '../store/pairs.js';
import { streamAnswer } from '../answer/run.js';

/** The wire schemas (protocol/schemas.ts), which the controller's OpenAPI document describes. */
export const sendBody = sendMessageBodySchema;
export type SendBody = z.infer<typeof sendBody>;
export const editBody = editMessageBodySchema;
export type EditBody = z.infer<typeof editBody>;

const BODY_LIMIT = 1 * MiB;
/** The stream lease outlives a crashed holder by at most this long. */
export const STREAM_LEASE_MS = 60_000;

function conflict(chatId: number): Conflict {
  return new Conflict(`Chat ${chatId} already has an answer streaming: wait for it to finish or stop it.`);
}

/** send, retry and edit (CONTRACT section 2, "Streams"). */
export function registerMessageRoutes(router: Router, deps: AppDeps): void {
  const begin = async (ctx: Context, chatId: number, question: string, supersedeFrom?: number) => {
    if (!(await acquireStreamLease(deps.db, chatId, STREAM_LEASE_MS))) throw conflict(chatId);
    try {
      await streamAnswer(ctx, deps, { chatId, question, supersedeFrom, leaseMs: STREAM_LEASE_MS });
    } catch (err) {
      await releaseStreamLease(deps.db, chatId);
      throw err;
    }
  };

  router.post(['/messages/send', '/messages/send/'], async (ctx) => {
    const body = validate(sendBody, await readJsonBody(ctx, BODY_LIMIT));
    if (body.content.trim() === '') throw new Unprocessable('content: must not be blank');
    const chatId = Number(body.chat_id);
    if (!Number.isSafeInteger(chatId) || !(await findChat(deps.db, userIdOf(ctx), chatId))) {
      throw new NotFound(`Chat ${body.chat_id} not found.`);
    }
    await begin(ctx, chatId, body.content);
  });

  const pairOf = async (ctx: Context) => {
    const pairId = idParam(ctx.params.pairId);
    const pair = pairId === null ? null : await findVisiblePair(deps.db, userIdOf(ctx), pairId);
    if (!pair) throw new NotFound(`Message ${ctx.params.pairId ?? ''} not found.`);
    return pair;
  };

  router.post(['/messages/:pairId/retry', '/messages/:pairId/retry/'], async (ctx) => {
    const pair = await pairOf(ctx);
    await begin(ctx, Number(pair.chat_id), pair.question, Number(pair.id));
  });

  router.put(['/messages/:pairId/edit', '/messages/:pairId/edit/'], async (ctx) => {
    const raw = await readJsonBody(ctx, BODY_LIMIT);
    const pair = await pairOf(ctx);
    const body = validate(editBody, raw);
    if (body.new_content.trim() === '') throw new Unprocessable('new_content: must not be blank');
    await begin(ctx, Number(pair.chat_id), body.new_content, Number(pair.id));
  });
}
