import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * The HTTP server both services listen with (CONTRACT section 1, "Connections"): every socket
 * has an error listener (a reset from a client never reaches the process), and a connection is
 * closed when it does not finish its headers in time, does not finish its request in time, sits
 * idle after an answer, or sends and receives nothing while no answer is being worked on. A
 * request whose answer is in progress (an answer stream, which sends `: ping` every 15 s, or an
 * upload being ingested) is never cut by these bounds.
 */
export interface ServerTimeouts {
  /** Whole request headers within this long of the connection's first byte, else 408 and closed. */
  headersMs: number;
  /** The whole request (headers and body) within this long, else 408 and closed. Never applies to the answer. */
  requestMs: number;
  /** An idle kept-alive connection is closed this long after its last answer. */
  keepAliveMs: number;
  /**
   * A connection on which nothing moves for this long is closed, unless the request was
   * received whole and its answer is being worked on with nothing waiting to be sent.
   */
  idleMs: number;
}

/** Defaults of both servers (the backend keeps connections longer: see BACKEND_TIMEOUTS). */
export const SERVER_TIMEOUTS: Readonly<ServerTimeouts> = {
  headersMs: 10_000,
  requestMs: 300_000,
  keepAliveMs: 5_000,
  idleMs: 30_000,
};

/**
 * The most client connections a server holds at once: the process's open-file limit less a
 * reserve (a fifth, at least 64) for what serving needs besides (the controller's sockets to the
 * backend, files it reads, the database). Beyond it Node closes a new connection at once, so
 * connections that pile up (before the bounds above close them) cannot take the descriptors
 * that requests being served need. Undefined where the limit cannot be read (not Linux).
 */
export function connectionCap(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = fs.readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
  if (soft === undefined || soft === 'unlimited') return undefined;
  const limit = Number(soft);
  return Math.max(16, limit - Math.max(64, Math.ceil(limit / 5)));
}

/** How often Node checks the header and request deadlines (its default, 30 s, would let them slip by that much). */
const DEADLINE_CHECK_MS = 1_000;

/** How long an error answer written straight onto a socket waits for the client to close before the socket is destroyed. */
export const LINGER_MS = 2_000;

/** Ends any error on `socket` quietly by destroying it (a reset, a write after the peer left). */
export function guardSocket(socket: Duplex): void {
  if (socket.listeners('error').includes(destroyOnError)) return;
  socket.on('error', destroyOnError);
}

function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * Writes `bytes` (a whole HTTP answer) and closes the connection for good: the client gets up
 * to LINGER_MS to read the answer and close its side (what it still sends is read and dropped,
 * so the close is not a reset that could swallow the answer); then the socket is destroyed.
 * Used for answers to what never became a request (400, 408, 431, 501, CONNECT).
 */
export function answerAndClose(socket: Duplex, bytes: string): void {
  guardSocket(socket);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.end(bytes);
  socket.resume();
}

/**
 * Requests whose body may take longer than the whole-request bound: the raw build log uploads
 * (`POST /context/{chat}/log`, under `/chatbot-api` on the controller; issue 28), which stream a
 * log of any size at the pace of its ingestion. Their body is bounded by the idle bound instead
 * (nothing arriving for `idleMs` closes the connection), and their count by the upload slots.
 */
export function isStreamedUpload(req: http.IncomingMessage): boolean {
  return req.method === 'POST' && /^(?:\/chatbot-api)?\/context\/[^/?]+\/log\/?(?:\?|$)/.test(req.url ?? '');
}

/** What Node answers when a request is not received whole in time (its own requestTimeout's bytes). */
const REQUEST_TIMEOUT_ANSWER = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/**
 * An http.Server with the bounds of `timeouts` around `listener`. The whole-request bound is
 * kept here rather than by Node's `requestTimeout` (which is server-wide) so that the requests
 * `longBody` names (the streamed log uploads) are exempt from it. The 'timeout' policy: a
 * socket idle for `idleMs` (or `keepAliveMs` after an answer) is destroyed unless its request
 * arrived whole and its answer is still being made with nothing queued for the client (a
 * client that stopped reading its answer is cut, one waiting for a slow answer is not).
 */
export function createBoundedServer(
  listener: http.RequestListener,
  timeouts: ServerTimeouts = SERVER_TIMEOUTS,
  longBody: (req: http.IncomingMessage) => boolean = isStreamedUpload,
): http.Server {
  const working = new WeakMap<Socket, http.IncomingMessage>();
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      // 0: Node's whole-request bound is off; the handler below keeps it (with its exemptions).
      requestTimeout: 0,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: Math.min(DEADLINE_CHECK_MS, timeouts.headersMs),
    },
    (req, res) => {
      const socket = req.socket;
      working.set(socket, req);
      // Node turns the idle timer off when a kept-alive connection gets its next request: on again.
      socket.setTimeout(timeouts.idleMs);
      // A response carries one 'close' listener per layer that watches it (this server's bounds,
      // the request's logger, the upload slot, a stream's end, Koa's on-finished and its body
      // pipeline): eleven on a streamed body, a fixed count, not a leak (Node warns from 11).
      res.setMaxListeners(Math.max(res.getMaxListeners(), 24));
      res.once('close', () => {
        if (working.get(socket) === req) working.delete(socket);
      });
      if (!req.complete && !longBody(req)) {
        // The headers took part of the bound already (at most headersMs): counted from here.
        const deadline = setTimeout(() => {
          if (req.complete) return;
          if (res.headersSent) socket.destroy();
          else answerAndClose(socket, REQUEST_TIMEOUT_ANSWER);
        }, Math.max(timeouts.requestMs, timeouts.headersMs));
        deadline.unref();
        const clear = (): void => clearTimeout(deadline);
        req.once('end', clear);
        req.once('close', clear);
        res.once('close', clear);
      }
      listener(req, res);
    },
  );
  server.setTimeout(timeouts.idleMs);
  const max = connectionCap();
  if (max !== undefined) server.maxConnections = max;
  server.on('connection', (socket: Socket) => guardSocket(socket));
  server.on('timeout', (socket: Socket) => {
    const req = working.get(socket);
    if (req !== undefined && req.complete && socket.writableLength === 0) return;
    socket.destroy();
  });
  return server;
}

/** How long a refused request's remaining body is read and dropped after the answer before the connection is cut. */
export const DRAIN_MS = 5_000;

/**
 * For an answer given before the request body was read (413, a refused upload's 503): the rest
 * of the body is read and dropped, so closing never resets a client that is still sending (a
 * reset can swallow the answer: the controller saw `write EPIPE` and answered 502 instead of the
 * backend's 413). The connection stays usable once the body is over; a client still sending
 * DRAIN_MS after the answer is cut.
 */
export function dropRestOfBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume();
  res.once('finish', () => {
    if (req.complete) return;
    const socket = req.socket;
    const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
    timer.unref();
    const onClose = (): void => clearTimeout(timer);
    socket.once('close', onClose);
    // The connection is kept alive when the body ends: its 'close' listener goes with the
    // request, or every refused request on it would leave one (MaxListenersExceededWarning at 11).
    req.once('end', () => {
      clearTimeout(timer);
      socket.off('close', onClose);
    });
  });
}
