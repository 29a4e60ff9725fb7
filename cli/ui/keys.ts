/**
 * The key handling of `cichat chat` as a pure reducer: (screen state, facts of the session, one
 * key) -> (new screen state, effects for the session to carry out). The App feeds it every key
 * of an input chunk in order, so a burst (a paste, a fast typist, tmux send-keys) is handled as
 * if the keys had come one by one: `abc` ^U `xyz` leaves `xyz`.
 */
import type { Key } from 'ink';
import type { Chat } from '../../protocol/types.js';
import { editLine, emptyLine, lineOf, type LineState } from './LineInput.js';

export type View = 'list' | 'chat';
export type ListMode = { kind: 'browse' } | { kind: 'new' } | { kind: 'rename'; chat: Chat } | { kind: 'delete'; chat: Chat };

/** What the screen holds between keys. */
export interface UiState {
  view: View;
  selected: number;
  listMode: ListMode;
  line: LineState;
  editing: boolean;
  /** Rows scrolled back from the end of the conversation, 0..maxScroll. */
  scroll: number;
}

/** What the reducer reads of the session and the layout (not changed by it). */
export interface UiFacts {
  chats: Chat[];
  chatId: number | null;
  busy: boolean;
  /** The last question of the open chat (for ^E). */
  lastQuestion: string | undefined;
  /** An error line is shown (any plain key clears it). */
  hasError: boolean;
  /** Rows one PgUp/PgDn moves. */
  pageRows: number;
  /** How far back the conversation can scroll (its first line at the top). */
  maxScroll: number;
}

export type Effect =
  | { kind: 'quit' }
  | { kind: 'stop' }
  | { kind: 'send'; question: string }
  | { kind: 'edit'; question: string }
  | { kind: 'retry' }
  | { kind: 'open'; chatId: number }
  | { kind: 'create'; title: string | undefined }
  | { kind: 'rename'; chatId: number; title: string }
  | { kind: 'delete'; chatId: number }
  | { kind: 'refresh' }
  | { kind: 'clearError' };

export interface KeyPress {
  input: string;
  key: Key;
}

export function initialUi(view: View): UiState {
  return { view, selected: 0, listMode: { kind: 'browse' }, line: emptyLine, editing: false, scroll: 0 };
}

export const NO_KEY: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};

/** Control characters inside a burst, as the key they stand for. */
function controlKey(ch: string): KeyPress | undefined {
  const code = ch.charCodeAt(0);
  if (ch === '\u007f' || ch === '\b') return { input: '', key: { ...NO_KEY, backspace: true } };
  if (ch === '\t') return { input: '', key: { ...NO_KEY, tab: true } };
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...NO_KEY, ctrl: true } };
  return undefined;
}

/**
 * Splits one input chunk as Ink delivers it into key presses. Ink passes a chunk of plain
 * text with control characters in it (`abc\x15xyz`) as one `input`: the control characters
 * are taken as the keys they are. Newlines inside the chunk are text (a pasted block must not
 * send several questions); a chunk that ends with Enter is the text, then Enter.
 */
export function splitChunk(input: string, key: Key): KeyPress[] {
  if (key.ctrl || key.meta || key.escape || key.return || key.backspace || key.delete || key.tab) return [{ input, key }];
  if (input.length <= 1) {
    const control = input === '\r' || input === '\n' ? { input: '', key: { ...key, return: true } } : controlKey(input);
    return [control ?? { input, key }];
  }
  const out: KeyPress[] = [];
  let text = '';
  const flush = (): void => {
    if (text) out.push({ input: text, key: { ...key, return: false } });
    text = '';
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i] ?? '';
    if (ch === '\r' || ch === '\n') {
      const last = i === input.length - 1 || (ch === '\r' && input[i + 1] === '\n' && i + 1 === input.length - 1);
      if (last) {
        flush();
        out.push({ input: '', key: { ...NO_KEY, return: true } });
        break;
      }
      if (ch === '\r' && input[i + 1] === '\n') i++;
      text += '\n';
      continue;
    }
    const control = controlKey(ch);
    if (control) {
      flush();
      out.push(control);
    } else text += ch;
  }
  flush();
  return out.length ? out : [{ input, key }];
}

interface Step {
  state: UiState;
  effects: Effect[];
}

