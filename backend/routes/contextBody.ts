/**
 * The JSON context upload's log without parsing it whole (issue 28 point 1: the JSON upload's
 * log "takes the same path internally" as the raw log route). The body's bytes are scanned for
 * the string value of `ciContext.buildDetails.consoleLog` (or `jenkinsContext...`); the rest of
 * the body is parsed and validated as before with that value replaced by a marker, and the log
 * is handed to the ingestion as pieces unescaped 1 MiB at a time. The log is then held once (as
 * the body's bytes), never as the decoded body text plus the parsed log string, and no
 * `JSON.parse` of the whole log runs on the event loop. Anything unusual (the field twice, not
 * found, too deep, a body that does not scan) leaves the body to the ordinary parse.
 */
import { BadRequest } from '../errors.js';

/** What stands for the log in the rest of the body, as JSON string content, and parsed. */
const MARKER_JSON = '\\u0000cichat-streamed-log\\u0000';
export const LOG_MARKER = '\u0000cichat-streamed-log\u0000';
/** Bodies smaller than this are parsed whole (a log this small costs nothing to parse). */
export const STREAMED_LOG_MIN_BYTES = 1024 * 1024;
/** Bytes of escaped log text unescaped at a time. */
export const LOG_PIECE_BYTES = 1024 * 1024;

/** Bodies whose log was left in their bytes so far (for tests). */
export const streamedLogStats = { bodies: 0 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_DEPTH = 64;

export interface LogInBody {
  /** The body with the log's string value replaced by LOG_MARKER. */
  rest: string;
  /** Which context object holds it. */
  root: 'ciContext' | 'jenkinsContext';
  /** The log's escaped text: bytes[start, end) (between its quotes). */
  start: number;
  end: number;
}

/** Index of the closing quote of the JSON string whose opening quote is at `open`, or -1. */
function stringEnd(bytes: Buffer, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = bytes.indexOf(QUOTE, from);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > open && bytes[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

const isDelimiter = (b: number): boolean => b === 0x2c || b === 0x7d || b === 0x5d || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x3a;

interface Frame {
  array: boolean;
  /** In an object: the key whose value is being read (or was last read). */
  key: string | undefined;
  expectKey: boolean;
}

/**
 * Where the body's `consoleLog` string of the uploaded context lies, or null when the body is
 * to be parsed whole (not found, found twice, deeper than 64 levels, or bytes that do not scan
 * as JSON: the ordinary parse then says what is wrong).
 */
export function findLogInBody(bytes: Buffer): LogInBody | null {
  const stack: Frame[] = [];
  let found: { start: number; end: number; root: 'ciContext' | 'jenkinsContext' } | null = null;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x3a) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (b === 0x2c) {
      if (top && !top.array) top.expectKey = true;
      i++;
      continue;
    }
    if (b === 0x7b || b === 0x5b) {
      if (stack.length >= MAX_DEPTH) return null;
      stack.push({ array: b === 0x5b, key: undefined, expectKey: b === 0x7b });
      i++;
      continue;
    }
    if (b === 0x7d || b === 0x5d) {
      if (stack.pop() === undefined) return null;
      i++;
      continue;
    }
    if (b === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) return null;
      if (top && !top.array && top.expectKey) {
        const key = keyText(bytes, i, end);
        if (key === null) return null;
        top.key = key;
        top.expectKey = false;
      } else if (
        stack.length === 3 &&
        !stack[0]!.array &&
        (stack[0]!.key === 'ciContext' || stack[0]!.key === 'jenkinsContext') &&
        !stack[1]!.array &&
        stack[1]!.key === 'buildDetails' &&
        !stack[2]!.array &&
        stack[2]!.key === 'consoleLog'
      ) {
        if (found) return null; // twice: JSON.parse keeps the last one; leave it to it
        found = { start: i + 1, end, root: stack[0]!.key };
      }
      i = end + 1;
      continue;
    }
    // a number, true, false or null
    while (i < n && !isDelimiter(bytes[i]!)) i++;
  }
  if (!found || stack.length !== 0) return null;
  streamedLogStats.bodies++;
  const rest = bytes.toString('utf8', 0, found.start) + MARKER_JSON + bytes.toString('utf8', found.end);
  return { rest, ...found };
}

/** A key's text (keys are short; one with escapes is unescaped by JSON.parse), or null when it does not parse. */
function keyText(bytes: Buffer, open: number, close: number): string | null {
  if (!bytes.subarray(open, close).includes(BACKSLASH)) return bytes.toString('utf8', open + 1, close);
  try {
    return JSON.parse(bytes.toString('utf8', open, close + 1)) as string;
  } catch {
    return null;
  }
}

/** Consecutive backslashes ending at `at` (inclusive), not before `from`. */
function backslashesEndingAt(bytes: Buffer, at: number, from: number): number {
  let count = 0;
  for (let k = at; k >= from && bytes[k] === BACKSLASH; k--) count++;
  return count;
}

/** Whether cutting the escaped text at `at` splits neither an escape nor a UTF-8 character. */
function cutsCleanly(bytes: Buffer, at: number, from: number): boolean {
  if ((bytes[at]! & 0xc0) === 0x80) return false;
  // The byte before belongs to an escape begun there (`\` then the escaped character)?
  if (backslashesEndingAt(bytes, at - 1, from) % 2 === 1) return false;
  // Inside a \uXXXX: a `\u` that begins an escape 2-5 bytes before.
  for (let p = Math.max(from, at - 5); p <= at - 2; p++) {
    if (bytes[p] === BACKSLASH && bytes[p + 1] === 0x75 && backslashesEndingAt(bytes, p, from) % 2 === 1) return false;
  }
  return true;
}

/**
 * The log's text, unescaped `pieceBytes` of escaped bytes at a time (cut where no escape or
 * character is split); a piece that is not a valid JSON string's content is 400, as the whole
 * body's parse would have answered.
 */
export function* logPieces(bytes: Buffer, start: number, end: number, pieceBytes = LOG_PIECE_BYTES): Generator<string> {
  let a = start;
  while (a < end) {
    let b = Math.min(end, a + pieceBytes);
    if (b < end) {
      // Back to a clean cut; when there is none in the piece (tiny pieces), on to the next one.
      let c = b;
      while (c > a && !cutsCleanly(bytes, c, start)) c--;
      if (c === a) {
        c = b;
        while (c < end && !cutsCleanly(bytes, c, start)) c++;
      }
      b = c;
    }
    let text: unknown;
    try {
      text = JSON.parse(`"${bytes.toString('utf8', a, b)}"`);
    } catch {
      throw new BadRequest('The request body is not valid JSON.');
    }
    yield text as string;
    a = b;
  }
}

/** Whether the log is empty or only white space (String.prototype.trim's), reading only as far as needed. */
export function logIsBlank(bytes: Buffer, start: number, end: number): boolean {
  for (const piece of logPieces(bytes, start, end, 64 * 1024)) if (piece.trim() !== '') return false;
  return true;
}
