/**
 * A byte stream (a file, stdin, an upload) cut into cleaned lines, as `LineSplitter` cuts the
 * text a streaming UTF-8 `TextDecoder` makes of it, with the same lines and the same numbers
 * (test), but faster (issue 28):
 *
 * - newlines are found in the bytes (`Buffer.indexOf`), and each line that lies within one
 *   piece is decoded on its own (Latin-1 for a piece of ASCII only, which is the same text, else
 *   UTF-8). A line decoded on its own is a flat string: the analyzer's character scans and
 *   patterns run 2-4x faster on it than on a slice of a piece-sized string;
 * - a line without `\r` or ESC (the scan for them is native) skips `cleanLine`'s work;
 * - with hints, a piece's newlines, carriage returns, flags and hints come from one call of the
 *   WebAssembly scanner (byteScan.ts, `scannedPiece`); the JavaScript below is its fallback and reference.
 *
 * A line cut across pieces, and text given as strings, go through a `LineSplitter` fed by a
 * streaming decoder, as before: a `\n` byte ends any UTF-8 sequence, so both paths agree.
 */
import { isAscii } from 'node:buffer';
import { LineSplitter, MAX_LINE_CHARS, cleanLine } from './clean.js';
import { HINT_ALL, byteHints } from './shapes.js';
import { BYTE_SCAN_MAX_RECORDS, FLAG_C1, FLAG_ESCAPE, FLAG_NON_ASCII, byteScanner, type ByteScanner } from './byteScan.js';
import { PROBE_CHARS } from './blocks.js';

/** `marks` holds the offset of every this many lines' first line. */
export const MARK_STRIDE = 1024;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const ESCAPE = 27;
const C1_CSI_LOW_BYTE = 0x9b;
const BOM = [0xef, 0xbb, 0xbf];

export class ByteLineSplitter {
  /** The slow path: lines cut across pieces, and string input. */
  private readonly text: LineSplitter;
  /** Decodes the bytes of the slow path (the byte-order mark is dealt with below). */
  private decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The slow path holds a partial line (text or bytes in the decoder). */
  private partial = false;
  /** Text was given as strings: from then on every piece goes the slow way, in order. */
  private mixed = false;
  /** The stream's first bytes, held until they are known not to be a byte-order mark. */
  private head: number[] | null = [];
  /** Lines cut so far (given to `onLine` or, not wanted, counted only). */
  count = 0;
  /** Bytes of the stream pushed so far (before the piece being cut). */
  consumed = 0;
  /**
   * With `withMarks`: the offset in the stream (bytes) where line k * MARK_STRIDE begins, for a
   * second read to skip to (`skipTo`); undefined once text was given as strings.
   */
  marks: number[] | undefined;
  /** `skipTo`: the offset whose line comes next (-1: none). */
  private skip = -1;

  /**
   * `onLine` gets each cleaned line, the length of the line as it came (before any cut) and, with
   * `withHints`, the analyzer's `failureHints` of a line read from the bytes of one piece that
   * needed no cleaning (`byteHints`, before it is a string: the analyzer then does not scan its
   * characters again), else -1; with `wanted`, only the lines it wants (by 0-based index, asked
   * in order): the others are counted, not decoded (a line cut across pieces is decoded anyway).
   */
  constructor(
    private readonly onLine: (line: string, length: number, hints: number) => void,
    private readonly wanted?: (index: number) => boolean,
    private readonly withHints = false,
    withMarks = false,
  ) {
    this.marks = withMarks ? [] : undefined;
    // Set twice: `stripped` grows it for a long line, which would otherwise drop the optimised
    // code of `scannedPiece` that took it for a constant (analyze.ts's constructor says more).
    this.scratch = Buffer.allocUnsafe(1024);
    this.text = new LineSplitter((line, length) => {
      this.count++;
      onLine(line, length, -1);
    });
  }

