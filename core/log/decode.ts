/**
 * A build log's bytes as text, whatever they were sent as (issue 27 for the CLI, issue 28 for the
 * raw upload route; one rule for both): gzip is decompressed (by its magic bytes), other binary
 * data is refused (a LogDecodeError naming the input, with a hint), UTF-16 is read by its byte
 * order mark, and a log that is not UTF-8 is read as Windows-1252 (a superset of Latin-1's
 * printable range: the usual encoding of a Windows agent's console). Streaming: one piece in
 * memory at a time.
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** An input that is not a text log (binary, broken gzip): what it is, and what to do. */
export class LogDecodeError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'LogDecodeError';
  }
}

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

/**
 * Bytes as text: UTF-8 when they are valid UTF-8, else Windows-1252 (the one rule uploads, the CLI
 * and the controller's readers of JENKINS_HOME files follow). `cut`: the bytes are the head of
 * something longer, so a UTF-8 character cut at their end is dropped rather than taken for a sign
 * of another encoding. `onCp1252` is called when the bytes were read as Windows-1252.
 */
export function decodeUtf8OrCp1252(bytes: Uint8Array, options: { cut?: boolean; onCp1252?: () => void } = {}): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const whole = options.cut ? buf.subarray(0, buf.length - incompleteTail(buf)) : buf;
  if (isUtf8(whole)) return whole.toString('utf8');
  options.onCp1252?.();
  return decodeCp1252(buf);
}


/** Bytes looked at before deciding what an input is (as `sniffLog` wants). */
const SNIFF_BYTES = 8192;

/** Reads from `source` until `min` bytes are there or it ends: the head, and the rest to go on with. */
async function takeHead(source: AsyncIterator<Uint8Array>, min: number): Promise<{ head: Buffer; done: boolean }> {
  const parts: Buffer[] = [];
  let size = 0;
  while (size < min) {
    const next = await source.next();
    if (next.done) return { head: Buffer.concat(parts), done: true };
    // Copied: a source may reuse a piece's memory once the next one is asked for (readFilePieces).
    const part = Buffer.from(next.value);
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

/** Each piece as a buffer of its own. */
async function* copied(pieces: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const piece of pieces) yield Buffer.from(piece);
}

/** Bytes at the end of `buf` that start a UTF-8 sequence not complete yet (0-3). */
export function incompleteTail(buf: Uint8Array): number {
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
export { withHead };

export async function* decodeLogStream(
  source: AsyncIterable<Uint8Array>,
  name: string,
  onNote?: (note: string) => void,
  nested = false,
  /** The sender declared the encoding Latin-1 / Windows-1252 (a `charset`): no guessing from the bytes. */
  latin1 = false,
): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const { head, done } = await takeHead(it, SNIFF_BYTES);
  const kind = sniffLog(head);
  if (kind.kind === 'gzip') {
    if (nested) throw new LogDecodeError(`${name} is gzip data inside gzip data`, 'decompress it once first (gzip -dc FILE)');
    onNote?.(`${name}: decompressed gzip as it is read`);
    const gunzip = createGunzip();
    // Readable.from reads ahead of gunzip: each piece is copied, as its source may reuse it.
    const input = Readable.from(copied(withHead(head, it, done)));
    input.on('error', (err) => gunzip.destroy(err));
    input.pipe(gunzip);
    const unzipped = (async function* () {
      try {
        for await (const piece of gunzip) yield piece as Buffer;
      } catch (err) {
        if (err instanceof LogDecodeError) throw err;
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('Z_')) {
          throw new LogDecodeError(`${name} starts like gzip data but could not be decompressed (${(err as Error).message})`, 'check the file: gzip -t FILE');
        }
        throw err;
      } finally {
        input.destroy();
      }
    })();
    yield* decodeLogStream(unzipped, name, onNote, true, latin1);
    return;
  }
  if (kind.kind === 'binary') {
    throw new LogDecodeError(`${name} is not a text log: it looks like ${kind.what}`, kind.hint ?? 'send the build log itself (the text of the console output)');
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
  let latin = latin1 && kind.bom === undefined;
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
