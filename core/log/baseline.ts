/**
 * The last green build as a baseline for a failure (issue 16).
 *
 * A failed log is full of errors that are not why it failed: a `command not found` every build
 * prints, a deprecation warning, a retried download. The strongest evidence that an error is the
 * cause is that it did not happen in the last build that passed. This module keeps that build's
 * log as a set of **line fingerprints** (64-bit hashes of normalised lines, never the text), so a
 * 100 MB passing log costs a few megabytes, and answers "did this line occur in the baseline?".
 *
 * Lines are normalised before hashing, so that what differs between two runs of the same build
 * does not make a line look new: ANSI codes and Jenkins console notes, ISO timestamps (the GitHub
 * Actions `2026-11-23T10:00:00.1234567Z ` prefix, log4j/Maven stamps), clock times, durations
 * (`12 ms`, `1.5s`, `Time: 00:01.234`), hex ids and hashes (commits, container ids, UUIDs),
 * temporary directories (`/tmp/tmp.AbC123`, `pytest-of-root/pytest-7`), and counters (every
 * run of digits is `#`), then runs of blanks.
 */
import { cleanLine } from './clean.js';

/** Only the first 1 KiB of a line is compared: a 10 MB line costs no more than a long one. */
const COMPARE_CHARS = 1024;
/**
 * At most this many distinct fingerprints are kept (2^21: 16 MiB of table). A larger baseline
 * keeps its first 2 M distinct lines; lines beyond are not recorded, so they can only make a
 * failure line look *new*, never hide one.
 */
const MAX_FINGERPRINTS = 1 << 21;
const INITIAL_SLOTS = 1 << 12;

/** Temporary directories: the random first component under a temp root. */
const TEMP_PATH =
  /(\/(?:tmp|var\/tmp|private\/var\/folders\/[^/\s]+\/[^/\s]+\/T|var\/folders\/[^/\s]+\/[^/\s]+\/T)|\\(?:Temp|TEMP|tmp))[/\\][^/\\\s:'"]+/g;
const TEMP_HINT = /tmp|Temp|TEMP|folders/;
/** Units after a number that make it a duration (`12 ms`, `1.5s`, `3 min`). */
const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'ms', 's', 'sec', 'secs', 'second', 'seconds', 'm', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours']);

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHexLetter = (c: number): boolean => (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 181;
const isWord = (c: number): boolean => isDigit(c) || isLetter(c) || c === 95;
const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12 || c === 13 || c === 160;

/**
 * The comparable form of one cleaned line: what differs between two runs of the same build is
 * replaced, in one pass over the line:
 * - a number with its separators (`1.5`, `10:00:01.123`, `2026-11-23T10:00:00.1234567Z`, a
 *   counter, a size, a line number) is `#`, and `#t` when a time unit follows (`12 ms`, `1.5s`);
 * - a hex id or hash (7+ hex digits with a digit among them, or a 4+ one between dashes as in a
 *   UUID) is `#` too; digits inside other words are `#` (`lib12` is `lib#`);
 * - the random directory under a temp root (`/tmp/tmp.AbC123`) is `~`;
 * - ANSI codes are removed, runs of blanks are one space, the ends are trimmed.
 */
export function normaliseLine(line: string): string {
  let s = line.length > COMPARE_CHARS ? line.slice(0, COMPARE_CHARS) : line;
  if (s.indexOf('\u001b') >= 0 || s.indexOf('\u009b') >= 0 || s.indexOf('\r') >= 0) s = cleanLine(s);
  if (TEMP_HINT.test(s)) s = s.replace(TEMP_PATH, '$1/~');
  const n = s.length;
  let out = '';
  let from: number; // start of the text not yet copied to `out`
  let i = 0;
  while (i < n && isBlank(s.charCodeAt(i))) i++;
  from = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isBlank(c)) {
      let j = i + 1;
      while (j < n && isBlank(s.charCodeAt(j))) j++;
      if (j === n) {
        out += s.slice(from, i);
        return out;
      }
      if (j > i + 1 || c !== 32) {
        out += s.slice(from, i) + ' ';
        from = j;
      }
      i = j;
      continue;
    }
    if (!isWord(c)) {
      i++;
      continue;
    }
    // A word: letters, digits, underscores.
    let j = i + 1;
    let digits = isDigit(c) ? 1 : 0;
    let hex = isDigit(c) || isHexLetter(c);
    while (j < n) {
      const d = s.charCodeAt(j);
      if (!isWord(d)) break;
      if (isDigit(d)) digits++;
      else if (!isHexLetter(d)) hex = false;
      j++;
    }
    if (digits === 0) {
      i = j;
      continue;
    }
    const len = j - i;
    if (hex && digits < len && (len >= 7 || (len >= 4 && (s.charCodeAt(i - 1) === 45 || s.charCodeAt(j) === 45)))) {
      out += s.slice(from, i) + '#';
      from = i = j;
      continue;
    }
    if (isDigit(c)) {
      // A number and its separators: 1.5, 10:00:01.123, 2026-11-23T10:00:00.5Z, 1,024.
      let k = i;
      for (;;) {
        while (k < n && isDigit(s.charCodeAt(k))) k++;
        const sep = s.charCodeAt(k);
        if ((sep === 46 || sep === 44 || sep === 58 || sep === 45 || sep === 84) && isDigit(s.charCodeAt(k + 1))) {
          k++;
          continue;
        }
        if (sep === 90 && !isWord(s.charCodeAt(k + 1))) k++;
        break;
      }
      // A time unit after it (`12 ms`, `1.5s`): a duration.
      let u = s.charCodeAt(k) === 32 ? k + 1 : k;
      const unitStart = u;
      while (u < n && isLetter(s.charCodeAt(u))) u++;
      if (u > unitStart && !isWord(s.charCodeAt(u)) && DURATION_UNITS.has(s.slice(unitStart, u))) {
        out += s.slice(from, i) + '#t';
        from = i = u;
        continue;
      }
      if (k >= j || !isWord(s.charCodeAt(k))) {
        out += s.slice(from, i) + '#';
        from = i = k;
        continue;
      }
    }
    // Digits inside a word: each run is `#`.
    let k = i;
    while (k < j) {
      if (isDigit(s.charCodeAt(k))) {
        let e = k + 1;
        while (e < j && isDigit(s.charCodeAt(e))) e++;
        out += s.slice(from, k) + '#';
        from = k = e;
      } else k++;
    }
    i = j;
  }
  return out + s.slice(from, n);
}