  /** The next piece of the log: bytes (UTF-8) or text. */
  push(piece: Uint8Array | string): void {
    const consumed = this.consumed;
    this.consumed += piece.length;
    if (typeof piece === 'string') {
      this.marks = undefined;
      this.flushHead();
      this.mixed = true;
      this.slow(piece);
      return;
    }
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (this.mixed) {
      this.slow(this.decoder.decode(bytes, { stream: true }));
      return;
    }
    if (this.head !== null) {
      // A UTF-8 byte-order mark at the start of the stream is not text (TextDecoder drops it).
      const head = this.head;
      let k = 0;
      while (head.length < 3 && k < bytes.length) head.push(bytes[k++]!);
      if (head.length < 3 && head.every((b, i) => b === BOM[i])) return;
      this.head = null;
      if (head.every((b, i) => b === BOM[i])) {
        this.bytesPiece(bytes.subarray(k), consumed + k);
        return;
      }
      // Not a mark: the held bytes go back in front of the piece (one piece, as it came: the stream from its start).
      this.bytesPiece(consumed === 0 ? bytes : Buffer.concat([Buffer.from(head), bytes.subarray(k)]), 0);
      return;
    }
    this.bytesPiece(bytes, consumed);
  }

  /**
   * Goes on at the stream's byte `offset`, where line `line` begins (from the `marks` of a read of
   * the same stream), ahead of the bytes pushed so far: the lines between are neither cut nor
   * counted, a partial line is dropped.
   */
  skipTo(offset: number, line: number): void {
    if (this.mixed || offset < this.consumed) throw new Error('ByteLineSplitter: cannot skip there');
    // The stream's first bytes (a byte-order mark or not) come before the line skipped to.
    this.head = null;
    this.skip = offset;
    this.count = line;
    this.partial = false;
    this.text.reset();
    this.decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  }

  /**
   * Goes on with a stream that begins at byte `offset` of the stream read so far (a read started
   * there, as `readFilePieces(file, offset)` does), where line `line` begins (`marks`): what it was
   * cutting is dropped, and the pieces pushed next are the bytes from `offset` on.
   */
  startAt(offset: number, line: number): void {
    this.skipTo(offset, line);
    this.skip = -1;
    this.consumed = offset;
  }

  /** The stream has ended: the last line, if it had no newline. */
  end(): void {
    this.flushHead();
    const rest = this.decoder.decode();
    if (rest !== '') this.slow(rest);
    this.text.end();
    this.partial = false;
  }

  private flushHead(): void {
    if (this.head === null) return;
    const head = this.head;
    this.head = null;
    if (head.length > 0) this.bytesPiece(Buffer.from(head), 0);
  }

  private slow(text: string): void {
    this.text.push(text);
  }

  /** Line `count` begins at the stream's byte `at`: kept when it is a MARK_STRIDE-th line's start. */
  private mark(at: number): void {
    const marks = this.marks;
    if (marks !== undefined && (this.count & (MARK_STRIDE - 1)) === 0 && marks.length === this.count / MARK_STRIDE) marks.push(at);
  }

