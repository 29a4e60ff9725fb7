/**
 * The page's only way to the controller: `/chatbot-api` on the page's own origin, with the
 * bearer token of `tokens` mode (kept in sessionStorage: this browser tab's session only).
 */
import { SseDecoder, parseEvent } from '../protocol/sse.js';
import type { Chat, Page, QaPair, StreamEvent, WatchedFailure, WorkspaceFileAnswer, WorkspaceTreeEntry } from '../protocol/types.js';

const API = '/chatbot-api';
const TOKEN_KEY = 'cichat-token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
}

/** Called when the controller answers 401: the page asks for a token again. */
let onUnauthorized: () => void = () => undefined;
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = storedToken();
  return { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

async function failure(res: Response): Promise<ApiError> {
  let detail = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { detail?: unknown; message?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    else if (typeof body.message === 'string') detail = body.message;
  } catch {
    // not JSON: the status line says it
  }
  if (res.status === 401) onUnauthorized();
  return new ApiError(res.status, detail);
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${API}${path}`, {
      method,
      headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'The cichat controller cannot be reached: is it running?');
  }
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/** Checks a token (or none) against the controller: resolves when the chats can be listed. */
export async function checkAccess(token: string | null): Promise<void> {
  const res = await fetch(`${API}/chats/?limit=1`, { headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  if (!res.ok) {
    const err = await failure(res);
    throw err;
  }
}

export interface FailuresAnswer {
  items: WatchedFailure[];
  watching: boolean;
  ready: boolean;
}

export interface LogLines {
  lines: { n: number; text: string }[];
  total_lines: number;
  from: number;
  to: number;
}

export const api = {
  failures: (limit = 50) => call<FailuresAnswer>('GET', `/failures?limit=${limit}`),
  markRead: (chatId: number) => call<{ chat_id: number; unread: boolean }>('POST', `/failures/${chatId}/read`),
  chats: (limit: number, offset: number) => call<Page<Chat>>('GET', `/chats/?limit=${limit}&offset=${offset}`),
  createChat: (title?: string) => call<Chat>('POST', '/chats/', title ? { title } : {}),
  pairs: (chatId: number) => call<Page<QaPair>>('GET', `/chats/${chatId}?limit=100&offset=0`),
  rename: (chatId: number, title: string) => call<Chat>('PUT', `/chats/${chatId}/title`, { new_title: title }),
  deleteChat: (chatId: number) => call<{ message: string }>('DELETE', `/chats/${chatId}`),
  contextAbout: (chatId: number, jobName: string, buildNumber: number | undefined) =>
    call<{ success: boolean }>('POST', `/context/${chatId}/`, { jobName, ...(buildNumber !== undefined ? { buildNumber } : {}) }),
  lastUpload: (chatId: number) => call<{ last_upload_at: string | null }>('GET', `/context/${chatId}/last-upload`),
  log: (chatId: number, from: number, to: number) => call<LogLines>('GET', `/context/${chatId}/log?from=${from}&to=${to}`),
  workspaceTree: (job: string, build: number) =>
    call<WorkspaceTreeEntry[]>('GET', `/workspaceTree?jobName=${encodeURIComponent(job)}&buildNumber=${build}&depth=1`),
  workspaceFile: (job: string, build: number, workspaceId: string, filePath: string) =>
    call<WorkspaceFileAnswer>(
      'GET',
      `/workspaceFile?jobName=${encodeURIComponent(job)}&buildNumber=${build}&workspaceId=${encodeURIComponent(workspaceId)}&filePath=${encodeURIComponent(filePath)}`,
    ),
};

/** Finds one chat by id (the API lists chats, most recently updated first). */
export async function findChat(chatId: number): Promise<Chat | undefined> {
  for (let offset = 0; offset < 1000; offset += 100) {
    const page = await api.chats(100, offset);
    const found = page.items.find((c) => c.id === chatId);
    if (found) return found;
    if (offset + page.items.length >= page.total_items) return undefined;
  }
  return undefined;
}

export type StreamRequest =
  | { kind: 'send'; chatId: number; content: string }
  | { kind: 'retry'; pairId: number }
  | { kind: 'edit'; pairId: number; content: string };

/**
 * Asks for an answer and reads its events as they arrive; aborting `signal` stops the answer
 * (the backend keeps the partial text as `interrupted`). Errors before the stream (404, 409,
 * 422) are thrown as ApiError.
 */
export async function streamAnswer(request: StreamRequest, onEvent: (event: StreamEvent) => void, signal: AbortSignal): Promise<void> {
  const [method, path, body] =
    request.kind === 'send'
      ? ['POST', '/messages/send', { chat_id: request.chatId, content: request.content }]
      : request.kind === 'retry'
        ? ['POST', `/messages/${request.pairId}/retry`, undefined]
        : ['PUT', `/messages/${request.pairId}/edit`, { new_content: request.content }];
  let res: Response;
  try {
    res = await fetch(`${API}${path}`, {
      method,
      headers: headers({ accept: 'text/event-stream', ...(body ? { 'content-type': 'application/json' } : {}) }),
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') return;
    throw new ApiError(0, 'The cichat controller cannot be reached: is it running?');
  }
  if (!res.ok || !res.body) throw await failure(res);
  const reader = res.body.getReader();
  const decoder = new SseDecoder();
  const utf8 = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const payload of decoder.push(utf8.decode(value, { stream: true }))) onEvent(parseEvent(payload));
    }
    for (const payload of decoder.end()) onEvent(parseEvent(payload));
  } catch (err) {
    if ((err as Error).name === 'AbortError') return;
    throw err;
  }
}

/**
 * Uploads a build log file as the chat's context through the controller's raw route
 * (`POST /context/{id}/log`, issue 28): the file is the body, read from disk by the browser as it
 * is sent, so a log of any size goes without being held in the page's memory; a gzip file goes as
 * it is (the backend decodes it by its magic bytes), and the backend decodes UTF-16 and
 * Windows-1252 as it does for the CLI. `jobName`/`buildNumber` ride in the query, where the
 * controller adds what JENKINS_HOME holds about that build. XMLHttpRequest, because fetch has no
 * upload progress.
 */
export function uploadLog(
  chatId: number,
  file: Blob,
  about: { jobName?: string; buildNumber?: number },
  onProgress: (sent: number, total: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams();
    if (about.jobName) query.set('jobName', about.jobName);
    if (about.jobName && about.buildNumber !== undefined) query.set('buildNumber', String(about.buildNumber));
    xhr.open('POST', `${API}/context/${chatId}/log${query.size > 0 ? `?${query.toString()}` : ''}`);
    for (const [k, v] of Object.entries(headers({ 'content-type': 'application/octet-stream' }))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the controller cannot be reached'));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let detail = `${xhr.status} ${xhr.statusText}`;
      try {
        const parsed = JSON.parse(xhr.responseText) as { detail?: unknown };
        if (typeof parsed.detail === 'string') detail = parsed.detail;
      } catch {
        // the status line says it
      }
      if (xhr.status === 401) onUnauthorized();
      reject(new ApiError(xhr.status, detail));
    };
    xhr.send(file);
  });
}
