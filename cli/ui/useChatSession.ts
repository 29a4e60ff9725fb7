/**
 * The state of a `cichat chat` session and every client call it makes. Components render what
 * this hook holds and call its actions; only the hook talks to the controller. The answer being
 * streamed is an `AnswerStream` (a plain class); the hook mirrors its live answer into state.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Chat, QaPair } from '../../protocol/types.js';
import type { CichatClient, StreamRequest } from '../client.js';
import { AnswerStream, type LiveAnswer, type StreamOutcome } from './answerStream.js';

export { FLUSH_MS, type LiveAnswer } from './answerStream.js';

/** The client calls the UI needs (a CichatClient fits); `unreadChatIds` is optional (the watcher's marks). */
export type ChatApi = Pick<CichatClient, 'allChats' | 'createChat' | 'conversation' | 'renameChat' | 'deleteChat' | 'stream'> &
  Partial<Pick<CichatClient, 'unreadChatIds'>>;

/** A chat of the list; `unread`: a diagnosis the failed-build watcher made, not opened yet. */
export type ListedChat = Chat & { unread?: boolean };

export interface ChatSession {
  chats: ListedChat[];
  chatsLoaded: boolean;
  chatId: number | null;
  chat: Chat | undefined;
  pairs: QaPair[];
  live: LiveAnswer | null;
  error: string | null;
  busy: boolean;
  /** A send that failed before the backend began an answer: ^R sends it again. */
  failedSend: string | null;
  refreshChats(): Promise<void>;
  openChat(id: number): Promise<void>;
  createChat(title?: string): Promise<Chat | undefined>;
  renameChat(id: number, title: string): Promise<void>;
  deleteChat(id: number): Promise<void>;
  send(question: string): void;
  /** Sends a failed send again, else answers the last question again. */
  retry(): void;
  editLast(question: string): void;
  stop(): void;
  clearError(): void;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The conversation as the backend saved it after a stream. After a stop the pair may take a
 * moment to be marked interrupted: look again a few times while it still says `streaming`.
 */
async function reloadAfter(client: ChatApi, chatId: number, outcome: StreamOutcome): Promise<QaPair[]> {
  let list = await client.conversation(chatId);
  for (let attempt = 0; outcome.aborted && attempt < 15 && list[list.length - 1]?.answer?.status === 'streaming'; attempt++) {
    await new Promise((r) => setTimeout(r, 200));
    list = await client.conversation(chatId);
  }
  return list;
}

/** The chat list and the chat operations on it. */
function useChats(client: ChatApi, initialChats: Chat[] | undefined, mounted: { current: boolean }, setError: (e: string) => void) {
  const [chats, setChats] = useState<ListedChat[]>(initialChats ?? []);
  const [chatsLoaded, setChatsLoaded] = useState(initialChats !== undefined);
  const guard = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (err) {
      if (mounted.current) setError(message(err));
      return undefined;
    }
  }, []);
  const refreshChats = useCallback(async () => {
    const got = await guard(() =>
      Promise.all([client.allChats(), client.unreadChatIds?.() ?? Promise.resolve(new Set<number>())]),
    );
    if (!got || !mounted.current) return;
    const [list, unread] = got;
    setChats(unread.size === 0 ? list : list.map((c): ListedChat => (unread.has(c.id) ? { ...c, unread: true } : c)));
    setChatsLoaded(true);
  }, [client, guard]);

  const createChat = useCallback(
    async (title?: string) => {
      const chat = await guard(() => client.createChat(title));
      if (chat) await refreshChats();
      return chat;
    },
    [client, guard, refreshChats],
  );

  const renameChat = useCallback(
    async (id: number, title: string) => {
      await guard(() => client.renameChat(id, title));
      await refreshChats();
    },
    [client, guard, refreshChats],
  );

  return { chats, setChats, chatsLoaded, guard, refreshChats, createChat, renameChat };
}

