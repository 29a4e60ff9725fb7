/** A progress bar for uploads, drawn on stderr (only when stderr is a terminal). */
import type { Output } from './io.js';

const LARGE = 1024 * 1024;

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

/**
 * Answers a progress listener that draws `[#####-----] 42% 3.1/7.4 MiB` on one stderr line,
 * at most every 100 ms, for bodies of 1 MiB and more; `finish()` ends the line.
 */
export function uploadProgress(
  label: string,
  stream: Output = process.stderr,
  enabled = stream.isTTY === true,
): { onProgress: (sent: number, total: number) => void; finish: () => void } {
  let drawn = false;
  let last = 0;
  const draw = (sent: number, total: number): void => {
    const width = 30;
    const done = Math.round((sent / total) * width);
    const pct = Math.floor((sent / total) * 100);
    stream.write(`\r${label} [${'#'.repeat(done)}${'-'.repeat(width - done)}] ${String(pct).padStart(3)}% ${mib(sent)}/${mib(total)} MiB`);
    drawn = true;
  };
  return {
    onProgress(sent, total) {
      if (!enabled || total < LARGE) return;
      const now = Date.now();
      if (sent < total && now - last < 100) return;
      last = now;
      draw(sent, total);
    },
    finish() {
      if (drawn) stream.write('\n');
    },
  };
}
