/**
 * One context upload as `ask` and `context upload` make it: a progress bar, and Ctrl-C
 * (SIGINT/SIGTERM) aborting the request and saying what the chat holds afterwards (issue 27).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LogAnalyzer } from '../core/log/analyze.js';
import { LineSplitter } from '../core/log/clean.js';
import { LogBody, type ContextUpload, type ContextUploadResult, type LogUploadFacts, type LogUploadResult } from './client.js';
import { decodeLogStream, peekLog, type LogInput } from './stdin.js';
import { InterruptedError } from './errors.js';
import type { Ctx } from './io.js';
import { localTime } from './output.js';
import { uploadProgress } from './progress.js';

export interface UploadCall {
  label: string;
  progress: boolean;
  /** The chat's upload time before this upload (`GET .../last-upload`), when known. */
  before?: string | null;
  /** Tests hand in their own abort signal instead of the process's signals. */
  signal?: AbortSignal;
}

/** The abort of one upload: the caller's signal (tests), else Ctrl-C / SIGTERM; `release` unhooks it. */
function interruptOf(call: UploadCall): { abort: AbortController; release: () => void } {
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  const outer = call.signal;
  if (outer) {
    if (outer.aborted) abort.abort();
    outer.addEventListener('abort', onSignal, { once: true });
  } else {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return {
    abort,
    release: () => {
      outer?.removeEventListener('abort', onSignal);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export async function uploadInterruptibly(ctx: Ctx, chatId: number, body: ContextUpload, call: UploadCall): Promise<ContextUploadResult> {
  const { abort, release } = interruptOf(call);
  const progress = uploadProgress(call.label, ctx.io.stderr, call.progress && ctx.io.stderr.isTTY === true);
  let sent = 0;
  let total = 0;
  try {
    return await ctx.client().uploadContext(
      chatId,
      body,
      (s, t) => {
        sent = s;
        total = t;
        progress.onProgress(s, t);
      },
      abort.signal,
    );
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    progress.finish();
    throw new InterruptedError(await whatWasKept(ctx, chatId, call.before, total > 0 && sent >= total));
  } finally {
    progress.finish();
    release();
  }
}

/** The sentence after an interrupted upload: whether the chat kept its context or got the new one. */
async function whatWasKept(ctx: Ctx, chatId: number, before: string | null | undefined, sentAll: boolean): Promise<string> {
  let now: string | null | undefined;
  try {
    now = (await ctx.client().lastUpload(chatId)).last_upload_at;
  } catch {
    now = undefined;
  }
  if (now !== undefined && now !== null && now !== before && before !== undefined) {
    return `Interrupted: the upload had already reached the backend; chat ${chatId} holds the new log (uploaded ${localTime(now)}).`;
  }
  const kept =
    now === undefined
      ? `chat ${chatId} keeps the context it had (check with: cichat context last ${chatId})`
      : now === null
        ? `chat ${chatId} still has no context`
        : `chat ${chatId} keeps its previous context (uploaded ${localTime(now)})`;
  return sentAll
    ? `Interrupted while the backend indexed the log: nothing new is stored unless it finishes; ${kept}.`
    : `Interrupted during the upload: nothing was stored; ${kept}.`;
}

// ---- raw log uploads (issue 28) ---------------------------------------------------------------

/** A log ready to stream: decoded (cli/stdin.ts), known to be empty or not, counted as it is read. */
export interface PreparedLog {
  name: string;
  empty: boolean;
  /** What the upload sends (and sends again after an early answer, cli/client.ts LogBody). */
  body: LogBody;
  /** The same log decoded from the start again (a file). */
  reopen?: () => AsyncIterable<Buffer>;
  /** The input's size in bytes, when known (a file): the progress bar's total. */
  size?: number;
  /** Bytes of the input read so far (as stored: compressed when it is gzip). */
  read(): number;
  /** Removes what preparing it left behind (a spooled copy of stdin). */
  cleanup(): Promise<void>;
  /** The log's first lines as read to know it is not empty (at most 16 KiB of text; no extra read waits for more). */
  head: string;
}

/** How much of the log's first piece is kept as its `head`. */
const HEAD_CHARS = 16 * 1024;

/**
 * Opens a log for streaming: gzip decompressed, binary refused, Windows-1252 read (cli/stdin.ts),
 * and whether it holds anything but blanks found out before anything is sent. Errors of the
 * input's head (binary, not gzip) are thrown here.
 */
export async function prepareLog(input: LogInput, onNote: (note: string) => void, cleanup: () => Promise<void> = async () => undefined): Promise<PreparedLog> {
  let read = 0;
  const counted = (source: AsyncIterable<Uint8Array>) =>
    (async function* () {
      for await (const piece of source) {
        read += piece.length;
        yield piece;
      }
    })();
  const decoded = (notes: (note: string) => void) => decodeLogStream(counted(input.open()), input.name, notes);
  const { empty, bytes, head } = await peekLog(decoded(onNote));
  const reopen = input.reopenable
    ? () => {
        read = 0;
        return decoded(() => undefined);
      }
    : undefined;
  return {
    name: input.name,
    empty,
    body: new LogBody(bytes, reopen),
    ...(reopen ? { reopen } : {}),
    ...(input.size !== undefined ? { size: input.size } : {}),
    read: () => read,
    cleanup,
    head: head.subarray(0, HEAD_CHARS * 4).toString('utf8').slice(0, HEAD_CHARS),
  };
}

/**
 * stdin copied to a private temporary file (0600, removed by `cleanup`), for a log that must be
 * read twice (once for the workspace snippets, whose failure locations go in the header, once
 * to upload). Memory stays one piece; the disk holds the log.
 */
export async function spoolInput(input: LogInput): Promise<{ input: LogInput; cleanup: () => Promise<void> }> {
  if (input.reopenable) return { input, cleanup: async () => undefined };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cichat-log-'));
  const file = path.join(dir, 'stdin.log');
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(Readable.from(input.open()), createWriteStream(file, { mode: 0o600 }));
  } catch (err) {
    await cleanup();
    throw err;
  }
  const size = (await stat(file)).size;
  return { input: { name: input.name, reopenable: true, size, open: () => createReadStream(file, { highWaterMark: 256 * 1024 }) }, cleanup };
}

/**
 * The log as the snippet reader wants it (its failure excerpts and their line numbers), made in
 * one streaming pass: every line the analyzer kept (its blocks and the tail) at its place, the
 * others empty. Memory: the analyzer's, plus one newline per line of the log.
 */
export async function sparseLog(log: PreparedLog): Promise<string> {
  if (!log.reopen) throw new Error('sparseLog needs a log that can be read again');
  const analyzer = new LogAnalyzer({ maxExcerpts: 5 });
  const splitter = new LineSplitter((line) => analyzer.push(line));
  const decoder = new TextDecoder();
  for await (const piece of log.reopen()) splitter.push(decoder.decode(piece, { stream: true }));
  splitter.push(decoder.decode());
  splitter.end();
  const result = analyzer.end();
  const lines: string[] = [];
  for (let n = 1; n <= result.lineCount; n++) lines.push(result.line(n));
  return `${lines.join('\n')}\n`;
}

/**
 * Whether to gzip a raw upload on the wire: CICHAT_UPLOAD_GZIP=1/0 says; else when the controller
 * is not on this host, or when the log comes from a pipe (`fromPipe`: its writer may pause longer
 * than the servers' 30 s idle bound, and only a gzip body can be kept alive through such a pause
 * without changing the log, cli/uploadWire.ts).
 */
export function wireGzip(baseUrl: string, env: NodeJS.ProcessEnv, fromPipe = false): boolean {
  if (env.CICHAT_UPLOAD_GZIP === '1') return true;
  if (env.CICHAT_UPLOAD_GZIP === '0') return false;
  if (fromPipe) return true;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return !(host === 'localhost' || host === '::1' || /^127\./.test(host));
}

/**
 * One raw log upload as `ask` and `context upload` make it: the log streamed with a progress
 * bar (bytes of the input read; its size when known), Ctrl-C aborting it and saying what the
 * chat holds afterwards, the facts in X-Cichat-Context.
 */
export async function uploadLogInterruptibly(ctx: Ctx, chatId: number, log: PreparedLog, facts: LogUploadFacts, call: UploadCall): Promise<LogUploadResult> {
  const { abort, release } = interruptOf(call);
  const progress = uploadProgress(call.label, ctx.io.stderr, call.progress && ctx.io.stderr.isTTY === true);
  // The bytes of the input read so far, every 100 ms; once the log is all sent, "indexing".
  const tick = setInterval(() => {
    const read = log.read();
    progress.onProgress(read, log.body.ended ? read : (log.size ?? 0));
  }, 100);
  tick.unref();
  try {
    const client = ctx.client();
    // A pipe (stdin that is not a file) may go silent: gzip keeps such an upload alive.
    const fromPipe = log.reopen === undefined && log.size === undefined;
    return await client.uploadLog(chatId, log.body, facts, { signal: abort.signal, gzip: wireGzip(client.baseUrl, ctx.io.env, fromPipe) });
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    progress.finish();
    throw new InterruptedError(await whatWasKept(ctx, chatId, call.before, log.body.ended));
  } finally {
    clearInterval(tick);
    progress.finish();
    release();
  }
}
