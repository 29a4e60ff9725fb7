/**
 * `cichat chat`: the chat list and the conversation. This component maps keys to the actions
 * of `useChatSession` and lays the screen out for the terminal's size; it makes no HTTP calls.
 */
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Text, useApp, useInput, useStdin, useStdout } from 'ink';
import type { Key } from 'ink';
import type { Chat } from '../../protocol/types.js';
import { ChatList } from './ChatList.js';
import { Conversation } from './Conversation.js';
import { CHAT_KEYS, Footer, LIST_KEYS } from './Footer.js';
import { LineInput, editLine, emptyLine, lineOf, type LineState } from './LineInput.js';
import { useChatSession, type ChatApi } from './useChatSession.js';

type ListMode = { kind: 'browse' } | { kind: 'new' } | { kind: 'rename'; chat: Chat } | { kind: 'delete'; chat: Chat };

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
 * State whose latest value key handlers read through a ref. Keys can arrive faster than the
 * screen is redrawn (a quick typist, a paste, tmux send-keys): the handler that takes the second
 * key may still be the one rendered before the first key's change, and must not act on the old
 * mode (e.g. take the key after "n" at the delete prompt as another answer to the prompt).
 */
function useKeyState<T>(initial: T): [T, { readonly current: T }, (next: T | ((prev: T) => T)) => void] {
  const [state, setState] = useState<T>(initial);
  const ref = useRef<T>(initial);
  const set = useCallback((next: T | ((prev: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next;
    setState(ref.current);
  }, []);
  return [state, ref, set];
}

export function App({ client, initialChatId, initialChats }: { client: ChatApi; initialChatId?: number; initialChats?: Chat[] }): React.JSX.Element {
  const session = useChatSession(client, initialChatId, initialChats);
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const { columns, rows } = useTerminalSize();
  const [view, viewRef, setView] = useKeyState<'list' | 'chat'>(initialChatId === undefined ? 'list' : 'chat');
  const [selected, selectedRef, setSelected] = useKeyState(0);
  const [listMode, listModeRef, setListMode] = useKeyState<ListMode>({ kind: 'browse' });
  const [line, setLineState] = useState<LineState>(emptyLine);
  // Keys can arrive several in one chunk (typed text then Enter): read the line through a ref
  // so that the second key sees what the first one did.
  const lineRef = useRef<LineState>(emptyLine);
  const setLine = (next: LineState | ((l: LineState) => LineState)): void => {
    lineRef.current = typeof next === 'function' ? next(lineRef.current) : next;
    setLineState(lineRef.current);
  };
  const [editing, editingRef, setEditing] = useKeyState(false);
  const [scroll, setScroll] = useState(0);

  const width = Math.max(20, columns);
  // One row less than the terminal: Ink redraws a frame as tall as the screen by clearing it.
  const height = Math.max(6, rows - 1);
  const bodyHeight = height - 4; // header, input/prompt, status, footer

  useEffect(() => {
    if (selected >= session.chats.length && session.chats.length > 0) setSelected(session.chats.length - 1);
  }, [session.chats.length, selected]);

  // New text arriving keeps the view at the bottom unless the user scrolled back on purpose.
  useEffect(() => {
    if (session.live === null) setScroll(0);
  }, [session.live === null]);

  const quit = (): void => {
    session.stop();
    exit();
  };

  const openSelected = (): void => {
    const chat = session.chats[selectedRef.current];
    if (!chat) return;
    void session.openChat(chat.id);
    setView('chat');
    setLine(emptyLine);
    setEditing(false);
  };

  const onListKey = (input: string, key: Key): void => {
    const listMode = listModeRef.current;
    if (listMode.kind === 'delete') {
      if (input === 'y' || input === 'Y') void session.deleteChat(listMode.chat.id);
      setListMode({ kind: 'browse' });
      return;
    }
    if (listMode.kind === 'new' || listMode.kind === 'rename') {
      if (key.escape) {
        setListMode({ kind: 'browse' });
        setLine(emptyLine);
        return;
      }
      if (key.return) {
        const title = lineRef.current.value.trim();
        const mode = listMode;
        setListMode({ kind: 'browse' });
        setLine(emptyLine);
        if (mode.kind === 'rename') {
          if (title) void session.renameChat(mode.chat.id, title.slice(0, 200));
        } else {
          void session.createChat(title ? title.slice(0, 200) : undefined).then((chat) => {
            if (!chat) return;
            void session.openChat(chat.id);
            setView('chat');
          });
        }
        return;
      }
      setLine((l) => editLine(l, input, key));
      return;
    }
    if (key.upArrow || input === 'k') setSelected((s) => Math.max(0, s - 1));
    else if (key.downArrow || input === 'j') setSelected((s) => Math.min(Math.max(0, session.chats.length - 1), s + 1));
    else if (key.return) openSelected();
    else if (input === 'n') {
      setLine(emptyLine);
      setListMode({ kind: 'new' });
    } else if (input === 'r') {
      const chat = session.chats[selectedRef.current];
      if (chat) {
        setLine(lineOf(chat.title));
        setListMode({ kind: 'rename', chat });
      }
    } else if (input === 'd' || key.delete) {
      const chat = session.chats[selectedRef.current];
      if (chat) setListMode({ kind: 'delete', chat });
    } else if ((key.tab || key.escape) && session.chatId !== null) setView('chat');
    else if (input === 'q') quit();
  };

  const onChatKey = (input: string, key: Key): void => {
    if (key.escape || (key.ctrl && input === 's')) {
      if (session.busy) session.stop();
      else if (editingRef.current) {
        setEditing(false);
        setLine(emptyLine);
      }
      return;
    }
    if (key.tab || (key.ctrl && input === 'l')) {
      setView('list');
      void session.refreshChats();
      return;
    }
    if (key.pageUp) return setScroll((s) => s + Math.max(1, bodyHeight - 2));
    if (key.pageDown) return setScroll((s) => Math.max(0, s - Math.max(1, bodyHeight - 2)));
    if (key.ctrl && input === 'r') {
      if (!session.busy) session.retryLast();
      return;
    }
    if (key.ctrl && input === 'e') {
      const last = session.pairs[session.pairs.length - 1];
      if (last && !session.busy) {
        setLine(lineOf(last.question.content));
        setEditing(true);
      }
      return;
    }
    if (key.return) {
      const question = lineRef.current.value.trim();
      if (!question || session.busy) return;
      if (editingRef.current) session.editLast(question);
      else session.send(question);
      setLine(emptyLine);
      setEditing(false);
      setScroll(0);
      return;
    }
    setLine((l) => editLine(l, input, key));
  };

  const onKey = (input: string, key: Key): void => {
    if (key.ctrl && (input === 'c' || input === 'q')) return quit();
    if (session.error && !key.ctrl) session.clearError();
    if (viewRef.current === 'list') onListKey(input, key);
    else onChatKey(input, key);
  };

  useInput(
    (input, key) => {
      // Text and Enter in one chunk (a fast typist, tmux send-keys): the text, then Enter.
      // Other newlines (a pasted block) stay text: a paste must not send several questions.
      if (!key.return && input.length > 1 && input.endsWith('\r') && !/[\r\n]/.test(input.slice(0, -1))) {
        onKey(input.slice(0, -1), { ...key, return: false });
        onKey('', { ...key, return: true });
        return;
      }
      onKey(input, key);
    },
    { isActive: isRawModeSupported === true },
  );

  const title =
    view === 'list'
      ? 'cichat · chats'
      : `cichat · ${session.chat ? `${session.chat.title} (#${session.chat.id})` : session.chatId !== null ? `chat #${session.chatId}` : ''}`;

  let prompt: React.JSX.Element;
  if (view === 'list') {
    prompt =
      listMode.kind === 'delete' ? (
        <Text color="red" wrap="truncate">
          Delete chat #{listMode.chat.id} “{listMode.chat.title}” and its conversation? (y/N)
        </Text>
      ) : listMode.kind === 'new' ? (
        <LineInput prompt="New chat title: " state={line} width={width} placeholder="(Enter for “New Chat”)" />
      ) : listMode.kind === 'rename' ? (
        <LineInput prompt="Rename to: " state={line} width={width} />
      ) : (
        <Text dimColor wrap="truncate">
          {session.chats.length} chat{session.chats.length === 1 ? '' : 's'}
        </Text>
      );
  } else {
    prompt = (
      <LineInput
        prompt={editing ? 'edit › ' : '› '}
        state={line}
        width={width}
        placeholder={
          session.live?.phase === 'stopped' ? 'stopped' : session.busy ? 'answering… Esc stops' : 'ask a question, Enter sends'
        }
        focus={!session.busy}
      />
    );
  }

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color="magenta" wrap="truncate">
        {title}
      </Text>
      {view === 'list' ? (
        <ChatList chats={session.chats} selected={selected} height={bodyHeight} width={width} loaded={session.chatsLoaded} />
      ) : (
        <Conversation pairs={session.pairs} live={session.live} width={width} height={bodyHeight} scroll={scroll} />
      )}
      {prompt}
      <Text color="red" wrap="truncate">
        {session.error ? `✗ ${session.error}` : ' '}
      </Text>
      <Footer keys={view === 'list' ? LIST_KEYS : CHAT_KEYS} width={width} />
    </Box>
  );
}
