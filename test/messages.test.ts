import type { Chat, Page, QaPair, StreamEvent } from '../protocol/types.js';
import { readEvents } from '../protocol/sse.js';
import { testDialects } from './helpers/databases.js';
import { startTestBackend } from './helpers/backend.js';
import type { TestBackend } from './helpers/backend.js';
import { scriptedEngine } from './helpers/engines.js';
import { collectEvents, textOf } from './helpers/sse.js';
import { until } from './helpers/poll.js';
import { Lifecycle, type ActiveStream } from '../backend/lifecycle.js';

const dialects = await testDialects();


describe.each(dialects)('messages API on $name', (dialect) => {
  let backend: TestBackend;
  let slow: TestBackend;
  let failing: TestBackend;
  const engine = scriptedEngine({ pieces: (q) => ['You asked: ', q, '.'] });
  const slowEngine = scriptedEngine({ pieces: () => Array.from({ length: 400 }, (_, i) => `w${i} `), delayMs: 25 });
  const failingEngine = scriptedEngine({ pieces: () => ['partial ', 'text ', 'then ', 'boom'], failAfter: 2 });
  let n = 0;
  const newUser = () => `msg-${dialect.name}-${++n}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    backend = await startTestBackend(dialect, { deps: { engine, pingIntervalMs: 100 } });
    slow = await startTestBackend(dialect, { deps: { engine: slowEngine } });
    failing = await startTestBackend(dialect, { deps: { engine: failingEngine } });
  });
  afterAll(async () => {
    await Promise.all([backend?.close(), slow?.close(), failing?.close()]);
  });

  async function buildChat(b: TestBackend, user: string): Promise<Chat> {
    return (await (await b.request(user, 'POST', '/chats/', { title: 'm' })).json()) as Chat;
  }
  async function pairs(b: TestBackend, user: string, chatId: number): Promise<QaPair[]> {
    const page = (await (await b.request(user, 'GET', `/chats/${chatId}?limit=100`)).json()) as Page<QaPair>;
    return page.items;
  }
  async function ask(b: TestBackend, user: string, chatId: number, content: string): Promise<StreamEvent[]> {
    const res = await b.request(user, 'POST', '/messages/send', { chat_id: chatId, content });
    expect(res.status).toBe(200);
    return collectEvents(res);
  }

  test('send streams started, chunks and done with the SSE headers; the pair is stored complete', async () => {
    const user = newUser();
    const chat = await buildChat(backend, user);
    const res = await backend.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'why did it fail?' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = await collectEvents(res);
    expect(events[0]).toEqual({ event: 'started', qa_pair_id: expect.any(Number) });
    expect(events.at(-1)).toEqual({ event: 'done' });
    expect(textOf(events)).toBe('You asked: why did it fail?.');
    const [pair] = await pairs(backend, user, chat.id);
    expect(pair).toMatchObject({
      qa_pair_id: (events[0] as { qa_pair_id: number }).qa_pair_id,
      chat_id: chat.id,
      question: { content: 'why did it fail?' },
      answer: { content: 'You asked: why did it fail?.', status: 'complete', sources: [] },
    });
    expect(pair!.id).toBe(pair!.qa_pair_id);
    const after = (await (await backend.request(user, 'GET', '/chats/')).json()) as Page<Chat>;
    expect(Date.parse(after.items[0]!.updated_at)).toBeGreaterThan(Date.parse(chat.updated_at));
  });

  test('history reaches the engine, oldest first; pairs are listed newest first', async () => {
    const user = newUser();
    const chat = await buildChat(backend, user);
    for (const q of ['one', 'two', 'three']) await ask(backend, user, chat.id, q);
    const request = engine.requests.at(-1)!;
    expect(request.question).toBe('three');
    expect(request.history.map((h) => h.question)).toEqual(['one', 'two']);
    expect(request.history[0]!.answer).toBe('You asked: one.');
    expect((await pairs(backend, user, chat.id)).map((p) => p.question.content)).toEqual(['three', 'two', 'one']);
  });

  test('send: 422 for bad fields, 404 for unknown or another user\'s chat, 401 without a token', async () => {
    const user = newUser();
    const chat = await buildChat(backend, user);
    for (const [body, field] of [
      [{ chat_id: chat.id, content: '' }, 'content'],
      [{ chat_id: chat.id, content: '   ' }, 'content'],
      [{ chat_id: chat.id, content: 'x'.repeat(20001) }, 'content'],
      [{ chat_id: chat.id }, 'content'],
      [{ chat_id: chat.id, content: 7 }, 'content'],
      [{ content: 'hi' }, 'chat_id'],
      [{ chat_id: 'abc', content: 'hi' }, 'chat_id'],
      [{ chat_id: -3, content: 'hi' }, 'chat_id'],
    ] as const) {
      const res = await backend.request(user, 'POST', '/messages/send', body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail.startsWith(`${field}:`)).toBe(true);
    }
    const ok = await backend.request(user, 'POST', '/messages/send/', { chat_id: chat.id, content: 'x'.repeat(20000) });
    expect(ok.status).toBe(200);
    await collectEvents(ok);
    expect((await backend.request(user, 'POST', '/messages/send', { chat_id: 99999999, content: 'hi' })).status).toBe(404);
    expect((await backend.request(newUser(), 'POST', '/messages/send', { chat_id: chat.id, content: 'hi' })).status).toBe(404);
    expect((await backend.request(null, 'POST', '/messages/send', { chat_id: chat.id, content: 'hi' })).status).toBe(401);
    expect((await pairs(backend, user, chat.id)).length).toBe(1);
  });

  test.each(['first', 'middle', 'last'] as const)('retry and edit of the %s pair cut the history from it', async (which) => {
    for (const action of ['retry', 'edit'] as const) {
      const user = newUser();
      const chat = await buildChat(backend, user);
      for (const q of ['q1', 'q2', 'q3']) await ask(backend, user, chat.id, q);
      const before = (await pairs(backend, user, chat.id)).reverse(); // oldest first
      const index = which === 'first' ? 0 : which === 'middle' ? 1 : 2;
      const target = before[index]!;
      const res =
        action === 'retry'
          ? await backend.request(user, 'POST', `/messages/${target.id}/retry`)
          : await backend.request(user, 'PUT', `/messages/${target.id}/edit/`, { new_content: `edited ${which}` });
      expect(res.status).toBe(200);
      const events = await collectEvents(res);
      const started = events[0] as { event: 'started'; qa_pair_id: number };
      expect(started.event).toBe('started');
      expect(started.qa_pair_id).not.toBe(target.id);
      const question = action === 'retry' ? target.question.content : `edited ${which}`;
      expect(textOf(events)).toBe(`You asked: ${question}.`);
      const after = (await pairs(backend, user, chat.id)).reverse();
      expect(after.map((p) => p.question.content)).toEqual([
        ...before.slice(0, index).map((p) => p.question.content),
        question,
      ]);
      expect(after.at(-1)!.id).toBe(started.qa_pair_id);
      // The history the engine saw stops before the cut.
      expect(engine.requests.at(-1)!.history.map((h) => h.question)).toEqual(
        before.slice(0, index).map((p) => p.question.content),
      );
      // Superseded pairs are kept in the database, never shown, and cannot be retried.
      const kept = (await backend.db('qa_pairs').where({ chat_id: chat.id }).whereNotNull('superseded_at').count({ c: '*' }).first()) as { c: number | string };
      expect(Number(kept.c)).toBe(3 - index);
      expect((await backend.request(user, 'POST', `/messages/${target.id}/retry`)).status).toBe(404);
    }
  });

  test('edit: empty, blank, oversize or missing content is 422; another user\'s pair is 404; nothing changes', async () => {
    const user = newUser();
    const chat = await buildChat(backend, user);
    await ask(backend, user, chat.id, 'original');
    const [pair] = await pairs(backend, user, chat.id);
    for (const body of [{ new_content: '' }, { new_content: '  ' }, { new_content: 'y'.repeat(20001) }, {}, { new_content: null }]) {
      const res = await backend.request(user, 'PUT', `/messages/${pair!.id}/edit`, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^new_content: /);
    }
    const other = newUser();
    expect((await backend.request(other, 'PUT', `/messages/${pair!.id}/edit`, { new_content: 'hijack' })).status).toBe(404);
    expect((await backend.request(other, 'POST', `/messages/${pair!.id}/retry`)).status).toBe(404);
    expect((await backend.request(user, 'POST', '/messages/abc/retry')).status).toBe(404);
    expect((await backend.request(user, 'POST', '/messages/99999999/retry')).status).toBe(404);
    const after = await pairs(backend, user, chat.id);
    expect(after).toEqual([pair]);
  });

  test('a client that disconnects stops generation; the pair is interrupted with its partial text; the chat is free', async () => {
    const user = newUser();
    const chat = await buildChat(slow, user);
    const abort = new AbortController();
    const res2 = await fetch(`${slow.url}/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await slow.token(user)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chat.id, content: 'stop me' }),
      signal: abort.signal,
    });
    let chunks = 0;
    let pairId = 0;
    const abortedBefore = slowEngine.aborted;
    try {
      for await (const e of readEvents(res2.body as unknown as AsyncIterable<Uint8Array>)) {
        if (e.event === 'started') pairId = e.qa_pair_id;
        if (e.event === 'chunk' && ++chunks === 5) abort.abort();
      }
    } catch {
      // the abort ends the read
    }
    const disconnectedAt = Date.now();
    const pair = await until('interrupted pair', async () => {
      const found = (await pairs(slow, user, chat.id)).find((p) => p.id === pairId);
      return found?.answer?.status === 'interrupted' ? found : undefined;
    });
    expect(Date.now() - disconnectedAt).toBeLessThan(5000);
    expect(slowEngine.aborted).toBe(abortedBefore + 1);
    expect(pair.answer!.content.startsWith('w0 w1 w2 w3 w4')).toBe(true);
    expect(pair.answer!.content.length).toBeLessThan('w0 '.length * 400);
    // The lease is released: the chat can stream again at once.
    const again = await slow.request(user, 'PUT', `/messages/${pairId}/edit`, { new_content: 'short?' });
    expect(again.status).toBe(200);
    again.body?.cancel();
  });

  test('two sends at once: one streams, the other gets 409 until the first ends', async () => {
    const user = newUser();
    const chat = await buildChat(slow, user);
    const first = await slow.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'first' });
    expect(first.status).toBe(200);
    const second = await slow.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'second' });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { detail: string }).detail).toMatch(/already has an answer streaming/);
    const [p] = await pairs(slow, user, chat.id);
    expect((await slow.request(user, 'POST', `/messages/${p!.id}/retry`)).status).toBe(409);
    // Another chat of the same user is not blocked.
    const other = await buildChat(slow, user);
    const parallel = await slow.request(user, 'POST', '/messages/send', { chat_id: other.id, content: 'parallel' });
    expect(parallel.status).toBe(200);
    await parallel.body?.cancel();
    await first.body?.cancel();
    await until('lease released', async () => {
      const res = await slow.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'third' });
      if (res.status === 409) return undefined;
      await res.body?.cancel();
      return res.status;
    });
  });

  test('an engine failure mid-stream ends with an error event; the pair is failed with its partial text', async () => {
    const user = newUser();
    const chat = await buildChat(failing, user);
    const res = await failing.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'go' });
    expect(res.status).toBe(200);
    const events = await collectEvents(res);
    expect(events.at(-1)).toEqual({ event: 'error', detail: expect.stringMatching(/exploded/) });
    expect(events.some((e) => e.event === 'done')).toBe(false);
    expect(textOf(events)).toBe('partial text ');
    const [pair] = await pairs(failing, user, chat.id);
    expect(pair!.answer).toMatchObject({ status: 'failed', content: 'partial text ' });
    // The chat is free again.
    const next = await failing.request(user, 'POST', `/messages/${pair!.id}/retry`);
    expect(next.status).toBe(200);
    await collectEvents(next);
  });

  test('a silent stream carries ": ping" comments', async () => {
    const quiet = scriptedEngine({ pieces: () => ['a', 'b'], delayMs: 350 });
    const b = await startTestBackend(dialect, { deps: { engine: quiet, pingIntervalMs: 100 } });
    try {
      const user = newUser();
      const chat = await buildChat(b, user);
      const res = await b.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'x' });
      const raw = await res.text();
      expect(raw).toMatch(/^: ping$/m);
      expect(raw.endsWith('data: {"event":"done"}\n\n')).toBe(true);
    } finally {
      await b.close();
    }
  });
  test('a stream that fails before it opens: 500, the pair is failed (not left streaming) and the chat free at once', async () => {
    // The first stream cannot be tracked (a throw between beginAnswer and the detached job).
    class FailsOnce extends Lifecycle {
      failed = false;
      override addStream(stream: ActiveStream): void {
        if (!this.failed) {
          this.failed = true;
          throw new Error('cannot track the stream');
        }
        super.addStream(stream);
      }
    }
    const b = await startTestBackend(dialect, { deps: { engine, lifecycle: new FailsOnce() } });
    try {
      const user = newUser();
      const chat = await buildChat(b, user);
      const res = await b.request(user, 'POST', '/messages/send', { chat_id: chat.id, content: 'first' });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ detail: 'Internal error' });
      expect((await pairs(b, user, chat.id)).map((p) => [p.question.content, p.answer?.status])).toEqual([['first', 'failed']]);
      expect(await b.db('chats').where({ id: chat.id }).first('streaming_until', 'stream_owner')).toEqual({ streaming_until: null, stream_owner: null });
      const events = await ask(b, user, chat.id, 'again');
      expect(events.at(-1)).toEqual({ event: 'done' });
    } finally {
      await b.close();
    }
  });
});
