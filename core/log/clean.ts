/**
 * Cleaning of CI console text: Jenkins' hidden console notes, ANSI escape sequences, and the
 * line ends of real logs (`\r\r\n` from Travis, `\r` progress-bar overwrites).
 */

/** Jenkins console notes: ESC[8mha:<base64>ESC[0m (the hidden part of a ConsoleNote). */
const CONSOLE_NOTE = /\u001b\[8mha:[^\u001b]*\u001b\[0m/g;
/** CSI sequences (colours, cursor moves), OSC sequences (titles, links) and lone two-byte escapes. */
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/** Jenkins console notes, looked for only where one begins (most lines with escapes have none). */
const stripNotes = (text: string): string => (text.indexOf('\u001b[8mha:') >= 0 ? text.replace(CONSOLE_NOTE, '') : text);

/** Removes Jenkins console notes and ANSI escape sequences from text (any number of lines). */
export function stripConsoleMarkup(text: string): string {
  if (text.indexOf('\u001b') < 0 && text.indexOf('\u009b') < 0) return text;
  return stripNotes(text).replace(ANSI, '');
}

/** Cursor moves and line erases a console redraws a status line with (Gradle's rich console, bitbake). */
const CURSOR = /\u001b\[\d*[ABCDEFGK]/;
const CSI_OR_TEXT = /\u001b\[([0-?]*)[ -/]*([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|[^\u001b]+|\u001b/g;

/**
 * What a terminal shows of a line drawn with cursor moves: `ESC[nD` / `ESC[nC` / `ESC[nG` move
 * the cursor on the line, `ESC[K` erases from it (`ESC[2K` the whole line), text overwrites.
 * A move to another line (`ESC[nA`, ...) starts over on an empty line: what follows is new text
 * (Gradle prints `> Configuring ...ESC[28DESC[0K* What went wrong:`: the status is erased).
 */
function drawLine(line: string): string {
  let buf = '';
  let col = 0;
  let moved = false;
  const text = stripNotes(line);
  // `exec` from `lastIndex` rather than `matchAll`: the same matches (every alternative takes a character), without
  // an iterator and a copy of the pattern per line (~21 000 such lines in the LogChunks logs, issue 28).
  CSI_OR_TEXT.lastIndex = 0;
  for (let m = CSI_OR_TEXT.exec(text); m !== null; m = CSI_OR_TEXT.exec(text)) {
    const tok = m[0];
    if (tok.charCodeAt(0) !== 27) {
      buf = (buf.length < col ? buf.padEnd(col) : buf.slice(0, col)) + tok + buf.slice(col + tok.length);
      col += tok.length;
      moved = false;
      continue;
    }
    const final = m[2];
    if (final === undefined) continue;
    const n = Number.parseInt(m[1] ?? '', 10);
    if (final === 'D') col = Math.max(0, col - (Number.isNaN(n) ? 1 : n));
    else if ((final === 'C' || final === 'G') && !(moved && buf === '')) col = final === 'C' ? col + (Number.isNaN(n) ? 1 : n) : Math.max(0, (Number.isNaN(n) ? 1 : n) - 1);
    else if (final === 'K') buf = m[1] === '2' ? '' : m[1] === '1' ? ' '.repeat(Math.min(col, buf.length)) + buf.slice(col) : buf.slice(0, col);
    else if (final === 'A' || final === 'B' || final === 'E' || final === 'F') {
      buf = '';
      col = 0;
      moved = true;
    }
  }
  return buf;
}

/**
 * Cleans one physical line (already split on `\n`): drops trailing `\r`s, keeps only what is
 * visible after progress-bar `\r` overwrites (the last non-empty segment) and cursor moves
 * (`drawLine`), strips markup.
 */
export function cleanLine(raw: string): string {
  let line = raw;
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  if (end !== line.length) line = line.slice(0, end);
  if (line.indexOf('\r') >= 0) {
    const parts = line.split('\r');
    let visible = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      const part = parts[i] ?? '';
      if (stripConsoleMarkup(part).trim() !== '') {
        visible = part;
        break;
      }
    }
    line = visible;
  }
  if (line.indexOf('\u001b[') >= 0 && CURSOR.test(line)) return drawLine(line);
  return stripConsoleMarkup(line);
}

/**
 * Splits a log into cleaned lines. Line numbers are those of the original file counted on
 * `\n` (as `sed -n` does): element i is line i+1. A final newline does not open a new line.
 */
export function cleanLines(text: string): string[] {
  const raw = text.split('\n');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  return raw.map(cleanLine);
}

/** A line longer than this is kept cut to it (a person reads the start; the analyzer 4 KiB of it). */
export const MAX_LINE_CHARS = 1 << 20;

/**
 * Cuts text arriving in pieces of any size into cleaned lines (`cleanLine`), numbered as
 * `cleanLines` numbers them: each `\n` ends a line, a final newline does not open one. Holds
 * at most one partial line, itself at most MAX_LINE_CHARS (the rest of an endless line is
 * counted, not kept: the line ends with `[line cut: N characters]`).
 */
export class LineSplitter {
  private rest = '';
  /** Characters of the current line dropped past MAX_LINE_CHARS. */
  private dropped = 0;
  /** Lines emitted so far. */
  count = 0;

  /** `onLine` gets each cleaned line and the length of the line as it came (before any cut). */
  constructor(private readonly onLine: (line: string, length: number) => void) {}

  push(piece: string): void {
    let from = 0;
    const n = piece.length;
    for (;;) {
      const nl = piece.indexOf('\n', from);
      if (nl < 0) break;
      if (this.rest === '' && this.dropped === 0) this.emit(piece.slice(from, nl));
      else {
        this.append(piece, from, nl);
        this.emit(this.rest);
        this.rest = '';
      }
      from = nl + 1;
    }
    if (from < n) this.append(piece, from, n);
  }

  end(): void {
    if (this.rest !== '' || this.dropped > 0) this.emit(this.rest);
    this.rest = '';
  }

  /** Drops the partial line held, if any (the stream goes on elsewhere). */
  reset(): void {
    this.rest = '';
    this.dropped = 0;
  }

  private append(piece: string, from: number, to: number): void {
    const room = MAX_LINE_CHARS - this.rest.length;
    if (to - from <= room) this.rest += piece.slice(from, to);
    else {
      if (room > 0) this.rest += piece.slice(from, from + room);
      this.dropped += to - from - Math.max(0, room);
    }
  }

  private emit(raw: string): void {
    const dropped = this.dropped;
    this.dropped = 0;
    this.count++;
    const line = cleanLine(raw);
    this.onLine(dropped > 0 ? `${line} [line cut: ${raw.length + dropped} characters]` : line, raw.length + dropped);
  }
}
