/**
 * The CPU part of a context upload, for one log: lines cut and cleaned, secrets masked, the
 * analyzer fed line by line, chunks made, embedded (local embedder) and their terms taken, and
 * what the stored context keeps of the text. Lines are cut from the bytes as `cichat analyze`
 * cuts them (`ByteLineSplitter`, with the analyzer's hints read from the bytes of a line the mask
 * leaves as it is) and given to the analyzer a piece at a time (`LineBatch`). No database and no I/O: it runs in the ingest
 * worker thread (ingestWorker.ts) or, for a small log, on the calling thread; both give the
 * same result. Memory is bounded: the analyzer's window and blocks, one partial line, the
 * chunker's lines, one batch of rows, and the stored text (at most `storedMaxChars`, then only
 * the last `tailLines` lines).
 */
import { LogAnalyzer } from '../../core/log/analyze.js';
import { BaselineBuilder } from '../../core/log/baseline.js';
import { cleanLine } from '../../core/log/clean.js';
import { ByteLineSplitter } from '../../core/log/lines.js';
import { LineBatch } from '../../core/log/reread.js';
import { createLineMasker } from '../../core/secrets.js';
import type { LogNotKept, StoredExcerpt } from '../store/contexts.js';

export type { LogNotKept } from '../store/contexts.js';
import { Chunker, splitLines, type LogChunk } from './chunk.js';
import { LocalEmbedder } from './embed.js';
import { extractTerms } from './terms.js';

/** Chunks embedded and inserted together (one INSERT, one message to the index worker). */
export const EMBED_BATCH = 256;
/** Identifiers of a chunk indexed for exact lookup at most. */
const TERMS_PER_CHUNK = 100;

export interface LogIngestOptions {
  /** The local embedder's dimension, when chunks are embedded here (else the caller embeds them). */
  localDim?: number;
  /** The last green build's log: its lines become the analyzer's baseline (its text is dropped). */
  green?: string;
  /** The stored context keeps the log text itself up to this many characters... */
  storedMaxChars: number;
  /** ...and above, only its last lines. */
  tailLines: number;
  /** Longest line kept in excerpts and in a stored tail. */
  lineMaxChars: number;
  /** Lines known to hold the failure (the analyzer's `focus`). */
  focus?: readonly (readonly [number, number])[];
  /** What is kept (chunked, embedded, stored) of a big log; absent: all of it. */
  keep?: LogKeepLimits;
}

/**
 * The bounded store (issue 28): a log of any size keeps its first `headChars` and last
 * `tailChars` characters of lines whole, plus, from the part between, the failing steps' lines
 * (`focus`) and the analyzer's ranked excerpts up to `middleChars`; the rest is only counted,
 * as ranges of line numbers. CONTEXT_LOG_HEAD_MIB, CONTEXT_LOG_TAIL_MIB, CONTEXT_LOG_MIDDLE_MIB.
 */
export interface LogKeepLimits {
  headChars: number;
  tailChars: number;
  middleChars: number;
}

/** Ranges listed at most in LogNotKept (kept excerpts between them can split the middle). */
const MAX_NOT_KEPT_RANGES = 64;

export interface ChunkRow {
  seq: number;
  start_line: number;
  end_line: number;
  text: string;
  terms: string[];
  /** Present when embedded here (local embedder). */
  embedding?: Float32Array;
}

export interface LogIngestSummary {
  lineCount: number;
  chunkCount: number;
  /** The whole cleaned, masked log, when it fits `storedMaxChars`. */
  storedLog?: string;
  /** Else its last `tailLines` lines. */
  storedTail?: string;
  excerpts: StoredExcerpt[];
  /** Lines of the green build's log that the excerpts were compared with. */
  greenLines?: number;
  /** What the stored context does not hold (a log over the keep limits), else absent. */
  notKept?: LogNotKept;
}

export const capLine = (line: string, max: number): string =>
  line.length > max ? `${line.slice(0, max)} [line cut: ${line.length} characters]` : line;

export class LogIngest {
  private readonly mask = createLineMasker();
  private readonly chunker = new Chunker();
  private readonly analyzer: LogAnalyzer;
  private readonly splitter: ByteLineSplitter;
  /** The lines of the piece being cut, for the analyzer once it is cut. */
  private readonly batch = new LineBatch();
  private readonly embedder: LocalEmbedder | undefined;
  private readonly greenLines: number | undefined;
  private pending: LogChunk[] = [];
  private chunkCount = 0;
  private storedChars = 0;
  /** The stored text while it fits; undefined once it does not (then `tail` only). */
  private stored: string[] | undefined = [];
  private tail: string[] = [];
  private tailStart = 0;
  // The bounded store: lines 1..headEnd are chunked as they come; after that they wait in the
  // tail queue, and what leaves it is the middle (kept when a failing step holds it, else counted).
  private readonly keep: LogKeepLimits | undefined;
  private lineNo = 0;
  private headChars = 0;
  private headOpen = true;
  private readonly tailQueue: { n: number; text: string }[] = [];
  private tailQueueStart = 0;
  private tailChars = 0;
  private middleChars = 0;
  /** Middle lines kept because a failing step holds them, in order. */
  private readonly middleKept: { n: number; text: string }[] = [];
  /** Middle lines not kept: merged ranges, counted. */
  private readonly dropped: [number, number][] = [];
  private droppedChars = 0;

