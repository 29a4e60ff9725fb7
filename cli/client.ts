/**
 * The one client every command and the terminal UI use to talk to the controller
 * (CONTRACT section 3): typed methods per endpoint, answer streams as async iterators, and
 * errors that say what to do next.
 */
import type { IncomingMessage } from 'node:http';
import type { BuildHistory, Chat, Page, QaPair, StreamEvent, CiContext, WatchedFailure, WorkspaceChanges, WorkspaceSnippet } from '../protocol/types.js';
import { readEvents } from '../protocol/sse.js';
import { ApiError, UsageError, UserError } from './errors.js';
import { cutUploadError, gzipStream, UPLOAD_KEEPALIVE_MS } from './uploadWire.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';
export const API_PREFIX = '/chatbot-api';

export interface ClientOptions {
  /** The controller's base URL, e.g. http://127.0.0.1:8080 (without /chatbot-api). */
  baseUrl: string;
  /** Bearer token for a controller in `tokens` mode. */
  token?: string | undefined;
}

/** A node of a workspace tree (CONTRACT section 3, Workspaces). */
export interface WorkspaceNode {
  name: string;
  type: 'directory' | 'file';
  size?: number;
  children?: WorkspaceNode[];
  truncated?: boolean;
}

export interface WorkspaceTree {
  workspaceId: string;
  node: string;
  path?: string;
  tree: WorkspaceNode;
}

export type WorkspaceFile = { status: 'success'; content: string } | { status: 'error'; message: string };

/** What the CLI sends to POST /chatbot-api/context/{chat}/: the controller builds the CiContext. */
export interface ContextUpload {
  jobName?: string;
  /** A build number, or a permalink the controller resolves (`lastFailedBuild`, `lastCompletedBuild`). */
  buildNumber?: number | BuildPermalink;
  consoleLog?: string;
  /** The last passing build's log (`--baseline-log`): the controller sends it as `buildDetails.lastSuccessfulBuild`. */
  baselineLog?: string;
  currentScreen?: string;
  /** Pipeline environment (BUILD_URL, NODE_NAME, GITHUB_* ...) read by `--from-env`. */
  ciEnvironment?: Record<string, string>;
  /** Source read where the build ran (`--from-env` from $WORKSPACE, `ask --workspace DIR`). */
  workspaceSnippets?: WorkspaceSnippet[];
  /** The checkout's change from git (`ask --workspace DIR`: cli/snippets.ts `checkoutFromDir`). */
  workspaceChanges?: WorkspaceChanges;
  /** Facts the caller read itself, laid over the controller's (`workspaceChangesNotRead` of a shallow checkout). */
  ciContext?: CiContext;
}

/** The permalinks `ask --job J` (no --build) names. */
export type BuildPermalink = 'lastCompletedBuild' | 'lastFailedBuild';

export interface ContextUploadResult {
  success: boolean;
  received_data: CiContext;
}

/** Which answer to stream: a new question, a retry of a pair, or an edited question. */
export type StreamRequest =
  | { kind: 'send'; chatId: number; content: string }
  | { kind: 'retry'; qaPairId: number }
  | { kind: 'edit'; qaPairId: number; content: string };

/** Called while a request body is sent: bytes handed to the socket so far, and the total. */
export type ProgressListener = (sent: number, total: number) => void;

/** Reads the client options from flags first, then CICHAT_URL / CICHAT_TOKEN. */
export function clientOptionsFrom(flags: { url?: string | undefined; token?: string | undefined }, env = process.env): ClientOptions {
  const given = flags.url ?? (env.CICHAT_URL || undefined);
  const name = flags.url !== undefined ? '--url' : 'CICHAT_URL';
  if (given !== undefined) checkUrl(given, name);
  const baseUrl = (given ?? DEFAULT_URL).replace(/\/+$/, '').replace(/\/chatbot-api$/, '');
  const token = flags.token ?? (env.CICHAT_TOKEN || undefined);
  return { baseUrl, token };
}

