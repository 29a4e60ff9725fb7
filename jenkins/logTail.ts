/**
 * The end of a build log, read backwards from the end of the file in fixed blocks, so a 2 GB
 * log costs what its last lines weigh, not its size.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { cleanLine } from '../core/log/clean.js';
import { decodeUtf8OrCp1252 } from '../core/log/decode.js';
import { NotRegularFileError } from './xml.js';

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

/**
 * One line's bytes as text: UTF-8 when they are UTF-8, else Windows-1252 (Latin-1), the rule
 * uploads follow (core/log/decode.ts). Line by line, because a Jenkins log mixes them: Jenkins
 * writes its own lines in UTF-8 and a tool on a Latin-1 agent writes its own bytes.
 */
export const decodeLogLine = (bytes: Buffer): string => decodeUtf8OrCp1252(bytes);

/** A line whose start was cut off: without the UTF-8 continuation bytes the cut left at its head. */
function wholeChars(bytes: Buffer, cut: boolean): Buffer {
  if (!cut) return bytes;
  let i = 0;
  while (i < 3 && i < bytes.length && ((bytes[i] as number) & 0xc0) === 0x80) i++;
  return bytes.subarray(i);
}

/** The lines of `bytes` (split at LF), each decoded by `decodeLogLine`; a final newline opens no line. */
function decodeLines(bytes: Buffer): string[] {
  const lines: string[] = [];
  let from = 0;
  for (;;) {
    const nl = bytes.indexOf(0x0a, from);
    if (nl < 0) break;
    lines.push(decodeLogLine(bytes.subarray(from, nl)));
    from = nl + 1;
  }
  if (from < bytes.length) lines.push(decodeLogLine(bytes.subarray(from)));
  return lines;
}
/** However long the last lines are (a minified bundle echoed to the log), read at most this. */
export const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/**
 * Reads the last `maxLines` lines of a log file from its end. A final newline does not open a
 * new line (as `tail` counts). Throws ENOENT when the file does not exist.
 */
export async function readLogTail(file: string, maxLines = 1000, maxBytes = MAX_TAIL_BYTES): Promise<LogTail> {
  // A FIFO named `log` would block open() for ever; a directory is no log either.
  if (!(await stat(file)).isFile()) throw new NotRegularFileError(file);
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
    const raw = decodeLines(all.subarray(from));
    return { lines: raw.map(cleanLine), fileBytes: size, bytesRead: size - readFrom, truncated };
  } finally {
    await handle.close();
  }
}

/** A gzip log is read whole (gzip cannot be read backwards); past this much text it is refused. */
export const MAX_GZIP_LOG_BYTES = 1024 * 1024 * 1024;

export interface GzipLogTail extends LogTail {
  /** Bytes of the compressed file. */
  compressedBytes: number;
}

/**
 * The last `maxLines` lines of a gzip-compressed log (`log.gz`, written by the
 * compress-buildlog plugin). The file is decompressed as a stream and only the last lines are
 * kept (at most `maxBytes` of them), so memory stays bounded; a log that inflates past
 * `maxInflated` bytes is refused with an error rather than read for minutes. `fileBytes` is the
 * size of the uncompressed log.
 */
export async function readGzipLogTail(
  file: string,
  maxLines = 1000,
  maxBytes = MAX_TAIL_BYTES,
  maxInflated = MAX_GZIP_LOG_BYTES,
): Promise<GzipLogTail> {
  const info = await stat(file);
  if (!info.isFile()) throw new NotRegularFileError(file);
  let kept: string[] = [];
  let keptBytes = 0;
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let partialCut = false;
  let inflated = 0;
  let dropped = false;
  // Lines are trimmed in batches (at twice the limits), so a long log costs O(lines), not O(lines x maxLines).
  const trim = (): void => {
    let from = Math.max(0, kept.length - maxLines);
    let bytes = 0;
    for (let i = kept.length - 1; i >= from; i--) {
      bytes += (kept[i] as string).length + 1;
      if (bytes > maxBytes && i < kept.length - 1) {
        from = i + 1;
        bytes -= (kept[i] as string).length + 1;
        break;
      }
    }
    if (from > 0) {
      dropped = true;
      kept = kept.slice(from);
    }
    keptBytes = bytes;
  };
  const keep = (line: string): void => {
    kept.push(line);
    keptBytes += line.length + 1;
    if (kept.length >= 2 * maxLines || keptBytes > 2 * maxBytes) trim();
  };
  await new Promise<void>((resolve, reject) => {
    const source = createReadStream(file);
    const gunzip = createGunzip();
    const fail = (err: Error): void => {
      source.destroy();
      gunzip.destroy();
      reject(err);
    };
    source.on('error', fail);
    gunzip.on('error', (err) => fail(new Error(`${file} is not a readable gzip file (${err.message})`)));
    gunzip.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > maxInflated) {
        fail(new Error(`${file} inflates to more than ${maxInflated} bytes; not read`));
        return;
      }
      // A line's bytes arrive in pieces: kept as a list until its newline, so a long line is copied once.
      let from = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
        const piece = chunk.subarray(from, nl);
        keep(decodeLogLine(partial.length > 0 ? wholeChars(Buffer.concat([...partial, piece]), partialCut) : piece));
        partial = [];
        partialCut = false;
        partialBytes = 0;
        from = nl + 1;
      }
      if (from < chunk.length) {
        partial.push(Buffer.from(chunk.subarray(from)));
        partialBytes += chunk.length - from;
        // A line longer than the cap keeps its end only.
        while (partialBytes > maxBytes && partial.length > 1) {
          partialBytes -= (partial.shift() as Buffer).length;
          partialCut = true;
          dropped = true;
        }
      }
    });
    gunzip.on('end', () => resolve());
    source.pipe(gunzip);
  });
  if (partial.length > 0) keep(decodeLogLine(wholeChars(Buffer.concat(partial), partialCut)));
  trim();
  return {
    lines: kept.map(cleanLine),
    fileBytes: inflated,
    bytesRead: inflated,
    truncated: dropped,
    compressedBytes: info.size,
  };
}
