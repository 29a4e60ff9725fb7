/**
 * The model engine: any OpenAI-compatible chat-completions server (OpenAI, Azure, Ollama, vLLM,
 * llama.cpp server), streaming. Retries are openai-node's own (`maxRetries`): a refused
 * connection, a 408, 409, 429 or 5xx before the stream begins is sent again, after the wait the
 * server asked for (Retry-After, retry-after-ms). What is ours is the length of that wait (capped,
 * and our backoff when the server names none: `shapeRetryWaits`) and that a client who leaves
 * stops the wait at once. Once the stream began, a failure ends the answer with an error, since
 * the text already sent cannot be taken back.
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { Source } from '../../protocol/types.js';
import type { AnswerEngine, AnswerRequest, AnswerStream, ChatContext, LogPassage } from './engine.js';
import { detectIntents } from './intents.js';
import { buildPrompt, estimateTokens, rankPassages, type PromptMessage } from './prompt.js';
import { workspaceSection } from './workspacePrompt.js';
import { workspaceChangesSection } from './workspaceChangesPrompt.js';
import { toolSessionFor, type ToolDefinition, type ToolSession, type ToolSettings } from './tools.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** A failure of the model server, with a message a person can act on. */
export class ModelServerError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ModelServerError';
  }
}

export interface RetryPolicy {
  /** Retries after the first attempt (openai-node's `maxRetries`). */
  maxRetries: number;
  /** Backoff of the first retry without Retry-After; doubles after that, with jitter. */
  baseDelayMs: number;
  /** No wait is longer than this, whatever Retry-After asks. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 20_000 };

export interface RetryNotice {
  /** The attempt that failed, 1-based. */
  attempt: number;
  /** The wait before the next attempt (for a refused connection: openai-node's own backoff, at most this). */
  delayMs: number;
  status?: number;
  reason: string;
}

export interface OpenAIEngineOptions {
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** The prompt's budget in tokens (LLM_CONTEXT_TOKENS). */
  contextTokens: number;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (notice: RetryNotice) => void;
  /** How many retrieved log passages to ask for. */
  retrieveK?: number;
  /** The workspace tools (issue 17); off when absent. */
  tools?: ToolSettings;
}

/**
 * The wait a Retry-After (or OpenAI's retry-after-ms) header asks for, in ms: seconds or an
 * HTTP date; undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The statuses openai-node retries (its `shouldRetry`), unless the server says otherwise in `x-should-retry`. */
function retriedByClient(res: Response): boolean {
  const said = res.headers.get('x-should-retry');
  if (said === 'true') return true;
  if (said === 'false') return false;
  return res.status === 408 || res.status === 409 || res.status === 429 || res.status >= 500;
}

/**
 * The fetch under openai-node: it tells, for every answer openai-node is about to retry, how long
 * the wait is, and sets that wait as `retry-after-ms` (which openai-node obeys): the server's
 * Retry-After capped at `maxDelayMs`, else our backoff from `baseDelayMs`. The attempt is read
 * from openai-node's own `x-stainless-retry-count` header.
 */
