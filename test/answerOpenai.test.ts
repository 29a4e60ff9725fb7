import net from 'node:net';
import type { ChatContext } from '../backend/answer/engine.js';
import { createEngine } from '../backend/answer/index.js';
import { ModelServerError, createOpenAIEngine, retryAfterMs, type RetryNotice } from '../backend/answer/openai.js';
import { estimateTokens } from '../backend/answer/prompt.js';
import { richChatContext } from './answerFixtures.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fakes/openaiServer.js';
import { readAll } from './helpers/askLocal.js';

let server: FakeOpenAIServer;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
});

afterEach(async () => {
  await server.close();
});

function engine(extra: Partial<Parameters<typeof createOpenAIEngine>[0]> = {}) {
  return createOpenAIEngine({ apiKey: 'sk-test', baseURL: server.baseURL, model: 'fake-model', contextTokens: 8000, ...extra });
}


async function ask(e = engine(), question = 'Why did the build fail?', context: ChatContext | null = richChatContext(), signal = new AbortController().signal) {
  return e.answer({ question, history: [{ question: 'hi', answer: 'Hello, ask me about your build.' }], context, signal });
}

/** Resolves with `value` after `ms`, without keeping the process alive: a guard against hangs, not a timing assertion. */
function guard<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

describe('openai engine against a local chat-completions server', () => {
  it('streams the answer and sends the question with the context facts and cited excerpts', async () => {
    server.setReplies([{ kind: 'stream', chunks: ['The build ', 'failed at ', '[L44-L46].'] }]);
    const stream = await ask();
    expect(await readAll(stream)).toBe('The build failed at [L44-L46].');

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({ model: 'fake-model', stream: true });
    const messages = request?.body.messages ?? [];
    const system = messages[0]?.content ?? '';
    expect(messages[0]?.role).toBe('system');
    expect(system).toContain('Never invent facts');
    expect(system).toContain('[L120-L131]');
    expect(system).toContain('Jenkins version: 2.440.3');
    expect(system).toContain('Build: build #42, result FAILURE, took 3 min 12 s');
    expect(system).toContain('[L44-L46] (analyzer: Maven surefire test failure)');
    expect(system).toContain('45| org.opentest4j.AssertionFailedError: expected: <400> but was: <200>');
    // The log itself is not dumped: a line no passage holds stays out.
    expect(system).not.toContain('lib20-1.0.jar');
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello, ask me about your build.' },
      { role: 'user', content: 'Why did the build fail?' },
    ]);
    expect(stream.sources).toEqual(expect.arrayContaining([{ kind: 'log', start_line: 44, end_line: 46 }]));
    expect(stream.sources.every((s) => s.kind === 'log')).toBe(true);
  });

  it('keeps the prompt within the token budget, question whole, oldest history dropped first', async () => {
    server.setReplies([{ kind: 'stream', chunks: ['ok'] }]);
    const history = Array.from({ length: 30 }, (_, i) => ({ question: `question number ${i}`, answer: `answer ${i} `.repeat(60) }));
    const question = `Why did it fail? ${'Please be thorough. '.repeat(20)}`;
    const stream = await engine({ contextTokens: 1500 }).answer({ question, history, context: richChatContext(), signal: new AbortController().signal });
    await readAll(stream);
    const messages = server.requests[0]?.body.messages ?? [];
    const total = messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 3);
    expect(total).toBeLessThanOrEqual(1500);
    expect(messages[messages.length - 1]).toEqual({ role: 'user', content: question });
    const asked = messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(asked).not.toContain('question number 0');
    // Whatever history fits is the newest, in order.
    const kept = asked.slice(0, -1);
    expect(kept).toEqual(history.slice(history.length - kept.length).map((t) => t.question));
    // The top excerpt outranks history.
    expect(messages[0]?.content).toContain('[L44-L46]');
  });

  it('retries a 429 after the Retry-After seconds, then streams', async () => {
    server.setReplies([
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'stream', chunks: ['fine ', 'now'] },
    ]);
    const notices: RetryNotice[] = [];
    const stream = await ask(engine({ onRetry: (n) => notices.push(n) }));
    expect(await readAll(stream)).toBe('fine now');
    expect(server.requests).toHaveLength(2);
    expect(notices).toEqual([expect.objectContaining({ attempt: 1, delayMs: 1000, status: 429 })]);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('retries a 503 with backoff, then streams', async () => {
    server.setReplies([
      { kind: 'status', status: 503 },
      { kind: 'stream', chunks: ['back'] },
    ]);
    const notices: RetryNotice[] = [];
    const stream = await ask(engine({ retry: { baseDelayMs: 10 }, onRetry: (n) => notices.push(n) }));
    expect(await readAll(stream)).toBe('back');
    expect(server.requests).toHaveLength(2);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.status).toBe(503);
    expect(notices[0]?.delayMs).toBeLessThanOrEqual(12);
  });

  it('gives up after three attempts with a message naming the server and the status', async () => {
    server.setReplies([{ kind: 'status', status: 502 }]);
    const stream = await ask(engine({ retry: { baseDelayMs: 1 } }));
    const failure = readAll(stream);
    await expect(failure).rejects.toThrow(ModelServerError);
    await expect(failure).rejects.toThrow(`The model server at ${server.baseURL} answered 502`);
    expect(server.requests).toHaveLength(3);
  });

  it("leaves the retrying to openai-node: maxRetries 0 sends once; retry-after-ms is obeyed; x-should-retry: false is final", async () => {
    server.setReplies([{ kind: 'status', status: 429, headers: { 'retry-after': '1' } }]);
    await expect(readAll(await ask(engine({ retry: { maxRetries: 0 } })))).rejects.toThrow('answered 429');
    expect(server.requests).toHaveLength(1);
    server.setReplies([
      { kind: 'status', status: 500, headers: { 'retry-after-ms': '30' } },
      { kind: 'stream', chunks: ['ok'] },
    ]);
    const notices: RetryNotice[] = [];
    expect(await readAll(await ask(engine({ onRetry: (n) => notices.push(n) })))).toBe('ok');
    expect(notices).toEqual([expect.objectContaining({ attempt: 1, delayMs: 30, status: 500 })]);
    expect(server.requests).toHaveLength(3);
    server.setReplies([{ kind: 'status', status: 503, headers: { 'x-should-retry': 'false' } }]);
    await expect(readAll(await ask(engine({ onRetry: (n) => notices.push(n) })))).rejects.toThrow('answered 503');
    expect(server.requests).toHaveLength(4);
    expect(notices).toHaveLength(1);
  });

  it('does not retry a 401 and says to check the key', async () => {
    server.setReplies([{ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }]);
    const stream = await ask();
    await expect(readAll(stream)).rejects.toThrow(`The model server at ${server.baseURL} answered 401: check OPENAI_API_KEY.`);
    expect(server.requests).toHaveLength(1);
  });

  it('says to check the model on a 404', async () => {
    server.setReplies([{ kind: 'status', status: 404, body: { error: { message: 'model "nope" not found' } } }]);
    const stream = await ask(engine({ model: 'nope' }));
    await expect(readAll(stream)).rejects.toThrow('answered 404: check LLM_MODEL (nope) and OPENAI_BASE_URL');
  });

  it('throws when the connection dies after the first chunk, without retrying', async () => {
    server.setReplies([{ kind: 'cut', chunks: ['The build ', 'failed'] }]);
    const stream = await ask();
    const received: string[] = [];
    const reading = (async () => {
      for await (const piece of stream.pieces) received.push(piece);
    })();
    await expect(reading).rejects.toThrow('stopped in the middle of the answer');
    expect(received.join('')).toBe('The build failed');
    expect(server.requests).toHaveLength(1);
  });

  it('throws on an error event inside the stream', async () => {
    server.setReplies([{ kind: 'streamError', chunks: ['partial'], message: 'the GPU fell over' }]);
    const stream = await ask();
    await expect(readAll(stream)).rejects.toThrow('the GPU fell over');
  });

  it('closes the upstream request when the client abandons a slow stream', async () => {
    server.setReplies([{ kind: 'stream', chunks: ['first ', 'second ', 'third'], delayMs: 20, holdOpen: true }]);
    const controller = new AbortController();
    const stream = await ask(engine(), 'Why did the build fail?', richChatContext(), controller.signal);
    const iterator = stream.pieces[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 'first ' });
    controller.abort();
    const request = await server.request(0);
    const closed = await Promise.race([request.closed, guard(5_000, 'still open' as const)]);
    expect(closed).toEqual(expect.objectContaining({ completed: false }));
    // The answer ends quietly: the route tells "interrupted" by the signal, not by an error.
    const rest = await Promise.race([(async () => {
      let result = await iterator.next();
      while (!result.done) result = await iterator.next();
      return 'ended';
    })(), guard(5_000, 'still iterating')]);
    expect(rest).toBe('ended');
  });

  it('stops waiting out a Retry-After when the client goes away, capping long waits', async () => {
    server.setReplies([{ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }]);
    const controller = new AbortController();
    const notices: RetryNotice[] = [];
    const stream = await ask(
      engine({ onRetry: (n) => { notices.push(n); controller.abort(); } }),
      'why did it fail',
      richChatContext(),
      controller.signal,
    );
    const outcome = await Promise.race([readAll(stream), guard(5_000, 'still waiting')]);
    expect(outcome).toBe('');
    expect(notices[0]?.delayMs).toBe(20_000);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a refused connection, then names the unreachable server', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const notices: RetryNotice[] = [];
    const e = createOpenAIEngine({ baseURL, model: 'm', contextTokens: 2000, retry: { baseDelayMs: 1 }, onRetry: (n) => notices.push(n) });
    const stream = await e.answer({ question: 'hi', history: [], context: null, signal: new AbortController().signal });
    await expect(readAll(stream)).rejects.toThrow(`Could not reach the model server at ${baseURL}`);
    expect(notices).toHaveLength(2);
  });

  it('works without an API key (local servers) and without context', async () => {
    server.setReplies([{ kind: 'stream', chunks: ['Upload the context first.'] }]);
    const e = createOpenAIEngine({ baseURL: server.baseURL, model: 'llama3', contextTokens: 2000 });
    const stream = await e.answer({ question: 'why did it fail?', history: [], context: null, signal: new AbortController().signal });
    expect(await readAll(stream)).toBe('Upload the context first.');
    expect(stream.sources).toEqual([]);
    expect(server.requests[0]?.body.messages?.[0]?.content).toContain('No CI context has been uploaded to this chat');
  });

  it('passes a caller-supplied fetch through', async () => {
    server.setReplies([{ kind: 'stream', chunks: ['via fetch'] }]);
    const seen: string[] = [];
    const tracingFetch: typeof fetch = (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const stream = await ask(engine({ fetch: tracingFetch }));
    expect(await readAll(stream)).toBe('via fetch');
    expect(seen).toEqual([`${server.baseURL}/chat/completions`]);
  });
});

describe('createEngine', () => {
  it('makes the engine the provider names', async () => {
    server.setReplies([{ kind: 'stream', chunks: ['from the model'] }]);
    const remote = await createEngine({ provider: 'openai', openaiBaseUrl: server.baseURL, llmModel: 'fake-model', llmContextTokens: 4000, typingDelayMs: 0 });
    expect(remote.name).toBe('openai');
    expect(await readAll(await ask(remote))).toBe('from the model');
    const local = await createEngine({ provider: 'local', typingDelayMs: 0 });
    expect(local.name).toBe('local');
    expect(await readAll(await ask(local, 'what version of jenkins'))).toBe('This server runs **Jenkins 2.440.3**.');
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '2' }))).toBe(150);
    const now = Date.parse('2026-11-22T01:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 01:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 00:59:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});
