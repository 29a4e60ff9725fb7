import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { answerAndClose, guardSocket } from '../http/server.js';

/**
 * Answers for requests that never become a request the app can see, in the contract's
 * `{detail}` shape rather than Node's bare status lines: headers too large (431), a method the
 * parser does not know or the API does not serve (501), a CONNECT tunnel (501), anything else
 * unparseable (400).
 */

/** The methods the API (and the proxied backend API) serves; anything else is 501. */
export const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function methodNotImplemented(method: string): string {
  const shown = method.length > 40 ? `${method.slice(0, 40)}...` : method;
  return `Method ${shown} is not implemented: the cichat API serves ${[...SERVED_METHODS].join(', ')}`;
}

/**
 * Writes a whole `{detail}` answer straight onto a socket and closes it for good (no parsed
 * request to answer): the socket is destroyed once the client closed or after a short linger,
 * so refused connections never pile up (issue 24: 1,100 of them exhausted a 1,024-fd limit).
 */
function endSocket(socket: Duplex, status: number, reason: string, detail: string): void {
  const body = JSON.stringify({ detail });
  answerAndClose(
    socket,
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The server's `clientError` listener: the parser failed before a request existed. */
export function onClientError(logger: Logger): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  return (err, socket) => {
    guardSocket(socket);
    // The caller is gone (or the response already started): nothing to answer.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    switch (err.code) {
      case 'HPE_HEADER_OVERFLOW':
        endSocket(socket, 431, 'Request Header Fields Too Large', 'The request headers are too large (at most 16 KiB including the URL): send fewer or shorter headers.');
        return;
      case 'HPE_INVALID_METHOD':
        endSocket(socket, 501, 'Not Implemented', `The request method is not implemented: the cichat API serves ${[...SERVED_METHODS].join(', ')}`);
        return;
      case 'ERR_HTTP_REQUEST_TIMEOUT':
        endSocket(socket, 408, 'Request Timeout', 'The request was not received in time: send it again.');
        return;
      default:
        logger.debug({ code: err.code }, 'malformed request');
        endSocket(socket, 400, 'Bad Request', 'The request is not valid HTTP/1.1.');
    }
  };
}

/**
 * The server's `connect` listener: the controller is no forward proxy. Node hands the raw
 * socket over without its own error listener: a client that resets it must not take the
 * process down (`read ECONNRESET`), so the socket is guarded first.
 */
export function onConnect(_req: http.IncomingMessage, socket: Duplex): void {
  guardSocket(socket);
  endSocket(socket, 501, 'Not Implemented', methodNotImplemented('CONNECT'));
}