/** A controller URL must be http(s)://host[:port][/path]: anything else is a usage error (exit 2). */
function checkUrl(value: string, name: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    const guess = /^[\w.-]+(:\d+)?(\/.*)?$/.test(value) && /[.:]/.test(value) ? `http://${value}` : DEFAULT_URL;
    throw new UsageError(`${name}: "${value}" is not an http(s) URL`, `e.g. ${name === '--url' ? '--url ' : 'CICHAT_URL='}${guess}`);
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** How long an upload keeps trying while the backend says it is busy (503 + Retry-After). */
export const UPLOAD_RETRY_FOR_MS = 120_000;

/** The upload's body, sent in slices so that progress can be reported. */
function uploadBody(bytes: Buffer, onProgress?: ProgressListener): ReadableStream<Uint8Array> {
  const total = bytes.length;
  const slice = 256 * 1024;
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const end = Math.min(total, sent + slice);
      controller.enqueue(bytes.subarray(sent, end));
      sent = end;
      onProgress?.(sent, total);
    },
  });
}

/** What goes beside a raw log: the build the controller reads facts of, and the caller's own facts. */
export interface LogUploadFacts {
  jobName?: string;
  buildNumber?: number | BuildPermalink;
  /** X-Cichat-Context's value (`factsHeaderValue`). */
  header?: string;
}

export interface LogUploadOptions {
  signal?: AbortSignal;
  /** Compress the body on the wire (gzip, level 1), kept alive while the log is silent (cli/uploadWire.ts). */
  gzip?: boolean;
  /** With `gzip`: the longest the wire stays silent while the log is (default UPLOAD_KEEPALIVE_MS, 10 s). */
  keepAliveMs?: number;
}

/** The connection was cut after the upload had begun (not a controller that cannot be reached). */
class UploadCut extends Error {
  constructor(cause: unknown) {
    super('the connection was cut during the upload', { cause });
  }
}

export interface LogUploadResult extends ContextUploadResult {
  /** Lines of the log as the backend counted them. */
  log_lines: number;
}

/** The backend's limit on X-Cichat-Context (backend/routes/context.ts CONTEXT_HEADER_MAX_CHARS). */
export const FACTS_HEADER_MAX_CHARS = 12 * 1024;

/**
 * A CiContext (without a log) as X-Cichat-Context's base64url JSON. Workspace snippets that do
 * not fit the header's 12 KiB are left out, the last first (the first ones are the failure's
 * own files), then the environment; `dropped` names what was left out.
 */
export function factsHeaderValue(ci: CiContext): { header: string; dropped: string[] } {
  const encode = (c: CiContext) => Buffer.from(JSON.stringify(c)).toString('base64url');
  const dropped: string[] = [];
  const out: CiContext = { ...ci };
  let snippets = Array.isArray(out.workspaceSnippets) ? [...(out.workspaceSnippets as WorkspaceSnippet[])] : [];
  while (encode(out).length > FACTS_HEADER_MAX_CHARS) {
    // The checkout's change gives way after the snippets beyond the failure's own two, its last diffs first.
    const change = out.workspaceChanges as WorkspaceChanges | undefined;
    if (change !== undefined && snippets.length <= 2) {
      if (change.diffs.length > 1) out.workspaceChanges = { ...change, diffs: change.diffs.slice(0, -1) };
      else delete out.workspaceChanges;
      dropped.push(change.diffs.length > 1 ? `the diff of ${change.diffs[change.diffs.length - 1]?.path ?? 'a file'}` : "the checkout's change");
      continue;
    }
    if (snippets.length > 0) {
      const gone = snippets.pop()!;
      dropped.push(`workspace snippet ${gone.path}`);
      snippets = [...snippets];
      if (snippets.length > 0) out.workspaceSnippets = snippets;
      else delete out.workspaceSnippets;
      continue;
    }
    if (out.ciEnvironment !== undefined) {
      delete out.ciEnvironment;
      dropped.push('the CI environment variables');
      continue;
    }
    break;
  }
  return { header: encode(out), dropped };
}

