/**
 * The whole `cichat chat` App in-process (ink-testing-library) with an in-memory client:
 * bursts with ^U, scrolling clamped with more-above/below lines, ^R after a failed send, the
 * chat list's job column.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import type { Chat, QaPair, StreamEvent } from '../../protocol/types.js';
import type { StreamRequest } from '../client.js';
import { ApiError } from '../errors.js';
import { App } from './App.js';
import type { ChatApi } from './useChatSession.js';

const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, '');
const AT = '2026-11-22T01:00:00.000Z';
const PG_UP = '\u001b[5~';
const PG_DN = '\u001b[6~';

function pair(id: number, question: string, answer: string): QaPair {
  return {
    id, qa_pair_id: id, chat_id: 1, created_at: AT,
    question: { id, content: question, created_at: AT },
    answer: { id, content: answer, status: 'complete', sources: [], created_at: AT },
  };
}

function fakeClient(chats: Chat[], pairs: QaPair[], stream: (r: StreamRequest) => AsyncGenerator<StreamEvent>) {
  const calls: { streams: StreamRequest[]; renames: [number, string][] } = { streams: [], renames: [] };
  const client: ChatApi = {
    allChats: async () => chats,
    createChat: async () => chats[0] as Chat,
    conversation: async () => pairs,
    renameChat: async (id: number, title: string) => {
      calls.renames.push([id, title]);
      return chats[0] as Chat;
    },
    deleteChat: async () => ({ message: 'ok' }),
    stream: (r: StreamRequest) => {
      calls.streams.push(r);
      return stream(r);
    },
  };
  return { client, calls };
}

async function until(what: string, ok: () => boolean, frame: () => string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; frame:\n${frame()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const chat1: Chat = { id: 1, user_id: 'local', title: 'team/api #42: why did the build fail?', created_at: AT, updated_at: AT };
const chat2: Chat = { id: 2, user_id: 'local', title: 'notes', created_at: AT, updated_at: AT };

// eslint-disable-next-line require-yield
async function* never(): AsyncGenerator<StreamEvent> {
  throw new Error('not used');
}

describe('App', () => {
  it('^U clears the input even when text follows in the same burst', async () => {
    const { client } = fakeClient([chat1], [], never);
    const app = render(React.createElement(App, { client, initialChatId: 1, initialChats: [chat1] }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the chat', () => frame().includes('No questions yet'), frame);
      app.stdin.write('abc');
      await until('abc', () => frame().includes('› abc'), frame);
      app.stdin.write('\u0015xyz');
      await until('xyz', () => frame().includes('› xyz'), frame);
      expect(frame()).not.toContain('abcxyz');
      app.stdin.write('\u0015one\u0015two');
      await until('two', () => frame().includes('› two'), frame);
      expect(frame()).not.toMatch(/› \S*one/);
    } finally {
      app.unmount();
    }
  });

  it('^U in the rename prompt within a burst', async () => {
    const { client, calls } = fakeClient([chat1, chat2], [], never);
    const app = render(React.createElement(App, { client, initialChats: [chat1, chat2] }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the list', () => frame().includes('2 chats'), frame);
      app.stdin.write('r');
      await until('the prompt', () => frame().includes('Rename to:'), frame);
      app.stdin.write('\u0015renamed\r');
      await until('the rename', () => calls.renames.length === 1, frame);
      expect(calls.renames[0]).toEqual([1, 'renamed']);
    } finally {
      app.unmount();
    }
  });

  it('back from a chat, the cursor stands on that chat although the refreshed list moved it (issue 27)', async () => {
    const chat3: Chat = { id: 3, user_id: 'local', title: 'third', created_at: AT, updated_at: AT };
    let listed = [chat1, chat2, chat3];
    const { client, calls } = fakeClient(listed, [], never);
    client.allChats = async () => listed;
    const app = render(React.createElement(App, { client, initialChats: listed }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    const cursorOn = (): string => frame().split('\n').find((l) => l.includes('› ')) ?? '';
    try {
      await until('the list', () => frame().includes('3 chats'), frame);
      app.stdin.write('j');
      await until('row 2', () => cursorOn().includes('notes'), frame);
      app.stdin.write('j');
      await until('row 3', () => cursorOn().includes('third'), frame);
      app.stdin.write('\r');
      await until('chat 3', () => frame().includes('(#3)'), frame);
      // meanwhile chat 3 got an answer: the backend lists it first now
      listed = [chat3, chat1, chat2];
      app.stdin.write('\t');
      await until('the list again', () => frame().includes('3 chats') && frame().split('\n').findIndex((l) => l.includes('third')) < frame().split('\n').findIndex((l) => l.includes('notes')), frame);
      await new Promise((r) => setTimeout(r, 50));
      expect(cursorOn()).toContain('third');
      app.stdin.write('r');
      await until('the prompt', () => frame().includes('Rename to:'), frame);
      app.stdin.write('\u0015renamed\r');
      await until('the rename', () => calls.renames.length === 1, frame);
      expect(calls.renames[0]?.[0]).toBe(3);
    } finally {
      app.unmount();
    }
  });

  it('the chat list shows the job and build of a chat', async () => {
    const { client } = fakeClient([chat1, chat2], [], never);
    const app = render(React.createElement(App, { client, initialChats: [chat1, chat2] }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the list', () => frame().includes('2 chats'), frame);
      const line = frame().split('\n').find((l) => l.includes('why did the build fail?')) ?? '';
      expect(line).toMatch(/1 team\/api #42 {2,}why did the build fail\?/);
      // the key help of the list keeps its quit key
      expect(frame()).toContain('q quit');
    } finally {
      app.unmount();
    }
  });

  it('PgUp stops at the first line, says what is above and below, and PgDn comes back as fast', async () => {
    const pairs = Array.from({ length: 12 }, (_, i) => pair(i + 1, `question ${i + 1}`, `answer ${i + 1}`));
    const { client } = fakeClient([chat1], pairs, never);
    const app = render(React.createElement(App, { client, initialChatId: 1, initialChats: [chat1] }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the last pair', () => frame().includes('answer 12'), frame);
      expect(frame()).toMatch(/↑ \d+ more lines above/);
      expect(frame()).not.toContain('below');
      // one PgUp at a time, each waited for by its new frame (a render takes longer than any
      // fixed pause on a loaded machine), until the frame says nothing is above
      let ups = 0;
      while (frame().includes('above')) {
        const before = frame();
        app.stdin.write(PG_UP);
        ups++;
        await until(`PgUp ${ups} to move the view`, () => frame() !== before, frame);
        if (ups > 50) throw new Error(`PgUp never reached the top; frame:\n${frame()}`);
      }
      // at the top: the first question on the first row of the body, no empty pages
      const top = frame();
      const body = top.split('\n');
      expect(body[1]).toContain('› question 1');
      expect(top).not.toContain('above');
      expect(top).toMatch(/↓ \d+ more lines below/);
      // more presses change nothing: keys are handled in order, so after five more PgUp and one
      // PgDn the first new frame must be the one a single PgDn from the top shows
      app.stdin.write(PG_DN);
      await until('one PgDn from the top', () => frame() !== top, frame);
      const oneDown = frame();
      app.stdin.write(PG_UP);
      await until('back at the top', () => frame() === top, frame);
      for (let i = 0; i < 5; i++) app.stdin.write(PG_UP);
      app.stdin.write(PG_DN);
      await until('the PgDn after the extra PgUps', () => frame() !== top, frame);
      expect(frame()).toBe(oneDown);
      // as many PgDn as useful PgUp come back (one of them is already pressed)
      for (let i = 0; i < ups - 1; i++) app.stdin.write(PG_DN);
      await until('the bottom', () => frame().includes('answer 12') && !frame().includes('below'), frame);
    } finally {
      app.unmount();
    }
  });

  it('^R after a failed send sends the same question again', async () => {
    let attempt = 0;
    async function* flaky(): AsyncGenerator<StreamEvent> {
      attempt++;
      if (attempt === 1) throw new ApiError(409, 'An answer is already streaming in this chat.');
      yield { event: 'started', qa_pair_id: 5 };
      yield { event: 'chunk', content: 'the retried answer' };
      yield { event: 'done' };
    }
    const { client, calls } = fakeClient([chat1], [], flaky);
    const app = render(React.createElement(App, { client, initialChatId: 1, initialChats: [chat1] }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the chat', () => frame().includes('No questions yet'), frame);
      app.stdin.write('why did it fail?\r');
      await until('the error', () => frame().includes('already streaming') && frame().includes('^R sends it again'), frame);
      app.stdin.write('\u0012');
      await until('the second request', () => calls.streams.length === 2, frame);
      expect(calls.streams[1]).toEqual({ kind: 'send', chatId: 1, content: 'why did it fail?' });
      await until('the error gone', () => !frame().includes('already streaming'), frame);
    } finally {
      app.unmount();
    }
  });
});
