/**
 * Reading the build log people pipe or name (issue 27, point 4): gzip is decompressed here,
 * other binary data is refused with one line, a log that is not UTF-8 is read as Windows-1252
 * (a superset of Latin-1's printable range: the usual encoding of a Windows agent's console),
 * and a file that cannot be read is one line, never a stack.
 *
 * `sniffLog` looks at the first bytes only, so a streaming upload can reuse it on its first
 * chunk; `decodeLog` turns a whole input into text.
 */
import { isUtf8 } from 'node:buffer';
import { fstatSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { UserError } from './errors.js';

/** What the first bytes of an input say it is. */
export type LogKind =
  | { kind: 'gzip' }
  | { kind: 'text'; bom?: 'utf-8' | 'utf-16le' | 'utf-16be' }
  | { kind: 'binary'; what: string; hint?: string };

/** Compressed or binary formats recognised by their first bytes (besides gzip, which is read). */
const MAGIC: { bytes: number[]; what: string; hint?: string }[] = [
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data', hint: 'zstd -dc FILE | cichat ...' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed data', hint: 'xz -dc FILE | cichat ...' },
  { bytes: [0x42, 0x5a, 0x68], what: 'bzip2-compressed data', hint: 'bzip2 -dc FILE | cichat ...' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive', hint: 'unzip -p FILE.zip build.log | cichat ...' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'an executable (ELF)' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
];

const startsWith = (buf: Uint8Array, bytes: number[]): boolean => buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);

/** Control bytes a log may hold: tab, newline, vertical tab, form feed, carriage return, backspace, escape (ANSI colours). */
const TEXT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

/** Classifies an input from its first bytes (8 KiB are enough). */
export function sniffLog(head: Uint8Array): LogKind {
  if (startsWith(head, [0x1f, 0x8b])) return { kind: 'gzip' };
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { kind: 'text', bom: 'utf-8' };
  if (startsWith(head, [0xff, 0xfe])) return { kind: 'text', bom: 'utf-16le' };
  if (startsWith(head, [0xfe, 0xff])) return { kind: 'text', bom: 'utf-16be' };
  for (const m of MAGIC) if (startsWith(head, m.bytes)) return { kind: 'binary', what: m.what, ...(m.hint ? { hint: m.hint } : {}) };
  const sample = head.subarray(0, 8192);
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i] ?? 0;
    if (b === 0) return { kind: 'binary', what: `binary data (a NUL byte at offset ${i})` };
    if (b < 0x20 && !TEXT_CONTROLS.has(b)) controls++;
  }
  if (sample.length > 0 && controls / sample.length > 0.1) return { kind: 'binary', what: `binary data (${Math.round((100 * controls) / sample.length)}% control bytes)` };
  return { kind: 'text' };
}

export interface DecodedLog {
  text: string;
  /** How the bytes were read, for a note on stderr (undefined: plain UTF-8). */
  note?: string;
}

/** A log's bytes as text; `name` says where they came from (`stdin`, a file). Throws a UserError for binary input. */
export function decodeLog(input: Buffer, name: string): DecodedLog {
  let bytes = input;
  const notes: string[] = [];
  let kind = sniffLog(bytes);
  if (kind.kind === 'gzip') {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      throw new UserError(`${name} starts like gzip data but could not be decompressed (${(err as Error).message})`, 'check the file: gzip -t FILE');
    }
    notes.push(`decompressed gzip (${mib(input.length)} -> ${mib(bytes.length)})`);
    kind = sniffLog(bytes);
    if (kind.kind === 'gzip') throw new UserError(`${name} is gzip data inside gzip data`, 'decompress it first: gzip -dc FILE | gzip -dc | cichat ...');
  }
  if (kind.kind === 'binary') {
    throw new UserError(`${name} is not a text log: it looks like ${kind.what}`, kind.hint ?? 'pipe the build log itself (the text of the console output)');
  }
  let text: string;
  if (kind.bom === 'utf-16le' || kind.bom === 'utf-16be') {
    text = new TextDecoder(kind.bom).decode(bytes.subarray(2));
    notes.push(`read as ${kind.bom.toUpperCase()} (byte order mark)`);
  } else {
    const body = kind.bom === 'utf-8' ? bytes.subarray(3) : bytes;
    if (isUtf8(body)) {
      text = body.toString('utf8');
    } else {
      text = decodeCp1252(body);
      notes.push('not UTF-8: read as Windows-1252 (Latin-1)');
    }
  }
  return notes.length > 0 ? { text, note: `${name}: ${notes.join(', ')}` } : { text };
}

/**
 * Windows-1252: Latin-1 except 0x80-0x9F, which hold typographic characters (€, ‘’, “”, –, —).
 * Written out because Node 20's TextDecoder('windows-1252') decodes those bytes as Latin-1's
 * C1 control characters (measured: 0x80 gave U+0080, not €).
 */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

