/**
 * Simulated typing for engines that have the whole answer at once: the text leaves in pieces of
 * a few words with a pause between them, and both the pauses and the loop end when the client
 * goes away.
 */

/**
 * Waits `ms` milliseconds or until `signal` aborts, whichever comes first; never rejects. The
 * caller checks `signal.aborted` afterwards. The abort listener is removed on timeout so a long
 * stream does not pile listeners on one signal.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Cuts text into pieces of a few words each, whitespace kept, so that joining the pieces gives
 * the text back exactly. A piece ends after `wordsPerPiece` words or at a line end, whichever
 * comes first, so code blocks arrive line by line rather than mid-token.
 */
export function splitIntoPieces(text: string, wordsPerPiece = 3): string[] {
  const tokens = text.match(/\s*\S+[^\S\n]*\n?/g) ?? [];
  const consumed = tokens.join('').length;
  const pieces: string[] = [];
  let current = '';
  let words = 0;
  for (const token of tokens) {
    current += token;
    words++;
    if (words >= wordsPerPiece || token.endsWith('\n')) {
      pieces.push(current);
      current = '';
      words = 0;
    }
  }
  if (current) pieces.push(current);
  // Trailing whitespace the token pattern left out (e.g. a final blank line) still belongs to the text.
  if (consumed < text.length) pieces.push(text.slice(consumed));
  return pieces;
}

/**
 * Streams `text` piece by piece with `delayMs` between pieces; ends quietly (no error) as soon as
 * `signal` aborts, including in the middle of a pause.
 */
export async function* typeOut(text: string, delayMs: number, signal: AbortSignal): AsyncGenerator<string> {
  const pieces = splitIntoPieces(text);
  for (let i = 0; i < pieces.length; i++) {
    if (signal.aborted) return;
    if (i > 0 && delayMs > 0) {
      await pause(delayMs, signal);
      if (signal.aborted) return;
    }
    yield pieces[i] as string;
  }
}