/** Bytes of a young upload kept to send again after a 503 (the answer comes before much is sent). */
const REPLAY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The log of a raw upload (decoded UTF-8 bytes), read once but sent maybe more than once (a
 * busy backend's 503, a 404 answered before the body was read and retried differently): what
 * was taken from it is kept while the upload is young (up to REPLAY_MAX_BYTES) and sent again
 * first; past that, `reopen` (a file) reads it from the start again.
 */
export class LogBody {
  private kept: Uint8Array[] = [];
  private keptBytes = 0;
  private overflow = false;
  private iterator: AsyncIterator<Uint8Array>;
  /** The source has been read to its end (in the latest pass). */
  ended = false;
  constructor(
    bytes: AsyncIterable<Uint8Array>,
    private readonly reopen?: () => AsyncIterable<Uint8Array>,
  ) {
    this.iterator = bytes[Symbol.asyncIterator]();
  }
  /** Whether another pass can send the log whole: from the kept bytes, or from the start. Prepares it. */
  rewind(): boolean {
    if (!this.overflow) return true;
    if (!this.reopen) return false;
    void this.iterator.return?.();
    this.iterator = this.reopen()[Symbol.asyncIterator]();
    this.kept = [];
    this.keptBytes = 0;
    this.overflow = false;
    this.ended = false;
    return true;
  }
  /** One pass: the kept bytes, then the rest of the source; ends early once `stop` fires. */
  async *read(stop: AbortSignal): AsyncGenerator<Uint8Array> {
    for (const piece of [...this.kept]) {
      if (stop.aborted) return;
      yield piece;
    }
    for (;;) {
      if (stop.aborted) return;
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
        return;
      }
      if (!this.overflow) {
        this.keptBytes += next.value.length;
        if (this.keptBytes > REPLAY_MAX_BYTES) {
          this.overflow = true;
          this.kept = [];
        } else this.kept.push(next.value);
      }
      yield next.value;
    }
  }
}

/** An answer of a controller or backend that does not have the raw log route. */
function olderServer(err: ApiError): boolean {
  if (err.status === 405) return true;
  if (err.status === 415) return /json/i.test(err.detail);
  return err.status === 404 && !/^Chat .* not found|JENKINS_HOME|no context was uploaded|has no/i.test(err.detail);
}

/** `GET /chatbot-api/history`: the builds looked at (newest first) and the verdict. */
export interface JobHistoryAnswer {
  job: string;
  window: number;
  builds: { number: number; result: string | null; commit?: string; fingerprint?: string; class?: string; message?: string; failedTests?: string[] }[];
  build: number | null;
  history: BuildHistory | null;
}

