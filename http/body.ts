import type { Context } from 'koa';
import { assertJsonDepth } from './depth.js';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from './errors.js';

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
 * declared JSON, 413 over the limit (stops reading at once and closes the connection rather
 * than draining a refused upload), 400 for invalid UTF-8 or malformed JSON (a UTF-8 BOM is
 * skipped), 422 for JSON nested deeper than MAX_JSON_DEPTH (http/depth.ts: every later walk of
 * the value recurses). An empty body reads as `{}`.
 */
export async function readJsonBody(ctx: Context, options: ReadJsonOptions | number): Promise<unknown> {
  const { limit, allowMissingType = false } = typeof options === 'number' ? { limit: options } : options;
  const length = Number(ctx.get('content-length') || 0);
  const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return {};
  const type = ctx.get('content-type');
  if (!(type === '' && allowMissingType) && !isJsonContentType(type)) {
    throw new UnsupportedMediaType(type === '' ? undefined : `The body must be JSON (Content-Type: application/json), not ${type}.`);
  }
  const limitText = `${Math.round(limit / MiB)} MiB`;
  const tooLarge = (): PayloadTooLarge => {
    ctx.set('Connection', 'close');
    return new PayloadTooLarge(`The request body is over the ${limitText} limit.`);
  };
  if (length > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      // Read and drop the rest while the answer goes out, then close: a refused upload is not
      // kept in memory, and the client is not reset while it is still sending.
      ctx.req.unpipe();
      ctx.req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  if (size === 0) return {};
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  chunks.length = 0;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new BadRequest('The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    // V8's JSON.parse does not recurse: a deeply nested body parses, and is refused below.
    value = JSON.parse(text) as unknown;
  } catch {
    throw new BadRequest('The request body is not valid JSON.');
  }
  assertJsonDepth(value);
  return value;
}
