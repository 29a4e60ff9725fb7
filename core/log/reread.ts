/**
 * The analysis of a log that can be read again (a file): the first read keeps the text of at most
 * LAZY_TEXTS lines past the analyzer's window (`keepLines: false`); when the result needs others
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
 * A file's bytes in pieces of READ_PIECE, read with `readSync`: 89 MB took 18-21 ms of CPU so, and
 * 75-92 ms through `createReadStream` with the same pieces (the thread pool's hops, the stream's
 * state and its promises per piece). Every PIECES_BETWEEN_TURNS pieces the event loop runs once,
 * so that a signal (Ctrl-C) is handled while a large log is read. Each piece is a buffer of its
 * own (a consumer may keep it, as `decodeLogStream` keeps the first). The file is opened at the
 * first piece asked for, and closed when the reading ends, however it ends.
 */
export async function* readFilePieces(file: string): AsyncGenerator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    for (let k = 1; ; k++) {
      const piece = Buffer.allocUnsafeSlow(READ_PIECE);
      const n = readSync(fd, piece, 0, READ_PIECE, null);
      if (n === 0) return;
      yield n === READ_PIECE ? piece : piece.subarray(0, n);
      if (k % PIECES_BETWEEN_TURNS === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(fd);
  }
}

/** `open` gives the log's bytes (or text) from the start, each time it is called. */
export async function analyzeReadTwice(open: () => AsyncIterable<Uint8Array | string>, options: AnalyzeOptions = {}): Promise<AnalysisResult> {
  const analyzer = new LogAnalyzer({ ...options, keepLines: false });
  const first = new ByteLineSplitter((line, _length, hints) => analyzer.push(line, hints), undefined, true, true);
  for await (const piece of open()) first.push(piece);
  first.end();
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
    // Where the first read marked the start of every MARK_STRIDE-th line, the second skips the
    // pieces before the stride of the next line it wants: they are read, not cut into lines.
    const marks = first.marks;
    for await (const piece of open()) {
      second.push(piece);
      if (second.count > last) break;
      while (r < ranges.length && ranges[r]![1] < second.count) r++;
      const stride = Math.floor((ranges[r]?.[0] ?? 0) / MARK_STRIDE);
      const at = marks?.[stride];
      if (at !== undefined && at > second.consumed && stride * MARK_STRIDE > second.count) second.skipTo(at, stride * MARK_STRIDE);
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
