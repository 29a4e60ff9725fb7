/**
 * The shapes of a context's rows that both writers share: the main thread's (knex, contexts.ts)
 * and the ingest worker's own SQLite connection (chunkWriter.ts). Pure: no knex, no driver, so
 * the worker loads neither.
 */

/** Float32 vector as little-endian bytes (the BLOB stored). */
export function vectorToBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** BLOB bytes back to a vector (copied: a Buffer slice may not be 4-byte aligned). */
export function bytesToVector(bytes: Buffer | Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** Chunks kept per term in context_terms (retrieval takes at most this many per term). */
export const TERM_POSTINGS = 16;

/**
 * The exact-term index of a context being built: each distinct identifier with the `seq` of
 * its first TERM_POSTINGS chunks. Filled chunk by chunk (in `seq` order), written once by
 * insertTerms (or the ingest worker's ChunkWriter).
 */
export class TermPostings {
  /**
   * A term's chunks: one `seq` as a number (most terms of a log are in one chunk only: an array
   * each cost about 40 % more heap, which the ingest worker's capped heap holds for the whole
   * upload), more as an array.
   */
  readonly postings = new Map<string, number | number[]>();

  /** Records that chunk `seq` holds `terms` (call in increasing `seq`). */
  add(seq: number, terms: readonly string[]): void {
    for (const term of terms) {
      const seqs = this.postings.get(term);
      if (seqs === undefined) this.postings.set(term, seq);
      else if (typeof seqs === 'number') this.postings.set(term, [seqs, seq]);
      else if (seqs.length < TERM_POSTINGS) seqs.push(seq);
    }
  }
}

/**
 * Buckets of a context's term index: a power of two near a quarter of its chunks (16..16384),
 * so a bucket holds a few dozen terms whatever the log's size. Derived from the stored
 * chunk_count: writer and readers agree without storing it.
 */
export function termBuckets(chunkCount: number): number {
  let buckets = 16;
  while (buckets < chunkCount / 4 && buckets < 16384) buckets *= 2;
  return buckets;
}

/** The bucket of a term: FNV-1a of its characters, MurmurHash3's finaliser, masked. Stored data depends on it. */
export function termBucket(term: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) & (buckets - 1);
}

/**
 * The context_terms rows of a term index, `[bucket, terms]`: one per non-empty bucket, its
 * text a line `<term> <seq>,<seq>,...` per term of the bucket (terms have no spaces), between
 * newlines. Yields `undefined` now and then (every 20,000 terms, every 1024 buckets) where a
 * caller on the event loop lets other work in: a log with a unique identifier per line has
 * hundreds of thousands of terms.
 */
export function* termRows(terms: TermPostings, chunkCount: number): Generator<[number, string] | undefined> {
  const buckets = termBuckets(chunkCount);
  const lines: string[][] = Array.from({ length: buckets }, () => []);
  let n = 0;
  for (const [term, seqs] of terms.postings) {
    lines[termBucket(term, buckets)]!.push(`${term} ${typeof seqs === 'number' ? seqs : seqs.join(',')}`);
    if (++n % 20_000 === 0) yield undefined;
  }
  for (let i = 0; i < lines.length; i++) {
    const bucket = lines[i]!;
    if (bucket.length > 0) yield [i, `\n${bucket.join('\n')}\n`];
    if (i % 1024 === 1023) yield undefined;
  }
}
