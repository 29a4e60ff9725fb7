import type Router from '@koa/router';
import type { z } from 'zod';
import { createChatBodySchema, renameChatBodySchema } from '../../protocol/schemas.js';
import type { AppDeps } from '../deps.js';
import { userIdOf } from '../auth.js';
import { NotFound } from '../errors.js';
import { idParam, inputOf, pageQuery, validate, type PageQuery } from '../http.js';
import { createChat, deleteChat, listChats, renameChat } from '../store/chats.js';
import { listChatPairs } from '../store/pairs.js';

/** The wire schemas (protocol/schemas.ts), which the controller's OpenAPI document describes. */
export const createChatBody = createChatBodySchema;
export type CreateChatBody = z.infer<typeof createChatBody>;
export const renameChatBody = renameChatBodySchema;
export type RenameChatBody = z.infer<typeof renameChatBody>;

export function chatNotFound(id: string | undefined): NotFound {
  return new NotFound(`Chat ${id ?? ''} not found.`);
}

/**
 * The five chat endpoints of CONTRACT section 2. Paths are declared without the trailing slash:
 * the router serves both (test/trailing-slash.test.ts).
 */
export function registerChatRoutes(router: Router, deps: AppDeps): void {
  router.post('/chats', validate({ body: createChatBody }), async (ctx) => {
    const { body } = inputOf<CreateChatBody>(ctx);
    ctx.status = 201;
    ctx.body = await createChat(deps.db, userIdOf(ctx), body.title ?? 'New Chat');
  });

  router.get('/chats', validate({ query: pageQuery }), async (ctx) => {
    const { limit, offset } = inputOf<undefined, PageQuery>(ctx).query;
    ctx.body = await listChats(deps.db, userIdOf(ctx), limit, offset);
  });

  router.get('/chats/:chatId', validate({ query: pageQuery }), async (ctx) => {
    const chatId = idParam(ctx.params.chatId);
    const { limit, offset } = inputOf<undefined, PageQuery>(ctx).query;
    const page = chatId === null ? null : await listChatPairs(deps.db, userIdOf(ctx), chatId, limit, offset);
    if (!page) throw chatNotFound(ctx.params.chatId);
    ctx.body = page;
  });

  router.put('/chats/:chatId/title', validate({ body: renameChatBody }), async (ctx) => {
    const chatId = idParam(ctx.params.chatId);
    if (chatId === null) throw chatNotFound(ctx.params.chatId);
    const { body } = inputOf<RenameChatBody>(ctx);
    const chat = await renameChat(deps.db, userIdOf(ctx), chatId, body.new_title);
    if (!chat) throw chatNotFound(ctx.params.chatId);
    ctx.body = chat;
  });

  router.delete('/chats/:chatId', async (ctx) => {
    const chatId = idParam(ctx.params.chatId);
    if (chatId === null || !(await deleteChat(deps.db, userIdOf(ctx), chatId))) throw chatNotFound(ctx.params.chatId);
    // A stream of this chat running here ends with `error` "The chat was deleted." (one on
    // another replica notices at its next progress save, within about a second).
    deps.lifecycle.stopChat(chatId, 'deleted');
    await deps.context.onChatDeleted(chatId);
    ctx.body = { message: `Chat ${chatId} deleted.` };
  });
}
