/** The key help at the bottom of the screen, cut to the width. */
import React from 'react';
import { Text } from 'ink';
import { textWidth } from './markdownText.js';

export interface KeyHelp {
  keys: string;
  does: string;
}

const keyHelp = (pairs: Array<[keys: string, does: string]>): KeyHelp[] => pairs.map(([keys, does]) => ({ keys, does }));

export const CHAT_KEYS = keyHelp([
  ['Enter', 'send'],
  ['^R', 'retry'],
  ['^E', 'edit'],
  ['Esc/^S', 'stop'],
  ['PgUp/Dn', 'scroll'],
  ['Tab/^L', 'chats'],
  ['^C/^Q', 'quit'],
]);

export const LIST_KEYS = keyHelp([
  ['↑↓', 'move'],
  ['Enter', 'open'],
  ['n', 'new'],
  ['r', 'rename'],
  ['d', 'delete'],
  ['Tab', 'back'],
  ['q', 'quit'],
]);

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
