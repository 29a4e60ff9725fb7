/**
 * The model engine: any OpenAI-compatible chat-completions server (OpenAI, Azure, Ollama, vLLM,
 * llama.cpp server), streaming. Retries are ours, not the client's: before the first piece of
 * text a 429, a 5xx or a refused connection is retried with backoff (honouring Retry-After);
 * after it, a failure ends the answer with an error, since the text already sent cannot be
 * taken back.
 */
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { Source } from '../../protocol/types.js';
import type { AnswerEngine, AnswerRequest, AnswerStream, ChatContext, LogPassage } from './engine.js';
import { detectIntents } from './intents.js';
import { buildPrompt, estimateTokens, rankPassages, type PromptMessage } from './prompt.js';
import { workspaceSection } from './workspacePrompt.js';
import { toolSessionFor, type ToolDefinition, type ToolSession, type ToolSettings } from './tools.js';
import { pause } from './typing.js';

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
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff of the first retry without Retry-After; doubles after that, with jitter. */
  baseDelayMs: number;
  /** No wait is longer than this, whatever Retry-After asks. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 20_000 };

export interface RetryNotice {
  /** The attempt that failed, 1-based. */
  attempt: number;
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
    maxRetries: 0,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });

  /**
   * One chat-completions request, streamed: text pieces are yielded, tool-call deltas gathered
   * into `calls` (by index, as OpenAI streams them). Retried while it has produced nothing.
   */
  async function* completion(messages: ChatMessage[], signal: AbortSignal, tools: ToolDefinition[], calls: Map<number, PendingCall>): AsyncGenerator<string> {
    let attempt = 0;
    for (;;) {
      attempt++;
      let started = false;
      calls.clear();
      try {
        const chunks = await client.chat.completions.create(
          { model: opts.model, messages, stream: true, ...(tools.length > 0 ? { tools } : {}) },
          { signal, maxRetries: 0 },
        );
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
        return;
      } catch (error) {
        if (isAbort(error, signal)) return;
        if (started) throw describeMidStream(error, baseURL);
        const failure = describeFailure(error, baseURL, opts.model);
        if (!failure.retryable || attempt >= retry.maxAttempts) throw failure;
        const asked = error instanceof APIError ? retryAfterMs(error.headers) : undefined;
        const backoff = retry.baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);
        const delayMs = Math.min(retry.maxDelayMs, Math.round(asked ?? backoff));
        opts.onRetry?.({ attempt, delayMs, status: failure.status, reason: failure.message });
        await pause(delayMs, signal);
        if (signal.aborted) return;
      }
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
      const prompt = buildPrompt({
        question: request.question,
        history: request.history,
        context: request.context,
        passages,
        contextTokens: opts.contextTokens - (workspace.text ? estimateTokens(workspace.text) + 2 : 0),
      });
      const system = prompt.messages[0];
      if (workspace.text && system?.role === 'system') system.content = `${system.content}\n\n${workspace.text}`;
      const sources: Source[] = [
        ...prompt.passages.map((p): Source => ({ kind: 'log', start_line: p.start_line, end_line: p.end_line })),
        ...workspace.sources,
      ];
      const session = toolSessionFor(opts.tools, request);
      // The tool calls are recorded as they happen: the same array is read when the answer is saved.
      const pieces = session ? withToolSources(stream(prompt.messages, request.signal, session), session, sources) : stream(prompt.messages, request.signal);
      return { sources, pieces };
    },
  };
}