  /** `base`: the offset in the stream of the piece's first byte (valid while `marks` is kept). */
  private bytesPiece(bytes: Buffer, base: number): void {
    const n = bytes.length;
    if (n === 0) return;
    let from = 0;
    if (this.skip >= 0) {
      if (this.skip >= base + n) return;
      from = this.skip - base;
      this.skip = -1;
    }
    if (this.partial) {
      // The rest of a line begun in an earlier piece: through the slow path, up to its newline.
      const nl = bytes.indexOf(NEWLINE);
      if (nl < 0) {
        this.slow(this.decoder.decode(bytes, { stream: true }));
        return;
      }
      this.slow(this.decoder.decode(bytes.subarray(0, nl + 1), { stream: true }));
      this.partial = false;
      from = nl + 1;
    }
    const scanner = this.withHints && this.wanted === undefined ? byteScanner() : null;
    if (scanner !== null && !scanner.busy) {
      from = this.scannedPiece(scanner, bytes, from, base);
      if (from < n) {
        this.slow(this.decoder.decode(bytes.subarray(from), { stream: true }));
        this.partial = true;
      }
      return;
    }
    const ascii = isAscii(bytes);
    const onLine = this.onLine;
    // The next carriage return, escape and (past ASCII) 0x9B byte at or after `from`, found once
    // for the piece rather than looked for in every line's string: a line holding none needs no
    // cleaning (`nextByte`). n stands for "none in the rest of the piece".
    let cr = -1;
    let esc = -1;
    let c1 = ascii ? n : -1;
    const wanted = this.wanted;
    for (;;) {
      if (wanted !== undefined) from = this.unwanted(bytes, from, base, wanted);
      // Line `count` begins at `from`.
      this.mark(base + from);
      const nl = bytes.indexOf(NEWLINE, from);
      if (nl < 0) break;
      // A line longer than the cut goes the slow way, which cuts it.
      if (nl - from > MAX_LINE_CHARS) {
        this.slow(this.decoder.decode(bytes.subarray(from, nl + 1), { stream: true }));
      } else {
        // Trailing carriage returns (`\r\n`, Travis' `\r\r\n`) are dropped from the bytes, as
        // `cleanLine` drops them: most lines of such a log then need no cleaning at all.
        let end = nl;
        while (end > from && bytes[end - 1] === CARRIAGE_RETURN) end--;
        this.count++;
        if (cr < from) cr = nextByte(bytes, CARRIAGE_RETURN, from, n);
        if (esc < from) esc = nextByte(bytes, ESCAPE, from, n);
        if (c1 < from) c1 = nextByte(bytes, C1_CSI_LOW_BYTE, from, n);
        // Colours alone (the common case of a line that needs cleaning) are stripped from the bytes,
        // and so is the last part of a line of ASCII redrawn with carriage returns (`redrawn`).
        const stripped = cr >= end ? (esc < end ? this.stripped(bytes, from, end) : -1) : ascii || isAscii(bytes.subarray(from, end)) ? this.redrawn(bytes, from, end) : -1;
        if (stripped >= 0) {
          const scratch = this.scratch;
          onLine(scratch.latin1Slice(0, stripped), nl - from, this.withHints ? byteHints(scratch, 0, Math.min(stripped, PROBE_CHARS)) : -1);
        } else {
          const raw = ascii ? bytes.latin1Slice(from, end) : bytes.utf8Slice(from, end);
          // A 0x9B byte is most often part of another character: the line's text tells.
          const dirty = cr < end || esc < end || (c1 < end && raw.indexOf('\u009b') >= 0);
          // The hints of the bytes `classify` reads at most (its body is within the first PROBE_CHARS).
          const hints = dirty || !this.withHints ? -1 : byteHints(bytes, from, Math.min(end, from + PROBE_CHARS));
          onLine(dirty ? cleanLine(raw) : raw, raw.length + nl - end, hints);
        }
      }
      from = nl + 1;
    }
    if (from < n) {
      this.slow(this.decoder.decode(bytes.subarray(from), { stream: true }));
      this.partial = true;
    }
  }

  /**
   * With `wanted`: counts (and marks) the lines from `from` on that are not wanted, and returns
   * where the first line begins that is wanted, is longer than the cut, or has no newline in the
   * piece. A second read (reread.ts) wants ~4 % of the lines it passes: this small loop passes
   * the others, where `bytesPiece`'s own loop did, which V8 then compiled whole (with the
   * cleaning inlined in it) for a loop that mostly only counted.
   */
  private unwanted(bytes: Buffer, from: number, base: number, wanted: (index: number) => boolean): number {
    for (;;) {
      this.mark(base + from);
      const nl = bytes.indexOf(NEWLINE, from);
      if (nl < 0 || nl - from > MAX_LINE_CHARS || wanted(this.count)) return from;
      this.count++;
      from = nl + 1;
    }
  }

  /**
   * `bytesPiece` through the WebAssembly scanner (byteScan.ts): the same lines, lengths and hints
   * as the JavaScript path below it (test), from the scanner's records of the piece's lines from
   * `from` on. Returns where the piece's partial last line begins (`n`: none).
   */
  private scannedPiece(scanner: ByteScanner, bytes: Buffer, from: number, base: number): number {
    scanner.busy = true;
    try {
      scanner.load(bytes, from, bytes.length);
      return this.scannedLines(scanner, bytes, from, base);
    } finally {
      scanner.busy = false;
    }
  }

