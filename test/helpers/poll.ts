/**
 * The one polling helper of the tests: calls `probe` until it answers something other than
 * `undefined`, then returns it; past `timeoutMs` it fails naming `what` and, when given, what
 * `explain()` says (a terminal screen, a rendered frame) so a timeout can be diagnosed.
 */
export interface UntilOptions {
  timeoutMs?: number;
  intervalMs?: number;
  explain?: () => string;
}

export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, options: UntilOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25, explain } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${explain ? `:\n${explain()}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
