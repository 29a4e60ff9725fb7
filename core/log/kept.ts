/**
 * The lines a streaming analysis keeps (analyze.ts): its window around the line it is at, and
 * past the window every line of every block, what its finding reads around it, and the tail.
 */
import type { LineInfo, LineView, Role } from './blocks.js';
import type { FailureShape } from './shapes.js';

/** Lines kept in the window: WINDOW_AHEAD ahead of the line at hand, the rest behind it (~90 read). */
export const RING = 512;
const MASK = RING - 1;

/** The lines around the one the pass is at, by absolute index; older ones are gone. */
export class Window implements LineView {
  length = 0;
  private readonly infos: (LineInfo | undefined)[] = new Array<LineInfo | undefined>(RING);
  private readonly texts: string[] = new Array<string>(RING).fill('');
  /** Build steps started before each line (a count: read as a small integer, where a Float64Array gave doubles to the blocks' fields). */
  private readonly steps = new Int32Array(RING);

  add(info: LineInfo, text: string, stepsBefore: number): void {
    const slot = this.length & MASK;
    this.infos[slot] = info;
    this.texts[slot] = text;
    this.steps[slot] = stepsBefore;
    this.length++;
  }

  get(i: number): LineInfo | undefined {
    if (i < 0 || i >= this.length) return undefined;
    if (i < this.length - RING) throw new Error(`log analyzer: line ${i + 1} is no longer in the window`);
    return this.infos[i & MASK];
  }

  text(i: number): string {
    if (i < this.length - RING) throw new Error(`log analyzer: line ${i + 1} is no longer in the window`);
    return this.texts[i & MASK] ?? '';
  }

  stepsBefore(i: number): number {
    return this.steps[i & MASK] ?? 0;
  }
}

/** A kept line with a shape: for the baseline's split, its role, shape and body. */
export interface KeptShape {
  role: Role;
  shape: FailureShape;
  /** The line as the rules read it (prefix set aside, cut). */
  body: string;
}

/** Kept lines by index in chunks of CHUNK: a map of a few thousand chunks, not of every line. */
const CHUNK_BITS = 8;
export const CHUNK = 1 << CHUNK_BITS;

/**
 * The lines kept past the window: every line of every block, what its finding reads around it,
 * and the tail. Blocks come in order, so the lines are set mostly in order, in runs.
 */
export class KeptLines {
  private readonly chunks = new Map<number, (string | undefined)[]>();
  /** Role, shape and body of the kept lines that have a shape (the baseline's split reads them). */
  readonly shaped = new Map<number, KeptShape>();
  /** Lines whose text is kept (counted by the caller that sets them). */
  texts = 0;

  /** Line i's text, or undefined if it was not kept. */
  get(i: number): string | undefined {
    return this.chunks.get(i >>> CHUNK_BITS)?.[i & (CHUNK - 1)];
  }

  /** The chunk line i falls in (made if need be). */
  chunkOf(i: number): (string | undefined)[] {
    const key = i >>> CHUNK_BITS;
    let chunk = this.chunks.get(key);
    if (chunk === undefined) {
      chunk = new Array<string | undefined>(CHUNK).fill(undefined);
      this.chunks.set(key, chunk);
    }
    return chunk;
  }

  /**
   * Lines kept by their indexes only (`LogAnalyzer` with `keepLines: false`): ranges of lines
   * whose text is read again from the log at the end, for the few excerpts shown.
   */
  private readonly ranges: [number, number][] = [];
  private sorted: [number, number][] | undefined;

