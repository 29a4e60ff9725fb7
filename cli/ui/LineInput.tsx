/**
 * A one-line text input. The keys are handled by the screen that owns it (through
 * `editLine`), so that Ctrl combinations stay free for the screen's own commands.
 */
import React from 'react';
import { Text } from 'ink';
import type { Key } from 'ink';
import { fitStart, textWidth } from './markdownText.js';

export interface LineState {
  value: string;
  cursor: number;
}

export const emptyLine: LineState = { value: '', cursor: 0 };

export function lineOf(value: string): LineState {
  return { value, cursor: value.length };
}

/** The index one character (code point) before `i`: an emoji is one step, not two halves. */
function prevBoundary(value: string, i: number): number {
  if (i <= 0) return 0;
  const low = value.charCodeAt(i - 1);
  return i >= 2 && low >= 0xdc00 && low <= 0xdfff ? i - 2 : i - 1;
}

function nextBoundary(value: string, i: number): number {
  if (i >= value.length) return value.length;
  const high = value.charCodeAt(i);
  return high >= 0xd800 && high <= 0xdbff && i + 1 < value.length ? i + 2 : i + 1;
}

/** The end of `text` that fits `columns`. */
function fitEnd(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  const chars = [...text];
  let used = 0;
  let start = chars.length;
  while (start > 0) {
    const w = textWidth(chars[start - 1] ?? '');
    if (used + w > columns) break;
    used += w;
    start--;
  }
  return chars.slice(start).join('');
}

/** Applies one key press to a line; answers the same object when the key is not for the line. */
export function editLine(state: LineState, input: string, key: Key): LineState {
  const { value, cursor } = state;
  if (key.leftArrow) return { value, cursor: prevBoundary(value, cursor) };
  if (key.rightArrow) return { value, cursor: nextBoundary(value, cursor) };
  if (key.home || (key.ctrl && input === 'a')) return { value, cursor: 0 };
  if (key.end) return { value, cursor: value.length };
  if (key.backspace || key.delete) {
    if (cursor === 0) return state;
    const at = prevBoundary(value, cursor);
    return { value: value.slice(0, at) + value.slice(cursor), cursor: at };
  }
  if (key.ctrl && input === 'u') return { value: value.slice(cursor), cursor: 0 };
  if (key.ctrl && input === 'w') {
    const before = value.slice(0, cursor).replace(/\S+\s*$/, '');
    return { value: before + value.slice(cursor), cursor: before.length };
  }
  if (key.ctrl || key.meta || key.escape || key.return || key.tab || key.upArrow || key.downArrow || key.pageUp || key.pageDown) return state;
  if (!input) return state;
  // Pasted text may hold newlines: a question is one line here.
  const text = input.replace(/\r\n?|\n/g, ' ');
  return { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
}

/** Renders `prompt value` with an inverse-video cursor; shows the end of a line longer than `width`. */
export function LineInput({
  prompt,
  state,
  width,
  placeholder,
  focus = true,
}: {
  prompt: string;
  state: LineState;
  width: number;
  placeholder?: string;
  focus?: boolean;
}): React.JSX.Element {
  // Columns, not characters: CJK and emoji take two, and the line must not wrap.
  const room = Math.max(4, width - textWidth(prompt) - 1);
  const atEnd = nextBoundary(state.value, state.cursor);
  const cursorChar = state.value.slice(state.cursor, atEnd);
  const before = fitEnd(state.value.slice(0, state.cursor), room - Math.max(1, textWidth(cursorChar)));
  const after = fitStart(state.value.slice(atEnd), Math.max(0, room - textWidth(before) - Math.max(1, textWidth(cursorChar))));
  const afterShown = textWidth(after) <= room - textWidth(before) - Math.max(1, textWidth(cursorChar)) ? after : '';
  if (!state.value && placeholder) {
    return (
      <Text wrap="truncate">
        <Text color="green" bold>{prompt}</Text>
        {focus ? <Text inverse> </Text> : null}
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  return (
    <Text wrap="truncate">
      <Text color="green" bold>{prompt}</Text>
      {before}
      {focus ? <Text inverse>{cursorChar || ' '}</Text> : cursorChar}
      {afterShown}
    </Text>
  );
}
