/** The list of chats: the selected one highlighted, scrolled so that it stays visible. */
import React from 'react';
import { Box, Text } from 'ink';
import { padTo, textWidth, truncateTo } from './markdownText.js';
import type { ListedChat } from './useChatSession.js';
import { chatSubject, listJobText } from '../chatSubject.js';

function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ChatList({
  chats,
  selected,
  height,
  width,
  loaded = true,
}: {
  chats: ListedChat[];
  selected: number;
  height: number;
  width: number;
  loaded?: boolean;
}): React.JSX.Element {
  if (!loaded) return <Text dimColor>Loading chats…</Text>;
  if (chats.length === 0) {
    return (
      <Box flexDirection="column" height={height}>
        <Text>No chats yet.</Text>
        <Text dimColor>Press n to start one.</Text>
      </Box>
    );
  }
  const rows = Math.max(1, height);
  const first = Math.min(Math.max(0, selected - rows + 1), Math.max(0, chats.length - rows));
  const visible = chats.slice(first, first + rows);
  const idWidth = Math.max(...chats.map((c) => String(c.id).length));
  // Job and build from the backend's fields, else read from the title (cli/chatSubject.ts).
  const subjects = visible.map((c) => chatSubject(c));
  const subjectTexts = visible.map((c, i) => listJobText(c, subjects[i]));
  // The job column: as wide as its longest entry on screen, at most a third of the line.
  const jobWidth = Math.min(Math.floor(width / 3), Math.max(0, ...subjectTexts.map(textWidth)));
  // The unread column only takes room when some chat is unread.
  const markRoom = chats.some((c) => c.unread) ? 2 : 0;
  return (
    <Box flexDirection="column" height={rows}>
      {visible.map((chat, i) => {
        const index = first + i;
        const isSelected = index === selected;
        const stamp = when(chat.updated_at);
        const jobCol = jobWidth > 0 ? padTo(truncateTo(subjectTexts[i] ?? '', jobWidth), jobWidth) + '  ' : '';
        const titleRoom = Math.max(4, width - idWidth - stamp.length - 6 - markRoom - textWidth(jobCol));
        const title = padTo(truncateTo(subjects[i]?.rest ?? chat.title, titleRoom), titleRoom);
        return (
          <Text key={chat.id} wrap="truncate" inverse={isSelected}>
            {isSelected ? '› ' : '  '}
            <Text dimColor={!isSelected}>{String(chat.id).padStart(idWidth)}</Text> {markRoom === 0 ? '' : chat.unread ? <Text bold>* </Text> : '  '}
            <Text color={isSelected ? undefined : 'cyan'}>{jobCol}</Text>
            {title} <Text dimColor>{stamp}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
