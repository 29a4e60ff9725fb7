/**
 * The error kinds both services answer with (CONTRACT section 2, "Errors"): each carries the
 * HTTP status and the `detail` sentence a person reads. Anything that is not an HttpError is a
 * bug: the error middleware logs it with its stack and answers `500 Internal error`.
 */
import type { ErrorCode } from '../protocol/types.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** Sent beside `detail` for a client that acts on which error it is (protocol/types.ts ERROR_CODES). */
    readonly code?: ErrorCode,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(detail: string) {
    super(400, detail);
  }
}
export class Unauthorized extends HttpError {
  constructor(detail = 'Authentication required: send Authorization: Bearer <JWT> signed by the cichat controller.') {
    super(401, detail);
  }
}
export class Forbidden extends HttpError {
  constructor(detail: string) {
    super(403, detail);
  }
}
export class NotFound extends HttpError {
  constructor(detail: string, code?: ErrorCode) {
    super(404, detail, code);
  }
}
export class Conflict extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}
export class PayloadTooLarge extends HttpError {
  constructor(detail: string) {
    super(413, detail);
  }
}
export class UnsupportedMediaType extends HttpError {
  constructor(detail = 'Send the body as JSON with Content-Type: application/json.') {
    super(415, detail);
  }
}
/** 422: a field out of range or of the wrong type; the detail names the field. */
export class Unprocessable extends HttpError {
  constructor(detail: string) {
    super(422, detail);
  }
}
export class BadGateway extends HttpError {
  constructor(detail: string) {
    super(502, detail);
  }
}
export class ServiceUnavailable extends HttpError {
  constructor(detail = 'The database is unavailable; try again shortly.') {
    super(503, detail);
  }
}

/**
 * Error codes meaning the disk (of DATA_DIR, the SQLite file, or the MySQL server) is full: the
 * write did not happen, and it is the host's problem, not the request's: 503 saying so.
 */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', 'ER_DISK_FULL', 'ER_RECORD_FILE_FULL', 'ER_DISK_FULL_NOWAIT']);

/** True when `err`, or an error it was caused by, says the disk is full. */
export function isDiskFull(err: unknown): boolean {
  let at: unknown = err;
  for (let depth = 0; depth < 8 && typeof at === 'object' && at !== null; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** The answer for a full disk (isDiskFull). */
export class DiskFull extends ServiceUnavailable {
  constructor() {
    super('The server\'s disk is full: nothing was saved. Free space where the cichat data and database live, then try again.');
  }
}

/** The `{detail}` a 4xx raised by Koa itself (raw-body, http-errors) is answered with. */
export function clientErrorDetail(status: number, e: { type?: unknown; message?: unknown; expose?: unknown }): string {
  if (status === 413) return 'The request body is over the size limit.';
  if (status === 415) return new UnsupportedMediaType().detail;
  if (status === 400) {
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return 'The body must be UTF-8 encoded JSON.';
    if (typeof e.type === 'string' && e.type.startsWith('entity.')) return 'The request body is not valid JSON.';
  }
  // http-errors marks messages meant for clients with `expose` (4xx); never echo anything else.
  if (e.expose === true && typeof e.message === 'string' && !/[/\\]/.test(e.message)) return e.message;
  return status === 400 ? 'Bad request.' : `The request was refused (HTTP ${status}).`;
}
