/**
 * The backend as the watcher uses it: the controller's own calls, made as the watching user
 * with a fresh JWT per request (as the proxy does for callers). Only the four calls the watcher
 * needs: create a chat, upload its context, ask and wait for the stored answer, read a chat.
 */
import type { Chat, CiContext, Page, QaPair, StreamEvent } from '../../protocol/types.js';
import { readEvents } from '../../protocol/sse.js';

export interface BackendCalls {
  createChat(user: string, title: string): Promise<Chat>;
  uploadContext(user: string, chatId: number, ciContext: CiContext): Promise<CiContext>;
  /** Asks (or, with `retryPairId`, asks again) and resolves when the answer is stored. */
  ask(user: string, chatId: number, question: string, retryPairId?: number): Promise<void>;
  /** The newest pair of a chat, or null (404 is an error: the chat is gone). */
  newestPair(user: string, chatId: number): Promise<QaPair | null>;
  /**
   * The user's chat titled `title` created at or after `since` (epoch ms), or null: the chat a
   * run that died between creating it and recording its id may have left (docs/notes/watch.md).
   */
  findChat(user: string, title: string, since: number): Promise<Chat | null>;
}

/** An answer from the backend that is not a success: status and its `detail`. */
export class BackendCallError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`backend answered ${status}: ${detail}`);
  }
}

/** How long one answer may take before the watcher gives up on it (and retries later). */
const ANSWER_TIMEOUT_MS = 10 * 60_000;
const CALL_TIMEOUT_MS = 120_000;
/** Chats are listed a page of 100 at a time, at most this many pages, when a lost chat is looked for. */
const FIND_PAGES_MAX = 20;

export function backendCalls(backendUrl: string, mintJwt: (user: string) => Promise<string>): BackendCalls {
  const base = backendUrl.replace(/\/+$/, '');
  const call = async (user: string, method: string, path: string, body?: unknown, timeoutMs = CALL_TIMEOUT_MS): Promise<Response> => {
    const headers: Record<string, string> = { authorization: `Bearer ${await mintJwt(user)}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      let detail = res.statusText;
      try {
        const parsed = (await res.json()) as { detail?: unknown };
        if (typeof parsed.detail === 'string') detail = parsed.detail;
      } catch {
        /* not JSON */
      }
      throw new BackendCallError(res.status, detail);
    }
    return res;
  };
  const json = async <T>(user: string, method: string, path: string, body?: unknown): Promise<T> =>
    (await (await call(user, method, path, body)).json()) as T;

  return {
    createChat: (user, title) => json<Chat>(user, 'POST', '/chats/', { title }),
    async uploadContext(user, chatId, ciContext) {
      const answer = await json<{ success: boolean; received_data: CiContext }>(user, 'POST', `/context/${chatId}/`, { ciContext });
      return answer.received_data;
    },
    async ask(user, chatId, question, retryPairId) {
      const res =
        retryPairId === undefined
          ? await call(user, 'POST', '/messages/send', { chat_id: chatId, content: question }, ANSWER_TIMEOUT_MS)
          : await call(user, 'POST', `/messages/${retryPairId}/retry`, undefined, ANSWER_TIMEOUT_MS);
      if (!res.body) throw new Error('the backend sent no answer stream');
      let last: StreamEvent | undefined;
      for await (const event of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
        last = event;
        if (event.event === 'error') throw new Error(`the answer failed: ${event.detail}`);
        if (event.event === 'done') return;
      }
      throw new Error(`the answer stream ended without "done"${last ? ` (last event ${last.event})` : ''}`);
    },
    async newestPair(user, chatId) {
      const page = await json<Page<QaPair>>(user, 'GET', `/chats/${chatId}?limit=1`);
      return page.items[0] ?? null;
    },
    async findChat(user, title, since) {
      // Most recently updated first, and a chat is updated no earlier than it is made: once a
      // page reaches chats last updated before `since`, nothing older can match.
      for (let page = 0; page < FIND_PAGES_MAX; page++) {
        const chats = await json<Page<Chat>>(user, 'GET', `/chats/?limit=100&offset=${page * 100}`);
        const found = chats.items.find((c) => c.title === title && Date.parse(c.created_at) >= since);
        if (found) return found;
        const last = chats.items[chats.items.length - 1];
        if (chats.items.length < 100 || !last || Date.parse(last.updated_at) < since) return null;
      }
      return null;
    },
  };
}
