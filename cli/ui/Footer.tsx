/** The key help at the bottom of the screen, cut to the width. */
import React from 'react';
import { Text } from 'ink';

export interface KeyHelp {
  keys: string;
  does: string;
}

export const CHAT_KEYS: KeyHelp[] = [
  { keys: 'Enter', does: 'send' },
  { keys: '^R', does: 'retry' },
  { keys: '^E', does: 'edit last' },
  { keys: 'Esc/^S', does: 'stop' },
  { keys: 'PgUp/PgDn', does: 'scroll' },
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

export function Footer({ keys, width }: { keys: KeyHelp[]; width: number }): React.JSX.Element {
  const parts: React.JSX.Element[] = [];
  let used = 0;
  keys.forEach((k, i) => {
    const len = k.keys.length + 1 + k.does.length + (i > 0 ? 2 : 0);
    if (used + len > width) return;
    used += len;
    parts.push(
      <Text key={k.keys}>
        {i > 0 ? '  ' : ''}
        <Text bold color="cyan">{k.keys}</Text> <Text dimColor>{k.does}</Text>
      </Text>,
    );
  });
  return <Text wrap="truncate">{parts}</Text>;
}