  /**
   * `scannedPiece`'s loop over the records, in a function of its own whose code after its loops holds nothing V8
   * needs type feedback for: V8 compiles a loop while it first runs (on-stack replacement), and code after it that had
   * not run yet (the comparison of `count`, the `finally` of `scannedPiece`) dropped that compiled code when first
   * reached, at the end of the log's first piece (`--trace-deopt`: "Insufficient type feedback", issue 28).
   */
  private scannedLines(scanner: ByteScanner, bytes: Buffer, from: number, base: number): number {
    const onLine = this.onLine;
    const start = from;
    for (;;) {
      const { records, count } = scanner.scan(from - start, PROBE_CHARS);
      const more = count >= BYTE_SCAN_MAX_RECORDS;
      const records4 = 4 * count;
      for (let k = 0; ; k += 4) {
        // Line `count` begins at `from`; past the last record, the piece's partial last line (or its end) does.
        this.mark(base + from);
        if (k >= records4) break;
        const nl = start + records[k]!;
        if (nl - from > MAX_LINE_CHARS) {
          this.slow(this.decoder.decode(bytes.subarray(from, nl + 1), { stream: true }));
          from = nl + 1;
          continue;
        }
        this.count++;
        const flags = records[k + 3]!;
        let end = nl;
        let cr = false;
        if (records[k + 1]! >= 0) {
          while (end > from && bytes[end - 1] === CARRIAGE_RETURN) end--;
          cr = start + records[k + 1]! < end;
        }
        const esc = (flags & FLAG_ESCAPE) !== 0;
        const stripped = !cr ? (esc ? this.stripped(bytes, from, end) : -1) : (flags & FLAG_NON_ASCII) === 0 ? this.redrawn(bytes, from, end) : -1;
        if (stripped >= 0) {
          const scratch = this.scratch;
          onLine(scratch.latin1Slice(0, stripped), nl - from, byteHints(scratch, 0, Math.min(stripped, PROBE_CHARS)));
        } else {
          const nonAscii = (flags & FLAG_NON_ASCII) !== 0;
          const raw = nonAscii ? bytes.utf8Slice(from, end) : bytes.latin1Slice(from, end);
          const dirty = cr || esc || ((flags & FLAG_C1) !== 0 && raw.indexOf('\u009b') >= 0);
          // The scanner hashed the whole line; `classify` reads at most PROBE_CHARS of it. The probe's end is
          // computed for every line: an addition first reached at the log's first long line had no type feedback
          // and dropped this function's compiled code there (`--trace-deopt`, issue 28, sp15).
          const probeEnd = from + PROBE_CHARS;
          const hints = dirty ? -1 : end > probeEnd ? byteHints(bytes, from, probeEnd) : nonAscii ? HINT_ALL : records[k + 2]!;
          onLine(dirty ? cleanLine(raw) : raw, raw.length + nl - end, hints);
        }
        from = nl + 1;
      }
      if (!more) return from;
    }
  }

  /**
   * A line of ASCII bytes `from`..`end` (trailing carriage returns dropped) that holds a carriage
   * return: into `scratch`, what `cleanLine` makes of it when that is its last part with colours
   * stripped (the part shows text: what a terminal shows once a progress bar has redrawn it), and
   * the length written; -1 when it needs `cleanLine`'s own work (a last part that shows nothing, a
   * cursor move, a console note). Such a line is then neither decoded whole nor split on its
   * carriage returns, and gets its hints from the bytes: ~17 % of the LogChunks logs' bytes are
   * in lines redrawn so (some of them tens of kilobytes of progress bar).
   */
  private redrawn(bytes: Buffer, from: number, end: number): number {
    const n = this.stripped(bytes, lastPart(bytes, from, end), end);
    return n > 0 && showsText(this.scratch, n) ? n : -1;
  }

  /** Where `stripped` writes a line's bytes without their escape sequences. */
  private scratch = Buffer.allocUnsafe(1024);

