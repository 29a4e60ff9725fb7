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
 * line, at most every 100 ms, for bodies of 1 MiB and more (a total of 0: not known, the MiB
 * read alone); once every byte is sent it shows
 * `indexing… 2.4 s` (redrawn every `tickMs`) until `finish()`.
 */
export function uploadProgress(label: string, stream: Output = process.stderr, enabled = stream.isTTY === true, tickMs = 200): UploadProgress {
  let drawn = false;
  let last = 0;
  let sentAll: number | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  // The line must stay shorter than the terminal: a line that wraps makes every `\r` redraw
  // start a new row (80 columns printed one row per refresh, issue 27). The bar gives way.
  const bar = (sent: number, total: number, suffix = ''): string => {
    const pct = Math.floor((sent / total) * 100);
    const numbers = ` ${String(pct).padStart(3)}% ${mib(sent)}/${mib(total)} MiB${suffix}`;
    const columns = stream.columns && stream.columns > 0 ? stream.columns : 80;
    let head = `${label} `;
    let width = Math.min(30, columns - 1 - head.length - 2 - numbers.length);
    if (width < 10) {
      head = '';
      width = Math.min(30, columns - 1 - 2 - numbers.length);
    }
    if (width < 5) return `\r${numbers.trim().slice(0, Math.max(1, columns - 1))}\u001b[K`;
    const done = Math.round((sent / total) * width);
    return `\r${head}[${'#'.repeat(done)}${'-'.repeat(width - done)}]${numbers}\u001b[K`;
  };
  const indexing = (total: number): void => {
    const seconds = ((Date.now() - (sentAll ?? Date.now())) / 1000).toFixed(1);
    stream.write(bar(total, total, `  indexing… ${seconds} s`));
  };
  return {
    onProgress(sent, total) {
      if (!enabled) return;
      const now = Date.now();
      if (total <= 0) {
        // A size not known in advance (a pipe): the bytes read so far, without a bar.
        if (sent < LARGE || now - last < 100) return;
        last = now;
        stream.write(`\r${label} ${mib(sent)} MiB\u001b[K`);
        drawn = true;
        return;
      }
      if (total < LARGE) return;
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
