import React from 'react';
import { render } from 'ink-testing-library';
import { ChatList } from './ChatList.js';
import type { ListedChat } from './useChatSession.js';

const chat = (id: number, title: string, unread?: boolean, job?: { job_name: string | null; build_number: number | null }): ListedChat => ({
  id,
  user_id: 'local',
  title,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
  ...(unread === undefined ? {} : { unread }),
  ...(job ?? {}),
});

describe('chat list unread marks', () => {
  it('marks the watcher chats not opened yet with *', () => {
    const { lastFrame } = render(<ChatList chats={[chat(2, 'team/api #8 failed', true), chat(1, 'my chat')]} selected={1} height={5} width={80} />);
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/2 \* team\/api #8 {2}team\/api #8 failed/);
    expect(lines[1]).toMatch(/1 {16}my chat/);
  });

  it('takes no room when nothing is unread', () => {
    const { lastFrame } = render(<ChatList chats={[chat(1, 'my chat', false)]} selected={0} height={5} width={80} />);
    expect(lastFrame()).toMatch(/1 my chat/);
    expect(lastFrame()).not.toContain('*');
  });
});

describe('chat list job column', () => {
  it('shows job and build from the chat fields, the title beside them', () => {
    const chats = [chat(3, 'nightly failures', undefined, { job_name: 'team/api', build_number: 42 }), chat(2, 'plain', undefined, { job_name: null, build_number: null })];
    const lines = (render(<ChatList chats={chats} selected={1} height={5} width={80} />).lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/3 team\/api #42 {2}nightly failures/);
    // no job: the column is blank, the title lines up
    expect(lines[1]).toMatch(/2 {15}plain/);
  });

  it("a piped log's chat shows the job its title names, log only, as the web list does", () => {
    const chats = [chat(5, 'logship: why did it fail?', undefined, { job_name: null, build_number: null })];
    expect(render(<ChatList chats={chats} selected={0} height={3} width={90} />).lastFrame()).toMatch(/5 logship \(title\), log only {2}logship: why did it fail\?/);
  });

  it('a job without a build shows the job alone', () => {
    const chats = [chat(1, 'about it', undefined, { job_name: 'folder/deploy', build_number: null })];
    expect(render(<ChatList chats={chats} selected={0} height={3} width={80} />).lastFrame()).toMatch(/1 folder\/deploy {2}about it/);
  });

  it('falls back to the title only when the fields say nothing', () => {
    const chats = [chat(2, 'team/web #7: why?', undefined, { job_name: null, build_number: null }), chat(1, 'team/api #5: flaky?', undefined, { job_name: 'team/api', build_number: 6 })];
    const lines = (render(<ChatList chats={chats} selected={0} height={5} width={80} />).lastFrame() ?? '').split('\n');
    expect(lines[0]).toMatch(/2 team\/web #7 {2}why\?/);
    // the fields win over a title that names another build; the title then stays whole
    expect(lines[1]).toMatch(/1 team\/api #6 {2}team\/api #5: flaky\?/);
  });
});
