/**
 * The whole `cichat chat` App (hook + client + components) against a small local HTTP server
 * that speaks the controller's protocol: it streams a 10k-word answer and holds the stream
 * open, which the local engine of the real stack cannot do. Keys typed meanwhile must show up,
 * and Esc must abort the request the server sees.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import React from 'react';
import { render } from 'ink-testing-library';
import type { Chat, QaPair } from '../protocol/types.js';
import { encodeEvent } from '../protocol/sse.js';
import { CichatClient } from '../cli/client.js';
import { App } from '../cli/ui/App.js';
import type { ChatApi } from '../cli/ui/useChatSession.js';
import { until as poll } from './helpers/poll.js';

const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, '');
const AT = '2026-11-22T01:00:00.000Z';
const WORDS = 10000;

interface Fake {
  url: string;
  wordsSent: () => number;
  streamClosed: Promise<void>;
  close: () => Promise<void>;
}

/** A controller double: one chat, no pairs, and an answer stream that never ends by itself. */
async function startFake(): Promise<Fake> {
  const chat: Chat = { id: 1, user_id: 'local', title: 'long answers', created_at: AT, updated_at: AT };
  let pairs: QaPair[] = [];
  let sent = 0;
  let closedResolve: () => void = () => undefined;
  const streamClosed = new Promise<void>((r) => (closedResolve = r));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/chatbot-api/chats/') return json(200, { items: [chat], total_items: 1, limit: 100, offset: 0 });
    if (req.method === 'GET' && url.pathname === '/chatbot-api/chats/1') return json(200, { items: [...pairs].reverse(), total_items: pairs.length, limit: 100, offset: 0 });
    if (req.method === 'POST' && url.pathname === '/chatbot-api/messages/send') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(encodeEvent({ event: 'started', qa_pair_id: 7 }));
      let text = '';
      // 10k words in chunks of 5, as fast as the socket takes them; then the stream stays open.
      const pump = (): void => {
        while (sent < WORDS) {
          const chunk = Array.from({ length: 5 }, (_, i) => (sent + i) % 50 === 49 ? `w${sent + i}\n\n` : `w${sent + i} `).join('');
          sent += 5;
          text += chunk;
          if (!res.write(encodeEvent({ event: 'chunk', content: chunk }))) return void res.once('drain', pump);
        }
      };
      pump();
      res.on('close', () => {
        pairs = [
          { id: 7, qa_pair_id: 7, chat_id: 1, created_at: AT, question: { id: 7, content: 'explain everything', created_at: AT }, answer: { id: 7, content: text, status: 'interrupted', sources: [], created_at: AT } },
        ];
        closedResolve();
      });
      return;
    }
    json(404, { detail: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wordsSent: () => sent,
    streamClosed,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

const until = <T>(what: string, probe: () => T | undefined, frame: () => string, timeoutMs = 30000): Promise<T> =>
  poll(what, probe, { timeoutMs, intervalMs: 20, explain: () => `frame:\n${frame()}` });

describe('cichat chat App with a 10k-word answer', () => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await startFake();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('keeps taking keys while the answer streams, and Esc aborts the request', async () => {
    const client = new CichatClient({ baseUrl: fake.url });
    const chats = await client.allChats();
    const app = render(React.createElement(App, { client, initialChatId: 1, initialChats: chats }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the chat', () => (frame().includes('long answers (#1)') ? true : undefined), frame);
      app.stdin.write('explain everything');
      await until('the typed question', () => (frame().includes('explain everything') ? true : undefined), frame);
      app.stdin.write('\r');
      // the whole answer has arrived and is on screen (its last word), the stream still open
      await until('the end of the answer', () => (frame().includes(`w${WORDS - 1}`) ? true : undefined), frame);
      expect(fake.wordsSent()).toBe(WORDS);
      expect(frame()).toContain('answering');
      // keys typed now are handled at once
      app.stdin.write('next question');
      await until('the keys typed during the stream', () => (frame().includes('next question') ? true : undefined), frame);
      expect(frame().split('\n').length).toBeLessThanOrEqual(24);

      app.stdin.write('\u001b'); // Esc
      await fake.streamClosed; // the request was really aborted
      await until('the interrupted pair', () => (frame().includes('⏹ interrupted') && !frame().includes('answering') ? true : undefined), frame);
      expect(frame()).toContain(`w${WORDS - 1}`);
      expect(frame()).toContain('next question'); // the draft survived the stop
    } finally {
      app.unmount();
    }
  }, 60000);
});

describe('cichat chat App: keys that arrive before the screen is redrawn', () => {
  const chats: Chat[] = [1, 2, 3].map((id) => ({ id, user_id: 'local', title: `chat ${id}`, created_at: AT, updated_at: AT }));
  const noNetwork = (): Promise<never> => Promise.reject(new Error('not used'));
  const client = {
    allChats: async () => chats,
    createChat: noNetwork,
    conversation: async () => [],
    renameChat: noNetwork,
    deleteChat: noNetwork,
    // eslint-disable-next-line require-yield
    stream: async function* () {
      throw new Error('not used');
    },
  } satisfies ChatApi;
  const selectedLine = (frame: string): string | undefined => frame.split('\n').find((l) => l.startsWith('› '));

  it('a key typed right after answering the delete prompt is not swallowed', async () => {
    const app = render(React.createElement(App, { client, initialChats: chats }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the list', () => (selectedLine(frame())?.includes('chat 1') ? true : undefined), frame);
      app.stdin.write('d');
      await until('the delete prompt', () => (frame().includes('(y/N)') ? true : undefined), frame);
      // "no" and "down" in one go, as a quick typist or tmux send-keys delivers them
      app.stdin.write('n');
      app.stdin.write('j');
      await until('the prompt gone', () => (!frame().includes('(y/N)') ? true : undefined), frame);
      await until('the selection moved by the second key', () => (selectedLine(frame())?.includes('chat 2') ? true : undefined), frame, 3000);
    } finally {
      app.unmount();
    }
  });

  it('keys typed right after Enter opens a chat go to that chat, not to the list', async () => {
    const app = render(React.createElement(App, { client, initialChats: chats }));
    const frame = (): string => stripAnsi(app.lastFrame() ?? '');
    try {
      await until('the list', () => (selectedLine(frame())?.includes('chat 1') ? true : undefined), frame);
      app.stdin.write('\r');
      app.stdin.write('n'); // in the list this would open the "New chat title" prompt
      await until('the open chat', () => (frame().includes('chat 1 (#1)') ? true : undefined), frame);
      await until('the typed key in the question line', () => (/› n\b/.test(frame()) ? true : undefined), frame, 3000);
      expect(frame()).not.toContain('New chat title');
    } finally {
      app.unmount();
    }
  });
});
