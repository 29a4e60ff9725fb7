/**
 * Cleaning of CI console text: Jenkins' hidden console notes, ANSI escape sequences, and the
 * line ends of real logs (`\r\r\n` from Travis, `\r` progress-bar overwrites).
 */

/** Jenkins console notes: ESC[8mha:<base64>ESC[0m (the hidden part of a ConsoleNote). */
const CONSOLE_NOTE = /\u001b\[8mha:[^\u001b]*\u001b\[0m/g;
/** CSI sequences (colours, cursor moves), OSC sequences (titles, links) and lone two-byte escapes. */
const ANSI =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/** Removes Jenkins console notes and ANSI escape sequences from text (any number of lines). */
export function stripConsoleMarkup(text: string): string {
  if (text.indexOf('\u001b') < 0 && text.indexOf('\u009b') < 0) return text;
  return text.replace(CONSOLE_NOTE, '').replace(ANSI, '');
}

/**
 * Cleans one physical line (already split on `\n`): drops trailing `\r`s, keeps only what is
 * visible after progress-bar `\r` overwrites (the last non-empty segment), strips markup.
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