  constructor(
    private readonly options: LogIngestOptions,
    /** Called with every full batch of rows, in order (and the last, smaller one at `end`). */
    private readonly emit: (rows: ChunkRow[]) => void,
  ) {
    let baseline;
    if (options.green !== undefined) {
      const mask = createLineMasker();
      const builder = new BaselineBuilder();
      for (const raw of splitLines(options.green)) builder.baseline.addLine(mask(cleanLine(raw)));
      baseline = builder.finish();
      this.greenLines = builder.baseline.lines;
    }
    this.analyzer = new LogAnalyzer({ ...(baseline ? { baseline } : {}), ...(options.focus ? { focus: options.focus } : {}) });
    this.embedder = options.localDim !== undefined ? new LocalEmbedder(options.localDim) : undefined;
    this.keep = options.keep;
    this.splitter = new ByteLineSplitter((line, length, hints) => this.line(line, length, hints), undefined, true);
  }

  /** A piece of the log's text. */
  pushText(text: string): void {
    this.splitter.push(text);
    this.batch.into(this.analyzer);
  }

  /** A piece of the log's bytes (UTF-8; a character cut between pieces is joined). */
  pushBytes(bytes: Uint8Array): void {
    this.splitter.push(bytes);
    this.batch.into(this.analyzer);
  }

  end(): LogIngestSummary {
    this.splitter.end();
    this.batch.into(this.analyzer);
    for (const chunk of this.chunker.end()) this.pending.push(chunk);
    this.flush();
    const result = this.analyzer.end();
    const max = this.options.lineMaxChars;
    const excerpts: StoredExcerpt[] = result.excerpts.map((e) => ({
      ...e,
      text: result.text(e).split('\n').map((l) => capLine(l, max)).join('\n'),
    }));
    const notKept = this.keep ? this.endBounded(result) : undefined;
    const lineCount = result.lineCount;
    const summary: LogIngestSummary = { lineCount, chunkCount: this.chunkCount, excerpts };
    if (this.stored !== undefined) summary.storedLog = lineCount ? `${this.stored.join('\n')}\n` : '';
    else summary.storedTail = `${this.tailLines().map((l) => capLine(l, max)).join('\n')}\n`;
    if (this.greenLines !== undefined) summary.greenLines = this.greenLines;
    if (notKept !== undefined) summary.notKept = notKept;
    return summary;
  }

  /** `hints`: the analyzer's hints of `cleaned` (-1: unknown), which hold for the masked line if the mask changed nothing. */
  private line(cleaned: string, length: number, hints: number): void {
    const line = this.mask(cleaned);
    this.batch.add(line, length, line === cleaned ? hints : -1);
    // A line cut by the splitter counts for what it was: it is no log to keep whole.
    this.storedChars += Math.max(line.length, length) + 1;
    if (this.stored !== undefined) {
      this.stored.push(line);
      if (this.storedChars > this.options.storedMaxChars) {
        // From here on only the last lines are kept: a ring of `tailLines`.
        this.tail = this.stored.slice(-this.options.tailLines);
        this.tailStart = 0;
        this.stored = undefined;
      }
    } else if (this.options.tailLines > 0) {
      if (this.tail.length < this.options.tailLines) this.tail.push(line);
      else {
        this.tail[this.tailStart] = line;
        this.tailStart = (this.tailStart + 1) % this.tail.length;
      }
    }
    const n = ++this.lineNo;
    if (this.keep === undefined) return this.chunkLine(line);
    if (this.headOpen && this.headChars + line.length + 1 <= this.keep.headChars) {
      this.headChars += line.length + 1;
      return this.chunkLine(line);
    }
    this.headOpen = false;
    this.tailQueue.push({ n, text: line });
    this.tailChars += line.length + 1;
    while (this.tailChars > this.keep.tailChars && this.tailQueueStart < this.tailQueue.length) {
      const out = this.tailQueue[this.tailQueueStart]!;
      this.tailQueue[this.tailQueueStart++] = undefined as unknown as { n: number; text: string };
      this.tailChars -= out.text.length + 1;
      this.middle(out.n, out.text);
    }
    // Compact the queue now and then (shift() on a big array is linear).
    if (this.tailQueueStart > 4096 && this.tailQueueStart * 2 > this.tailQueue.length) {
      this.tailQueue.splice(0, this.tailQueueStart);
      this.tailQueueStart = 0;
    }
  }

