/**
 * The rows of a `building` context written by the ingest worker itself, on its own SQLite
 * connection (issue 28): better-sqlite3 is synchronous, and the chunk and term inserts of a big
 * upload, made on the backend's main thread, stalled every other request for 65-170 ms at a
 * time under load. Here they run on the worker's thread; the main thread only creates the
 * building context before and makes it ready after (store/contexts.ts), so the old context
 * stays whole until then, as with the main thread's writes. SQLite only: MySQL's driver is
 * asynchronous already.
 */
import Database from 'better-sqlite3';
import { termRows, vectorToBytes, type TermPostings } from './contextRows.js';

/**
 * Rows per write transaction. WAL with synchronous=NORMAL makes a commit cheap (no fsync), and
 * while the worker holds the write lock a write of the main thread waits (busy_timeout, on its
 * thread): small transactions keep that wait at a few milliseconds.
 */
export const CHUNK_ROWS_PER_TRANSACTION = 64;
const TERM_ROWS_PER_TRANSACTION = 256;

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

  constructor(private readonly target: ChunkWriteTarget) {
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
    for (let i = 0; i < rows.length; i += CHUNK_ROWS_PER_TRANSACTION) this.chunks(rows.slice(i, i + CHUNK_ROWS_PER_TRANSACTION));
  }

  /** Writes the context's term index (contextRows.ts termRows), once its chunks are all written. */
  writeTerms(terms: TermPostings, chunkCount: number): void {
    let batch: [number, string][] = [];
    for (const row of termRows(terms, chunkCount)) {
      if (row !== undefined) batch.push(row);
      if (batch.length >= TERM_ROWS_PER_TRANSACTION) {
        this.terms(batch);
        batch = [];
      }
    }
    if (batch.length > 0) this.terms(batch);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
