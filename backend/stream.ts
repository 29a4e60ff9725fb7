import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { SSE_PING, encodeEvent } from '../protocol/sse.js';
import type { StreamEvent } from '../protocol/types.js';

/** One SSE response: a PassThrough written by one loop, with pings on silence. */
export interface EventStream {
  send(event: StreamEvent): void;
  end(): void;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

/**
 * Starts the SSE response on `ctx`: headers, a body stream, `: ping` after `pingMs` of silence,
 * and an AbortSignal that fires when the client disconnects before the stream ended.
 */
export function openEventStream(ctx: Context, pingMs: number): EventStream {
  const body = new PassThrough();
  const abort = new AbortController();
  let ended = false;
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.set('Connection', 'keep-alive');
  ctx.body = body;

  let ping: NodeJS.Timeout | undefined;
  const armPing = () => {
    if (ping) clearTimeout(ping);
    ping = setTimeout(() => {
      if (ended) return;
      body.write(SSE_PING);
      armPing();
    }, pingMs);
    ping.unref();
  };
  armPing();

  const onClose = () => {
    if (!ended) abort.abort(new Error('client disconnected'));
  };
  // `res` closes when the connection goes away (or after the response finished: then `ended`).
  ctx.res.once('close', onClose);
  // A client that left before the stream opened (while the answer's transaction waited): its `close` has passed.
  if (ctx.res.destroyed || ctx.req.socket.destroyed) onClose();

  return {
    signal: abort.signal,
    send(event) {
      if (ended) return;
      body.write(encodeEvent(event));
      armPing();
    },
    end() {
      if (ended) return;
      ended = true;
      if (ping) clearTimeout(ping);
      body.end();
    },
  };
}
