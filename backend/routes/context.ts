import type Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { Context, Next } from 'koa';
import { userIdOf } from '../auth.js';
import { BadRequest, ServiceUnavailable, UnsupportedMediaType, Unprocessable } from '../errors.js';
import { dropRestOfBody } from '../../http/server.js';
import { MiB, idParam, inputOf, parseInput, queryInt, validate } from '../http.js';
import { isUtf8 } from 'node:buffer';
import { assertJsonDepth } from '../../http/depth.js';
import { parseHeldJson, parseJsonText, readJsonBodyBytes } from '../../http/body.js';
import { findLogInBody, LOG_MARKER, logIsBlank, logPieces, STREAMED_LOG_MIN_BYTES } from './contextBody.js';
import { ChatGone, ingestContext, ingestLog } from '../retrieval/ingest.js';
import { findChat } from '../store/chats.js';
import { currentContext, lastUploadAt, logLines } from '../store/contexts.js';
import { isoTime } from '../time.js';
import type { CiContext } from '../../protocol/types.js';
import { ciContextSchema as ciContextWireSchema, uploadContextBodySchema } from '../../protocol/schemas.js';
import { chatNotFound } from './chats.js';
import { createGunzip } from 'node:zlib';
import { requestLog } from '../../http/request.js';
import { LogDecodeError, decodeLogStream } from '../../core/log/decode.js';

/** Longest X-Cichat-Context header taken (the facts beside a raw log; the log is the body). */
export const CONTEXT_HEADER_MAX_CHARS = 12 * 1024;

/**
 * The facts sent beside a raw log: `X-Cichat-Context`, the ciContext (without its log) as JSON,
 * base64url-encoded. Absent: no facts. Validated as the JSON upload's ciContext is.
 */
