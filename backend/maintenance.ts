import type { Db } from './db.js';
import type { Lifecycle } from './lifecycle.js';
import { sweepBuildingContexts } from './store/contexts.js';
import { interruptOrphanedPairs, releaseLeasesOf } from './store/pairs.js';

export interface SweepResult {
  /** Pairs marked `interrupted` (their stream died with its process). */
  pairs: number;
  /** `building` contexts deleted with their chunks (an upload that died half-way). */
  uploads: number;
}

/**
 * Clears what dead processes left: at start, this replica's own leases (their pairs become
 * `interrupted` with the text saved so far) and its half-written uploads; every time, pairs
 * still `streaming` under no live lease, and uploads no process will finish.
 */
export async function sweep(db: Db, lifecycle: Lifecycle, options: { atStart: boolean }): Promise<SweepResult> {
  let pairs = 0;
  if (options.atStart) pairs += await releaseLeasesOf(db, lifecycle.replicaId);
  pairs += await interruptOrphanedPairs(db);
  const uploads = await sweepBuildingContexts(db, lifecycle.replicaId, lifecycle.activeUploads(), options.atStart);
  return { pairs, uploads };
}
