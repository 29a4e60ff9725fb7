import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import { BACKEND_TOKEN, Jwt } from '../protocol/jwt.js';
import { encodeEvent } from '../protocol/sse.js';
import { requestLog } from '../http/request.js';

/**
 * The streaming reverse proxy from `/chatbot-api/<rest>` to `BACKEND_URL/<rest>`
 * (CONTRACT section 3). Built on node:http with a keep-alive agent rather than fetch: no body
 * is buffered, each upstream chunk is written to the caller as it arrives, and an aborted
 * caller destroys the upstream request (the backend sees `close` and marks the pair
 * interrupted).
 */

/** Headers that describe one connection, not the message (RFC 9110 section 7.6.1), never relayed. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/** Never forwarded to the backend (CONTRACT section 3): the caller's credentials, and our own Host. */
const CALLER_ONLY_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'host', 'expect'];

/** Idle keep-alive sockets to the backend are closed after this long. */
const IDLE_SOCKET_TIMEOUT_MS = 30_000;
/** A backend that does not accept the connection within this long is unreachable (502). */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * A backend that took the whole request but has not begun its answer after this long is stuck
 * (frozen, a database lock held for ever): 504, so a caller is never left waiting without a word
 * (ux3, session 42). Not for context uploads, whose answer waits for the ingestion of the log.
 */
export const ANSWER_START_TIMEOUT_MS = 60_000;
/** An answer stream from which nothing (not even the backend's 15 s `: ping`) came for this long is cut with an `error` event. */
export const STREAM_SILENCE_TIMEOUT_MS = 45_000;


export interface BackendProxyOptions {
  /** BACKEND_URL without a trailing slash; a path in it is a prefix for every request. */
  backendUrl: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  logger: Logger;
  /** ANSWER_START_TIMEOUT_MS and STREAM_SILENCE_TIMEOUT_MS unless given (tests). */
  answerStartTimeoutMs?: number;
  streamSilenceTimeoutMs?: number;
}

/** A context upload: its answer comes once the log is ingested, however long that takes. */
const isUpload = (method: string, pathAndQuery: string): boolean => (method === 'POST' || method === 'PUT') && pathAndQuery.startsWith('/context/');

/** What to send upstream: the caller's own body stream, or a body the controller made (context). */
export interface ForwardRequest {
  method: string;
  /** Path and query after `/chatbot-api`, starting with `/`. */
  pathAndQuery: string;
  headers: IncomingHttpHeaders;
  /** Who the JWT is minted for; undefined sends no Authorization (healthz). */
  userId: string | undefined;
  /** A body to send instead of streaming the caller's request (pieces: written with back-pressure). */
  body?: Buffer | { length: number; pieces(): Iterable<Buffer> };
  /** The request's logger (with its reqId); by default the scope's (http/request.ts requestLog). */
  log?: Logger;
}