export function contextOfHeader(header: string): CiContext {
  if (header === '') return {};
  if (header.length > CONTEXT_HEADER_MAX_CHARS) throw new Unprocessable(`X-Cichat-Context: at most ${CONTEXT_HEADER_MAX_CHARS} characters; send bigger contexts as JSON to POST /context/{chat_id}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequest('X-Cichat-Context: not base64url-encoded JSON');
  }
  const ci = normaliseCiContext(parseInput(uploadContextBody, { ciContext: parsed }));
  if (ci.buildDetails && (ci.buildDetails.consoleLog !== undefined || ci.buildDetails.consoleLogTail !== undefined)) {
    throw new Unprocessable('X-Cichat-Context: the log is the body; leave buildDetails.consoleLog out of the header');
  }
  return ci;
}

/**
 * A body refused part-way (ux3, session 42): the rest is read and dropped so the kept-alive
 * connection serves the next request. Without it, a body the decoder left (its async iterator's
 * 'readable' listener keeps resume() from making it flow) or that gunzip stopped piping was
 * never read: the connection was cut DRAIN_MS after a keep-alive answer, or the next request
 * on it waited behind the rest, and the controller's next upload on it was a 502 (ECONNRESET).
 */
function refuseRestOfBody(ctx: Context): void {
  ctx.req.removeAllListeners('readable');
  dropRestOfBody(ctx.req, ctx.res);
}

/** A gunzip failure as the client's error (400), else undefined. */
function gzipError(ctx: Context, err: unknown): BadRequest | undefined {
  const code = (err as { code?: unknown }).code;
  if (code !== 'Z_DATA_ERROR' && code !== 'Z_BUF_ERROR') return undefined;
  refuseRestOfBody(ctx);
  return new BadRequest('Content-Encoding: gzip, but the body is not valid gzip; nothing was stored and the chat keeps its previous context');
}

/**
 * A body that is not a text log (core/log/decode.ts, the CLI's rule): binary data is 415, data
 * that starts like gzip but is not 400; else undefined.
 */
function decodeError(ctx: Context, err: unknown): BadRequest | UnsupportedMediaType | undefined {
  if (!(err instanceof LogDecodeError)) return undefined;
  refuseRestOfBody(ctx);
  const what = `${err.message}${err.hint ? ` (${err.hint})` : ''}; nothing was stored and the chat keeps its previous context`;
  return /gzip/.test(err.message) ? new BadRequest(what) : new UnsupportedMediaType(what);
}

/** Charsets that declare Latin-1 / Windows-1252 text (read so, not guessed from the bytes). */
const LATIN1_CHARSETS = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'windows-1252', 'cp1252']);

/** The request body as bytes, gunzipped under `Content-Encoding: gzip`. */
function bodyStream(ctx: Context): AsyncIterable<Uint8Array> {
  const encoding = (ctx.get('content-encoding') || 'identity').trim().toLowerCase();
  if (encoding === 'identity') return ctx.req;
  if (encoding === 'gzip' || encoding === 'x-gzip') return ctx.req.pipe(createGunzip());
  dropRestOfBody(ctx.req, ctx.res);
  throw new UnsupportedMediaType(`Content-Encoding ${encoding}: send the log as it is or gzip-compressed`);
}

/** The stream again, or null when it ends without a byte (nothing to store). */
async function nonEmpty(source: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array> | null> {
  const it = source[Symbol.asyncIterator]();
  // Pieces of white space only are held (they are the log's first lines if anything follows) until a
  // piece with text comes, as the JSON upload's `trim() === ''` does; past BLANK_HELD_MAX of them the
  // log counts as not blank (a megabyte of blank lines is a strange log, not an empty one).
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) return null;
    if (next.value.length === 0) continue;
    held.push(next.value);
    heldBytes += next.value.length;
    if (!isBlankBytes(next.value) || heldBytes > BLANK_HELD_MAX) break;
  }
  return (async function* () {
    yield* held;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  })();
}

const BLANK_HELD_MAX = 1024 * 1024;

/** Only ASCII white space (space, tab, line feed, vertical tab, form feed, carriage return). */
function isBlankBytes(piece: Uint8Array): boolean {
  for (const b of piece) if (b !== 0x20 && (b < 0x09 || b > 0x0d)) return false;
  return true;
}

/** Context bodies carry whole build logs. */
export const CONTEXT_BODY_LIMIT = 64 * MiB;

/** The JSON upload's log left in the body's bytes (contextBody.ts), between its quotes. */
interface StreamedLog {
  bytes: Buffer;
  start: number;
  end: number;
}

/**
 * The JSON context upload's body, read, checked and validated as `validate({body})` does, with
 * its log not parsed when it is big (contextBody.ts): ctx.state.input.body has LOG_MARKER in
 * its place and ctx.state.streamedLog where it lies. Any other body is parsed whole as before.
 */
async function readContextUpload(ctx: Context, next: Next): Promise<void> {
  const held = { bytes: await readJsonBodyBytes(ctx, { limit: CONTEXT_BODY_LIMIT }) };
  const streamed = held.bytes === null ? undefined : withStreamedLog(held.bytes);
  let body = streamed?.body;
  if (body === undefined) {
    // Parsed whole; held.bytes is let go while the text is parsed (no local holds it here).
    const value = parseHeldJson(held);
    assertJsonDepth(value);
    body = parseInput(uploadContextBody, value);
  }
  held.bytes = null;
  (ctx.state as { input?: unknown; streamedLog?: StreamedLog }).input = { body, query: undefined, params: undefined };
  if (streamed) (ctx.state as { streamedLog?: StreamedLog }).streamedLog = streamed.log;
  await next();
}

/** A big body's validated rest and where its log lies, or undefined: parse it whole. */
function withStreamedLog(bytes: Buffer): { body: UploadContextBody; log: StreamedLog } | undefined {
  // A byte order mark is left to the ordinary parse (its decoder skips it).
  if (bytes.length < STREAMED_LOG_MIN_BYTES || bytes[0] === 0xef || !isUtf8(bytes)) return undefined;
  const found = findLogInBody(bytes);
  if (!found) return undefined;
  const value = parseJsonText(found.rest);
  assertJsonDepth(value);
  const body = parseInput(uploadContextBody, value);
  // The log found belongs to the context used (ciContext wins over jenkinsContext).
  if (normaliseCiContext(body).buildDetails?.consoleLog !== LOG_MARKER) return undefined;
  return { body, log: { bytes, start: found.start, end: found.end } };
}

/**
 * The CiContext codec is wire shape (protocol/ciContext.ts): it type-checks the canonical names
 * and the aliases and outputs the canonical form, which is what is stored.
 */
export const ciContextSchema = ciContextWireSchema;
export const uploadContextBody = uploadContextBodySchema;
export type UploadContextBody = z.infer<typeof uploadContextBody>;

/** The uploaded object (validated: already the canonical CiContext of CONTRACT section 2). */
export function normaliseCiContext(body: UploadContextBody): CiContext {
  return body.ciContext ?? body.jenkinsContext ?? {};
}

/** Lines one `GET /context/{chat_id}/log` answers at most. */
export const LOG_READ_MAX_LINES = 2000;

/** `GET /context/{chat_id}/log?from&to`: lines `from` (>= 1, default 1) to `to` (default: as many as one read gives). */
export const logRangeQuery = z
  .object({ from: queryInt(1, 1), to: queryInt(1, 0) })
  .transform(({ from, to }, ctx) => {
    const last = to === 0 ? from + LOG_READ_MAX_LINES - 1 : to;
    if (last < from) ctx.addIssue({ code: 'custom', path: ['to'], message: `must be between ${from} and ${Number.MAX_SAFE_INTEGER}` });
    else if (last - from + 1 > LOG_READ_MAX_LINES) ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${LOG_READ_MAX_LINES} lines at once (from ${from}, to at most ${from + LOG_READ_MAX_LINES - 1})` });
    return { from, to: last };
  });