/** Two independent 32-bit FNV-1a style hashes of a string (a 64-bit fingerprint). */
function hashPair(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Avalanche so close strings spread over the table.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 16;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  return [a >>> 0, b >>> 0 || 1];
}

/**
 * A set of 64-bit line fingerprints: open addressing over two Uint32Arrays (8 bytes a slot,
 * grows by doubling up to MAX_FINGERPRINTS). The text of the lines is never kept.
 */
export class Baseline {
  private hi = new Uint32Array(INITIAL_SLOTS);
  private lo = new Uint32Array(INITIAL_SLOTS);
  private count = 0;
  /** Lines offered after the table was full (not recorded). */
  private dropped = 0;
  /** Lines read, blank ones included. */
  lines = 0;

  /** Distinct non-blank normalised lines recorded. */
  get size(): number {
    return this.count;
  }

  /** Lines that were not recorded because the table was full. */
  get overflow(): number {
    return this.dropped;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength;
  }

  /** Records one line of the passing log (raw or cleaned). Blank lines are not recorded. */
  addLine(line: string): void {
    this.lines++;
    const n = normaliseLine(line);
    if (n === '') return;
    const [h, l] = hashPair(n);
    if (this.count >= MAX_FINGERPRINTS) {
      if (!this.hasHash(h, l)) this.dropped++;
      return;
    }
    if ((this.count + 1) * 2 > this.hi.length) this.grow();
    this.insert(h, l);
  }

  /** Whether a line (raw or cleaned) occurs in the baseline once normalised. Blank lines always do. */
  hasLine(line: string): boolean {
    const n = normaliseLine(line);
    if (n === '') return true;
    const [h, l] = hashPair(n);
    return this.hasHash(h, l);
  }

  private hasHash(h: number, l: number): boolean {
    const mask = this.hi.length - 1;
    let i = (h ^ l) & mask;
    for (;;) {
      const lo = this.lo[i] ?? 0;
      if (lo === 0) return false;
      if (lo === l && this.hi[i] === h) return true;
      i = (i + 1) & mask;
    }
  }

  private insert(h: number, l: number): void {
    const mask = this.hi.length - 1;
    let i = (h ^ l) & mask;
    for (;;) {
      const lo = this.lo[i] ?? 0;
      if (lo === 0) {
        this.hi[i] = h;
        this.lo[i] = l;
        this.count++;
        return;
      }
      if (lo === l && this.hi[i] === h) return;
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const oldHi = this.hi;
    const oldLo = this.lo;
    this.hi = new Uint32Array(oldHi.length * 2);
    this.lo = new Uint32Array(oldLo.length * 2);
    this.count = 0;
    for (let i = 0; i < oldLo.length; i++) {
      const l = oldLo[i] ?? 0;
      if (l !== 0) this.insert(oldHi[i] ?? 0, l);
    }
  }
}

/**
 * Builds a baseline from text that arrives in pieces (a stream of a large file): keeps only the
 * unfinished last line between pieces, so memory is the fingerprint table plus one line.
 */
export class BaselineBuilder {
  readonly baseline = new Baseline();
  private rest = '';

