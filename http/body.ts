import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import { assertJsonDepth } from './depth.js';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from './errors.js';
import { dropRestOfBody } from './server.js';

export const MiB = 1024 * 1024;

/** Whether a Content-Type names JSON (`application/json` or `application/*+json`). */
export function isJsonContentType(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export interface ReadJsonOptions {
  /** Largest body accepted, in bytes (413 beyond it, at once). */
  limit: number;
  /** Accept a body without Content-Type as JSON (the original plugin's client sends none on `{}`). */
  allowMissingType?: boolean;
}

/**
 * Reads the request body as JSON, the one body reader of both services: 415 when it is not
 * declared JSON, 413 over the limit (answered at once; the rest of the body is dropped unread), 400 for invalid UTF-8 or malformed JSON (a UTF-8 BOM is
 * skipped), 422 for JSON nested deeper than MAX_JSON_DEPTH (http/depth.ts: every later walk of
 * the value recurses). An empty body reads as `{}`.
 */
export async function readJsonBody(ctx: Context, options: ReadJsonOptions | number): Promise<unknown> {
  const chunks = await readBodyChunks(ctx, options);
  // The bytes are joined and decoded inside decodeChunks: nothing here holds them while the
  // text is parsed, so they can be collected meanwhile (a 64 MiB context body was otherwise
  // held as bytes, text and parsed strings at once).
  const value = chunks === null ? {} : parseJsonText(decodeChunks(chunks));
  assertJsonDepth(value);
  return value;
}

/**
 * readJsonBody's checks and read, without the parse: the body's bytes (null without a body).
 * For a route that parses a part of a big body itself (the context upload's log).
 */
export async function readJsonBodyBytes(ctx: Context, options: ReadJsonOptions | number): Promise<Buffer | null> {
  const chunks = await readBodyChunks(ctx, options);
  if (chunks === null) return null;
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  chunks.length = 0;
  return bytes;
}

async function readBodyChunks(ctx: Context, options: ReadJsonOptions | number): Promise<Buffer[] | null> {
  const { limit, allowMissingType = false } = typeof options === 'number' ? { limit: options } : options;
  const length = Number(ctx.get('content-length') || 0);
  const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return null;
  const type = ctx.get('content-type');
  if (!(type === '' && allowMissingType) && !isJsonContentType(type)) {
    throw new UnsupportedMediaType(type === '' ? undefined : `The body must be JSON (Content-Type: application/json), not ${type}.`);
  }
  const limitText = `${Math.round(limit / MiB)} MiB`;
  const tooLarge = (): PayloadTooLarge => {
    // The rest is read and dropped, never kept; the connection is not reset under a client
    // still sending (http/server.ts dropRestOfBody).
    dropRestOfBody(ctx.req, ctx.res);
    return new PayloadTooLarge(`The request body is over the ${limitText} limit.`);
  };
  if (length > limit) throw tooLarge();
  const chunks = await readUpTo(ctx.req, limit);
  if (chunks === null) throw tooLarge();
  return chunks;
}

/**
 * The value of a JSON body's bytes, held in `held` (an empty or blank body is `{}`): 400 when
 * they are not UTF-8 or not JSON. `held.bytes` is let go once decoded, so they can be collected
 * while the text is parsed. Depth is the caller's to check.
 */
export function parseHeldJson(held: { bytes: Buffer | null }): unknown {
  const bytes = held.bytes;
  held.bytes = null;
  return bytes === null ? {} : parseJsonText(decodeChunks([bytes]));
}

/** The chunks' text; the array is emptied (the joined bytes live only in here). */
function decodeChunks(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  chunks.length = 0;
  return decodeUtf8(bytes);
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new BadRequest('The request body is not valid UTF-8.');
  }
}

/** The value of a JSON text (an empty or blank body is `{}`); 400 when it is not JSON. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    // V8's JSON.parse does not recurse: a deeply nested body parses, and is refused by the caller.
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequest('The request body is not valid JSON.');
  }
}

/**
 * The body's chunks, or null as soon as it passes `limit` bytes (what was read is let go). The
 * stream is left undestroyed either way: destroying an unfinished request resets its socket.
 */
function readUpTo(req: Readable, limit: number): Promise<Buffer[] | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        done();
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks);
    };
    // The caller cut the body off (Node's `aborted`, code ECONNRESET): a client's doing, never
    // to be taken for a database that went away; nobody is left to read the answer.
    const onError = (): void => {
      done();
      reject(new BadRequest('The request was closed before its body ended.'));
    };
    // Closed before its end: the caller went away in the middle of the body.
    const onClose = (): void => {
      done();
      reject(new BadRequest('The request was closed before its body ended.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
