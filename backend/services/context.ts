/**
 * The context service (issue 31): a chat's uploaded CI context and the work behind the context
 * routes (ingest, retrieval, the index cache, the upload slots), no Koa in it. Made once per
 * process with everything it needs, the database included: nothing is bound late.
 */
import type { ChatContext } from '../answer/engine.js';
import type { Db } from '../db.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Embedder } from '../retrieval/embed.js';
import { DEFAULT_LOG_KEEP } from '../retrieval/ingest.js';
import { IngestPool, ingestHeapMb } from '../retrieval/ingestPool.js';
import type { LogKeepLimits } from '../retrieval/logIngest.js';
import { loadChatContext, type ContextDeps } from '../retrieval/retrieve.js';
import { VectorIndexCache, closeIdleIndexWorker } from '../retrieval/vectorIndex.js';

/** Context uploads processed at once by one process unless CONTEXT_UPLOADS_MAX says otherwise. */
export const DEFAULT_CONTEXT_UPLOADS_MAX = 1;

/** A count of the uploads in progress, refused beyond `max`. */
export class UploadSlots {
  private used = 0;
  constructor(readonly max: number) {}
  tryTake(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }
  release(): void {
    this.used = Math.max(0, this.used - 1);
  }
  get inUse(): number {
    return this.used;
  }
}

/** What a context service is made of besides the process's database and lifecycle. */
export interface ContextServiceOptions {
  /** Where the vector-index files live (DATA_DIR). */
  dataDir: string;
  embedder: Embedder;
  /** CONTEXT_UPLOADS_MAX: uploads processed at once (default 1); more get 503 with Retry-After. */
  uploadsMax?: number;
  /** CONTEXT_LOG_*_MIB: what a context keeps of a big log (default DEFAULT_LOG_KEEP). */
  logKeep?: LogKeepLimits;
}

/** The context part of one backend process, as the routes and the answer job use it. */
export interface ContextService {
  /** What ingest and retrieval run on. */
  readonly deps: ContextDeps;
  /** The upload slots (CONTEXT_UPLOADS_MAX). */
  readonly slots: UploadSlots;
  /** The chat's ChatContext for the answer engines (null when none was uploaded). */
  loadContext(chatId: number): Promise<ChatContext | null>;
  /** After a chat is deleted: drops its index (memory and files under DATA_DIR/index/). */
  onChatDeleted(chatId: number): Promise<void>;
  /** Uploads being read or ingested now (at most CONTEXT_UPLOADS_MAX). */
  uploadsInProgress(): number;
  /** Stops the idle worker threads (ingest, index) and waits until they have ended; after the uploads. */
  close(): Promise<void>;
}

export function createContextService(options: ContextServiceOptions & { db: Db; lifecycle?: Lifecycle }): ContextService {
  const indexes = new VectorIndexCache(options.dataDir);
  const slots = new UploadSlots(options.uploadsMax ?? DEFAULT_CONTEXT_UPLOADS_MAX);
  // One ingest worker per upload slot at most (the slots bound how many run at once).
  const ingestPool = new IngestPool(slots.max, ingestHeapMb(options.logKeep ?? DEFAULT_LOG_KEEP));
  const deps: ContextDeps = {
    db: options.db,
    embedder: options.embedder,
    indexes,
    ingestPool,
    ...(options.logKeep ? { logKeep: options.logKeep } : {}),
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
  };
  return {
    deps,
    slots,
    loadContext: (chatId) => loadChatContext(deps, chatId),
    onChatDeleted: (chatId) => indexes.delete(chatId),
    uploadsInProgress: () => slots.inUse,
    close: async () => {
      await Promise.all([ingestPool.close(), closeIdleIndexWorker()]);
    },
  };
}