export class CichatClient {
  readonly baseUrl: string;
  private readonly token: string | undefined;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
  }

  // ---- chats -------------------------------------------------------------------------------

  listChats(limit = 100, offset = 0): Promise<Page<Chat>> {
    return this.json('GET', `/chats/?limit=${limit}&offset=${offset}`);
  }

  /** Every chat of the user, most recently updated first (follows the pages). */
  async allChats(): Promise<Chat[]> {
    const out: Chat[] = [];
    for (let offset = 0; ; ) {
      const page = await this.listChats(100, offset);
      out.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.total_items) return out;
    }
  }

  createChat(title?: string): Promise<Chat> {
    return this.json('POST', '/chats/', title === undefined ? {} : { title });
  }

  pairs(chatId: number, limit = 100, offset = 0): Promise<Page<QaPair>> {
    return this.json('GET', `/chats/${chatId}?limit=${limit}&offset=${offset}`);
  }

  /** The whole conversation of a chat, oldest pair first. */
  async conversation(chatId: number): Promise<QaPair[]> {
    const newestFirst: QaPair[] = [];
    for (let offset = 0; ; ) {
      const page = await this.pairs(chatId, 100, offset);
      newestFirst.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.total_items) break;
    }
    return newestFirst.reverse();
  }

  renameChat(chatId: number, newTitle: string): Promise<Chat> {
    return this.json('PUT', `/chats/${chatId}/title`, { new_title: newTitle });
  }

  deleteChat(chatId: number): Promise<{ message: string }> {
    return this.json('DELETE', `/chats/${chatId}`);
  }

  // ---- answers -----------------------------------------------------------------------------

  /**
   * Streams one answer. Errors found before the stream begins (404, 409, 422) are thrown by
   * the first `next()`; leaving the loop early (break, throw) or aborting `signal` aborts the
   * HTTP request, which the backend records as an interrupted answer.
   */
  async *stream(request: StreamRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const abort = new AbortController();
    const onAbort = (): void => abort.abort(signal?.reason);
    if (signal?.aborted) abort.abort(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const [method, path, body] =
        request.kind === 'send'
          ? (['POST', '/messages/send', { chat_id: request.chatId, content: request.content }] as const)
          : request.kind === 'retry'
            ? (['POST', `/messages/${request.qaPairId}/retry`, undefined] as const)
            : (['PUT', `/messages/${request.qaPairId}/edit`, { new_content: request.content }] as const);
      const response = await this.request(method, path, body, { signal: abort.signal, accept: 'text/event-stream' });
      if (!response.body) throw new UserError('The controller answered an empty stream.');
      yield* readEvents(response.body, () => abort.abort());
    } finally {
      signal?.removeEventListener('abort', onAbort);
      abort.abort();
    }
  }

  // ---- context -----------------------------------------------------------------------------

  /**
   * Uploads a chat's context. The body is streamed in slices so that `onProgress` can count
   * the bytes as they go (a build log may be tens of MiB).
   */
  /**
   * Uploads a chat's context. A backend busy with other uploads answers 503 with `Retry-After`
   * (CONTEXT_UPLOADS_MAX): the upload is sent again after the wait the server asks for, for up
   * to UPLOAD_RETRY_FOR_MS in all, then the 503 is the error.
   */
  async uploadContext(chatId: number, upload: ContextUpload, onProgress?: ProgressListener, signal?: AbortSignal): Promise<ContextUploadResult> {
    const bytes = Buffer.from(JSON.stringify(upload), 'utf8');
    const giveUpAt = Date.now() + UPLOAD_RETRY_FOR_MS;
    for (;;) {
      try {
        const response = await this.request('POST', `/context/${chatId}/`, undefined, {
          rawBody: uploadBody(bytes, onProgress),
          contentLength: bytes.length,
          ...(signal ? { signal } : {}),
        });
        return (await response.json()) as ContextUploadResult;
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 503 || err.retryAfterSeconds === undefined) throw err;
        const waitMs = Math.max(250, err.retryAfterSeconds * 1000);
        if (Date.now() + waitMs > giveUpAt) throw err;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /**
   * Uploads a build log as the raw body of `POST /chatbot-api/context/{chat}/log` (issue 28):
   * streamed as it is read, never held whole, gzip-compressed on the wire when `gzip` (the
   * controller and backend decompress as it streams). The facts beside the log go in
   * X-Cichat-Context (base64url JSON, at most 12 KiB: see `factsHeaderValue`); `jobName` and
   * `buildNumber` ask the controller to add what JENKINS_HOME holds about that build.
   *
   * An answer that came before the body was read (a busy backend's 503 with Retry-After, a 404
   * for an unknown job) ends the sending at once. A 503 is retried as `uploadContext` does, the
   * log sent again by `body` (LogBody) when it can, else the 503 is the error; the caller may
   * likewise send the same `body` again after another early answer (`body.rewind()`).
   * A controller or backend older than the route answers 404, 405 or 415: that is a UserError
   * saying so (nothing was stored).
   */
  async uploadLog(chatId: number, body: LogBody, facts: LogUploadFacts = {}, options: LogUploadOptions = {}): Promise<LogUploadResult> {
    const q = new URLSearchParams();
    if (facts.jobName !== undefined) q.set('jobName', facts.jobName);
    if (facts.buildNumber !== undefined) q.set('buildNumber', String(facts.buildNumber));
    const path = `/context/${chatId}/log${q.size > 0 ? `?${q.toString()}` : ''}`;
    const giveUpAt = Date.now() + UPLOAD_RETRY_FOR_MS;
    for (;;) {
      // Ends the body (not the request: the answer is still read) once an error answer came.
      const stop = new AbortController();
      const source = body.read(stop.signal);
      // A log that fails while it is read (a gzip file cut short) is that error, not a network one.
      const failed: { error?: unknown } = {};
      const input = { bytes: 0, at: Date.now() };
      const counted = (async function* () {
        for await (const piece of source) {
          input.bytes += piece.length;
          input.at = Date.now();
          yield piece;
        }
      })();
      const wire = options.gzip ? gzipStream(counted, options.keepAliveMs) : counted;
      const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
      if (options.gzip) headers['content-encoding'] = 'gzip';
      if (facts.header) headers['x-cichat-context'] = facts.header;
      try {
        const response = await this.streamRequest(path, wire, headers, failed, options.signal, () => stop.abort());
        return (await response.json()) as LogUploadResult;
      } catch (err) {
        stop.abort();
        if (failed.error !== undefined) throw failed.error;
        if (err instanceof UploadCut) throw cutUploadError(this.baseUrl, input, body.ended, 2 * (options.keepAliveMs ?? UPLOAD_KEEPALIVE_MS));
        if (err instanceof ApiError && olderServer(err)) {
          throw new UserError(
            `${this.baseUrl} does not take raw log uploads (POST ${API_PREFIX}/context/{chat}/log answered ${err.status}: ${err.detail}): its controller or backend is older than this cichat; nothing was stored`,
            'update the controller and the backend (npm start of the same version), or use a cichat of their version',
          );
        }
        if (!(err instanceof ApiError) || err.status !== 503 || err.retryAfterSeconds === undefined) throw err;
        const waitMs = Math.max(250, err.retryAfterSeconds * 1000);
        if (Date.now() + waitMs > giveUpAt) throw err;
        if (!body.rewind()) throw err;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  lastUpload(chatId: number): Promise<{ last_upload_at: string | null }> {
    return this.json('GET', `/context/${chatId}/last-upload`);
  }

  // ---- workspaces --------------------------------------------------------------------------

  async workspaceTree(jobName: string, buildNumber: number, depth?: number): Promise<WorkspaceTree[]> {
    return (await this.workspaceTreeWithNotice(jobName, buildNumber, depth)).trees;
  }

  /** The trees, and the controller's notice about them (`X-Cichat-Notice`: a copied home's JENKINS_PATH_MAP advice). */
  async workspaceTreeWithNotice(jobName: string, buildNumber: number, depth?: number): Promise<{ trees: WorkspaceTree[]; notice?: string }> {
    const q = new URLSearchParams({ jobName, buildNumber: String(buildNumber) });
    if (depth !== undefined) q.set('depth', String(depth));
    const response = await this.request('GET', `/workspaceTree?${q.toString()}`);
    const trees = (await response.json()) as WorkspaceTree[];
    const raw = response.headers.get('x-cichat-notice');
    let notice: string | undefined;
    try {
      notice = raw ? decodeURIComponent(raw) : undefined;
    } catch {
      notice = raw ?? undefined;
    }
    return notice ? { trees, notice } : { trees };
  }

  /** A file of a workspace; a missing file or a refused path throws an ApiError with its message. */
  async workspaceFile(jobName: string, buildNumber: number, workspaceId: string, filePath: string): Promise<string> {
    const q = new URLSearchParams({ jobName, buildNumber: String(buildNumber), workspaceId, filePath });
    const answer = await this.json<WorkspaceFile>('GET', `/workspaceFile?${q.toString()}`);
    if (answer.status === 'error') throw new ApiError(200, answer.message);
    return answer.content;
  }

  // ---- failed-build watcher ----------------------------------------------------------------

  /** Recent failed builds the controller's watcher diagnosed for this user, newest first. */
  async failures(limit = 100): Promise<WatchedFailure[]> {
    return (await this.json<{ items: WatchedFailure[] }>('GET', `/failures?limit=${limit}`)).items;
  }

  /** A job's recent builds and the verdict of one failure (`GET /history`, issue 29). */
  history(jobName: string, buildNumber?: number, window?: number): Promise<JobHistoryAnswer> {
    const q = new URLSearchParams({ jobName });
    if (buildNumber !== undefined) q.set('buildNumber', String(buildNumber));
    if (window !== undefined) q.set('window', String(window));
    return this.json('GET', `/history?${q.toString()}`);
  }

  /** Ids of the watcher's chats not opened yet; empty when the watcher is off or unreachable. */
  async unreadChatIds(): Promise<Set<number>> {
    try {
      return new Set((await this.failures()).flatMap((f) => (f.unread && f.chat_id !== null ? [f.chat_id] : [])));
    } catch {
      return new Set();
    }
  }

  // ---- health ------------------------------------------------------------------------------

  health(): Promise<{ status: string }> {
    return this.json('GET', '/healthz');
  }

  // ---- plumbing ----------------------------------------------------------------------------

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.request(method, path, body);
    return (await response.json()) as T;
  }

  /**
   * POSTs a streamed body with node:http (fetch with a ReadableStream body kept what it sent:
   * +100 MB of RSS per 100 MB uploaded, measured): the body is piped with the socket's
   * back-pressure, so memory stays a few pieces. `onEarlyAnswer` is called when an error answer
   * comes before the body is over. Errors as `request` makes them.
   */
  private async streamRequest(
    path: string,
    body: AsyncIterable<Uint8Array>,
    extraHeaders: Record<string, string>,
    failed: { error?: unknown },
    signal: AbortSignal | undefined,
    onEarlyAnswer: () => void,
  ): Promise<Response> {
    const url = new URL(`${this.baseUrl}${API_PREFIX}${path}`);
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const { Readable } = await import('node:stream');
    let connected = false;
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException('The upload was aborted', 'AbortError'));
      const req = request(url, { method: 'POST', headers });
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      const onAbort = (): void => {
        req.destroy();
        reject(new DOMException('The upload was aborted', 'AbortError'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('response', (res) => {
        signal?.removeEventListener('abort', onAbort);
        if ((res.statusCode ?? 500) >= 400) onEarlyAnswer();
        resolve(res);
      });
      req.on('error', (err) => {
        signal?.removeEventListener('abort', onAbort);
        reject(failed.error ?? err);
      });
      const source = Readable.from(body, { objectMode: false });
      source.on('error', (err) => {
        failed.error = err;
        req.destroy(err);
      });
      source.pipe(req);
    }).catch((err: unknown) => {
      if (failed.error !== undefined || isAbort(err)) throw err;
      if (connected) throw new UploadCut(err);
      throw this.unreachable(Object.assign(new Error('fetch failed'), { cause: err }));
    });
    const status = answer.statusCode ?? 500;
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') responseHeaders.set(name, value);
      else if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const response = new Response(status === 204 ? null : Buffer.concat(chunks), { status, statusText: answer.statusMessage ?? '', headers: responseHeaders });
    if (!response.ok) {
      if ((status === 401 || status === 404) && (await this.isBackend())) {
        throw new UserError(
          `${this.baseUrl} is the backend; use the controller's URL`,
          'the CLI talks to the controller (port 8080 by default): --url http://127.0.0.1:8080, or CICHAT_URL',
        );
      }
      throw await this.httpError(response);
    }
    return response;
  }

  /** Sends one request; maps connection failures and HTTP errors to errors a user can act on. */
  private async request(
    method: string,
    path: string,
    body?: unknown,
    extra: { signal?: AbortSignal; accept?: string; rawBody?: ReadableStream<Uint8Array>; contentLength?: number } = {},
  ): Promise<Response> {
    const url = `${this.baseUrl}${API_PREFIX}${path}`;
    const headers: Record<string, string> = { accept: extra.accept ?? 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: string | ReadableStream<Uint8Array> | undefined;
    if (extra.rawBody) {
      payload = extra.rawBody;
      headers['content-type'] = 'application/json';
      if (extra.contentLength !== undefined) headers['content-length'] = String(extra.contentLength);
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: payload,
        signal: extra.signal,
        ...(extra.rawBody ? { duplex: 'half' as const } : {}),
      });
    } catch (err) {
      if (isAbort(err)) throw err;
      throw this.unreachable(err);
    }
    if (!response.ok) {
      if ((response.status === 401 || response.status === 404) && (await this.isBackend())) {
        throw new UserError(
          `${this.baseUrl} is the backend; use the controller's URL`,
          'the CLI talks to the controller (port 8080 by default): --url http://127.0.0.1:8080, or CICHAT_URL',
        );
      }
      throw await this.httpError(response);
    }
    return response;
  }

  /**
   * Whether baseUrl is cichat's backend rather than the controller: the backend answers
   * `GET /healthz` with `{status}` and knows no `/chatbot-api/healthz`.
   */
  private async isBackend(): Promise<boolean> {
    try {
      const [own, prefixed] = await Promise.all(
        [`${this.baseUrl}/healthz`, `${this.baseUrl}${API_PREFIX}/healthz`].map((u) => fetch(u, { signal: AbortSignal.timeout(2000) })),
      );
      if (!own || !prefixed || prefixed.ok || !own.ok) return false;
      const body = (await own.json()) as { status?: unknown };
      return typeof body.status === 'string';
    } catch {
      return false;
    }
  }

  private unreachable(err: unknown): UserError {
    const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
    const code = cause?.code ?? '';
    const why = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? ' (unknown host)' : '';
    return new UserError(
      `Cannot reach the controller at ${this.baseUrl}${why}: is \`npm start\` running?`,
      code && code !== 'ECONNREFUSED' ? `${code}: ${cause?.message ?? ''}`.trim() : 'start it with `npm start` (or `cichat serve`), or point --url / CICHAT_URL at it',
    );
  }

  private async httpError(response: Response): Promise<ApiError> {
    let detail = `${response.status} ${response.statusText}`.trim();
    let code: string | undefined;
    try {
      const text = await response.text();
      try {
        const parsed = JSON.parse(text) as { detail?: unknown; message?: unknown; code?: unknown };
        if (typeof parsed.code === 'string') code = parsed.code;
        if (typeof parsed.detail === 'string') detail = parsed.detail;
        else if (typeof parsed.message === 'string') detail = parsed.message;
      } catch {
        if (text.trim()) detail = `${detail}: ${text.trim().slice(0, 300)}`;
      }
    } catch {
      // the body could not be read: keep the status line
    }
    const hint =
      response.status === 401
        ? 'this controller checks tokens: pass --token or set CICHAT_TOKEN (create one with `cichat token add`)'
        : response.status === 502
          ? 'the controller is up but cannot reach the backend: is it running?'
          : response.status === 409
            ? 'an answer is already streaming in this chat: wait for it or stop it'
            : undefined;
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    return new ApiError(response.status, detail, hint, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined, code);
  }
}