  push(chunk: string): void {
    const text = this.rest === '' ? chunk : this.rest + chunk;
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      if (nl < 0) break;
      this.baseline.addLine(text.slice(from, nl));
      from = nl + 1;
    }
    this.rest = text.slice(from);
    // A line longer than anything compared: keep only its start (and its end for `\r` overwrites).
    if (this.rest.length > 4 * COMPARE_CHARS) {
      const cr = this.rest.lastIndexOf('\r', this.rest.length - 2);
      const visible = cr >= 0 && this.rest.length - cr > 1 ? this.rest.slice(cr + 1) : this.rest;
      this.rest = visible.slice(0, 2 * COMPARE_CHARS);
    }
  }

  finish(): Baseline {
    if (this.rest !== '') this.baseline.addLine(this.rest);
    this.rest = '';
    return this.baseline;
  }
}

/** The baseline of a whole passing log held in memory. */
export function baselineOf(passLog: string): Baseline {
  const b = new BaselineBuilder();
  b.push(passLog);
  return b.finish();
}

/** The baseline of a passing log read from a stream of strings or buffers (a file, a socket). */
export async function baselineFromStream(stream: AsyncIterable<string | Buffer>): Promise<Baseline> {
  const b = new BaselineBuilder();
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of stream) {
    b.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  }
  b.push(decoder.decode());
  return b.finish();
}

/** Whether any non-blank line of `lines[start..end]` (0-based, inclusive) is missing from the baseline. */
export function hasNewLine(lines: readonly string[], start: number, end: number, baseline: Baseline, cache?: Uint8Array): boolean {
  for (let k = Math.max(0, start); k <= end && k < lines.length; k++) {
    let known = cache?.[k] ?? 0;
    if (known === 0) {
      known = baseline.hasLine(lines[k] ?? '') ? 1 : 2;
      if (cache) cache[k] = known;
    }
    if (known === 2) return true;
  }
  return false;
}

/**
 * Ranks excerpts against a baseline. Each says whether it is new (a non-blank line that the
 * passing log did not print); every new one comes before every old one, each group keeping its
 * order. An excerpt that opens with lines the passing log printed too and goes on with new ones
 * (an old warning whose paragraph swallowed the new error printed under it) is split: the old
 * head keeps its reason and ranks as old, the new rest ranks as new with the reason `reasonAt`
 * finds for it. Each line is looked up once, however many excerpts hold it.
 */
export function markNewSinceBaseline<T extends { block: { start: number; end: number; reason: string } }>(
  lines: readonly string[],
  ranked: readonly T[],
  baseline: Baseline,
  reasonAt: (start: number, end: number) => string = () => 'new since the passing build',
): (T & { fresh: boolean })[] {
  const cache = new Uint8Array(lines.length);
  const fresh: (T & { fresh: boolean })[] = [];
  const old: (T & { fresh: boolean })[] = [];
  for (const item of ranked) {
    const { start, end } = item.block;
    let first = -1;
    let head = -1;
    for (let k = Math.max(0, start); k <= end && k < lines.length; k++) {
      if (hasNewLine(lines, k, k, baseline, cache)) {
        first = k;
        break;
      }
      if (head < 0 && (lines[k] ?? '').trim() !== '') head = k;
    }
    if (first < 0) old.push({ ...item, fresh: false });
    else if (head < 0) fresh.push({ ...item, fresh: true });
    else {
      old.push({ ...item, block: { ...item.block, end: first - 1 }, fresh: false });
      fresh.push({ ...item, block: { ...item.block, start: first, reason: reasonAt(first, end) }, fresh: true });
    }
  }
  return fresh.concat(old);
}

/** A command a CI traced (`+ cmd`, `$ cmd`), a GitHub timestamp before it or not. */
const TRACED_COMMAND = /^(?:\d{4}-\d\d-\d\dT[\d:.]+Z\s?)?(?:\++ |\$ )/;

/**
 * A finding read back from outside its excerpt (an exit line's excerpt naming the error printed
 * above it, core/finding/back.ts) is new only when the line holding its message is: otherwise the
 * passing build printed that error too. The flag of such an excerpt is set from its message line,
 * and every new excerpt still comes before every old one (each group keeping its order). A traced
 * command (`+ test -s dist/app.js`, a check that printed nothing) in the passing build only ran
 * there: it says nothing of whether it failed there.
 */
export function markReadBackOld<T extends { start_line: number; end_line: number; new_since_baseline?: boolean; finding?: { message_line: number } }>(lines: readonly string[], excerpts: T[], baseline: Baseline): T[] {
  let changed = false;
  for (const e of excerpts) {
    const n = e.finding?.message_line;
    if (e.new_since_baseline !== true || n === undefined || (n >= e.start_line && n <= e.end_line)) continue;
    const text = lines[n - 1] ?? '';
    if (TRACED_COMMAND.test(text) || !baseline.hasLine(text)) continue;
    e.new_since_baseline = false;
    changed = true;
  }
  return changed ? [...excerpts.filter((e) => e.new_since_baseline !== false), ...excerpts.filter((e) => e.new_since_baseline === false)] : excerpts;
}
