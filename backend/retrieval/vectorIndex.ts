/**
 * The per-chat HNSW index (hnswlib-node, cosine space) under `DATA_DIR/index/`. The database
 * holds every chunk's vector and is the source of truth; the index file is a cache that any
 * backend process rebuilds from it when the file is missing, corrupt, made by another embedder
 * or dimension, or older than the chat's current context. Files are written atomically (temp
 * file + rename) with a JSON sidecar describing them, and checked against it (size and SHA-1)
 * before the native reader ever sees them.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './moduleWorker.js';
import hnswlib from 'hnswlib-node';

// hnswlib-node is CommonJS: its named exports are not visible to ESM's static import.
const { HierarchicalNSW } = hnswlib;
type Hnsw = InstanceType<typeof HierarchicalNSW>;

/** What the caller expects the index to be (the chat's current context, from the database). */
export interface IndexTarget {
  chatId: number;
  contextId: number;
  uploadedAt: number;
  embedderId: string;
  dim: number;
  /** Number of vectors; labels are 0..count-1, the chunks' `seq`. */
  count: number;
}

/** What an index file holds, recorded beside it: the target it was built for, and the file. */
export interface IndexMeta extends IndexTarget {
  /** Format of the sidecar and the labels: bump to make every old file rebuild. */
  version: number;
  /** Points in the file: `count` less the repeated vectors. */
  points: number;
  /** The index file's name, size and SHA-1: a torn or foreign file is never loaded. */
  file: string;
  bytes: number;
  sha1: string;
}

/** Vectors of the context's chunks in `seq` order (label i is vectors[i]). */
export type LoadVectors = () => Promise<Float32Array[]>;

export interface Neighbour {
  /** The chunk's `seq` within its context. */
  label: number;
  /** Cosine similarity, 1 = same direction. */
  similarity: number;
}

const FORMAT_VERSION = 2;
const M = 12;
const EF_CONSTRUCTION = 40;
const EF_SEARCH = 256;

export function indexDir(dataDir: string): string {
  return path.join(dataDir, 'index');
}

const sidecarPath = (dataDir: string, chatId: number) => path.join(indexDir(dataDir), `chat-${chatId}.json`);
const indexFileName = (chatId: number, contextId: number) => `chat-${chatId}-ctx-${contextId}.hnsw`;

/**
 * Writes `bytes` (or what `write` puts at a path) to `file` atomically: temp file, fsync, rename.
 * Whatever else sits at `file` (a directory, a symbolic link: never ours) is removed first, so a
 * cache file replaced by something else is rebuilt rather than left failing forever.
 */
async function writeAtomically(file: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await write(tmp);
    // Private whatever the umask (hnswlib creates its file with the process's default mode).
    await fsp.chmod(tmp, 0o600);
    const handle = await fsp.open(tmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const existing = await fsp.lstat(file).catch(() => null);
    if (existing && !existing.isFile()) await fsp.rm(file, { recursive: true, force: true });
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
}

async function sha1Of(file: string): Promise<{ sha1: string; bytes: number }> {
  const hash = createHash('sha1');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha1: hash.digest('hex'), bytes };
}

function matches(meta: IndexMeta, target: IndexTarget): boolean {
  return (
    meta.version === FORMAT_VERSION &&
    meta.chatId === target.chatId &&
    meta.contextId === target.contextId &&
    meta.uploadedAt === target.uploadedAt &&
    meta.embedderId === target.embedderId &&
    meta.dim === target.dim &&
    meta.count === target.count &&
    meta.file === indexFileName(target.chatId, target.contextId)
  );
}

