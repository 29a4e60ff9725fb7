/**
 * The lines a streaming analysis keeps past its window (analyze.ts): every line of every block,
 * what its finding reads around it, and the tail.
 */
import type { Role } from './blocks.js';
import type { FailureShape } from './shapes.js';

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
