/**
 * The state of a `cichat chat` session and every client call it makes. Components render what
 * this hook holds and call its actions; only the hook talks to the controller, and it owns the
 * answer stream (abort on stop, streamed text flushed at most every FLUSH_MS so that a long
 * answer does not starve key handling).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Chat, QaPair, StreamEvent } from '../../protocol/types.js';
import type { CichatClient, StreamRequest } from '../client.js';

/** The client calls the UI needs (a CichatClient fits); `unreadChatIds` is optional (the watcher's marks). */
export type ChatApi = Pick<CichatClient, 'allChats' | 'createChat' | 'conversation' | 'renameChat' | 'deleteChat' | 'stream'> &
  Partial<Pick<CichatClient, 'unreadChatIds'>>;

/** A chat of the list; `unread`: a diagnosis the failed-build watcher made, not opened yet. */
export type ListedChat = Chat & { unread?: boolean };

/** The answer being streamed now. */
export interface LiveAnswer {
  question: string;
  text: string;
  /** waiting: no text yet; streaming: text arriving; stopped: aborted, reloading the pair. */
  phase: 'waiting' | 'streaming' | 'stopped';
  qaPairId?: number;
}

export interface ChatSession {
  chats: ListedChat[];
  chatsLoaded: boolean;
  chatId: number | null;
  chat: Chat | undefined;
  pairs: QaPair[];
  live: LiveAnswer | null;
  error: string | null;
  busy: boolean;
  refreshChats(): Promise<void>;
  openChat(id: number): Promise<void>;
  createChat(title?: string): Promise<Chat | undefined>;
  renameChat(id: number, title: string): Promise<void>;
  deleteChat(id: number): Promise<void>;
  send(question: string): void;
  retryLast(): void;
  editLast(question: string): void;
  stop(): void;
  clearError(): void;
}

export const FLUSH_MS = 30;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function useChatSession(client: ChatApi, initialChatId?: number, initialChats?: Chat[]): ChatSession {
  const [chats, setChats] = useState<ListedChat[]>(initialChats ?? []);
  const [chatsLoaded, setChatsLoaded] = useState(initialChats !== undefined);
  const [chatId, setChatId] = useState<number | null>(initialChatId ?? null);
  const [pairs, setPairs] = useState<QaPair[]>([]);
  const [live, setLive] = useState<LiveAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  const pairsRef = useRef<QaPair[]>([]);
  pairsRef.current = pairs;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      abortRef.current?.abort();
    };
  }, []);

  const guard = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (err) {
      if (mounted.current) setError(message(err));
      return undefined;
    }
  }, []);

  const refreshChats = useCallback(async () => {
    await guard(async () => {
      const [list, unread] = await Promise.all([client.allChats(), client.unreadChatIds?.() ?? Promise.resolve(new Set<number>())]);
      if (!mounted.current) return;
      setChats(unread.size === 0 ? list : list.map((c): ListedChat => (unread.has(c.id) ? { ...c, unread: true } : c)));
      setChatsLoaded(true);
    });
  }, [client, guard]);

  const loadPairs = useCallback(
    async (id: number) => {
      const list = await client.conversation(id);
      if (mounted.current) setPairs(list);
      return list;
    },
    [client],
  );

  const openChat = useCallback(
    async (id: number) => {
      abortRef.current?.abort();
      setChatId(id);
      setPairs([]);
      setLive(null);
      setError(null);
      // Opening the chat marks it read on the controller too (GET /chats/{id}).
      setChats((list) => (list.some((c: ListedChat) => c.id === id && c.unread) ? list.map((c) => (c.id === id ? { ...c, unread: false } : c)) : list));
      await guard(() => loadPairs(id));
    },
    [guard, loadPairs],
  );

  useEffect(() => {
    if (!chatsLoaded) void refreshChats();
    if (initialChatId !== undefined) void openChat(initialChatId);
    // only once, on mount
  }, []);

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

  const deleteChat = useCallback(
    async (id: number) => {
      await guard(() => client.deleteChat(id));
      if (id === chatId) {
        abortRef.current?.abort();
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
      if (chatId === null || abortRef.current) return;
      const id = chatId;
      const abort = new AbortController();
      abortRef.current = abort;
      setError(null);
      setPairs((p) => p.slice(0, keep));
      setLive({ question, text: '', phase: 'waiting' });
      let pending = '';
      const flush = (): void => {
        if (!pending || !mounted.current) return;
        const text = pending;
        pending = '';
        setLive((l) => (l ? { ...l, text: l.text + text, phase: l.phase === 'stopped' ? 'stopped' : 'streaming' } : l));
      };
      const timer = setInterval(flush, FLUSH_MS);
      void (async () => {
        let failure: string | null = null;
        try {
          for await (const event of client.stream(request, abort.signal)) {
            const e: StreamEvent = event;
            switch (e.event) {
              case 'started':
                setLive((l) => (l ? { ...l, qaPairId: e.qa_pair_id } : l));
                break;
              case 'chunk':
                pending += e.content;
                break;
              case 'done':
                break;
              case 'error':
                failure = e.detail;
                break;
              default: {
                const never: never = e;
                throw new Error(`Unknown stream event ${JSON.stringify(never)}`);
              }
            }
          }
        } catch (err) {
          if (!abort.signal.aborted) failure = message(err);
        } finally {
          clearInterval(timer);
          flush();
          abortRef.current = null;
        }
        if (!mounted.current) return;
        if (abort.signal.aborted) setLive((l) => (l ? { ...l, phase: 'stopped' } : l));
        // Reload the pair as the backend saved it; after a stop it may take a moment to be
        // marked interrupted, so look again a few times. The live answer gives way to the
        // saved pair in one render.
        let list: QaPair[] | undefined;
        for (let attempt = 0; attempt < 15; attempt++) {
          list = await guard(() => client.conversation(id));
          const last = list?.[list.length - 1];
          if (!list || !abort.signal.aborted || last?.answer?.status !== 'streaming') break;
          await new Promise((r) => setTimeout(r, 200));
        }
        if (!mounted.current) return;
        if (list) setPairs(list);
        setLive(null);
        if (failure) setError(failure);
        void refreshChats();
      })();
    },
    [chatId, client, guard, loadPairs, refreshChats],
  );

  const send = useCallback(
    (question: string) => {
      if (chatId === null || !question.trim()) return;
      runStream({ kind: 'send', chatId, content: question }, question, pairsRef.current.length);
    },
    [chatId, runStream],
  );

  const retryLast = useCallback(() => {
    const last = pairsRef.current[pairsRef.current.length - 1];
    if (!last) return;
    runStream({ kind: 'retry', qaPairId: last.id }, last.question.content, pairsRef.current.length - 1);
  }, [runStream]);

  const editLast = useCallback(
    (question: string) => {
      const last = pairsRef.current[pairsRef.current.length - 1];
      if (!last || !question.trim()) return;
      runStream({ kind: 'edit', qaPairId: last.id, content: question }, question, pairsRef.current.length - 1);
    },
    [runStream],
  );

  const stop = useCallback(() => {
    abortRef.current?.abort();
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
    refreshChats,
    openChat,
    createChat,
    renameChat,
    deleteChat,
    send,
    retryLast,
    editLast,
    stop,
    clearError: () => setError(null),
  };
}
