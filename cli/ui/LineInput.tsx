/**
 * A one-line text input. The keys are handled by the screen that owns it (through
 * `editLine`), so that Ctrl combinations stay free for the screen's own commands.
 */
import React from 'react';
import { Text } from 'ink';
import type { Key } from 'ink';

export interface LineState {
  value: string;
  cursor: number;
}

export const emptyLine: LineState = { value: '', cursor: 0 };

export function lineOf(value: string): LineState {
  return { value, cursor: value.length };
}

/** Applies one key press to a line; answers the same object when the key is not for the line. */
export function editLine(state: LineState, input: string, key: Key): LineState {
  const { value, cursor } = state;
  if (key.leftArrow) return { value, cursor: Math.max(0, cursor - 1) };
  if (key.rightArrow) return { value, cursor: Math.min(value.length, cursor + 1) };
  if (key.home || (key.ctrl && input === 'a')) return { value, cursor: 0 };
  if (key.end) return { value, cursor: value.length };
  if (key.backspace || key.delete) {
    if (cursor === 0) return state;
    return { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 };
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
  const room = Math.max(4, width - prompt.length - 1);
  const start = Math.max(0, state.cursor - room + 1);
  const shown = state.value.slice(start, start + room);
  const at = state.cursor - start;
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
      {shown.slice(0, at)}
      {focus ? <Text inverse>{shown[at] ?? ' '}</Text> : shown[at] ?? ''}
      {shown.slice(at + 1)}
    </Text>
  );
}