export function useChatSession(client: ChatApi, initialChatId?: number, initialChats?: Chat[]): ChatSession {
  const mounted = useRef(true);
  const [error, setError] = useState<string | null>(null);
  const { chats, setChats, chatsLoaded, guard, refreshChats, createChat, renameChat } = useChats(client, initialChats, mounted, setError);
  const [chatId, setChatId] = useState<number | null>(initialChatId ?? null);
  const [pairs, setPairs] = useState<QaPair[]>([]);
  const [live, setLive] = useState<LiveAnswer | null>(null);
  const [failedSend, setFailedSend] = useState<string | null>(null);
  const streamRef = useRef<AnswerStream | null>(null);
  const pairsRef = useRef<QaPair[]>([]);
  pairsRef.current = pairs;
  const failedRef = useRef<string | null>(null);
  failedRef.current = failedSend;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      streamRef.current?.stop();
    };
  }, []);

  const openChat = useCallback(
    async (id: number) => {
      streamRef.current?.stop();
      setChatId(id);
      setPairs([]);
      setLive(null);
      setError(null);
      setFailedSend(null);
      // Opening the chat marks it read on the controller too (GET /chats/{id}).
      setChats((list) => (list.some((c: ListedChat) => c.id === id && c.unread) ? list.map((c) => (c.id === id ? { ...c, unread: false } : c)) : list));
      const list = await guard(() => client.conversation(id));
      if (list && mounted.current) setPairs(list);
    },
    [client, guard],
  );

  useEffect(() => {
    if (!chatsLoaded) void refreshChats();
    if (initialChatId !== undefined) void openChat(initialChatId);
    // only once, on mount
  }, []);

  const deleteChat = useCallback(
    async (id: number) => {
      await guard(() => client.deleteChat(id));
      if (id === chatId) {
        streamRef.current?.stop();
        setChatId(null);
        setPairs([]);
        setLive(null);
      }
      await refreshChats();
    },
    [client, guard, refreshChats, chatId],
  );

  /** Runs one answer stream; `keep` is how many of the current pairs stay shown meanwhile. */
  const runStream = useCallback(
    (request: StreamRequest, question: string, keep: number) => {
      if (chatId === null || streamRef.current) return;
      const id = chatId;
      setError(null);
      setFailedSend(null);
      setPairs((p) => p.slice(0, keep));
      const stream = new AnswerStream(client, request, question, (l) => {
        if (mounted.current) setLive(l);
      });
      streamRef.current = stream;
      setLive(stream.live);
      void (async () => {
        const outcome = await stream.done;
        streamRef.current = null;
        if (!mounted.current) return;
        // The live answer gives way to the saved pair in one render.
        const list = await guard(() => reloadAfter(client, id, outcome));
        if (!mounted.current) return;
        if (list) setPairs(list);
        setLive(null);
        if (outcome.failure) {
          const unsent = request.kind === 'send' && !outcome.started;
          setError(unsent ? `${outcome.failure} (^R sends it again)` : outcome.failure);
          if (unsent) setFailedSend(question);
        }
        void refreshChats();
      })();
    },
    [chatId, client, guard, refreshChats],
  );

  const send = useCallback(
    (question: string) => {
      if (chatId === null || !question.trim()) return;
      runStream({ kind: 'send', chatId, content: question }, question, pairsRef.current.length);
    },
    [chatId, runStream],
  );

  const retry = useCallback(() => {
    const unsent = failedRef.current;
    if (unsent !== null) return send(unsent);
    const last = pairsRef.current[pairsRef.current.length - 1];
    if (!last) return;
    runStream({ kind: 'retry', qaPairId: last.id }, last.question.content, pairsRef.current.length - 1);
  }, [runStream, send]);

  const editLast = useCallback(
    (question: string) => {
      const last = pairsRef.current[pairsRef.current.length - 1];
      if (!last || !question.trim()) return;
      runStream({ kind: 'edit', qaPairId: last.id, content: question }, question, pairsRef.current.length - 1);
    },
    [runStream],
  );

  const stop = useCallback(() => {
    streamRef.current?.stop();
  }, []);

  return {
    chats,
    chatsLoaded,
    chatId,
    chat: chats.find((c) => c.id === chatId),
    pairs,
    live,
    error,
    busy: live !== null,
    failedSend,
    refreshChats,
    openChat,
    createChat,
    renameChat,
    deleteChat,
    send,
    retry,
    editLast,
    stop,
    clearError: () => setError(null),
  };
}
