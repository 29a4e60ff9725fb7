/**
 * The rows of a `building` context written by the ingest worker itself, on its own SQLite
 * connection (issue 28): better-sqlite3 is synchronous, and the chunk and term inserts of a big
 * upload, made on the backend's main thread, stalled every other request for 65-170 ms at a
 * time under load. Here they run on the worker's thread; the main thread only creates the
 * building context before and makes it ready after (store/contexts.ts), so the old context
 * stays whole until then, as with the main thread's writes. SQLite only: MySQL's driver is
 * asynchronous already.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { termRows, vectorToBytes, type TermPostings } from './contextRows.js';

/**
 * Rows per write transaction. WAL with synchronous=NORMAL makes a commit cheap (no fsync), and
 * while the worker holds the write lock a write of the main thread waits (busy_timeout, on its
 * thread): small transactions keep that wait at a few milliseconds.
 */
export const CHUNK_ROWS_PER_TRANSACTION = 64;
const TERM_ROWS_PER_TRANSACTION = 256;

/**
 * Free space the writer leaves on the database's file system beyond what discarding its upload
 * needs. A failed upload is discarded by deleting its rows, and in WAL mode that delete writes
 * about as many pages as the rows took: an upload that filled the disk could not be discarded
 * (found by helper qa3 on a 30 MB tmpfs: the building context stayed, every later sweep, upload
 * and answer failed with "disk is full", the disk held by cichat's own dead rows). So the writer
 * stops (SQLITE_FULL, the route's "disk is full" answer) while the space left still covers what
 * it wrote so far, plus this.
 */
export const FREE_SPACE_RESERVE_BYTES = 16 * 1024 * 1024;

/** Bytes free to an unprivileged writer on the file system holding `file`. */
export function freeBytesNear(file: string): number {
  const s = fs.statfsSync(path.dirname(file));
  return s.bavail * s.bsize;
}

/** The disk is (about to be) full: the error SQLite gives, so callers treat it as one. */
function diskFull(free: number, needed: number): Error {
  const err = new Error(`database or disk is full: ${free} bytes free, ${needed} needed to write this batch and still be able to discard the upload`) as Error & { code: string };
  err.code = 'SQLITE_FULL';
  return err;
}

export interface ChunkToWrite {
  seq: number;
  start_line: number;
  end_line: number;
  text: string;
  embedding: Float32Array;
}

/** Where the worker writes: the SQLite file (DATABASE_URL's) and the building context. */
export interface ChunkWriteTarget {
  file: string;
  contextId: number;
}

export class ChunkWriter {
  private readonly db: Database.Database;
  private readonly insertChunk: Database.Statement;
  private readonly insertTerm: Database.Statement;
  private readonly chunks: (rows: readonly ChunkToWrite[]) => void;
  private readonly terms: (rows: readonly [number, string][]) => void;
  /** Bytes of rows written so far (about what discarding them writes to the WAL). */
  private written = 0;

  constructor(
    private readonly target: ChunkWriteTarget,
    /** The file system's free bytes (tests give their own). */
    private readonly freeBytes: () => number = () => freeBytesNear(target.file),
  ) {
    this.db = new Database(target.file, { fileMustExist: true });
    try {
      // As the main connection (db.ts): the file is in WAL mode already (a persistent setting).
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('busy_timeout = 5000');
      this.db.pragma('synchronous = NORMAL');
      this.insertChunk = this.db.prepare('insert into context_chunks (context_id, seq, start_line, end_line, text, embedding) values (?, ?, ?, ?, ?, ?)');
      this.insertTerm = this.db.prepare('insert into context_terms (context_id, bucket, terms) values (?, ?, ?)');
    } catch (err) {
      this.db.close();
      throw err;
    }
    const id = target.contextId;
    // IMMEDIATE: the write lock is taken at BEGIN (waiting there under busy_timeout), never upgraded midway.
    this.chunks = this.db
      .transaction((rows: readonly ChunkToWrite[]) => {
        for (const r of rows) this.insertChunk.run(id, r.seq, r.start_line, r.end_line, r.text, vectorToBytes(r.embedding));
      })
      .immediate;
    this.terms = this.db
      .transaction((rows: readonly [number, string][]) => {
        for (const [bucket, text] of rows) this.insertTerm.run(id, bucket, text);
      })
      .immediate;
  }

  /** Writes a batch of chunk rows, CHUNK_ROWS_PER_TRANSACTION a transaction. */
  writeChunks(rows: readonly ChunkToWrite[]): void {
    for (let i = 0; i < rows.length; i += CHUNK_ROWS_PER_TRANSACTION) {
      const batch = rows.slice(i, i + CHUNK_ROWS_PER_TRANSACTION);
      this.reserve(batch.reduce((n, r) => n + 64 + Buffer.byteLength(r.text) + r.embedding.byteLength, 0));
      this.chunks(batch);
    }
  }

  /**
   * Throws SQLITE_FULL unless the disk has room for `bytes` more and, after them, for
   * discarding all that was written (the same again) plus FREE_SPACE_RESERVE_BYTES.
   */
  private reserve(bytes: number): void {
    const free = this.freeBytes();
    const needed = 2 * bytes + this.written + FREE_SPACE_RESERVE_BYTES;
    if (free < needed) throw diskFull(free, needed);
    this.written += bytes;
  }

  /** Writes the context's term index (contextRows.ts termRows), once its chunks are all written. */
  writeTerms(terms: TermPostings, chunkCount: number): void {
    let batch: [number, string][] = [];
    for (const row of termRows(terms, chunkCount)) {
      if (row !== undefined) batch.push(row);
      if (batch.length >= TERM_ROWS_PER_TRANSACTION) {
        this.writeTermBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) this.writeTermBatch(batch);
  }

  private writeTermBatch(batch: readonly [number, string][]): void {
    this.reserve(batch.reduce((n, [, text]) => n + 32 + Buffer.byteLength(text), 0));
    this.terms(batch);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
