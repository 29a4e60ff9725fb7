/**
 * The analysis of a log that can be read again (a file): the first read keeps the text of at most
 * LAZY_TEXTS lines past the analyzer's window (`keepLines: false`, analyze.ts); when the result needs others
 * (the excerpts shown and what their findings read), a second read decodes only those
 * (`wanted`) and stops after the last of them; a log with fewer blocks is read once. Memory is
 * then the window, those lines and a few numbers per block, not the lines around every block:
 * those were ~40 % of the lines of the real logs (LogChunks, 85 MB, 9 354 blocks), so memory grew
 * with the log (issue 28). Same excerpts and findings as one read keeping the lines, as long as
 * the log reads the same twice (a log still being written gains lines at its end: the line
 * numbers stay the same).
 */
import { LogAnalyzer, type AnalysisResult, type AnalyzeOptions } from './analyze.js';
import { ByteLineSplitter, MARK_STRIDE } from './lines.js';
import { LineBatch } from './lineBatch.js';

export { LineBatch };
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The size of the pieces a log file is read in (`createReadStream`'s `highWaterMark`): reading
 * 89 MB in Node's default 64 KiB pieces took ~100 ms of CPU, in 256 KiB ~60 (fewer stream
 * turns and buffers), and fewer lines are cut across pieces (those take the slow path).
 */
export const READ_PIECE = 256 * 1024;

/** `readFilePieces` lets the event loop run once every this many pieces (16 MiB). */
const PIECES_BETWEEN_TURNS = 64;

/**
 * A file's bytes from byte `from` on, in pieces of READ_PIECE, read with `readSync`: 89 MB took 18-21
 * ms of CPU so, and 75-92 ms through `createReadStream` with the same pieces (the thread pool's
 * hops, the stream's state and its promises per piece). Every PIECES_BETWEEN_TURNS pieces the event
 * loop runs once, so that a signal (Ctrl-C) is handled while a large log is read. The file is opened
 * at the first piece asked for, and closed when the reading ends, however it ends.
 *
 * Every piece is read into the same buffer: a piece is the consumer's until it asks for the next
 * one, and what it keeps past that it copies (`decodeLogStream` does). A new buffer per piece cost
 * more than the read itself: reading 89 MB into fresh 256 KiB buffers took 46 ms of CPU in a new
 * process (the kernel mapping fresh pages for each), into one buffer 6-7 ms; 1 GB 196-245 against
 * 45 ms.
 */
export async function* readFilePieces(file: string, from = 0): AsyncGenerator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    const piece = Buffer.allocUnsafeSlow(READ_PIECE);
    // From the start, the file's own position (a pipe has no other); from an offset, positioned reads.
    let position = from > 0 ? from : null;
    for (let k = 1; ; k++) {
      const n = readSync(fd, piece, 0, READ_PIECE, position);
      if (n === 0) return;
      if (position !== null) position += n;
      yield n === READ_PIECE ? piece : piece.subarray(0, n);
      if (k % PIECES_BETWEEN_TURNS === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
  }
}

/** 3 when the file begins with a UTF-8 byte-order mark (which `decodeLogStream` drops), else 0. */
export function bomBytes(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * The second read starts a read of its own at the next line it wants (`openAt`) when that line
 * begins this many bytes or more past where the read is (closer, it reads on and skips, `skipTo`).
 */
const SEEK_BYTES = 4 * READ_PIECE;

/**
 * `open` gives the log's bytes (or text) from the start, each time it is called; `openAt`, if
 * given, the same bytes from a byte offset of what `open` gave (undefined when they cannot be read
 * from there: the second read then reads from the start and skips).
 */
export async function analyzeReadTwice(
  open: () => AsyncIterable<Uint8Array | string>,
  options: AnalyzeOptions = {},
  openAt?: (offset: number) => AsyncIterable<Uint8Array> | undefined,
): Promise<AnalysisResult> {
  const analyzer = new LogAnalyzer({ ...options, keepLines: false });
  const batch = new LineBatch();
  const first = new ByteLineSplitter(batch.add, undefined, true, true);
  for await (const piece of open()) {
    first.push(piece);
    batch.into(analyzer);
  }
  first.end();
  batch.into(analyzer);
  // A baseline's split reads every block's lines: the analyzer kept them (keepLines is ignored).
  if (options.baseline !== undefined) return analyzer.end();
  const ranges = merged(analyzer.wanted());
  const texts = new Map<number, string>();
  const last = ranges[ranges.length - 1]?.[1] ?? -1;
  if (last >= 0) {
    // Lines are asked for in order: one pointer into the ranges.
    let r = 0;
    const wanted = (i: number): boolean => {
      while (r < ranges.length && ranges[r]![1] < i) r++;
      return r < ranges.length && ranges[r]![0] <= i;
    };
    const second: ByteLineSplitter = new ByteLineSplitter((line) => {
      const i = second.count - 1;
      if (wanted(i)) texts.set(i, line);
    }, wanted);
    // Where the first read marked the start of every MARK_STRIDE-th line, the second goes to the
    // stride of the next line it wants: far ahead, a read of its own starts there (`openAt`);
    // nearer, it skips the pieces before it (read, not cut into lines).
    const marks = first.marks;
    const ahead = (): { at: number; line: number } | undefined => {
      while (r < ranges.length && ranges[r]![1] < second.count) r++;
      const stride = Math.floor((ranges[r]?.[0] ?? 0) / MARK_STRIDE);
      const at = marks?.[stride];
      return at !== undefined && at > second.consumed && stride * MARK_STRIDE > second.count ? { at, line: stride * MARK_STRIDE } : undefined;
    };
    const seek = (): AsyncIterable<Uint8Array | string> | undefined => {
      const to = ahead();
      if (to === undefined || to.at - second.consumed < SEEK_BYTES) return undefined;
      const source = openAt?.(to.at);
      if (source !== undefined) second.startAt(to.at, to.line);
      return source;
    };
    let source = seek() ?? open();
    reading: for (;;) {
      for await (const piece of source) {
        second.push(piece);
        if (second.count > last) break reading;
        const further = seek();
        if (further !== undefined) {
          source = further;
          continue reading;
        }
        const to = ahead();
        if (to !== undefined) second.skipTo(to.at, to.line);
      }
      break;
    }
    if (second.count <= last) second.end();
  }
  return analyzer.complete((i) => texts.get(i));
}

/** Ranges (inclusive) sorted and merged. */
function merged(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    const top = out[out.length - 1];
    if (top !== undefined && a <= top[1] + 1) top[1] = Math.max(top[1], b);
    else out.push([a, b]);
  }
  return out;
}