function listKey(state: UiState, facts: UiFacts, { input, key }: KeyPress): Step {
  const mode = state.listMode;
  const browse: ListMode = { kind: 'browse' };
  if (mode.kind === 'delete') {
    const effects: Effect[] = input === 'y' || input === 'Y' ? [{ kind: 'delete', chatId: mode.chat.id }] : [];
    return { state: { ...state, listMode: browse }, effects };
  }
  if (mode.kind === 'new' || mode.kind === 'rename') {
    if (key.escape) return { state: { ...state, listMode: browse, line: emptyLine }, effects: [] };
    if (key.return) {
      const title = state.line.value.trim().slice(0, 200);
      const next = { ...state, listMode: browse, line: emptyLine };
      if (mode.kind === 'rename') return { state: next, effects: title ? [{ kind: 'rename', chatId: mode.chat.id, title }] : [] };
      return { state: next, effects: [{ kind: 'create', title: title || undefined }] };
    }
    return { state: { ...state, line: editLine(state.line, input, key) }, effects: [] };
  }
  const chat = facts.chats[state.selected];
  const last = Math.max(0, facts.chats.length - 1);
  if (key.upArrow || input === 'k') return { state: { ...state, selected: Math.max(0, state.selected - 1) }, effects: [] };
  if (key.downArrow || input === 'j') return { state: { ...state, selected: Math.min(last, state.selected + 1) }, effects: [] };
  if (key.return) {
    if (!chat) return { state, effects: [] };
    return { state: { ...state, view: 'chat', line: emptyLine, editing: false, scroll: 0 }, effects: [{ kind: 'open', chatId: chat.id }] };
  }
  if (input === 'n') return { state: { ...state, listMode: { kind: 'new' }, line: emptyLine }, effects: [] };
  if (input === 'r' && chat) return { state: { ...state, listMode: { kind: 'rename', chat }, line: lineOf(chat.title) }, effects: [] };
  if ((input === 'd' || key.delete) && chat) return { state: { ...state, listMode: { kind: 'delete', chat } }, effects: [] };
  if ((key.tab || key.escape) && facts.chatId !== null) return { state: { ...state, view: 'chat' }, effects: [] };
  if (input === 'q') return { state, effects: [{ kind: 'stop' }, { kind: 'quit' }] };
  return { state, effects: [] };
}

function chatKey(state: UiState, facts: UiFacts, { input, key }: KeyPress): Step {
  if (key.escape || (key.ctrl && input === 's')) {
    if (facts.busy) return { state, effects: [{ kind: 'stop' }] };
    if (state.editing) return { state: { ...state, editing: false, line: emptyLine }, effects: [] };
    return { state, effects: [] };
  }
  if (key.tab || (key.ctrl && input === 'l')) {
    // Back in the list the cursor stands on the chat we came from (`r`/`d` act on it, issue 27);
    // the App keeps it there when the refreshed list comes back in another order.
    const here = facts.chats.findIndex((c) => c.id === facts.chatId);
    return { state: { ...state, view: 'list', selected: here >= 0 ? here : state.selected }, effects: [{ kind: 'refresh' }] };
  }
  const page = Math.max(1, facts.pageRows);
  if (key.pageUp) return { state: { ...state, scroll: Math.min(facts.maxScroll, state.scroll + page) }, effects: [] };
  if (key.pageDown) return { state: { ...state, scroll: Math.max(0, Math.min(facts.maxScroll, state.scroll) - page) }, effects: [] };
  if (key.ctrl && input === 'r') return { state: { ...state, scroll: 0 }, effects: facts.busy ? [] : [{ kind: 'retry' }] };
  if (key.ctrl && input === 'e') {
    if (facts.lastQuestion === undefined || facts.busy) return { state, effects: [] };
    return { state: { ...state, line: lineOf(facts.lastQuestion), editing: true }, effects: [] };
  }
  if (key.return) {
    const question = state.line.value.trim();
    if (!question || facts.busy) return { state, effects: [] };
    return {
      state: { ...state, line: emptyLine, editing: false, scroll: 0 },
      effects: [state.editing ? { kind: 'edit', question } : { kind: 'send', question }],
    };
  }
  return { state: { ...state, line: editLine(state.line, input, key) }, effects: [] };
}

/** One key press. */
export function reduceKey(state: UiState, facts: UiFacts, press: KeyPress): Step {
  const { input, key } = press;
  if (key.ctrl && (input === 'c' || input === 'q')) return { state, effects: [{ kind: 'stop' }, { kind: 'quit' }] };
  const pre: Effect[] = facts.hasError && !key.ctrl ? [{ kind: 'clearError' }] : [];
  const step = state.view === 'list' ? listKey(state, facts, press) : chatKey(state, facts, press);
  return pre.length ? { state: step.state, effects: [...pre, ...step.effects] } : step;
}

/**
 * A whole input chunk, key by key. The facts the effects will change are carried along (an
 * answer started makes the session busy, an opened chat is the current one), so a later key
 * of the same chunk is judged as it would be after a redraw.
 */
export function reduceChunk(state: UiState, facts: UiFacts, input: string, key: Key): Step {
  let current = state;
  let f = facts;
  const effects: Effect[] = [];
  for (const press of splitChunk(input, key)) {
    const step = reduceKey(current, f, press);
    current = step.state;
    for (const e of step.effects) {
      effects.push(e);
      if (e.kind === 'send' || e.kind === 'edit' || e.kind === 'retry') f = { ...f, busy: true };
      else if (e.kind === 'open') f = { ...f, chatId: e.chatId, maxScroll: 0 };
      else if (e.kind === 'clearError') f = { ...f, hasError: false };
      else if (e.kind === 'quit') return { state: current, effects };
    }
  }
  return { state: current, effects };
}
