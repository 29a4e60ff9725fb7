/**
 * The end of a build log, read backwards from the end of the file in fixed blocks, so a 2 GB
 * log costs what its last lines weigh, not its size.
 */
import { open } from 'node:fs/promises';
import { cleanLine } from '../../protocol/log/clean.js';

export interface LogTail {
  /** The cleaned lines (console notes and ANSI codes removed), oldest first. */
  lines: string[];
  /** Size of the whole file in bytes. */
  fileBytes: number;
  /** Bytes actually read from the end of the file. */
  bytesRead: number;
  /** True when the file holds more lines than were returned (or the byte cap cut a line). */
  truncated: boolean;
}

const BLOCK = 64 * 1024;
/** However long the last lines are (a minified bundle echoed to the log), read at most this. */
export const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/**
 * Reads the last `maxLines` lines of a log file from its end. A final newline does not open a
 * new line (as `tail` counts). Throws ENOENT when the file does not exist.
 */
export async function readLogTail(file: string, maxLines = 1000, maxBytes = MAX_TAIL_BYTES): Promise<LogTail> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0 || maxLines <= 0) return { lines: [], fileBytes: size, bytesRead: 0, truncated: size > 0 };
    const blocks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    let start = -1; // offset in the file where the kept tail begins
    let firstBlock = true;
    while (position > 0 && size - position < maxBytes) {
      const length = Math.min(BLOCK, position, maxBytes - (size - position));
      position -= length;
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, position);
      const block = bytesRead === length ? buf : buf.subarray(0, bytesRead);
      blocks.unshift(block);
      let i = block.length - 1;
      if (firstBlock) {
        firstBlock = false;
        // A trailing newline ends the last line; it does not separate it from one more.
        if (block[i] === 0x0a) i--;
      }
      for (; i >= 0; i--) {
        if (block[i] === 0x0a) {
          newlines++;
          if (newlines === maxLines) {
            start = position + i + 1;
            break;
          }
        }
      }
      if (start >= 0) break;
    }
    const readFrom = position;
    const all = Buffer.concat(blocks);
    let truncated = true;
    let from: number;
    if (start >= 0) {
      from = start - readFrom;
    } else if (readFrom === 0) {
      from = 0;
      truncated = false;
    } else {
      // Hit the byte cap inside a line: start at the next whole line.
      const nl = all.indexOf(0x0a);
      from = nl >= 0 ? nl + 1 : 0;
    }
    const text = all.subarray(from).toString('utf8');
    const raw = text.split('\n');
    if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
    return { lines: raw.map(cleanLine), fileBytes: size, bytesRead: size - readFrom, truncated };
  } finally {
    await handle.close();
  }
}