  /** Lines from..to (0-based, inclusive) are kept, their text to be read again. */
  addRange(from: number, to: number): void {
    const last = this.ranges[this.ranges.length - 1];
    if (last !== undefined && from >= last[0] && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else this.ranges.push([from, to]);
    this.sorted = undefined;
  }

  /** The kept ranges within from..to (0-based, inclusive), in order, merged. */
  rangesWithin(from: number, to: number): [number, number][] {
    const out: [number, number][] = [];
    for (const [a, b] of this.merged()) {
      if (b < from || a > to) continue;
      out.push([Math.max(a, from), Math.min(b, to)]);
    }
    return out;
  }

  /** The runs of lines within from..to (0-based, inclusive) in a kept range whose text is not kept. */
  missing(from: number, to: number): [number, number][] {
    const out: [number, number][] = [];
    for (const [a, b] of this.rangesWithin(from, to)) {
      for (let k = a; k <= b; k++) {
        if (this.get(k) !== undefined) continue;
        let last = k;
        while (last + 1 <= b && this.get(last + 1) === undefined) last++;
        out.push([k, last]);
        k = last;
      }
    }
    return out;
  }

  /** Whether line i is in a kept range (`addRange`). */
  inRanges(i: number): boolean {
    const ranges = this.merged();
    let lo = 0;
    let hi = ranges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid]![1] < i) lo = mid + 1;
      else hi = mid;
    }
    const r = ranges[lo];
    return r !== undefined && r[0] <= i;
  }

  private merged(): [number, number][] {
    if (this.sorted !== undefined) return this.sorted;
    const out: [number, number][] = [];
    for (const [a, b] of [...this.ranges].sort((x, y) => x[0] - y[0])) {
      const last = out[out.length - 1];
      if (last !== undefined && a <= last[1] + 1) last[1] = Math.max(last[1], b);
      else out.push([a, b]);
    }
    this.sorted = out;
    return out;
  }

  /** Every kept line, by index. */
  forEach(f: (text: string, i: number) => void): void {
    for (const [key, chunk] of this.chunks) {
      for (let k = 0; k < CHUNK; k++) {
        const text = chunk[k];
        if (text !== undefined) f(text, (key << CHUNK_BITS) + k);
      }
    }
  }
}

/**
 * Up to this many lines, `sparseArray` and the findings' per-array caches (core/finding/body.ts
 * `lineBody`) are `new Array(total)`: holes all the same (`in`, `for-in`, `forEach` see only the
 * lines set), but in V8's fast elements, 8 bytes a line (2 MiB at this size), where a dictionary
 * costs a hash lookup at every read. The findings read the lines around each excerpt thousands of
 * times: on the LogChunks logs each its own stream (all of them under 33 000 lines), callgrind
 * counted 0.963x the instructions (docs/notes/analyzer.md, "Session 56 (helper sp19)"). Longer
 * logs keep the dictionary: 8 bytes a line would be +112 MB for a 1 GB log of 14.6 M lines.
 */
export const FAST_HOLES_MAX = 1 << 18;

/**
 * An array of `total` holes: up to FAST_HOLES_MAX in fast elements (`new Array`); longer, sparse
 * (V8 dictionary elements): `length = total` or `new Array(total)` allocate 8 bytes a line; an
 * element set past the end, then cut off, makes V8 keep only the elements set.
 */
export function sparseArray(total: number): string[] {
  if (total <= FAST_HOLES_MAX) {
    const fast = new Array<string>(total);
    SPARSE.add(fast);
    return fast;
  }
  const out: string[] = [];
  SPARSE.add(out);
  out[total] = '';
  out.length = total;
  return out;
}

/** The arrays `sparseArray` made. */
const SPARSE = new WeakSet<readonly string[]>();

/**
 * The indexes below `end` at which `lines` holds a line, ascending: of an array `sparseArray`
 * made, only the lines set (a loop over every index of a 14.6 M-line log's array cost ~1.7 CPU s
 * in dictionary lookups); of any other array, every index.
 */
export function* heldIndexes(lines: readonly string[], end: number): Generator<number> {
  const to = Math.min(lines.length, end);
  if (!SPARSE.has(lines)) {
    for (let i = 0; i < to; i++) yield i;
    return;
  }
  // for-in visits an array's integer keys in ascending order.
  for (const key in lines) {
    const i = Number(key);
    if (i >= to) return;
    yield i;
  }
}