async function readSidecar(dataDir: string, chatId: number): Promise<IndexMeta | null> {
  try {
    const parsed = JSON.parse(await fsp.readFile(sidecarPath(dataDir, chatId), 'utf8')) as IndexMeta;
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

/** Builds an in-memory index of `vectors` (labels 0..n-1). */
export function buildIndex(dim: number, vectors: Float32Array[]): IndexBuilder {
  const builder = new IndexBuilder(dim, vectors.length);
  builder.add(vectors);
  return builder;
}

/**
 * An index filled as an upload's chunks are embedded (so their vectors need not be kept), then
 * handed to VectorIndexCache.install under the context's target once committed.
 */
export class IndexBuilder implements IndexWriter {
  readonly index: Hnsw;
  private capacity: number;
  private count = 0;
  private points = 0;
  /**
   * Vectors already in the index, by content: a log repeats itself (the same chunk text, the
   * pieces of a giant line) and HNSW inserts of identical points degrade to a scan of all of
   * them (2600 equal vectors took 6 s). A repeat keeps its label free and is not searchable:
   * its twin, with the same text, is.
   */
  private readonly seen = new Set<string>();

  constructor(
    readonly dim: number,
    expected = 1024,
  ) {
    this.capacity = Math.max(16, expected);
    this.index = new HierarchicalNSW('cosine', dim);
    this.index.initIndex({ maxElements: this.capacity, m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 100 });
  }

  /** Vectors given (chunks), repeats included. */
  get size(): number {
    return this.count;
  }

  /** Points in the index (distinct vectors). */
  get pointCount(): number {
    return this.points;
  }

  async writeTo(file: string): Promise<void> {
    await this.index.writeIndex(file);
  }

  /**
   * Adds vectors with the next labels (their chunks' seq, from 0). `stopped` (the index
   * worker's stop flag) is asked before each vector: once true, the rest are not added.
   */
  add(vectors: Float32Array[], stopped?: () => boolean): void {
    if (this.points + vectors.length > this.capacity) {
      while (this.points + vectors.length > this.capacity) this.capacity *= 2;
      this.index.resizeIndex(this.capacity);
    }
    for (const v of vectors) {
      if (stopped?.()) return;
      if (v.length !== this.dim) throw new Error(`vector has ${v.length} dimensions, expected ${this.dim}`);
      const label = this.count++;
      const key = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.index.addPoint(Array.from(v), label);
      this.points++;
    }
  }
}

/** What writeFile needs of a builder. */
interface IndexWriter {
  readonly pointCount: number;
  writeTo(file: string): Promise<void>;
}


/**
 * An IndexBuilder on a worker thread: the HNSW inserts (the costliest part of an upload after
 * the embedding) run beside the embedding of the next chunks instead of after it, and off the
 * event loop. `add` returns at once; `writeTo` waits for every insert. Close it when done.
 */
/**
 * The index worker kept between uploads (at most one, unref'd so it never keeps a process
 * alive): starting a thread costs ~20 ms from the build and ~110 ms from the sources (tsx
 * compiles the module in the new thread), once per upload before this.
 */
let idleWorker: Worker | undefined;
let idleExit: (() => void) | undefined;
/** Index worker threads started in this process (tests, benchmarks). */
export const indexWorkerStats = { started: 0, idleExitListeners: (): number => idleWorker?.listenerCount('exit') ?? 0 };

/**
 * Stops the index worker kept between uploads, if any, and waits until its thread has ended
 * (it is idle: no native call is cut). A process that ends kills it anyway; a test file (whose
 * modules Jest loads afresh, each with its own idle worker) or a closing backend says so.
 */
export async function closeIdleIndexWorker(): Promise<void> {
  const worker = idleWorker;
  if (worker === undefined) return;
  idleWorker = undefined;
  if (idleExit !== undefined) worker.off('exit', idleExit);
  idleExit = undefined;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage({ type: 'close' });
  await exited;
}

export class WorkerIndexBuilder implements IndexWriter {
  private readonly worker: Worker;
  private count = 0;
  private points = 0;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (points: number) => void; reject: (err: Error) => void }>();
  private failure: Error | null = null;
  /** Set to 1 by close: the worker skips what is still queued. */
  private readonly stop = new Int32Array(new SharedArrayBuffer(4));
  private readonly exited: Promise<void>;
  private closing = false;
  /** writeTo finished without a failure: the worker is idle and may serve the next upload. */
  private written = false;
  /** Closed after a clean write: the worker went back to be reused. */
  private parked = false;
  private readonly onMessage = (msg: { type: string; id: number; points?: number; message?: string }): void => {
    const waiter = this.waiting.get(msg.id);
    if (msg.type === 'error') {
      this.failure ??= new Error(`index worker: ${msg.message ?? 'failed'}`);
      waiter?.reject(this.failure);
    } else {
      if (msg.points !== undefined) this.points = msg.points;
      waiter?.resolve(msg.points ?? 0);
    }
    this.waiting.delete(msg.id);
  };
  private readonly onError = (err: Error): void => this.fail(err);
  private onExit: () => void = () => undefined;

  constructor(readonly dim: number) {
    const reused = idleWorker;
    idleWorker = undefined;
    if (reused !== undefined && idleExit !== undefined) reused.off('exit', idleExit);
    idleExit = undefined;
    if (reused === undefined) indexWorkerStats.started++;
    this.worker = reused ?? startModuleWorker(import.meta.url, 'indexWorker');
    this.worker.ref();
    this.exited = new Promise((resolve) => {
      this.onExit = () => {
        this.fail(new Error(this.closing ? 'index builder closed' : 'index worker exited'));
        resolve();
      };
    });
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.worker.postMessage({ type: 'start', dim, stop: this.stop.buffer });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }

  private send(message: Record<string, unknown>): Promise<number> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /** Vectors given (chunks), repeats included. */
  get size(): number {
    return this.count;
  }

  /** Points in the index; known once writeTo has finished. */
  get pointCount(): number {
    return this.points;
  }

  /** Queues vectors with the next labels; a failure surfaces at writeTo. */
  add(vectors: Float32Array[]): void {
    for (const v of vectors) {
      if (v.length !== this.dim) throw new Error(`vector has ${v.length} dimensions, expected ${this.dim}`);
    }
    this.count += vectors.length;
    this.send({ type: 'add', vectors }).catch(() => undefined);
  }

  async writeTo(file: string): Promise<void> {
    await this.send({ type: 'write', file });
    this.written = true;
  }

  /**
   * Ends this builder. After a clean writeTo the worker is idle (every message before it was
   * handled): it drops its index and is kept for the next upload. Otherwise the worker is
   * stopped and this waits until its thread has ended: queued inserts are skipped, one in
   * progress finishes (a few milliseconds), no native call is cut (see indexWorker.ts).
   */
  async close(): Promise<void> {
    if (this.parked) return;
    if (!this.closing && this.written && this.failure === null) {
      this.closing = true;
      this.parked = true;
      this.failure = new Error('index builder closed');
      this.worker.off('message', this.onMessage);
      this.worker.off('error', this.onError);
      this.worker.off('exit', this.onExit);
      this.worker.postMessage({ type: 'done' });
      this.worker.unref();
      if (idleWorker === undefined) {
        const parked = this.worker;
        idleWorker = parked;
        // A worker that ends while idle is not handed out (the listener goes when it is reused).
        idleExit = () => {
          if (idleWorker === parked) idleWorker = undefined;
        };
        parked.once('exit', idleExit);
      } else this.worker.postMessage({ type: 'close' });
      return;
    }
    if (!this.closing) {
      this.closing = true;
      Atomics.store(this.stop, 0, 1);
      this.worker.postMessage({ type: 'close' });
    }
    await this.exited;
  }
}

/** How an index was obtained, for logs, tests and benchmarks. */
export type IndexSource = 'memory' | 'file' | 'rebuilt';

interface Loaded {
  target: IndexTarget;
  index: Hnsw;
}

/**
 * The index cache of one backend process: indexes in memory (a few recent chats), backed by
 * files under DATA_DIR/index/, rebuilt from the database when they do not match.
 */
export class VectorIndexCache {
  private readonly memory = new Map<number, Loaded>();
  private readonly inFlight = new Map<string, Promise<{ index: Hnsw; source: IndexSource }>>();

  constructor(
    readonly dataDir: string,
    private readonly maxInMemory = 8,
  ) {}

  /** The index for `target`, from memory, from its file, or rebuilt from `load` (and saved). */
  async open(target: IndexTarget, load: LoadVectors): Promise<{ index: Hnsw; source: IndexSource }> {
    const cached = this.memory.get(target.chatId);
    if (cached && sameTarget(cached.target, target)) {
      // Most recently used last, for the eviction below.
      this.memory.delete(target.chatId);
      this.memory.set(target.chatId, cached);
      return { index: cached.index, source: 'memory' };
    }
    const key = `${target.chatId}:${target.contextId}:${target.embedderId}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.openUncached(target, load).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const result = await pending;
    this.remember(target, result.index);
    return result;
  }

  /** The k nearest chunks of the context to `query` (fewer when the context has fewer chunks). */
  async search(target: IndexTarget, load: LoadVectors, query: Float32Array, k: number): Promise<Neighbour[]> {
    if (target.count === 0 || k <= 0) return [];
    const { index } = await this.open(target, load);
    const n = Math.min(k, index.getCurrentCount());
    if (n === 0) return [];
    index.setEf(Math.max(EF_SEARCH, n));
    const result = index.searchKnn(Array.from(query), n);
    return result.neighbors.map((label, i) => ({ label, similarity: 1 - (result.distances[i] ?? 1) }));
  }

  /**
   * Adopts an index built during an upload as the one of `target` (now the chat's context):
   * kept in memory and written to its file. A failed write only costs a rebuild later.
   */
  async install(target: IndexTarget, builder: IndexBuilder | WorkerIndexBuilder): Promise<void> {
    if (builder.size !== target.count || builder.dim !== target.dim) {
      throw new Error(`index of ${builder.size} vectors does not match context ${target.contextId}`);
    }
    if (builder instanceof IndexBuilder) {
      builder.index.setEf(EF_SEARCH);
      this.remember(target, builder.index);
    }
    try {
      // The worker's index lives in the worker: the first search loads the file it wrote.
      await this.writeFile(target, builder);
    } catch {
      // Only a cache.
    }
  }

  /** Forgets the chat's index in memory and deletes its files. */
  async delete(chatId: number): Promise<void> {
    this.memory.delete(chatId);
    await deleteChatIndex(this.dataDir, chatId);
  }

  private remember(target: IndexTarget, index: Hnsw): void {
    this.memory.delete(target.chatId);
    this.memory.set(target.chatId, { target, index });
    while (this.memory.size > this.maxInMemory) {
      const oldest = this.memory.keys().next().value;
      if (oldest === undefined) break;
      this.memory.delete(oldest);
    }
  }

  private async openUncached(target: IndexTarget, load: LoadVectors): Promise<{ index: Hnsw; source: IndexSource }> {
    const fromFile = await this.readFile(target);
    if (fromFile) return { index: fromFile, source: 'file' };
    const vectors = await load();
    if (vectors.length !== target.count) {
      throw new Error(`context ${target.contextId} has ${vectors.length} vectors, expected ${target.count}`);
    }
    const builder = buildIndex(target.dim, vectors);
    builder.index.setEf(EF_SEARCH);
    try {
      await this.writeFile(target, builder);
    } catch {
      // The file is only a cache: a read-only or full disk costs a rebuild next time, no answer.
    }
    return { index: builder.index, source: 'rebuilt' };
  }

  private async readFile(target: IndexTarget): Promise<Hnsw | null> {
    const meta = await readSidecar(this.dataDir, target.chatId);
    if (!meta || !matches(meta, target)) return null;
    const file = path.join(indexDir(this.dataDir), meta.file);
    try {
      // Only a regular file of ours: a directory or a link in its place is rebuilt over.
      if (!(await fsp.lstat(file)).isFile()) return null;
      const { sha1, bytes } = await sha1Of(file);
      if (sha1 !== meta.sha1 || bytes !== meta.bytes) return null;
      const index = new HierarchicalNSW('cosine', target.dim);
      await index.readIndex(file);
      // readIndex sizes the index to what the file holds; leave room as the contract of the API asks.
      index.resizeIndex(Math.max(1, index.getCurrentCount()));
      if (index.getCurrentCount() !== meta.points || index.getNumDimensions() !== target.dim) return null;
      index.setEf(EF_SEARCH);
      return index;
    } catch {
      return null;
    }
  }

  private async writeFile(target: IndexTarget, builder: IndexWriter): Promise<void> {
    const dir = indexDir(this.dataDir);
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const name = indexFileName(target.chatId, target.contextId);
    const file = path.join(dir, name);
    await writeAtomically(file, (tmp) => builder.writeTo(tmp));
    const { sha1, bytes } = await sha1Of(file);
    const meta: IndexMeta = { version: FORMAT_VERSION, ...target, points: builder.pointCount, file: name, bytes, sha1 };
    await writeAtomically(sidecarPath(this.dataDir, target.chatId), (tmp) => fsp.writeFile(tmp, JSON.stringify(meta), { mode: 0o600 }));
    // Index files of this chat's older contexts are garbage now (newer ones belong to a
    // concurrent upload seen by another process: left alone).
    const older = new RegExp(`^chat-${target.chatId}-ctx-(\\d+)\\.hnsw$`);
    for (const entry of await fsp.readdir(dir)) {
      const m = older.exec(entry);
      if (m && Number(m[1]) < target.contextId) await fsp.rm(path.join(dir, entry), { recursive: true, force: true });
    }
  }
}

function sameTarget(a: IndexTarget, b: IndexTarget): boolean {
  return (
    a.chatId === b.chatId &&
    a.contextId === b.contextId &&
    a.uploadedAt === b.uploadedAt &&
    a.embedderId === b.embedderId &&
    a.dim === b.dim &&
    a.count === b.count
  );
}

/** Deletes every index file of the chat under DATA_DIR/index/ (called when the chat is deleted). */
export async function deleteChatIndex(dataDir: string, chatId: number): Promise<void> {
  const dir = indexDir(dataDir);
  let entries: string[];
  try {
    entries = await fsp.readdir(dir);
  } catch {
    return;
  }
  const prefix = `chat-${chatId}-`;
  const sidecar = `chat-${chatId}.json`;
  await Promise.all(
    entries
      .filter((e) => e.startsWith(prefix) || e === sidecar || e.startsWith(`${sidecar}.tmp-`))
      .map((e) => fsp.rm(path.join(dir, e), { recursive: true, force: true })),
  );
}