  /**
   * A line of ASCII without carriage returns, bytes `from`..`end` (exclusive): into `scratch`, what `cleanLine` makes of it when
   * `stripConsoleMarkup` is all it does (every CSI, OSC and two-byte escape sequence of its ANSI
   * pattern dropped, any other escape kept), and the length written; -1 when the line needs
   * `cleanLine`'s own work: a byte past ASCII, a cursor move (`CURSOR`: `drawLine`), a Jenkins
   * console note (`ESC[8mha:`).
   */
  private stripped(bytes: Buffer, from: number, end: number): number {
    if (end - from > this.scratch.length) this.scratch = Buffer.allocUnsafe(2 * (end - from));
    const out = this.scratch;
    let n = 0;
    let i = from;
    while (i < end) {
      const c = bytes[i]!;
      if (c >= 128) return -1;
      if (c !== ESCAPE) {
        out[n++] = c;
        i++;
        continue;
      }
      const next = i + 1 < end ? bytes[i + 1]! : -1;
      if (next === 0x5b) {
        // CSI: ESC [ parameters (0x30-0x3F) intermediates (0x20-0x2F) final (0x40-0x7E). The three
        // ranges do not overlap, so the pattern's match (if any) is this one scan.
        let j = i + 2;
        let digits = true;
        while (j < end && bytes[j]! >= 0x30 && bytes[j]! <= 0x3f) {
          if (bytes[j]! > 0x39) digits = false;
          j++;
        }
        const params = j;
        while (j < end && bytes[j]! >= 0x20 && bytes[j]! <= 0x2f) j++;
        const final = j < end ? bytes[j]! : -1;
        // CURSOR (`ESC[\d*[ABCDEFGK]`) anywhere in the line: drawn, not stripped.
        if (digits && params < end && isCursorMove(bytes[params]!)) return -1;
        if (final >= 0x40 && final <= 0x7e) {
          // `ESC[8mha:` opens a console note, which `stripNotes` drops whole.
          if (final === 0x6d && j === i + 3 && bytes[i + 2] === 0x38 && j + 3 < end && bytes[j + 1] === 0x68 && bytes[j + 2] === 0x61 && bytes[j + 3] === 0x3a) return -1;
          i = j + 1;
          continue;
        }
        // No CSI here; `ESC [` is no two-byte escape either: the escape stays.
        out[n++] = c;
        i++;
        continue;
      }
      if (next === 0x5d) {
        // OSC: ESC ] text up to BEL or ESC \ (text holds neither BEL nor ESC).
        let j = i + 2;
        while (j < end && bytes[j] !== 0x07 && bytes[j] !== ESCAPE) j++;
        if (j < end && bytes[j] === 0x07) {
          i = j + 1;
          continue;
        }
        if (j + 1 < end && bytes[j] === ESCAPE && bytes[j + 1] === 0x5c) {
          i = j + 2;
          continue;
        }
        // Not closed: `ESC ]` is a two-byte escape (0x5D is in `[@-Z\\-_]`).
        i += 2;
        continue;
      }
      if ((next >= 0x40 && next <= 0x5a) || (next >= 0x5c && next <= 0x5f)) {
        i += 2;
        continue;
      }
      out[n++] = c;
      i++;
    }
    return n;
  }
}

/** Where the part of bytes `from`..`end` after its last carriage return begins (`from`: none). */
export function lastPart(bytes: Uint8Array, from: number, end: number): number {
  let i = end;
  while (i > from && bytes[i - 1] !== CARRIAGE_RETURN) i--;
  return i;
}

/** Whether bytes 0..n of ASCII hold a character `trim` keeps (not tab, line feed, vertical tab, form feed, carriage return or space). */
export function showsText(bytes: Uint8Array, n: number): boolean {
  // The increment first: it runs at every call, so the loop is compiled with its type feedback (a first byte that
  // shows text, the common case, never reached `k++`, and the first line that did dropped the compiled code).
  for (let k = -1; ++k < n; ) {
    const c = bytes[k]!;
    if (c !== 32 && (c < 9 || c > 13)) return true;
  }
  return false;
}

/** The final bytes of `CURSOR` (`ESC[\d*[ABCDEFGK]`). */
const isCursorMove = (b: number): boolean => (b >= 0x41 && b <= 0x47) || b === 0x4b;

/**
 * `cleanLine` changes a line without trailing carriage returns only if it holds a carriage
 * return, an escape character or the 8-bit CSI U+009B (in UTF-8 `C2 9B`: a 0x9B byte, which a
 * line of ASCII does not hold). The index of byte `b` in `bytes` at or after `from`, or `none`.
 */
function nextByte(bytes: Buffer, b: number, from: number, none: number): number {
  const at = bytes.indexOf(b, from);
  return at < 0 ? none : at;
}

declare global {
  interface Buffer {
    /** Node's own Latin-1 decoder of a range (what `toString('latin1', start, end)` calls). */
    latin1Slice(start: number, end: number): string;
    /** Node's own UTF-8 decoder of a range (what `toString('utf8', start, end)` calls). */
    utf8Slice(start: number, end: number): string;
  }
}

