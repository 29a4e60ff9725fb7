/**
 * A small local HTTP server that speaks the OpenAI chat-completions protocol (streaming SSE and
 * plain JSON), for tests where a real model server cannot run. Each request takes the next
 * scripted reply (the last one repeats), and every request is recorded with its body and a
 * promise of when its connection closed, so a test can check that an abandoned stream really
 * closed the upstream request.
 */
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply =
  /** A normal stream: the chunks as deltas, `delayMs` apart; `holdOpen` never ends it (a stalled model). */
  | { kind: 'stream'; chunks: string[]; delayMs?: number; holdOpen?: boolean }
  /** An HTTP error before any chunk, e.g. 429 with Retry-After, or 503. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Sends the chunks, then destroys the socket (a crash mid-answer). */
  | { kind: 'cut'; chunks: string[] }
  /** Sends the chunks, then an `{"error": ...}` event as OpenAI does for failures mid-stream. */
  | { kind: 'streamError'; chunks: string[]; message: string }
  /** Streams tool calls (the arguments in two pieces each), finish_reason `tool_calls`; `chunks` of text may come first. */
  | { kind: 'toolCalls'; calls: { name: string; arguments: unknown }[]; chunks?: string[] };

/** The JSON body of a chat-completions request, as far as the tests read it. */
export interface ChatCompletionBody {
  model?: string;
  stream?: boolean;
  /** `content` is null on an assistant turn that only called tools; tool turns carry `tool_call_id`. */
  messages?: { role: string; content: string; tool_call_id?: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[] }[];
  [key: string]: unknown;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatCompletionBody;
  receivedAt: number;
  /** Resolves when the response closed: `completed` is false when the client went away first. */
  closed: Promise<{ at: number; completed: boolean }>;
}

export interface FakeOpenAIServer {
  /** The base URL for an OpenAI client: `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Replaces the script: each request takes the next reply, the last one repeats. */
  setReplies(replies: FakeReply[]): void;
  /** Resolves with the `n`-th request (0-based) once it has arrived. */
  request(n: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

function chunkEvent(model: string, delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Starts the fake on an ephemeral port of 127.0.0.1. */
export async function startFakeOpenAIServer(replies: FakeReply[] = [{ kind: 'stream', chunks: ['Hello', ' world'] }]): Promise<FakeOpenAIServer> {
  let script = replies;
  let served = 0;
  const requests: ReceivedRequest[] = [];
  const waiters: { n: number; resolve: (r: ReceivedRequest) => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const wait = (ms: number, res: http.ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.off('close', onClose);
        resolve(!res.destroyed);
      }, ms);
      const onClose = (): void => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      timers.add(timer);
      res.once('close', onClose);
    });

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let body: ChatCompletionBody;
      try {
        body = parts.length ? (JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatCompletionBody) : {};
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad JSON' } }));
        return;
      }
      const closed = new Promise<{ at: number; completed: boolean }>((resolve) => {
        res.once('close', () => resolve({ at: Date.now(), completed: res.writableFinished }));
      });
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        receivedAt: Date.now(),
        closed,
      };
      requests.push(received);
      for (const waiter of waiters.filter((w) => w.n === requests.length - 1)) waiter.resolve(received);
      void respond(received, res);
    });
  });

  async function respond(received: ReceivedRequest, res: http.ServerResponse): Promise<void> {
    const path = received.path.replace(/\?.*$/, '');
    if (received.method === 'GET' && /\/models\/?$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'cichat-tests' }] }));
      return;
    }
    if (received.method !== 'POST' || !/\/chat\/completions\/?$/.test(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }
    const reply = script[Math.min(served, script.length - 1)] as FakeReply;
    served++;
    const model = received.body.model ?? 'fake-model';

    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { error: { message: `fake ${reply.status}`, type: 'fake_error' } }));
      return;
    }
    if (reply.kind === 'toolCalls') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write(chunkEvent(model, { role: 'assistant', content: '' }));
      for (const content of reply.chunks ?? []) res.write(chunkEvent(model, { content }));
      reply.calls.forEach((call, index) => {
        const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        const half = Math.floor(args.length / 2);
        res.write(chunkEvent(model, { tool_calls: [{ index, id: `call_${served}_${index}`, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] }));
        res.write(chunkEvent(model, { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
      });
      res.write(chunkEvent(model, {}, 'tool_calls'));
      res.write('data: [DONE]\n\n');
      res.end();
      return;
    }
    if (received.body.stream !== true) {
      const content = reply.chunks.join('');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(chunkEvent(model, { role: 'assistant', content: '' }));
    const delayMs = reply.kind === 'stream' ? (reply.delayMs ?? 0) : 0;
    for (const content of reply.chunks) {
      if (delayMs > 0 && !(await wait(delayMs, res))) return;
      if (res.destroyed) return;
      res.write(chunkEvent(model, { content }));
    }
    if (reply.kind === 'cut') {
      // Let the written chunks leave before the crash.
      await wait(20, res);
      res.socket?.destroy();
      return;
    }
    if (reply.kind === 'streamError') {
      res.write(`data: ${JSON.stringify({ error: { message: reply.message, type: 'server_error' } })}\n\n`);
      res.end();
      return;
    }
    if (reply.holdOpen) return; // the client must give up and close the request
    res.write(chunkEvent(model, {}, 'stop'));
    res.write('data: [DONE]\n\n');
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    setReplies(next) {
      script = next;
      served = 0;
    },
    request(n) {
      const existing = requests[n];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
