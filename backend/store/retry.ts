/**
 * InnoDB picks a victim when two transactions wait on each other's row locks (error 1213,
 * ER_LOCK_DEADLOCK) and rolls it back whole: the documented answer is to run it again. Seen
 * when a thousand answer streams ended at once on MariaDB (stream bench): the save of a cut
 * answer lost to another chat's lease-taking and the pair stayed `streaming` until the sweep.
 */
const DEADLOCK_CODES = new Set(['ER_LOCK_DEADLOCK']);
const DEADLOCK_ERRNO = 1213;

export function isDeadlock(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; errno?: unknown };
  return (typeof e.code === 'string' && DEADLOCK_CODES.has(e.code)) || e.errno === DEADLOCK_ERRNO;
}

/**
 * Runs `write` (one statement or one whole transaction: it must be safe to run again after a
 * rollback) and runs it again after a deadlock, up to `attempts` times in all, waiting a few
 * milliseconds (growing, with jitter) between tries. Any other error is thrown at once.
 */
export async function retryOnDeadlock<T>(write: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 2 ** attempt * 2 + Math.random() * 10));
    }
  }
}
