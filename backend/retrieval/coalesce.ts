/** The most bytes joined into one piece for the ingest worker. */
export const COALESCE_MAX_BYTES = 1024 * 1024;

const TURN = Symbol('turn');

/** Resolves after the event loop's next turn (its I/O polled): what has arrived by then is at hand. */
function nextTurn(): Promise<typeof TURN> {
  return new Promise((resolve) => setImmediate(() => resolve(TURN)));
}

/** A piece for the ingest worker; `owned`: a buffer made here, which no one else holds (it may be transferred). */
export type Coalesced = { text: string } | { bytes: Uint8Array; owned: boolean };

/**
 * The pieces of `source`, byte pieces joined while more are at hand at once, until they reach `max` bytes.
 * A raw log upload arrives in the socket's pieces (16-64 KiB), and each piece posted to the
 * ingest worker is a message, an acknowledgement and a wake-up of each thread: 8000 of each for
 * 500 MB, every wake-up of the worker one more chance for it to take the core the event loop was
 * on (issue 28, the chat list during an upload). Never waits for bytes that have not arrived: a
 * slow sender's bytes go on as they come. Texts pass as they are.
 */
export async function* coalesceBytes(source: AsyncIterable<string | Uint8Array>, max = COALESCE_MAX_BYTES): AsyncGenerator<Coalesced> {
  const it = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<string | Uint8Array>> | undefined;
  const parts: Uint8Array[] = [];
  let size = 0;
  const flush = (): Coalesced => {
    const joined = parts.length > 1;
    const bytes = joined ? Buffer.concat(parts, size) : parts[0]!;
    // A small Buffer may be a slice of Node's shared pool: only a buffer of its own is ours.
    const owned = joined && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    parts.length = 0;
    size = 0;
    return { bytes, owned };
  };
  try {
    for (;;) {
      if (pending === undefined) {
        pending = it.next();
        // Settled while a joined piece is with the consumer: handled where it is awaited.
        pending.catch(() => undefined);
      }
      const result = parts.length === 0 ? await pending : await Promise.race([pending, nextTurn()]);
      if (result === TURN) {
        yield flush();
        continue;
      }
      pending = undefined;
      if (result.done) {
        if (parts.length > 0) yield flush();
        return;
      }
      const piece = result.value;
      if (typeof piece === 'string') {
        if (parts.length > 0) yield flush();
        yield { text: piece };
        continue;
      }
      if (piece.length === 0) continue;
      parts.push(piece);
      size += piece.length;
      if (size >= max) yield flush();
    }
  } finally {
    // A read still pending (a silent sender) is not waited for.
    void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}
