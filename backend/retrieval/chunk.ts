/**
 * Cutting a build log into overlapping, line-numbered chunks for embedding and retrieval,
 * streaming: neither function ever holds more than one chunk's worth of lines besides its input.
 */

/** A piece of the stored log: 1-based inclusive line numbers of the original log, and the text. */
export interface LogChunk {
  start_line: number;
  end_line: number;
  text: string;
}

export interface ChunkOptions {
  /** Lines per chunk (default 40). */
  linesPerChunk?: number;
  /** Lines shared by two neighbouring chunks (default 5), so a failure on a border is whole in one. */
  overlap?: number;
  /** Characters per chunk at most (default 4000): one 10 MB line becomes bounded pieces. */
  maxChars?: number;
  /** Number of the first line (default 1). */
  firstLine?: number;
}

export const DEFAULT_CHUNKING = { linesPerChunk: 40, overlap: 5, maxChars: 4000 } as const;

/**
 * The physical lines of a log split on `\n` (a final newline does not open a new line, as in
 * protocol/log/clean.ts), produced one by one: the text is never copied whole. A Buffer is
 * decoded line by line as UTF-8.
 */
export function* splitLines(log: string | Buffer): Generator<string> {
  const length = log.length;
  if (length === 0) return;
  const newline = typeof log === 'string' ? '\n' : 0x0a;
  let from = 0;
  while (from < length) {
    let to = typeof log === 'string' ? log.indexOf(newline as string, from) : log.indexOf(newline as number, from);
    if (to < 0) to = length;
    yield typeof log === 'string' ? log.slice(from, to) : log.toString('utf8', from, to);
    from = to + 1;
  }
}

interface NumberedLine {
  n: number;
  text: string;
}

function resolveOptions(options: ChunkOptions) {
  const linesPerChunk = Math.max(1, Math.floor(options.linesPerChunk ?? DEFAULT_CHUNKING.linesPerChunk));
  const overlap = Math.min(linesPerChunk - 1, Math.max(0, Math.floor(options.overlap ?? DEFAULT_CHUNKING.overlap)));
  const maxChars = Math.max(16, Math.floor(options.maxChars ?? DEFAULT_CHUNKING.maxChars));
  return { linesPerChunk, overlap, maxChars, firstLine: options.firstLine ?? 1 };
}

/**
 * A chunker fed one line at a time; `push` returns the chunks completed by that line and
 * `end` the last one. The synchronous core of chunkLines/chunkLineStream, usable inside any loop.
 */
export class Chunker {
  private readonly opts: ReturnType<typeof resolveOptions>;
  private window: NumberedLine[] = [];
  private chars = 0;
  /** How many lines of the window were already emitted in an earlier chunk (the overlap). */
  private carried = 0;
  private next: number;

  constructor(options: ChunkOptions = {}) {
    this.opts = resolveOptions(options);
    this.next = this.opts.firstLine;
  }

  /** Number of lines seen so far. */
  get lineCount(): number {
    return this.next - this.opts.firstLine;
  }

  push(line: string): LogChunk[] {
    const n = this.next++;
    const out: LogChunk[] = [];
    const { maxChars, linesPerChunk } = this.opts;
    if (line.length > maxChars) {
      // A giant line: flush what is pending, then emit the line in bounded pieces of its own.
      this.flush(out);
      this.window = [];
      this.chars = 0;
      this.carried = 0;
      for (let from = 0; from < line.length; from += maxChars) {
        out.push({ start_line: n, end_line: n, text: line.slice(from, from + maxChars) });
      }
      return out;
    }
    if (this.window.length > this.carried && this.chars + line.length + 1 > maxChars) this.flush(out);
    while (this.window.length > 0 && this.chars + line.length + 1 > maxChars) this.dropFirst();
    this.window.push({ n, text: line });
    this.chars += line.length + 1;
    if (this.window.length >= linesPerChunk) this.flush(out);
    return out;
  }

  end(): LogChunk[] {
    const out: LogChunk[] = [];
    this.flush(out);
    this.window = [];
    this.chars = 0;
    this.carried = 0;
    return out;
  }

  private dropFirst(): void {
    const first = this.window.shift();
    if (first) this.chars -= first.text.length + 1;
    if (this.carried > 0) this.carried--;
  }

  /** Emits the window when it holds a line not yet emitted, then keeps the overlap. */
  private flush(out: LogChunk[]): void {
    if (this.window.length <= this.carried) return;
    const first = this.window[0]!;
    const last = this.window[this.window.length - 1]!;
    out.push({ start_line: first.n, end_line: last.n, text: this.window.map((l) => l.text).join('\n') });
    // Keep the last `overlap` lines, but never more than half the character budget, so the
    // next chunk always has room for new lines.
    while (this.window.length > this.opts.overlap) this.dropFirst();
    while (this.window.length > 0 && this.chars > this.opts.maxChars / 2) this.dropFirst();
    this.carried = this.window.length;
  }
}

/** Chunks of a sequence of (cleaned) lines; line i of the sequence is line firstLine + i. */
export function* chunkLines(lines: Iterable<string>, options: ChunkOptions = {}): Generator<LogChunk> {
  const chunker = new Chunker(options);
  for (const line of lines) yield* chunker.push(line);
  yield* chunker.end();
}

/** chunkLines over an async source of lines (a file or request stream). */
export async function* chunkLineStream(
  lines: AsyncIterable<string> | Iterable<string>,
  options: ChunkOptions = {},
): AsyncGenerator<LogChunk> {
  const chunker = new Chunker(options);
  for await (const line of lines) yield* chunker.push(line);
  yield* chunker.end();
}