  private chunkLine(line: string): void {
    for (const chunk of this.chunker.push(line)) this.pending.push(chunk);
    if (this.pending.length >= EMBED_BATCH) this.flush();
  }

  /** A line between the head and the tail: kept when a failing step holds it (within the budget), else counted. */
  private middle(n: number, text: string): void {
    const size = text.length + 1;
    if (this.inFocus(n) && this.middleChars + size <= this.keep!.middleChars) {
      this.middleChars += size;
      this.middleKept.push({ n, text });
      return;
    }
    this.droppedChars += size;
    const last = this.dropped[this.dropped.length - 1];
    if (last !== undefined && last[1] === n - 1) last[1] = n;
    else this.dropped.push([n, n]);
  }

  private inFocus(n: number): boolean {
    for (const [first, last] of this.options.focus ?? []) if (n >= first && n <= last) return true;
    return false;
  }

  /**
   * The end of a bounded upload: the excerpts the analyzer ranked that fall in the part not
   * kept are kept too (best first, within what the middle budget has left; their lines come
   * from the analyzer, which holds every line of its blocks), then the middle's kept lines and
   * the tail are chunked in line order. Returns what is still not kept, or undefined when all is.
   */
  private endBounded(result: { excerpts: readonly { start_line: number; end_line: number }[]; line(n: number): string }): LogNotKept | undefined {
    const keep = this.keep!;
    const extra = new Map<number, string>();
    const droppedAt = (n: number): boolean => {
      // binary search over the merged ranges
      let lo = 0;
      let hi = this.dropped.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const r = this.dropped[mid]!;
        if (n < r[0]) hi = mid - 1;
        else if (n > r[1]) lo = mid + 1;
        else return true;
      }
      return false;
    };
    for (const e of result.excerpts) {
      for (let n = e.start_line; n <= e.end_line; n++) {
        if (extra.has(n) || !droppedAt(n)) continue;
        const text = result.line(n);
        if (this.middleChars + text.length + 1 > keep.middleChars) break;
        this.middleChars += text.length + 1;
        extra.set(n, text);
      }
    }
    // The kept middle lines, in order, chunked by runs of consecutive lines.
    const middle = [...this.middleKept, ...[...extra].map(([n, text]) => ({ n, text }))].sort((a, b) => a.n - b.n);
    let run: Chunker | undefined;
    let previous = -1;
    for (const { n, text } of middle) {
      if (run === undefined || n !== previous + 1) {
        if (run) for (const chunk of run.end()) this.pending.push(chunk);
        run = new Chunker({ firstLine: n });
      }
      for (const chunk of run.push(text)) this.pending.push(chunk);
      previous = n;
    }
    if (run) for (const chunk of run.end()) this.pending.push(chunk);
    this.flush();
    // The tail, one run.
    const first = this.tailQueue[this.tailQueueStart];
    if (first !== undefined) {
      const tail = new Chunker({ firstLine: first.n });
      for (let i = this.tailQueueStart; i < this.tailQueue.length; i++) {
        for (const chunk of tail.push(this.tailQueue[i]!.text)) this.pending.push(chunk);
        if (this.pending.length >= EMBED_BATCH) this.flush();
      }
      for (const chunk of tail.end()) this.pending.push(chunk);
      this.flush();
    }
    this.tailQueue.length = 0;
    // What stays out: the dropped ranges less the excerpt lines kept at the end.
    const ranges: [number, number][] = [];
    let lines = 0;
    let chars = this.droppedChars;
    for (const [a, b] of this.dropped) {
      let from = a;
      for (let n = a; n <= b + 1; n++) {
        if (n <= b && !extra.has(n)) continue;
        if (n > from) {
          ranges.push([from, n - 1]);
          lines += n - from;
        }
        if (n <= b) chars -= (extra.get(n)?.length ?? 0) + 1;
        from = n + 1;
      }
    }
    if (lines === 0) return undefined;
    while (ranges.length > MAX_NOT_KEPT_RANGES) {
      const last = ranges.pop()!;
      ranges[ranges.length - 1]![1] = last[1];
    }
    return { lines, chars, ranges, totalLines: this.lineNo };
  }

  private tailLines(): string[] {
    return [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)];
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const rows = batch.map((c, i): ChunkRow => {
      const row: ChunkRow = { seq: this.chunkCount + i, start_line: c.start_line, end_line: c.end_line, text: c.text, terms: extractTerms(c.text, TERMS_PER_CHUNK) };
      if (this.embedder !== undefined) row.embedding = this.embedder.embedOne(c.text);
      return row;
    });
    this.chunkCount += batch.length;
    this.emit(rows);
  }
}
