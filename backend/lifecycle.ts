import { randomUUID } from 'node:crypto';

/** Why a running stream is ended by the backend itself (not by its client or its engine). */
export type StopReason = 'shutdown' | 'deleted';

/** What the `error` event of a stream cut by the backend says. */
export const STOP_DETAIL: Record<StopReason, string> = {
  shutdown: 'The backend is shutting down: the answer so far is saved as interrupted; ask again in a moment.',
  deleted: 'The chat was deleted.',
};

/** A stream running in this process, as the lifecycle sees it. */
export interface ActiveStream {
  readonly chatId: number;
  /** Ends the stream with an `error` event; the pair is saved `interrupted` (unless deleted). */
  stop(reason: StopReason): void;
  /** Settles once the pair is saved, the lease released and the stream ended. */
  readonly done: Promise<void>;
}

/**
 * The life of one backend process: its replica id (the prefix of the owner written on the leases
 * its streams take, store/pairs.ts streamLeaseOwner, and the owner of the uploads it builds), the streams and uploads running in it, and whether it is closing.
 * Shutdown stops every stream and waits for each to save its pair before the database closes.
 */
export class Lifecycle {
  closing = false;
  private readonly streams = new Set<ActiveStream>();
  /** Building contexts this process writes now, each with how to stop it. */
  private readonly uploads = new Map<number, () => void>();

  constructor(readonly replicaId: string = randomUUID()) {}

  addStream(stream: ActiveStream): void {
    this.streams.add(stream);
    void stream.done.finally(() => this.streams.delete(stream));
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /** Ends the streams of a chat (deleted meanwhile) running in this process. */
  stopChat(chatId: number, reason: StopReason): void {
    for (const s of this.streams) if (s.chatId === chatId) s.stop(reason);
  }

  /** Building contexts this process is writing now (a sweep leaves them alone). */
  uploadStarted(contextId: number, stop: () => void = () => undefined): void {
    this.uploads.set(contextId, stop);
  }

  uploadEnded(contextId: number): void {
    this.uploads.delete(contextId);
  }

  activeUploads(): number[] {
    return [...this.uploads.keys()];
  }

  /**
   * Stops every upload still running (the backend is stopping): each discards its building
   * context and ends. A JSON upload's body is read before its ingestion starts, so cutting its
   * connection alone does not stop it.
   */
  stopUploads(): void {
    for (const stop of this.uploads.values()) stop();
  }

  /**
   * Stops accepting (`closing`), ends every stream with `error` and waits until each saved its
   * pair, at most `timeoutMs`; answers how many streams were still unsettled then.
   */
  async stopAll(timeoutMs: number): Promise<number> {
    this.closing = true;
    const pending = [...this.streams];
    for (const s of pending) s.stop('shutdown');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    await Promise.race([Promise.allSettled(pending.map((s) => s.done)), timeout]);
    clearTimeout(timer);
    return this.streams.size;
  }
}
