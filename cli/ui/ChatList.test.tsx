import React from 'react';
import { render } from 'ink-testing-library';
import { ChatList } from './ChatList.js';
import type { ListedChat } from './useChatSession.js';

const chat = (id: number, title: string, unread?: boolean): ListedChat => ({
  id,
  user_id: 'local',
  title,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
  ...(unread === undefined ? {} : { unread }),
});

describe('chat list unread marks', () => {
  it('marks the watcher chats not opened yet with *', () => {
    const { lastFrame } = render(<ChatList chats={[chat(2, 'team/api #8 failed', true), chat(1, 'my chat')]} selected={1} height={5} width={80} />);
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/^ *2 \* .*team\/api #8 failed/);
    expect(lines[1]).toMatch(/ 1 +my chat/);
  });

  it('takes no room when nothing is unread', () => {
    const { lastFrame } = render(<ChatList chats={[chat(1, 'my chat', false)]} selected={0} height={5} width={80} />);
    expect(lastFrame()).toMatch(/1 my chat/);
    expect(lastFrame()).not.toContain('*');
  });
});
