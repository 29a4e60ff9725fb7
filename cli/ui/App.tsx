/**
 * `cichat chat`: the chat list and the conversation. Keys go through the pure reducer of
 * keys.ts (a whole input chunk at a time); this component carries out the effects it answers
 * with `useChatSession`'s actions and lays the screen out for the terminal's size. It makes no
 * HTTP calls.
 */
import React, { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text, useApp, useInput, useStdin, useStdout } from 'ink';
import type { Chat } from '../../protocol/types.js';
import { ChatList } from './ChatList.js';
import { Conversation, conversationFrame, pairLines } from './Conversation.js';
import { CHAT_KEYS, Footer, LIST_KEYS } from './Footer.js';
import { LineInput } from './LineInput.js';
import { initialUi, reduceChunk, type Effect, type UiFacts, type UiState } from './keys.js';
import { useChatSession, type ChatApi, type ChatSession } from './useChatSession.js';

/** The terminal's size, updated on resize. */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = (): { columns: number; rows: number } => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/**
 * The screen state, read and written through a ref: keys can arrive faster than the screen is
 * redrawn, and the handler of the second key must see what the first one did.
 */
function useUiState(initial: UiState): [UiState, { current: UiState }, (next: UiState | ((s: UiState) => UiState)) => void] {
  const [state, setState] = useState(initial);
  const ref = useRef(initial);
  const set = (next: UiState | ((s: UiState) => UiState)): void => {
    ref.current = typeof next === 'function' ? next(ref.current) : next;
    setState(ref.current);
  };
  return [state, ref, set];
}

/** Carries out one effect of the key reducer. */
function runEffect(effect: Effect, session: ChatSession, setUi: (f: (s: UiState) => UiState) => void, exit: () => void): void {
  switch (effect.kind) {
    case 'quit':
      return exit();
    case 'stop':
      return session.stop();
    case 'send':
      return session.send(effect.question);
    case 'edit':
      return session.editLast(effect.question);
    case 'retry':
      return session.retry();
    case 'open':
      return void session.openChat(effect.chatId);
    case 'create':
      return void session.createChat(effect.title).then((chat) => {
        if (!chat) return;
        void session.openChat(chat.id);
        setUi((s) => ({ ...s, view: 'chat', scroll: 0 }));
      });
    case 'rename':
      return void session.renameChat(effect.chatId, effect.title);
    case 'delete':
      return void session.deleteChat(effect.chatId);
    case 'refresh':
      return void session.refreshChats();
    case 'clearError':
      return session.clearError();
    default:
      // Exhaustive: a new kind of Effect that is not carried out here fails to compile.
      return unhandled(effect);
  }
}

function unhandled(effect: never): never {
  throw new Error(`effect not carried out: ${JSON.stringify(effect)}`);
}

function Prompt({ ui, session, width }: { ui: UiState; session: ChatSession; width: number }): React.JSX.Element {
  if (ui.view === 'chat') {
    const placeholder = session.live?.phase === 'stopped' ? 'stopped' : session.busy ? 'answering… Esc stops' : 'ask a question, Enter sends';
    return <LineInput prompt={ui.editing ? 'edit › ' : '› '} state={ui.line} width={width} placeholder={placeholder} focus={!session.busy} />;
  }
  const mode = ui.listMode;
  if (mode.kind === 'delete') {
    return (
      <Text color="red" wrap="truncate">
        Delete chat #{mode.chat.id} “{mode.chat.title}” and its conversation? (y/N)
      </Text>
    );
  }
  if (mode.kind === 'new') return <LineInput prompt="New chat title: " state={ui.line} width={width} placeholder="(Enter for “New Chat”)" />;
  if (mode.kind === 'rename') return <LineInput prompt="Rename to: " state={ui.line} width={width} />;
  const n = session.chats.length;
  return (
    <Text dimColor wrap="truncate">
      {n} chat{n === 1 ? '' : 's'}
    </Text>
  );
}

export function App({ client, initialChatId, initialChats }: { client: ChatApi; initialChatId?: number; initialChats?: Chat[] }): React.JSX.Element {
  const session = useChatSession(client, initialChatId, initialChats);
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const { columns, rows } = useTerminalSize();
  const [ui, uiRef, setUi] = useUiState(initialUi(initialChatId === undefined ? 'list' : 'chat'));

  const width = Math.max(20, columns);
  // One row less than the terminal: Ink redraws a frame as tall as the screen by clearing it.
  const height = Math.max(6, rows - 1);
  const bodyHeight = height - 4; // header, input/prompt, status, footer
  const done = useMemo(() => pairLines(session.pairs, width), [session.pairs, width]);
  const frame = conversationFrame(done, session.live, width, bodyHeight, ui.scroll);

  useEffect(() => {
    if (ui.selected >= session.chats.length && session.chats.length > 0) setUi((s) => ({ ...s, selected: session.chats.length - 1 }));
  }, [session.chats.length, ui.selected]);

  // The cursor follows its chat when the list comes back in another order (a chat that got a
  // new answer moves to the top): selection is by chat, not by row (issue 27).
  const shownChats = useRef(session.chats);
  useEffect(() => {
    const before = shownChats.current;
    shownChats.current = session.chats;
    if (before === session.chats) return;
    const id = before[uiRef.current.selected]?.id;
    const now = id === undefined ? -1 : session.chats.findIndex((c) => c.id === id);
    if (now >= 0 && now !== uiRef.current.selected) setUi((s) => ({ ...s, selected: now }));
  }, [session.chats]);

  // New text arriving keeps the view at the bottom unless the user scrolled back on purpose.
  useEffect(() => {
    if (session.live === null) setUi((s) => ({ ...s, scroll: 0 }));
  }, [session.live === null]);

  const facts: UiFacts = {
    chats: session.chats,
    chatId: session.chatId,
    busy: session.busy,
    lastQuestion: session.pairs[session.pairs.length - 1]?.question.content,
    hasError: session.error !== null,
    pageRows: Math.max(1, bodyHeight - 2),
    maxScroll: frame.maxScroll,
  };
  const factsRef = useRef(facts);
  factsRef.current = facts;

  useInput(
    (input, key) => {
      const { state, effects } = reduceChunk(uiRef.current, factsRef.current, input, key);
      setUi(state);
      for (const effect of effects) runEffect(effect, session, setUi, exit);
    },
    { isActive: isRawModeSupported === true },
  );

  const chat = session.chat;
  const title =
    ui.view === 'list' ? 'cichat · chats' : `cichat · ${chat ? `${chat.title} (#${chat.id})` : session.chatId !== null ? `chat #${session.chatId}` : ''}`;

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color="magenta" wrap="truncate">
        {title}
      </Text>
      {ui.view === 'list' ? (
        <ChatList chats={session.chats} selected={ui.selected} height={bodyHeight} width={width} loaded={session.chatsLoaded} />
      ) : (
        <Conversation pairs={session.pairs} live={session.live} width={width} height={bodyHeight} frame={frame} />
      )}
      <Prompt ui={ui} session={session} width={width} />
      <Text color="red" wrap="truncate">
        {session.error ? `✗ ${session.error}` : ' '}
      </Text>
      <Footer keys={ui.view === 'list' ? LIST_KEYS : CHAT_KEYS} width={width} />
    </Box>
  );
}
