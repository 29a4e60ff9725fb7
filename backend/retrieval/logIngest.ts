/**
 * The CPU part of a context upload, for one log: lines cut and cleaned, secrets masked, the
 * analyzer fed line by line, chunks made, embedded (local embedder) and their terms taken, and
 * what the stored context keeps of the text. No database and no I/O: it runs in the ingest
 * worker thread (ingestWorker.ts) or, for a small log, on the calling thread; both give the
 * same result. Memory is bounded: the analyzer's window and blocks, one partial line, the
 * chunker's lines, one batch of rows, and the stored text (at most `storedMaxChars`, then only
 * the last `tailLines` lines).
 */
import { LogAnalyzer } from '../../core/log/analyze.js';
import { BaselineBuilder } from '../../core/log/baseline.js';
import { LineSplitter, cleanLine } from '../../core/log/clean.js';
import { createLineMasker } from '../../core/secrets.js';
import type { StoredExcerpt } from '../store/contexts.js';
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
}

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
}

export const capLine = (line: string, max: number): string =>
  line.length > max ? `${line.slice(0, max)} [line cut: ${line.length} characters]` : line;

export class LogIngest {
  private readonly mask = createLineMasker();
  private readonly chunker = new Chunker();
  private readonly analyzer: LogAnalyzer;
  private readonly splitter: LineSplitter;
  private readonly decoder = new TextDecoder();
  private readonly embedder: LocalEmbedder | undefined;
  private readonly greenLines: number | undefined;
  private pending: LogChunk[] = [];
  private chunkCount = 0;
  private storedChars = 0;
  /** The stored text while it fits; undefined once it does not (then `tail` only). */
  private stored: string[] | undefined = [];
  private tail: string[] = [];
  private tailStart = 0;

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
    this.splitter = new LineSplitter((line, length) => this.line(line, length));
  }

  /** A piece of the log's text. */
  pushText(text: string): void {
    this.splitter.push(text);
  }

  /** A piece of the log's bytes (UTF-8; a character cut between pieces is joined). */
  pushBytes(bytes: Uint8Array): void {
    this.splitter.push(this.decoder.decode(bytes, { stream: true }));
  }

  end(): LogIngestSummary {
    this.splitter.push(this.decoder.decode());
    this.splitter.end();
    for (const chunk of this.chunker.end()) this.pending.push(chunk);
    this.flush();
    const result = this.analyzer.end();
    const max = this.options.lineMaxChars;
    const excerpts: StoredExcerpt[] = result.excerpts.map((e) => ({
      ...e,
      text: result.text(e).split('\n').map((l) => capLine(l, max)).join('\n'),
    }));
    const lineCount = result.lineCount;
    const summary: LogIngestSummary = { lineCount, chunkCount: this.chunkCount, excerpts };
    if (this.stored !== undefined) summary.storedLog = lineCount ? `${this.stored.join('\n')}\n` : '';
    else summary.storedTail = `${this.tailLines().map((l) => capLine(l, max)).join('\n')}\n`;
    if (this.greenLines !== undefined) summary.greenLines = this.greenLines;
    return summary;
  }

  private line(cleaned: string, length: number): void {
    const line = this.mask(cleaned);
    this.analyzer.push(line);
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
    for (const chunk of this.chunker.push(line)) this.pending.push(chunk);
    if (this.pending.length >= EMBED_BATCH) this.flush();
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