export function shapeRetryWaits(base: typeof fetch, policy: RetryPolicy, baseURL: string, onRetry?: (notice: RetryNotice) => void): typeof fetch {
  return async (input, init) => {
    const attempt = Number(new Headers(init?.headers).get('x-stainless-retry-count') ?? 0) + 1;
    const retried = attempt <= policy.maxRetries;
    let res: Response;
    try {
      res = await base(input, init);
    } catch (error) {
      if (retried && !init?.signal?.aborted) {
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        onRetry?.({ attempt, delayMs: Math.min(500 * 2 ** (attempt - 1), 8000), reason: `Could not reach the model server at ${baseURL} (${cause})` });
      }
      throw error;
    }
    if (res.ok || !retried || !retriedByClient(res)) return res;
    const asked = retryAfterMs(res.headers);
    const backoff = policy.baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
    const delayMs = Math.min(policy.maxDelayMs, Math.round(asked ?? backoff));
    onRetry?.({ attempt, delayMs, status: res.status, reason: `The model server at ${baseURL} answered ${res.status}` });
    const headers = new Headers(res.headers);
    headers.delete('retry-after');
    headers.set('retry-after-ms', String(delayMs));
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}

/** Resolves with `work`'s value, or with undefined as soon as `signal` aborts (`work` is then left to settle unobserved). */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => {
      work.catch(() => undefined);
      resolve(undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function describeFailure(error: unknown, baseURL: string, model: string): ModelServerError {
  if (error instanceof ModelServerError) return error;
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return new ModelServerError(`Could not reach the model server at ${baseURL} (${cause}): check OPENAI_BASE_URL and that the server is running.`, undefined, true);
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const said = error.message.replace(/^\d{3}\s*/, '');
    const hint =
      status === 401 || status === 403
        ? 'check OPENAI_API_KEY'
        : status === 404
          ? `check LLM_MODEL (${model}) and OPENAI_BASE_URL`
          : status === 429
            ? 'the server is rate limiting; try again shortly'
            : status >= 500
              ? 'the model server failed; try again shortly'
              : /context|token/i.test(said)
                ? "the prompt is too long for the model: lower LLM_CONTEXT_TOKENS to fit the model's context window"
                : 'the server refused the request';
    return new ModelServerError(
      `The model server at ${baseURL} answered ${status}: ${hint}.${said ? ` It said: ${said}` : ''}`,
      status,
      status === 429 || status >= 500,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelServerError(`The model server at ${baseURL} failed: ${message}`);
}

/** An error the model server sent inside the stream ({"error": ...}) or a cut connection. */
function describeMidStream(error: unknown, baseURL: string): ModelServerError {
  let message = error instanceof Error ? error.message : String(error);
  // undici reports a connection closed under a body being read as just "terminated".
  if (/^(terminated|other side closed)$/i.test(message)) message = 'the connection closed before the answer was complete';
  return new ModelServerError(`The model server at ${baseURL} stopped in the middle of the answer: ${message}`);
}

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError');
}

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** A tool call being streamed: its id, name and JSON arguments arrive in pieces. */
interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Passes the pieces on, copying the session's sources (tool calls, files read) into `sources` as they come. */
async function* withToolSources(pieces: AsyncGenerator<string>, session: ToolSession, sources: Source[]): AsyncGenerator<string> {
  let copied = 0;
  const copy = (): void => {
    for (; copied < session.sources.length; copied++) sources.push(session.sources[copied] as Source);
  };
  try {
    for await (const piece of pieces) {
      copy();
      yield piece;
    }
  } finally {
    copy();
  }
}

/** The passages for the prompt: failure excerpts and retrieved chunks, ranked for the question. */
async function gatherPassages(context: ChatContext | null, question: string, k: number) {
  if (!context) return [];
  let retrieved: LogPassage[] = [];
  if (context.logLineCount > 0) {
    try {
      retrieved = await context.retrieve(question, k);
    } catch {
      // Retrieval is a help: the excerpts and facts still make a useful prompt.
      retrieved = [];
    }
  }
  const intents = detectIntents(question);
  const failureFirst = intents.length === 0 || intents.includes('failure') || intents.includes('fix') || intents.includes('tests') || intents.includes('result');
  return rankPassages(context.failureExcerpts, retrieved, failureFirst);
}

/**
 * An engine on an OpenAI-compatible server. `signal` reaches the HTTP request: when the client
 * goes away the upstream request is aborted and `pieces` ends without an error.
 */
export function createOpenAIEngine(opts: OpenAIEngineOptions): AnswerEngine {
  const baseURL = (opts.baseURL ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const client = new OpenAI({
    // Local servers (Ollama, llama.cpp) need no key, but the client insists on one.
    apiKey: opts.apiKey || 'no-key',
    baseURL,
    maxRetries: retry.maxRetries,
    fetch: shapeRetryWaits(opts.fetch ?? fetch, retry, baseURL, opts.onRetry),
  });

  /**
   * One chat-completions request, streamed: text pieces are yielded, tool-call deltas gathered
   * into `calls` (by index, as OpenAI streams them). openai-node retries it before the stream
   * begins.
   */
  async function* completion(messages: ChatMessage[], signal: AbortSignal, tools: ToolDefinition[], calls: Map<number, PendingCall>): AsyncGenerator<string> {
    let started = false;
    try {
      // openai-node's wait between retries does not listen to the signal: a client who leaves
      // during it ends the answer here at once (no request is in flight then; openai-node sees
      // the abort when the wait is over and sends nothing more).
      const chunks = await unlessAborted(
        client.chat.completions.create({ model: opts.model, messages, stream: true, ...(tools.length > 0 ? { tools } : {}) }, { signal }),
        signal,
      );
      if (chunks === undefined) return;
      for await (const chunk of chunks) {
        const delta = chunk.choices[0]?.delta;
        for (const call of delta?.tool_calls ?? []) {
          started = true;
          const pending = calls.get(call.index) ?? { id: '', name: '', args: '' };
          if (call.id) pending.id = call.id;
          if (call.function?.name) pending.name += call.function.name;
          if (call.function?.arguments) pending.args += call.function.arguments;
          calls.set(call.index, pending);
        }
        const content = delta?.content;
        if (typeof content === 'string' && content !== '') {
          started = true;
          yield content;
        }
      }
      // The client's stream ends quietly when our signal aborts it.
    } catch (error) {
      if (isAbort(error, signal)) return;
      if (started) throw describeMidStream(error, baseURL);
      throw describeFailure(error, baseURL, opts.model);
    }
  }

  /**
   * The answer: the prompt's request, then, while the model asks for tools (and the session
   * allows), the calls are run and their results sent back in a further request.
   */
  async function* stream(prompt: PromptMessage[], signal: AbortSignal, session?: ToolSession): AsyncGenerator<string> {
    const messages: ChatMessage[] = prompt.map((m) => ({ role: m.role, content: m.content }));
    if (session && messages[0]?.role === 'system') messages[0] = { role: 'system', content: `${String(messages[0].content)}\n\n${session.describe()}` };
    const maxRounds = (opts.tools?.maxCalls ?? 0) + 2;
    for (let round = 0; round < maxRounds; round++) {
      const calls = new Map<number, PendingCall>();
      let text = '';
      for await (const piece of completion(messages, signal, session?.definitions() ?? [], calls)) {
        text += piece;
        yield piece;
      }
      if (signal.aborted || calls.size === 0) return;
      const list = [...calls.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ ...c, id: c.id || `call_${round}_${i}` }));
      messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        tool_calls: list.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.args } })),
      });
      for (const call of list) {
        const result = session ? await session.run(call.name, call.args, signal) : 'Refused: no tools are available in this chat.';
        if (signal.aborted) return;
        messages.push({ role: 'tool', tool_call_id: call.id, content: result });
      }
    }
  }

  return {
    name: 'openai',
    async answer(request: AnswerRequest): Promise<AnswerStream> {
      const passages = await gatherPassages(request.context, request.question, opts.retrieveK ?? 6);
      // The workspace snippets take at most a quarter of the budget; the rest is the prompt's.
      const workspace = workspaceSection(request.context, Math.floor(opts.contextTokens / 4));
      // The checkout's change as structured facts (the changed lines that touch what the error names), an eighth at most.
      const changes = workspaceChangesSection(request.context, Math.floor(opts.contextTokens / 8));
      const extra = [workspace.text, changes.text].filter(Boolean);
      const prompt = buildPrompt({
        question: request.question,
        history: request.history,
        context: request.context,
        passages,
        contextTokens: opts.contextTokens - extra.reduce((sum, t) => sum + estimateTokens(t) + 2, 0),
      });
      const system = prompt.messages[0];
      if (extra.length > 0 && system?.role === 'system') system.content = [system.content, ...extra].join('\n\n');
      const sources: Source[] = [
        ...prompt.passages.map((p): Source => ({ kind: 'log', start_line: p.start_line, end_line: p.end_line })),
        ...workspace.sources,
        ...changes.sources,
      ];
      const session = toolSessionFor(opts.tools, request);
      // The tool calls are recorded as they happen: the same array is read when the answer is saved.
      const pieces = session ? withToolSources(stream(prompt.messages, request.signal, session), session, sources) : stream(prompt.messages, request.signal);
      return { sources, pieces };
    },
  };
}
