/** The key help at the bottom of the screen, cut to the width. */
import React from 'react';
import { Text } from 'ink';
import { textWidth } from './markdownText.js';

export interface KeyHelp {
  keys: string;
  does: string;
}

export const CHAT_KEYS: KeyHelp[] = [
  { keys: 'Enter', does: 'send' },
  { keys: '^R', does: 'retry' },
  { keys: '^E', does: 'edit' },
  { keys: 'Esc/^S', does: 'stop' },
  { keys: 'PgUp/Dn', does: 'scroll' },
  { keys: 'Tab/^L', does: 'chats' },
  { keys: '^C/^Q', does: 'quit' },
];

export const LIST_KEYS: KeyHelp[] = [
  { keys: '↑↓', does: 'move' },
  { keys: 'Enter', does: 'open' },
  { keys: 'n', does: 'new' },
  { keys: 'r', does: 'rename' },
  { keys: 'd', does: 'delete' },
  { keys: 'Tab', does: 'back' },
  { keys: 'q', does: 'quit' },
];

/**
 * The keys that fit `width`, in order; the last entry (quit) is always kept, so an 80-column
 * terminal still says how to leave: entries before it are dropped from the end instead.
 */
export function keysThatFit(keys: KeyHelp[], width: number): KeyHelp[] {
  const len = (k: KeyHelp): number => textWidth(k.keys) + 1 + textWidth(k.does);
  const last = keys[keys.length - 1];
  if (!last) return [];
  let used = len(last);
  const kept: KeyHelp[] = [];
  for (const k of keys.slice(0, -1)) {
    if (used + len(k) + 2 > width) break;
    used += len(k) + 2;
    kept.push(k);
  }
  return [...kept, last];
}

export function Footer({ keys, width }: { keys: KeyHelp[]; width: number }): React.JSX.Element {
  return (
    <Text wrap="truncate">
      {keysThatFit(keys, width).map((k, i) => (
        <Text key={k.keys}>
          {i > 0 ? '  ' : ''}
          <Text bold color="cyan">{k.keys}</Text> <Text dimColor>{k.does}</Text>
        </Text>
      ))}
    </Text>
  );
}
