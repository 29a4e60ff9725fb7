/**
 * Reading the build log people pipe or name (issue 27, point 4): gzip is decompressed here,
 * other binary data is refused with one line, a log that is not UTF-8 is read as Windows-1252
 * (a superset of Latin-1's printable range: the usual encoding of a Windows agent's console),
 * and a file that cannot be read is one line, never a stack.
 *
 * `sniffLog` looks at the first bytes only, so a streaming upload can reuse it on its first
 * chunk; `decodeLog` turns a whole input into text.
 */
import { fstatSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { UserError } from './errors.js';
import { LogDecodeError, decodeUtf8OrCp1252, decodeLogStream as decodeLogBytes, sniffLog, withHead } from '../core/log/decode.js';

export { decodeCp1252, sniffLog, type LogKind } from '../core/log/decode.js';

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
    text = decodeUtf8OrCp1252(body, { onCp1252: () => notes.push('not UTF-8: read as Windows-1252 (Latin-1)') });
  }
  return notes.length > 0 ? { text, note: `${name}: ${notes.join(', ')}` } : { text };
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

/**
 * A log's bytes as UTF-8 bytes, read as they come (core/log/decode.ts): its LogDecodeError (binary
 * input, broken gzip) is the CLI's one-line UserError with its hint.
 */
export async function* decodeLogStream(source: AsyncIterable<Uint8Array>, name: string, onNote?: (note: string) => void): AsyncGenerator<Buffer> {
  try {
    yield* decodeLogBytes(source, name, onNote);
  } catch (err) {
    if (err instanceof LogDecodeError) throw new UserError(err.message, cliHint(err.hint));
    throw err;
  }
}

/** The core's hints, in the CLI's words (`... | cichat ...`). */
function cliHint(hint: string | undefined): string | undefined {
  if (hint === 'send the build log itself (the text of the console output)') return 'pipe the build log itself (the text of the console output)';
  if (hint === 'decompress it once first (gzip -dc FILE)') return 'decompress it first: gzip -dc FILE | gzip -dc | cichat ...';
  return hint;
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
 * `head` is what it read to know (the same bytes the stream yields first, not a copy kept after).
 * Errors of the input (binary, bad gzip) surface here, before anything is sent.
 */
export async function peekLog(bytes: AsyncIterable<Buffer>): Promise<{ empty: boolean; bytes: AsyncIterable<Buffer>; head: Buffer }> {
  const it = bytes[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) {
      const head = Buffer.concat(held);
      return { empty: held.every(blank), bytes: withHead(head, it, true), head };
    }
    held.push(next.value);
    size += next.value.length;
    if (!blank(next.value) || size >= BLANK_PEEK_MAX) {
      const head = Buffer.concat(held);
      return { empty: false, bytes: withHead(head, it, false), head };
    }
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
export function stdinInput(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number } = process.stdin,
  /** Said once when the pipe stays silent `silence.ms` before its first byte (a CI step's stdin left open, `ssh host cichat ask`). */
  silence?: { ms: number; note: () => void },
): LogInput | undefined {
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
        // A file has its bytes at once; only a pipe can keep the command waiting.
        let timer = silence !== undefined && size === undefined ? setTimeout(silence.note, silence.ms) : undefined;
        timer?.unref();
        try {
          for await (const part of stdin) {
            clearTimeout(timer);
            timer = undefined;
            yield typeof part === 'string' ? Buffer.from(part) : (part as Buffer);
          }
        } finally {
          clearTimeout(timer);
        }
      })();
    },
  };
}
