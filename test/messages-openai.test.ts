import { createEngine } from '../backend/answer/index.js';
import { readEvents } from '../protocol/sse.js';
import type { Chat, Page, QaPair } from '../protocol/types.js';
import { startTestBackend } from './helpers/backend.js';
import type { TestBackend } from './helpers/backend.js';
import { testDialects } from './helpers/databases.js';
import { collectEvents, textOf } from './helpers/sse.js';
import { startFakeOpenAIServer } from './fakes/openaiServer.js';
import type { FakeOpenAIServer } from './fakes/openaiServer.js';

const dialects = await testDialects();

/**
 * The messages endpoints with the `openai` engine against a local server that speaks the
 * chat-completions streaming protocol: the whole chain from the client's socket to the model's.
 */
describe.each(dialects)('messages through the openai engine on $name', (dialect) => {
  let model: FakeOpenAIServer;
  let backend: TestBackend;
  let n = 0;
  const newUser = () => `oai-${dialect.name}-${++n}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    model = await startFakeOpenAIServer();
    const engine = await createEngine({ provider: 'openai', typingDelayMs: 0, openaiBaseUrl: model.baseURL, llmModel: 'fake-model', llmContextTokens: 8000 });
    backend = await startTestBackend(dialect, { deps: { engine } });
  });
  afterAll(async () => {
    await backend?.close();
    await model?.close();
  });

  async function chatFor(user: string): Promise<Chat> {
    return (await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat;
  }
  async function pairsOf(user: string, chatId: number): Promise<QaPair[]> {
    return ((await (await backend.request(user, 'GET', `/chats/${chatId}`)).json()) as Page<QaPair>).items;
  }

  test('the model\'s deltas arrive as chunks; the question and history reach the model', async () => {
    model.setReplies([{ kind: 'stream', chunks: ['The build ', 'failed in ', 'OrderTest [L10-L12].'] }]);
    const user = newUser();
    const chat = await chatFor(user);
    const first = await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'why did it fail?' }));
    expect(textOf(first)).toBe('The build failed in OrderTest [L10-L12].');
    expect(first.at(-1)).toEqual({ event: 'done' });
    const before = model.requests.length;
    await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'and how do I fix it?' }));
    const body = model.requests[before]!.body;
    expect(body.stream).toBe(true);
    expect(body.model).toBe('fake-model');
    const all = JSON.stringify(body.messages);
    expect(all).toContain('and how do I fix it?');
    expect(all).toContain('why did it fail?');
    expect(all).toContain('The build failed in OrderTest');
  });

  test('a model that dies mid-answer: error event, pair failed with the partial text', async () => {
    model.setReplies([{ kind: 'cut', chunks: ['Partial ', 'answer'] }]);
    const user = newUser();
    const chat = await chatFor(user);
    const events = await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'q' }));
    expect(events[0]!.event).toBe('started');
    expect(events.at(-1)!.event).toBe('error');
    const [pair] = await pairsOf(user, chat.id);
    expect(pair!.answer!.status).toBe('failed');
    expect(pair!.answer!.content).toBe(textOf(events));
  });

  test('a client that leaves closes the model request; the pair is interrupted', async () => {
    model.setReplies([{ kind: 'stream', chunks: Array.from({ length: 200 }, (_, i) => `t${i} `), delayMs: 50 }]);
    const user = newUser();
    const chat = await chatFor(user);
    const abort = new AbortController();
    const index = model.requests.length;
    const res = await fetch(`${backend.url}/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat.id, content: 'slow please' }),
      signal: abort.signal,
    });
    let chunks = 0;
    try {
      for await (const e of readEvents(res.body as unknown as AsyncIterable<Uint8Array>)) {
        if (e.event === 'chunk' && ++chunks === 3) abort.abort();
      }
    } catch {
      // aborted
    }
    const leftAt = Date.now();
    const upstream = await model.request(index);
    const closed = await upstream.closed;
    expect(closed.completed).toBe(false);
    expect(closed.at - leftAt).toBeLessThan(1000);
    const until = Date.now() + 5000;
    let status = '';
    while (Date.now() < until) {
      status = (await pairsOf(user, chat.id))[0]?.answer?.status ?? '';
      if (status === 'interrupted') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('interrupted');
  });
});