/** Copies headers minus hop-by-hop ones, those named in `Connection`, and any in `extra`. */
export function endToEndHeaders(headers: IncomingHttpHeaders, extra: readonly string[] = []): OutgoingHttpHeaders {
  const drop = new Set(extra);
  const connection = headers.connection;
  if (connection) {
    for (const name of connection.split(',')) drop.add(name.trim().toLowerCase());
  }
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || drop.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Whether the caller's request carries a body that must be streamed upstream. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

const LF = 0x0a;
const CR = 0x0d;

/** Whether `bytes` ends exactly at the end of an SSE message (a blank line): the usual case. */
function endsAtMessageBoundary(bytes: Buffer): boolean {
  const n = bytes.length;
  if (n < 2) return false;
  const last = bytes[n - 1];
  const prev = bytes[n - 2];
  return (last === LF && (prev === LF || (prev === CR && n >= 3 && bytes[n - 3] === LF))) || (last === CR && prev === CR);
}

/** The offset just past the last complete SSE message (after a blank line) in `bytes`, or 0. */
function lastMessageBoundary(bytes: Buffer): number {
  let end = 0;
  for (const separator of ['\n\n', '\r\r', '\n\r\n']) {
    const at = bytes.lastIndexOf(separator);
    if (at >= 0) end = Math.max(end, at + separator.length);
  }
  return end;
}

export class BackendProxy {
  private readonly base: URL;
  private readonly basePath: string;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  private readonly jwt: Jwt;

  constructor(private readonly options: BackendProxyOptions) {
    this.base = new URL(options.backendUrl);
    this.basePath = this.base.pathname.replace(/\/+$/, '');
    const secure = this.base.protocol === 'https:';
    // LIFO keeps a few sockets hot instead of spreading requests over every idle one. The
    // timeout closes idle sockets before the backend does (Node also honours the backend's
    // `Keep-Alive: timeout=N` hint, but only when an agent timeout is set), so a request is not
    // sent on a socket the backend is closing at that moment (ECONNRESET -> a needless 502).
    // On a socket in use the timeout only emits an event: long SSE streams are not cut.
    const agentOptions = {
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxFreeSockets: 256,
      scheduling: 'lifo' as const,
      timeout: IDLE_SOCKET_TIMEOUT_MS,
    };
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.request = secure ? https.request : http.request;
    this.jwt = Jwt.of(options.jwtSecret);
  }

  /** BACKEND_URL as configured, for messages. */
  get backendUrl(): string {
    return this.options.backendUrl;
  }

  /** A fresh token for one request: HS256, sub, iss, aud, iat, exp = now + TTL, a random jti. */
  mintJwt(userId: string): Promise<string> {
    return this.jwt.sign(BACKEND_TOKEN, { sub: userId, jti: randomUUID() }, this.options.jwtTtlSeconds);
  }

  /** Closes idle keep-alive sockets (at shutdown). */
  close(): void {
    this.agent.destroy();
  }

  /**
   * Sends one request to the backend and relays the answer to `res` as it arrives. Resolves
   * once the exchange is over (answered, failed, or abandoned by the caller); never rejects:
   * every failure is answered to the caller (502 before the response began; an SSE `error`
   * event, or a closed connection, after).
   */
  async forward(req: IncomingMessage, res: ServerResponse, forward: ForwardRequest): Promise<void> {
    // Taken now, in the caller's request scope: later lines come from socket events.
    const logger = forward.log ?? requestLog(this.options.logger);
    // The caller's credentials for this controller (or for a Jenkins on the same host: its
    // session cookie) are no business of the backend; proxy-authorization is hop-by-hop anyway.
    const headers = endToEndHeaders(forward.headers, CALLER_ONLY_HEADERS);
    headers.host = this.base.host;
    const remote = req.socket.remoteAddress;
    if (remote) {
      const prior = forward.headers['x-forwarded-for'];
      headers['x-forwarded-for'] = prior ? `${String(prior)}, ${remote}` : remote;
    }
    if (forward.headers.host) headers['x-forwarded-host'] ??= forward.headers.host;
    if (forward.body !== undefined) {
      headers['content-length'] = String(forward.body.length);
      delete headers['content-encoding'];
    }
    if (forward.userId !== undefined) {
      headers.authorization = `Bearer ${await this.mintJwt(forward.userId)}`;
      if (res.destroyed) return; // the caller left while the token was signed: nothing to relay
    }

    return new Promise<void>((resolve) => {
      let callerGone = false;
      let relaying = false;
      let stalled = false;
      let answerTimer: NodeJS.Timeout | undefined;
      const upstream = this.request({
        protocol: this.base.protocol,
        hostname: this.base.hostname,
        port: this.base.port || undefined,
        method: forward.method,
        path: this.basePath + forward.pathAndQuery,
        headers,
        agent: this.agent,
      });
      upstream.setNoDelay(true);
      upstream.on('socket', (socket) => {
        if (!socket.connecting) return; // a reused keep-alive socket
        const timer = setTimeout(
          () => upstream.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)),
          CONNECT_TIMEOUT_MS,
        );
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });

      const startWait = this.options.answerStartTimeoutMs ?? ANSWER_START_TIMEOUT_MS;
      if (!isUpload(forward.method, forward.pathAndQuery)) {
        // From the moment the request is sent whole: a slow caller's body is not the backend's delay.
        upstream.once('finish', () => {
          answerTimer = setTimeout(() => {
            stalled = true;
            upstream.destroy(new Error(`no answer within ${startWait / 1000} s`));
          }, startWait);
        });
      }

      res.once('close', () => {
        clearTimeout(answerTimer);
        if (!res.writableFinished) {
          callerGone = true;
          upstream.destroy(); // the backend sees its request close and stops generating
        }
        resolve();
      });

      upstream.on('error', (err) => {
        if (callerGone || relaying) return; // after the response began, the response handlers decide
        clearTimeout(answerTimer);
        logger.warn({ err, backend: this.options.backendUrl }, stalled ? 'backend did not answer' : 'backend unreachable');
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const body = JSON.stringify({
          detail: stalled
            ? `The cichat backend at ${this.options.backendUrl} took the request but did not answer within ${startWait / 1000} s: it may be stuck or overloaded. Try again; if it goes on, see the backend's log or restart it.`
            : `The cichat backend at ${this.options.backendUrl} is unreachable: ${err.message}`,
        });
        res.writeHead(stalled ? 504 : 502, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });

      upstream.on('response', (answer) => {
        clearTimeout(answerTimer);
        relaying = true;
        this.relay(answer, res, () => callerGone, logger);
      });

      if (Buffer.isBuffer(forward.body)) {
        upstream.end(forward.body);
      } else if (forward.body !== undefined) {
        const pieces = forward.body.pieces()[Symbol.iterator]();
        const more = (): void => {
          for (;;) {
            if (upstream.destroyed) return;
            const next = pieces.next();
            if (next.done) {
              upstream.end();
              return;
            }
            if (!upstream.write(next.value)) {
              upstream.once('drain', more);
              return;
            }
          }
        };
        more();
      } else if (hasBody(req)) {
        req.on('data', (chunk: Buffer) => {
          if (!upstream.write(chunk)) req.pause();
        });
        upstream.on('drain', () => req.resume());
        req.on('end', () => upstream.end());
        req.on('error', () => upstream.destroy());
      } else {
        upstream.end();
      }
    });
  }

  /** Relays status, end-to-end headers and body; SSE with headers flushed at once and whole messages. */
  private relay(answer: IncomingMessage, res: ServerResponse, callerGone: () => boolean, logger: Logger): void {
    const headers = endToEndHeaders(answer.headers);
    const contentType = String(answer.headers['content-type'] ?? '');
    const sse = contentType.toLowerCase().startsWith('text/event-stream');
    if (sse) {
      headers['x-accel-buffering'] = 'no';
      headers['cache-control'] ??= 'no-cache';
      delete headers['content-length'];
      delete headers['content-encoding'];
    }
    res.writeHead(answer.statusCode ?? 502, headers);
    if (sse) res.flushHeaders();

    // An SSE body is relayed up to the last complete message of what has arrived: a client can
    // only act on whole messages anyway, and if the backend dies mid-message the caller gets
    // a well-formed `error` event instead of half a line.
    // Bytes, not text: a message boundary is ASCII, so a multi-byte character is never split
    // by it, and the usual chunk (whole messages) is written on without a copy.
    let pending: Buffer | undefined;
    const write = (chunk: Buffer): void => {
      let out = chunk;
      if (sse) {
        const bytes = pending ? Buffer.concat([pending, chunk]) : chunk;
        if (endsAtMessageBoundary(bytes)) {
          out = bytes;
          pending = undefined;
        } else {
          const boundary = lastMessageBoundary(bytes);
          pending = bytes.subarray(boundary);
          if (boundary === 0) return;
          out = bytes.subarray(0, boundary);
        }
      }
      if (!res.write(out)) {
        answer.pause();
        res.once('drain', () => answer.resume());
      }
    };

    // The backend pings every 15 s of silence: a stream from which nothing came for much longer
    // comes from a backend that froze (ux3, session 42); the caller gets an `error` event, not a wait.
    const silenceMs = this.options.streamSilenceTimeoutMs ?? STREAM_SILENCE_TIMEOUT_MS;
    let silent: NodeJS.Timeout | undefined;
    const watch = (): void => {
      clearTimeout(silent);
      silent = setTimeout(() => {
        if (callerGone() || res.destroyed) return;
        if (answer.isPaused()) {
          watch(); // held back by a slow caller (back-pressure), not by the backend
          return;
        }
        logger.warn({ backend: this.options.backendUrl, silenceMs }, 'backend answer stream went silent');
        res.end(
          encodeEvent({
            event: 'error',
            detail: `The cichat backend sent nothing for ${silenceMs / 1000} s in the middle of the answer; the stream was closed. Retry the question; if it goes on, see the backend's log or restart it.`,
          }),
        );
        answer.destroy();
      }, silenceMs);
    };
    if (sse) {
      watch();
      answer.on('data', watch);
    }
    answer.on('data', write);
    answer.on('error', () => {
      /* handled on close: the error is an aborted response */
    });
    answer.on('close', () => {
      clearTimeout(silent);
      if (callerGone() || res.destroyed || res.writableEnded) return;
      if (answer.complete) {
        res.end(pending);
        return;
      }
      logger.warn({ backend: this.options.backendUrl }, 'backend closed the response before it was complete');
      if (sse) {
        res.end(
          encodeEvent({
            event: 'error',
            detail: 'The cichat backend stopped in the middle of the answer; the partial answer may be incomplete. Retry the question.',
          }),
        );
      } else {
        res.destroy(); // the caller sees a truncated body, never a body that looks complete
      }
    });
  }
}
