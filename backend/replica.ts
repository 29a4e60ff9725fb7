import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The replica id of the backend using `dataDir`: read from DATA_DIR/replica-id, made there on
 * first start. It marks the leases and uploads of this process in the database, so that after a
 * crash the restarted process knows which ones were its own. Replicas sharing a DATA_DIR must
 * each set BACKEND_REPLICA_ID.
 */
export function loadOrCreateReplicaId(dataDir: string): string {
  const file = path.join(dataDir, 'replica-id');
  try {
    const id = fs.readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9._-]{1,64}$/.test(id)) return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${id}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return id;
}