export type LogRangeQuery = z.infer<typeof logRangeQuery>;

/** Seconds a refused upload is told to wait (Retry-After). */
export const UPLOAD_RETRY_AFTER_S = 5;

/** POST /context/{chat_id}/, GET /context/{chat_id}/last-upload and GET /context/{chat_id}/log (CONTRACT section 2). */
export function registerContextRoutes(router: Router, deps: AppDeps): void {
  const contextDeps = deps.context.deps;
  const slots = deps.context.slots;
  /**
   * Runs an upload of the caller's chat inside an upload slot. Nothing of the body is read for
   * a chat that is not the caller's; beyond the cap the upload is refused before any of it is
   * read (the rest dropped unread, as for a 413, and never a reset under the sender: the
   * controller relays this 503, not a 502).
   */
  const inUploadSlot = async (ctx: Context, handler: (ctx: Context, chatId: number) => Promise<void>): Promise<void> => {
    const chatId = idParam(ctx.params.chatId);
    if (chatId === null || !(await findChat(deps.db, userIdOf(ctx), chatId))) {
      ctx.req.resume();
      throw chatNotFound(ctx.params.chatId);
    }
    if (!slots.tryTake()) {
      dropRestOfBody(ctx.req, ctx.res);
      ctx.set('Retry-After', String(UPLOAD_RETRY_AFTER_S));
      throw new ServiceUnavailable(
        `This backend is already processing ${slots.max} context upload${slots.max === 1 ? '' : 's'} (CONTEXT_UPLOADS_MAX): retry in ${UPLOAD_RETRY_AFTER_S} s.`,
      );
    }
    try {
      await handler(ctx, chatId);
    } finally {
      slots.release();
    }
  };

  /** inUploadSlot as route middleware: the body is read and validated inside the slot. */
  const uploadSlot = (ctx: Context, next: Next) => inUploadSlot(ctx, async () => next());

  router.post('/context/:chatId', uploadSlot, readContextUpload, async (ctx) => upload(ctx, Number(ctx.params.chatId)));

  const upload = async (ctx: Context, chatId: number) => {
    const { body } = inputOf<UploadContextBody>(ctx);
    const streamed = (ctx.state as { streamedLog?: StreamedLog }).streamedLog;
    const ci = normaliseCiContext(body);
    // An empty log would replace the chat's log with nothing (a pipeline whose download
    // failed: `curl ... | cichat context upload`): refused, the chat keeps its context.
    const sentLog = ci.buildDetails?.consoleLog;
    const blank = streamed ? logIsBlank(streamed.bytes, streamed.start, streamed.end) : typeof sentLog === 'string' && sentLog.trim() === '';
    if (blank) {
      throw new Unprocessable("buildDetails.consoleLog: the log is empty; nothing was stored and the chat keeps its previous context");
    }
    try {
      const log = streamed ? { field: 'consoleLog' as const, pieces: logPieces(streamed.bytes, streamed.start, streamed.end), chars: streamed.end - streamed.start } : undefined;
      const result = await ingestContext(contextDeps, chatId, ci, log ? { log } : {});
      requestLog(deps.log).info(
        { chatId, contextId: result.contextId, lines: result.logLineCount, chunks: result.chunkCount },
        'context uploaded',
      );
      ctx.body = { success: true, received_data: result.ciContext };
    } catch (err) {
      if (err instanceof ChatGone) throw chatNotFound(ctx.params.chatId);
      throw err;
    }
  };

  // The raw log as the body (text/plain, optionally gzip), streamed into the ingest worker:
  // any size, never held whole (issue 28). Facts beside the log: the X-Cichat-Context header.
  router.post('/context/:chatId/log', async (ctx) => inUploadSlot(ctx, uploadLog));

  const uploadLog = async (ctx: Context, chatId: number) => {
    const type = (ctx.get('content-type') || 'text/plain').split(';')[0]!.trim().toLowerCase();
    if (type !== 'text/plain' && type !== 'application/octet-stream') {
      dropRestOfBody(ctx.req, ctx.res);
      throw new UnsupportedMediaType(`Content-Type ${type}: send the log as text/plain (or application/octet-stream), optionally with Content-Encoding: gzip`);
    }
    const ci = contextOfHeader(ctx.get('x-cichat-context'));
    // Decoded as the CLI decodes a log: gzip by its magic bytes too, binary refused, UTF-16 by
    // its byte order mark, not UTF-8 read as Windows-1252 (or so from the start when declared).
    const charset = /;\s*charset\s*=\s*"?([\w-]+)/i.exec(ctx.get('content-type'))?.[1]?.toLowerCase();
    const latin1 = charset !== undefined && LATIN1_CHARSETS.has(charset);
    let source: AsyncIterable<Uint8Array> | null;
    try {
      source = await nonEmpty(decodeLogStream(bodyStream(ctx), 'the body', undefined, false, latin1));
    } catch (err) {
      throw decodeError(ctx, err) ?? gzipError(ctx, err) ?? err;
    }
    if (source === null) {
      throw new Unprocessable('the log is empty; nothing was stored and the chat keeps its previous context');
    }
    try {
      const result = await ingestLog(contextDeps, chatId, ci, { field: 'consoleLog', pieces: source }, { inline: false });
      requestLog(deps.log).info({ chatId, contextId: result.contextId, lines: result.logLineCount, chunks: result.chunkCount }, 'context log uploaded');
      ctx.body = { success: true, received_data: result.ciContext, log_lines: result.logLineCount };
    } catch (err) {
      if (err instanceof ChatGone) throw chatNotFound(ctx.params.chatId);
      throw decodeError(ctx, err) ?? gzipError(ctx, err) ?? err;
    }
  };

  router.get('/context/:chatId/last-upload', async (ctx) => {
    const chatId = idParam(ctx.params.chatId);
    if (chatId === null || !(await findChat(deps.db, userIdOf(ctx), chatId))) throw chatNotFound(ctx.params.chatId);
    const at = await lastUploadAt(deps.db, chatId);
    ctx.body = { last_upload_at: at === null ? null : isoTime(at) };
  });

  // Lines of the chat's stored log, as the answers cite them (the web page's log viewer).
  router.get('/context/:chatId/log', validate({ query: logRangeQuery }), async (ctx) => {
    const chatId = idParam(ctx.params.chatId);
    if (chatId === null || !(await findChat(deps.db, userIdOf(ctx), chatId))) throw chatNotFound(ctx.params.chatId);
    const { from, to } = inputOf<undefined, LogRangeQuery>(ctx).query;
    const context = await currentContext(deps.db, chatId);
    const lines = context ? await logLines(deps.db, context.id, from, Math.min(to, context.logLineCount)) : [];
    // Lines of a big log the context does not hold (the bounded store) are absent: said here.
    const notKept = (context?.logNotKept?.ranges ?? []).filter(([a, b]) => a <= to && b >= from).map(([a, b]): [number, number] => [Math.max(a, from), Math.min(b, to)]);
    ctx.body = { lines, total_lines: context?.logLineCount ?? 0, from, to: Math.min(to, context?.logLineCount ?? 0), ...(notKept.length > 0 ? { not_kept: notKept } : {}) };
  });
}
