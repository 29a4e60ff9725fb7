/**
 * The watcher's HTTP surface (docs/notes/watch.md):
 *  - `GET /chatbot-api/failures[?limit=1-100]`: the caller's recent failed builds, newest first,
 *    `{items: [{job, build, result, cause, chat_id, unread, build_url, detected_at,
 *    diagnosed_at, error?}], watching: true, ready}`;
 *  - `POST /chatbot-api/failures/{chat_id}/read`: marks that chat read (`{unread: false}`);
 *    opening the chat (`GET /chatbot-api/chats/{chat_id}`) does the same by itself.
 * With CICHAT_WATCH off both answer 404 naming the variable.
 */
import type Router from '@koa/router';
import type { z } from 'zod';
import { inputOf, validate } from '../../http/validate.js';
import { NotFound } from '../errors.js';
import { FailureReadParamsSchema, FailuresQuerySchema } from '../schemas.js';
import type { Watcher } from './index.js';

// The schemas live beside the controller's other inputs, where the OpenAPI document reads them.
const listQuery = FailuresQuerySchema;
const readParams = FailureReadParamsSchema;

const WATCH_OFF = 'The failed-build watcher is off: start the controller with CICHAT_WATCH=on (it is on by default in `cichat serve`)';

export function registerWatchRoutes(router: Router, watcher: () => Watcher | undefined): void {
  router.get('/failures', validate({ query: listQuery }), (ctx) => {
    const w = watcher();
    if (!w) throw new NotFound(WATCH_OFF);
    const { query } = inputOf<undefined, z.infer<typeof listQuery>>(ctx);
    // `ready`: the first scan of JENKINS_HOME is done (builds that end from now on are announced).
    ctx.body = { items: w.failuresFor(ctx.state.userId as string, query.limit), watching: true, ready: w.ready };
  });
  router.post('/failures/:chat_id/read', validate({ params: readParams }), (ctx) => {
    const w = watcher();
    if (!w) throw new NotFound(WATCH_OFF);
    const { params } = inputOf<undefined, undefined, z.infer<typeof readParams>>(ctx);
    w.markRead(ctx.state.userId as string, params.chat_id);
    if (!w.failuresFor(ctx.state.userId as string, 500).some((f) => f.chat_id === params.chat_id)) {
      throw new NotFound(`Chat ${params.chat_id} is not a chat the failed-build watcher made for you`);
    }
    ctx.body = { chat_id: params.chat_id, unread: false };
  });
}

const OPEN_CHAT = /^\/chatbot-api\/chats\/([1-9]\d{0,15})\/?(?:\?|$)/;

/** The chat a `GET /chatbot-api/chats/{id}` opens, or undefined for any other request. */
export function openedChat(method: string, url: string): number | undefined {
  if (method !== 'GET') return undefined;
  const m = OPEN_CHAT.exec(url);
  return m?.[1] ? Number(m[1]) : undefined;
}
