/** The key reducer of `cichat chat`: bursts taken key by key, scrolling clamped, ^R, prompts. */
import type { Chat } from '../../protocol/types.js';
import { NO_KEY, initialUi, reduceChunk, splitChunk, type UiFacts, type UiState } from './keys.js';

const AT = '2026-11-22T01:00:00.000Z';
const chats: Chat[] = [1, 2].map((id) => ({ id, user_id: 'local', title: `chat ${id}`, created_at: AT, updated_at: AT }));
const facts: UiFacts = { chats, chatId: 1, busy: false, lastQuestion: 'why?', hasError: false, pageRows: 10, maxScroll: 25 };

function typeInto(state: UiState, chunk: string, f: UiFacts = facts) {
  return reduceChunk(state, f, chunk, NO_KEY);
}

describe('splitChunk', () => {
  it('takes the control characters of a burst as keys', () => {
    const keys = splitChunk('abc\u0015xyz', NO_KEY);
    expect(keys.map((k) => [k.input, k.key.ctrl])).toEqual([['abc', false], ['u', true], ['xyz', false]]);
  });
  it('keeps newlines inside a paste as text and takes a final Enter as Enter', () => {
    const keys = splitChunk('line one\nline two\r', NO_KEY);
    expect(keys).toHaveLength(2);
    expect(keys[0]?.input).toBe('line one\nline two');
    expect(keys[1]?.key.return).toBe(true);
  });
  it('maps backspace and tab inside a burst', () => {
    const keys = splitChunk('ab\u007fc\t', NO_KEY);
    expect(keys.map((k) => k.input || (k.key.backspace ? 'BS' : k.key.tab ? 'TAB' : '?'))).toEqual(['ab', 'BS', 'c', 'TAB']);
  });
});

describe('reduceChunk', () => {
  const chat = initialUi('chat');

  it('^U clears what was typed before it in the same burst (abc ^U xyz -> xyz)', () => {
    const { state } = typeInto(chat, 'abc\u0015xyz');
    expect(state.line.value).toBe('xyz');
    // and across two chunks
    const first = typeInto(chat, 'abc').state;
    expect(typeInto(first, '\u0015xyz').state.line.value).toBe('xyz');
  });

  it('^U in the rename prompt, in one burst with the new title and Enter', () => {
    const list = initialUi('list');
    const renaming = reduceChunk(list, facts, 'r', NO_KEY).state;
    expect(renaming.line.value).toBe('chat 1');
    const { state, effects } = typeInto(renaming, '\u0015release notes\r');
    expect(effects).toEqual([{ kind: 'rename', chatId: 1, title: 'release notes' }]);
    expect(state.listMode.kind).toBe('browse');
  });

  it('sends text then Enter, and a paste never sends twice', () => {
    expect(typeInto(chat, 'why did it fail?\r').effects).toEqual([{ kind: 'send', question: 'why did it fail?' }]);
    const paste = typeInto(chat, 'one\rtwo\r');
    expect(paste.effects).toEqual([{ kind: 'send', question: 'one two' }]);
  });

  it('PgUp stops at the top of the conversation and PgDn comes back in as many presses', () => {
    const pgUp = { ...NO_KEY, pageUp: true };
    const pgDn = { ...NO_KEY, pageDown: true };
    let s = chat;
    for (let i = 0; i < 10; i++) s = reduceChunk(s, facts, '', pgUp).state;
    expect(s.scroll).toBe(25); // clamped at maxScroll, not 100
    let downs = 0;
    while (s.scroll > 0) {
      s = reduceChunk(s, facts, '', pgDn).state;
      downs++;
    }
    expect(downs).toBe(3); // 25 rows, 10 a page
  });

  it('^R retries (the session decides: a failed send again, else the last answer), not while busy', () => {
    expect(typeInto(chat, '\u0012').effects).toEqual([{ kind: 'retry' }]);
    expect(reduceChunk(chat, { ...facts, busy: true }, 'r', { ...NO_KEY, ctrl: true }).effects).toEqual([]);
  });

  it('^C and ^Q quit from anywhere; q quits the list', () => {
    expect(typeInto(chat, '\u0003').effects).toEqual([{ kind: 'stop' }, { kind: 'quit' }]);
    expect(reduceChunk(initialUi('list'), facts, 'q', NO_KEY).effects).toEqual([{ kind: 'stop' }, { kind: 'quit' }]);
  });

  it('the delete prompt takes one answer; the next key of the burst moves the selection', () => {
    const list = initialUi('list');
    const asking = reduceChunk(list, facts, 'd', NO_KEY).state;
    expect(asking.listMode.kind).toBe('delete');
    const { state, effects } = reduceChunk(asking, facts, 'nj', NO_KEY);
    expect(effects).toEqual([]);
    // 'nj' is one chunk of text: the prompt takes it as its answer (not y), like two keys would
    expect(state.listMode.kind).toBe('browse');
  });
});