export function decodeCp1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

const mib = (n: number): string => (n >= 1024 * 1024 ? `${(n / 1048576).toFixed(1)} MiB` : `${Math.max(1, Math.round(n / 1024))} KiB`);

/** All of stdin's bytes, or undefined when stdin is a terminal (nothing was piped). */
export async function readPipedBytes(stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<Buffer | undefined> {
  if (stdin.isTTY) return undefined;
  const parts: Buffer[] = [];
  for await (const part of stdin) parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts);
}

/** Stdin's log as text (decoded as above), or undefined when stdin is a terminal. */
export async function readPipedStdin(stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin, onNote?: (note: string) => void): Promise<string | undefined> {
  const bytes = await readPipedBytes(stdin);
  if (bytes === undefined) return undefined;
  const decoded = decodeLog(bytes, 'stdin');
  if (decoded.note) onNote?.(decoded.note);
  return decoded.text;
}

/** A file's log as text, or stdin's when `file` is "-"; an unreadable file is one line naming it. */
export async function readFileOrStdin(file: string, stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin, onNote?: (note: string) => void): Promise<string> {
  if (file === '-') return (await readPipedStdin(stdin, onNote)) ?? '';
  const { readFile } = await import('node:fs/promises');
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw unreadable(file, err);
  }
  const decoded = decodeLog(bytes, file);
  if (decoded.note) onNote?.(decoded.note);
  return decoded.text;
}

/** A file that cannot be read, as the one line a person acts on. */
export function unreadable(file: string, err: unknown): UserError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : ((err as Error).message ?? String(err));
  return new UserError(`cannot read ${file}: ${why}`);
}

// ---- streaming (issue 28: logs of any size go to the raw upload route, never held whole) ----

/** Bytes looked at before deciding what an input is (as `sniffLog` wants). */
const SNIFF_BYTES = 8192;

/** Reads from `source` until `min` bytes are there or it ends: the head, and the rest to go on with. */
async function takeHead(source: AsyncIterator<Uint8Array>, min: number): Promise<{ head: Buffer; done: boolean }> {
  const parts: Buffer[] = [];
  let size = 0;
  while (size < min) {
    const next = await source.next();
    if (next.done) return { head: Buffer.concat(parts), done: true };
    const part = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    parts.push(part);
    size += part.length;
  }
  return { head: Buffer.concat(parts), done: false };
}

async function* withHead(head: Buffer, rest: AsyncIterator<Uint8Array>, done: boolean): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  if (done) return;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
  }
}

/** Bytes at the end of `buf` that start a UTF-8 sequence not complete yet (0-3). */
function incompleteTail(buf: Uint8Array): number {
  const n = buf.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = buf[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/**
 * A log's bytes as UTF-8 bytes, read as they come (memory: one piece at a time): gzip is
 * decompressed as it streams, binary input refused (a UserError naming `name`, before anything
 * is yielded), UTF-16 read by its byte order mark, and UTF-8 passed on as it is until the first
 * piece that is not UTF-8: from there on the rest is read as Windows-1252 (`onNote` says so).
 * `decodeLog` decides that for the whole input at once; here the part before is already gone,
 * and it was ASCII (identical in both) unless the log mixes the two encodings.
 */
export async function* decodeLogStream(source: AsyncIterable<Uint8Array>, name: string, onNote?: (note: string) => void, nested = false): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const { head, done } = await takeHead(it, SNIFF_BYTES);
  const kind = sniffLog(head);
  if (kind.kind === 'gzip') {
    if (nested) throw new UserError(`${name} is gzip data inside gzip data`, 'decompress it first: gzip -dc FILE | gzip -dc | cichat ...');
    onNote?.(`${name}: decompressed gzip as it is read`);
    const gunzip = createGunzip();
    const input = Readable.from(withHead(head, it, done));
    input.on('error', (err) => gunzip.destroy(err));
    input.pipe(gunzip);
    const unzipped = (async function* () {
      try {
        for await (const piece of gunzip) yield piece as Buffer;
      } catch (err) {
        if (err instanceof UserError) throw err;
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('Z_')) {
          throw new UserError(`${name} starts like gzip data but could not be decompressed (${(err as Error).message})`, 'check the file: gzip -t FILE');
        }
        throw err;
      } finally {
        input.destroy();
      }
    })();
    yield* decodeLogStream(unzipped, name, onNote, true);
    return;
  }
  if (kind.kind === 'binary') {
    throw new UserError(`${name} is not a text log: it looks like ${kind.what}`, kind.hint ?? 'pipe the build log itself (the text of the console output)');
  }
  const pieces = withHead(head, it, done);
  if (kind.bom === 'utf-16le' || kind.bom === 'utf-16be') {
    onNote?.(`${name}: read as ${kind.bom.toUpperCase()} (byte order mark)`);
    const decoder = new TextDecoder(kind.bom);
    let first = true;
    for await (const piece of pieces) {
      const text = decoder.decode(first ? piece.subarray(2) : piece, { stream: true });
      first = false;
      if (text) yield Buffer.from(text, 'utf8');
    }
    const rest = decoder.decode();
    if (rest) yield Buffer.from(rest, 'utf8');
    return;
  }
  let carry: Buffer = Buffer.alloc(0);
  let latin = false;
  let first = kind.bom === 'utf-8';
  for await (const raw of pieces) {
    let piece = first ? raw.subarray(3) : raw;
    first = false;
    if (latin) {
      yield Buffer.from(decodeCp1252(piece), 'utf8');
      continue;
    }
    if (carry.length > 0) piece = Buffer.concat([carry, piece]);
    const keep = incompleteTail(piece);
    const whole = piece.subarray(0, piece.length - keep);
    if (isUtf8(whole)) {
      carry = Buffer.from(piece.subarray(piece.length - keep));
      if (whole.length > 0) yield whole;
      continue;
    }
    latin = true;
    onNote?.(`${name}: not UTF-8: read as Windows-1252 (Latin-1)`);
    carry = Buffer.alloc(0);
    yield Buffer.from(decodeCp1252(piece), 'utf8');
  }
  if (carry.length > 0) {
    // A sequence cut by the end of the input: not UTF-8 either.
    if (!latin) onNote?.(`${name}: ends inside a UTF-8 character: its last bytes read as Windows-1252`);
    yield Buffer.from(decodeCp1252(carry), 'utf8');
  }
}

