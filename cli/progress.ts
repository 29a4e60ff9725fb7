/**
 * A progress bar for uploads, drawn on stderr (only when stderr is a terminal): the bytes as
 * they are sent, then an "indexing" phase with the seconds spent until the server answers
 * (the backend masks, chunks and embeds the log before it replies).
 */
import type { Output } from './io.js';

const LARGE = 1024 * 1024;

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

export interface UploadProgress {
  onProgress: (sent: number, total: number) => void;
  /** Ends the line (and the indexing timer). */
  finish: () => void;
}

/**
 * Answers a progress listener that draws `label [#####-----] 42% 3.1/7.4 MiB` on one stderr
 * line, at most every 100 ms, for bodies of 1 MiB and more; once every byte is sent it shows
 * `indexing… 2.4 s` (redrawn every `tickMs`) until `finish()`.
 */
export function uploadProgress(label: string, stream: Output = process.stderr, enabled = stream.isTTY === true, tickMs = 200): UploadProgress {
  let drawn = false;
  let last = 0;
  let sentAll: number | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const bar = (sent: number, total: number): string => {
    const width = 30;
    const done = Math.round((sent / total) * width);
    const pct = Math.floor((sent / total) * 100);
    return `\r${label} [${'#'.repeat(done)}${'-'.repeat(width - done)}] ${String(pct).padStart(3)}% ${mib(sent)}/${mib(total)} MiB`;
  };
  const indexing = (total: number): void => {
    const seconds = ((Date.now() - (sentAll ?? Date.now())) / 1000).toFixed(1);
    stream.write(`${bar(total, total)}  indexing… ${seconds} s\u001b[K`);
  };
  return {
    onProgress(sent, total) {
      if (!enabled || total < LARGE) return;
      const now = Date.now();
      if (sent >= total) {
        if (sentAll !== undefined) return;
        sentAll = now;
        indexing(total);
        drawn = true;
        timer = setInterval(() => indexing(total), tickMs);
        timer.unref?.();
        return;
      }
      if (now - last < 100) return;
      last = now;
      stream.write(bar(sent, total));
      drawn = true;
    },
    finish() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