/** Whitespace only: an empty log for the upload's purposes. */
function blank(buf: Uint8Array): boolean {
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0x0b && b !== 0x0c) return false;
  }
  return true;
}

/** Leading whitespace held back at most while looking for the first character of a log. */
const BLANK_PEEK_MAX = 1024 * 1024;

/**
 * Looks into a decoded log far enough to know whether it holds anything but whitespace (the
 * first pieces, at most 1 MiB of leading blanks: a log longer than that counts as not empty).
 * Errors of the input (binary, bad gzip) surface here, before anything is sent.
 */
export async function peekLog(bytes: AsyncIterable<Buffer>): Promise<{ empty: boolean; bytes: AsyncIterable<Buffer> }> {
  const it = bytes[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) return { empty: held.every(blank), bytes: withHead(Buffer.concat(held), it, true) };
    held.push(next.value);
    size += next.value.length;
    if (!blank(next.value) || size >= BLANK_PEEK_MAX) return { empty: false, bytes: withHead(Buffer.concat(held), it, false) };
  }
}

/** Where a log comes from: a file (which can be read again) or stdin (once). */
export interface LogInput {
  /** `stdin` or the file's name, for messages. */
  name: string;
  /** The raw bytes (as stored: gzip is decoded by decodeLogStream). */
  open(): AsyncIterable<Uint8Array>;
  /** Whether `open` may be called again (a file; stdin can be read once). */
  reopenable: boolean;
  /** Its size in bytes when known (a file, or stdin redirected from one). */
  size?: number;
}

/** A named file, or stdin for "-" (undefined when stdin is a terminal: nothing was piped). An unreadable file is one line naming it. */
export async function logInput(file: string, stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<LogInput | undefined> {
  if (file === '-') return stdinInput(stdin);
  const { open } = await import('node:fs/promises');
  let size: number;
  try {
    const handle = await open(file, 'r');
    try {
      const stat = await handle.stat();
      if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      size = stat.size;
      // Reading the first byte finds what open() does not (a directory on some systems).
      await handle.read(Buffer.alloc(1), 0, 1, 0);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw unreadable(file, err);
  }
  const { createReadStream } = await import('node:fs');
  return { name: file, reopenable: true, size, open: () => createReadStream(file, { highWaterMark: 256 * 1024 }) };
}

/** Stdin as a log input (undefined when it is a terminal). Its size is known when it is redirected from a file. */
export function stdinInput(stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number } = process.stdin): LogInput | undefined {
  if (stdin.isTTY) return undefined;
  let size: number | undefined;
  if (stdin === process.stdin) {
    try {
      const stat = fstatSync(0);
      if (stat.isFile()) size = stat.size;
    } catch {
      size = undefined;
    }
  }
  let opened = false;
  return {
    name: 'stdin',
    reopenable: false,
    ...(size !== undefined ? { size } : {}),
    open: () => {
      if (opened) throw new Error('stdin can be read once');
      opened = true;
      return (async function* () {
        for await (const part of stdin) yield typeof part === 'string' ? Buffer.from(part) : (part as Buffer);
      })();
    },
  };
}
