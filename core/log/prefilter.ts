/**
 * What a regular expression needs of a line, read from the expression itself, so that the
 * analyzer can skip it on lines where it cannot match (issue 28: most lines cost a few
 * nanoseconds). Two facts, both derived from the pattern's source, never written by hand:
 *
 * - `first`: for a pattern anchored at the start (`^...`), the characters a line it matches
 *   can begin with (`^(?:\$ |\+ )` -> `$`, `+`). One table lookup on the line's first character.
 * - `clauses`: trigrams the line must hold, as "all of these clauses, each one of its trigrams"
 *   (`(?:ERROR|FATAL) \d` -> one clause {err, fat}), over a 32-symbol alphabet (letters either
 *   case, space, digit, `(`, `,`, `*`, everything else one symbol). Checked against the set of
 *   the line's trigrams (`LineTrigrams`), made by one scan of the line.
 *
 * Both are supersets: a pattern the analysis does not understand (a flag it does not model, a
 * construct it does not parse) gets no gate at all, so only speed depends on them. The test
 * checks it on every shape and every line of the fixtures.
 */

import { COMMON_TRIGRAMS } from './trigrams.js';
import { codeAt, lengthOf } from './str.js';

/** The alphabet of the trigrams: letters (either case) 1-26, space 27, a digit 28, `(` 29, `,` 30, `*` 31, the rest 0. */
export const SYMBOL = new Uint8Array(128);
for (let c = 0; c < 26; c++) {
  SYMBOL[97 + c] = c + 1;
  SYMBOL[65 + c] = c + 1;
}
SYMBOL[32] = 27;
for (let c = 48; c < 58; c++) SYMBOL[c] = 28;
SYMBOL[40] = 29;
SYMBOL[44] = 30;
SYMBOL[42] = 31;

/** The symbol of a character code (non-ASCII characters are symbol 0). */
export const symbolOf = (c: number): number => (c < 128 ? SYMBOL[c]! : 0);

/** The 15-bit hash of three symbols: what `LineTrigrams` marks at each position of a line. */
export const trigramHash = (a: number, b: number, c: number): number => (a << 10) | (b << 5) | c;

/** Index of "a non-ASCII character" and of "the end of the line" in a `first` table. */
export const NON_ASCII = 128;
export const END = 129;

/**
 * In the analysis, the symbol of a non-ASCII character (in a line it is symbol 0); and the
 * pseudo-trigram `LineTrigrams` marks when the line holds one.
 */
const NON_ASCII_SYMBOL = 32;
export const NON_ASCII_TRIGRAM = 1 << 15;

/** The index of a line's first character in a `first` table. */
export const firstIndex = (line: string): number => {
  if (lengthOf(line) === 0) return END;
  const c = codeAt(line, 0);
  return c < 128 ? c : NON_ASCII;
};

/** What a pattern needs of a line (see the module comment); null parts mean "no gate". */
export interface Gate {
  /** Indexed by `firstIndex(line)`: 0 where the pattern cannot match a line beginning so. */
  first: Uint8Array | null;
  /** Every match holds a non-ASCII character (`❌\s`): a line of ASCII only is skipped. */
  nonAscii: boolean;
  /** Every clause must have one of its trigram hashes in the line. */
  clauses: readonly Int32Array[];
}

// ---------------------------------------------------------------------------------------------
// A parser for the JavaScript pattern syntax the analyzer's rules use (no `u`/`v` flag).

type Node =
  | { t: 'set'; set: Uint8Array } // one character of the set (0-127, NON_ASCII)
  | { t: 'bol' }
  | { t: 'eol' }
  | { t: 'zero' } // any other zero-width assertion: \b, \B, lookarounds
  | { t: 'unknown' } // a back reference: any text, maybe empty
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; item: Node; min: number; max: number };

class Unsupported extends Error {}

const newSet = (): Uint8Array => new Uint8Array(NON_ASCII + 1);

function rangeSet(set: Uint8Array, from: number, to: number): void {
  for (let c = from; c <= to && c < 128; c++) set[c] = 1;
  if (to >= 128) set[NON_ASCII] = 1;
}

function classEscape(ch: string, set: Uint8Array): boolean {
  const add = (ranges: [number, number][], negate: boolean): void => {
    const s = newSet();
    for (const [a, b] of ranges) rangeSet(s, a, b);
    for (let c = 0; c < 128; c++) if ((s[c] === 1) !== negate) set[c] = 1;
    if (negate || s[NON_ASCII] === 1) set[NON_ASCII] = 1;
  };
  const digit: [number, number][] = [[48, 57]];
  const word: [number, number][] = [[48, 57], [65, 90], [97, 122], [95, 95]];
  // \s also holds non-ASCII spaces (U+00A0, U+2028, ...).
  const space: [number, number][] = [[9, 13], [32, 32], [0xa0, 0xffff]];
  switch (ch) {
    case 'd': add(digit, false); return true;
    case 'D': add(digit, true); return true;
    case 'w': add(word, false); return true;
    case 'W': add(word, true); return true;
    case 's': add(space, false); return true;
    case 'S': add([[9, 13], [32, 32]], true); return true;
    default: return false;
  }
}

class Parser {
  private i = 0;
  constructor(private readonly src: string, private readonly caseless: boolean) {}

  parse(): Node {
    const node = this.alt();
    if (this.i !== this.src.length) throw new Unsupported(`unexpected ${this.src[this.i]}`);
    return node;
  }

  private alt(): Node {
    const items = [this.cat()];
    while (this.src[this.i] === '|') {
      this.i++;
      items.push(this.cat());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private cat(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.quantified(this.atom()));
    return { t: 'cat', items };
  }

  private quantified(atom: Node): Node {
    const src = this.src;
    const c = src[this.i];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.i));
      if (!m) return atom; // a literal `{`, read as the next atom
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (src[this.i] === '?') this.i++; // lazy
    return this.quantified({ t: 'rep', item: atom, min, max });
  }

  private char(code: number): Node {
    const set = newSet();
    set[code < 128 ? code : NON_ASCII] = 1;
    return { t: 'set', set: this.fold(set) };
  }

  /** Under the `i` flag an ASCII letter stands for both cases (and only ASCII ones, without `u`). */
  private fold(set: Uint8Array): Uint8Array {
    if (!this.caseless) return set;
    for (let c = 65; c <= 90; c++) {
      if (set[c] === 1 || set[c + 32] === 1) {
        set[c] = 1;
        set[c + 32] = 1;
      }
    }
    return set;
  }

  private atom(): Node {
    const src = this.src;
    const c = src[this.i++]!;
    if (c === '^') return { t: 'bol' };
    if (c === '$') return { t: 'eol' };
    if (c === '.') {
      const set = newSet();
      rangeSet(set, 0, 0xffff);
      return { t: 'set', set };
    }
    if (c === '(') {
      let lookaround = false;
      if (src.startsWith('?:', this.i)) this.i += 2;
      else if (src.startsWith('?=', this.i) || src.startsWith('?!', this.i)) {
        this.i += 2;
        lookaround = true;
      } else if (src.startsWith('?<=', this.i) || src.startsWith('?<!', this.i)) {
        this.i += 3;
        lookaround = true;
      } else if (src.startsWith('?<', this.i)) {
        const close = src.indexOf('>', this.i);
        if (close < 0) throw new Unsupported('group name');
        this.i = close + 1;
      } else if (src[this.i] === '?') throw new Unsupported('group kind');
      const inner = this.alt();
      if (src[this.i] !== ')') throw new Unsupported('unclosed group');
      this.i++;
      return lookaround ? { t: 'zero' } : inner;
    }
    if (c === '[') return this.klass();
    if (c === '\\') return this.escape();
    if (c === ')' || c === '*' || c === '+' || c === '?') throw new Unsupported(`stray ${c}`);
    return this.char(c.charCodeAt(0));
  }

  private escapedChar(ch: string): number | undefined {
    const src = this.src;
    switch (ch) {
      case 'n': return 10;
      case 'r': return 13;
      case 't': return 9;
      case 'v': return 11;
      case 'f': return 12;
      case 'x': {
        const m = /^[0-9a-fA-F]{2}/.exec(src.slice(this.i));
        if (!m) throw new Unsupported('\\x');
        this.i += 2;
        return parseInt(m[0], 16);
      }
      case 'u': {
        const m = /^[0-9a-fA-F]{4}/.exec(src.slice(this.i));
        if (!m) throw new Unsupported('\\u');
        this.i += 4;
        return parseInt(m[0], 16);
      }
      case 'c':
      case '0':
        throw new Unsupported(`\\${ch}`);
      default:
        if (/[A-Za-z0-9]/.test(ch)) throw new Unsupported(`\\${ch}`);
        return ch.charCodeAt(0);
    }
  }

  private escape(): Node {
    const ch = this.src[this.i++];
    if (ch === undefined) throw new Unsupported('trailing \\');
    if (ch === 'b' || ch === 'B') return { t: 'zero' };
    if (/[1-9]/.test(ch) || ch === 'k') return { t: 'unknown' };
    const set = newSet();
    if (classEscape(ch, set)) return { t: 'set', set: this.fold(set) };
    return this.char(this.escapedChar(ch)!);
  }

  private klass(): Node {
    const src = this.src;
    let negate = false;
    if (src[this.i] === '^') {
      negate = true;
      this.i++;
    }
    const set = newSet();
    while (this.i < src.length && src[this.i] !== ']') {
      const from = this.classAtom(set);
      if (from !== null && src[this.i] === '-' && src[this.i + 1] !== ']' && this.i + 1 < src.length) {
        this.i++;
        const to = this.classAtom(set);
        if (to === null) {
          // `[\d-x]`: the `-` is itself a member.
          set[45] = 1;
          set[from < 128 ? from : NON_ASCII] = 1;
        } else {
          if (to < from) throw new Unsupported('range');
          rangeSet(set, from, to);
        }
      } else if (from !== null) set[from < 128 ? from : NON_ASCII] = 1;
    }
    if (src[this.i] !== ']') throw new Unsupported('unclosed class');
    this.i++;
    this.fold(set);
    if (negate) {
      for (let c = 0; c < 128; c++) set[c] = set[c] === 1 ? 0 : 1;
      set[NON_ASCII] = 1;
    }
    return { t: 'set', set };
  }

  /** One member of a class: its code, or null for an escape standing for a class (added to `set`). */
  private classAtom(set: Uint8Array): number | null {
    const c = this.src[this.i++]!;
    if (c !== '\\') return c.charCodeAt(0);
    const ch = this.src[this.i++];
    if (ch === undefined) throw new Unsupported('trailing \\');
    if (ch === 'b') return 8;
    if (classEscape(ch, set)) return null;
    if (ch === '-') return 45;
    return this.escapedChar(ch)!;
  }
}

function parse(re: RegExp): Node | null {
  // `u`/`v` change case folding and escapes, `m` the anchors, `g`/`y` make test() stateful.
  if (/[uvmgy]/.test(re.flags)) return null;
  try {
    return new Parser(re.source, re.flags.includes('i')).parse();
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// First characters of an anchored pattern.

interface FirstInfo {
  set: Uint8Array; // 0-127, NON_ASCII, END
  nullable: boolean;
}

function firstOf(node: Node): FirstInfo {
  const set = new Uint8Array(END + 1);
  switch (node.t) {
    case 'set':
      set.set(node.set);
      return { set, nullable: false };
    case 'bol':
    case 'zero':
      return { set, nullable: true };
    case 'eol':
      // Nothing can be consumed after the end: the line ends here.
      set[END] = 1;
      return { set, nullable: false };
    case 'unknown':
      set.fill(1);
      return { set, nullable: true };
    case 'cat': {
      for (const item of node.items) {
        const f = firstOf(item);
        for (let c = 0; c <= END; c++) if (f.set[c] === 1) set[c] = 1;
        if (!f.nullable) return { set, nullable: false };
      }
      return { set, nullable: true };
    }
    case 'alt': {
      let nullable = false;
      for (const item of node.items) {
        const f = firstOf(item);
        for (let c = 0; c <= END; c++) if (f.set[c] === 1) set[c] = 1;
        nullable ||= f.nullable;
      }
      return { set, nullable };
    }
    case 'rep': {
      const f = firstOf(node.item);
      return { set: f.set, nullable: f.nullable || node.min === 0 };
    }
  }
}

/** Whether every match must start at the beginning of the input. */
function anchored(node: Node): boolean {
  switch (node.t) {
    case 'bol':
      return true;
    case 'cat':
      for (const item of node.items) {
        if (item.t === 'zero') continue;
        return anchored(item);
      }
      return false;
    case 'alt':
      return node.items.every(anchored);
    default:
      return false;
  }
}

/**
 * For a pattern that can only match at the start of a line: a table, indexed by
 * `firstIndex(line)`, that is 0 where no match can begin. Null when the pattern is not anchored
 * (or may match an empty prefix of any line).
 */
export function firstChars(re: RegExp): Uint8Array | null {
  return firstCharsOf(parse(re));
}

function firstCharsOf(node: Node | null): Uint8Array | null {
  if (node === null || !anchored(node)) return null;
  const f = firstOf(node);
  if (f.nullable) return null;
  return f.set;
}

// ---------------------------------------------------------------------------------------------
// Trigrams every match holds.

/** Sets of alternatives larger than this are not tracked exactly. */
const EXACT_LIMIT = 64;

interface TriInfo {
  /** Every string of symbols the node can match (each char's code is a symbol, NON_ASCII_SYMBOL for a non-ASCII character), or null. */
  exact: string[] | null;
  /** Clauses (sets of trigram hashes): a match holds one trigram of each. */
  clauses: number[][];
}

/**
 * The share of build-log lines holding each trigram (trigrams.ts, in powers of two; the
 * unlisted ones are rarer than the last bucket), and of lines holding a non-ASCII character.
 */
const FREQUENCY = new Float64Array(NON_ASCII_TRIGRAM + 1).fill(2 ** -(COMMON_TRIGRAMS.length + 1));
COMMON_TRIGRAMS.forEach((bucket, k) => {
  for (let i = 0; i + 3 <= bucket.length; i += 3) {
    FREQUENCY[trigramHash(SYMBOL[bucket.charCodeAt(i)]!, SYMBOL[bucket.charCodeAt(i + 1)]!, SYMBOL[bucket.charCodeAt(i + 2)]!)] = 2 ** -(k + 0.5);
  }
});
FREQUENCY[NON_ASCII_TRIGRAM] = 2 ** -5;

const trigramCost = (h: number): number => FREQUENCY[h]!;

/**
 * The rarest trigram of each string, as one clause; null if a string offers none (shorter than
 * three symbols, and no non-ASCII character, which stands as the NON_ASCII_TRIGRAM). With
 * `besides`, the rarest of each string's trigrams not among them.
 */
function clauseOf(strings: readonly string[] | null, besides?: readonly number[]): number[] | null {
  if (strings === null || strings.length === 0) return null;
  const out = new Set<number>();
  const real = (code: number): number => (code === NON_ASCII_SYMBOL ? 0 : code);
  for (const s of strings) {
    let best = s.includes(String.fromCharCode(NON_ASCII_SYMBOL)) && besides?.includes(NON_ASCII_TRIGRAM) !== true ? NON_ASCII_TRIGRAM : -1;
    let bestCost = best >= 0 ? trigramCost(best) : Infinity;
    for (let k = 0; k + 3 <= s.length; k++) {
      const h = trigramHash(real(s.charCodeAt(k)), real(s.charCodeAt(k + 1)), real(s.charCodeAt(k + 2)));
      // `besides`: another clause's trigrams, not taken again (the string's next-rarest instead).
      if (besides?.includes(h) === true) continue;
      const cost = trigramCost(h);
      if (cost < bestCost) {
        best = h;
        bestCost = cost;
      }
    }
    if (best < 0) return null;
    out.add(best);
  }
  return [...out];
}

const clauseCost = (clause: readonly number[]): number => clause.reduce((sum, h) => sum + trigramCost(h), 0);

function bestClause(info: TriInfo): number[] | null {
  let best: number[] | null = clauseOf(info.exact);
  for (const clause of info.clauses) if (best === null || clauseCost(clause) < clauseCost(best)) best = clause;
  return best;
}

function cross(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return [...out];
}

function triOf(node: Node): TriInfo {
  switch (node.t) {
    case 'set': {
      const symbols = new Set<number>();
      for (let c = 0; c < 128; c++) if (node.set[c] === 1) symbols.add(SYMBOL[c]!);
      if (node.set[NON_ASCII] === 1) symbols.add(NON_ASCII_SYMBOL);
      if (symbols.size > 8) return { exact: null, clauses: [] };
      return { exact: [...symbols].map((s) => String.fromCharCode(s)), clauses: [] };
    }
    case 'bol':
    case 'eol':
    case 'zero':
      return { exact: [''], clauses: [] };
    case 'unknown':
      return { exact: null, clauses: [] };
    case 'cat': {
      const clauses: number[][] = [];
      let run: string[] | null = [''];
      let broken = false;
      for (const item of node.items) {
        const t = triOf(item);
        clauses.push(...t.clauses);
        if (run !== null && t.exact !== null && run.length * t.exact.length <= EXACT_LIMIT) run = cross(run, t.exact);
        else {
          const c = clauseOf(run);
          if (c !== null) clauses.push(c);
          run = t.exact;
          broken = true;
        }
      }
      if (!broken) return { exact: run, clauses };
      const c = clauseOf(run);
      if (c !== null) clauses.push(c);
      return { exact: null, clauses };
    }
    case 'alt': {
      const infos = node.items.map(triOf);
      if (infos.every((t) => t.exact !== null)) {
        const all = new Set<string>();
        for (const t of infos) for (const s of t.exact!) all.add(s);
        if (all.size <= EXACT_LIMIT) return { exact: [...all], clauses: [] };
      }
      const union = new Set<number>();
      for (const t of infos) {
        const c = bestClause(t);
        if (c === null) return { exact: null, clauses: [] };
        for (const h of c) union.add(h);
      }
      return { exact: null, clauses: [[...union]] };
    }
    case 'rep': {
      const t = triOf(node.item);
      if (node.min === 0) {
        if (node.max === 1 && t.exact !== null) return { exact: [...new Set(['', ...t.exact])], clauses: [] };
        return { exact: null, clauses: [] };
      }
      if (t.exact !== null && node.max === node.min && t.exact.length ** node.min <= EXACT_LIMIT) {
        let exact = [''];
        for (let k = 0; k < node.min; k++) exact = cross(exact, t.exact);
        return { exact, clauses: t.clauses };
      }
      // At least `min` copies: what one copy needs, and `min` copies in a row when that is known.
      const clauses = [...t.clauses];
      if (t.exact !== null) {
        let run = [''];
        for (let k = 0; k < node.min && run.length * t.exact.length <= EXACT_LIMIT; k++) run = cross(run, t.exact);
        const c = clauseOf(run);
        if (c !== null) clauses.push(c);
      }
      return { exact: null, clauses };
    }
  }
}

/** How many clauses a gate checks at most (the most selective ones). */
const MAX_CLAUSES = 3;

/** The trigram clauses of a pattern (see the module comment); [] when nothing is known. */
export function trigramClauses(re: RegExp): Int32Array[] {
  return clausesOf(parse(re));
}

function clausesOf(node: Node | null): Int32Array[] {
  if (node === null) return [];
  const t = triOf(node);
  const all = [...t.clauses];
  const c = clauseOf(t.exact);
  if (c !== null) all.push(c);
  // Of a pattern whose matches are known strings, each string's next-rarest trigram too: a second
  // clause every match holds (a line holding `t i` but not `nst` holds no `not installed`).
  const second = c !== null ? clauseOf(t.exact, c) : null;
  if (second !== null) all.push(second);
  const seen = new Set<string>();
  const unique = all
    .map((clause) => [...new Set(clause)].sort((x, y) => x - y))
    .filter((clause) => {
      const key = clause.join(',');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  unique.sort((x, y) => clauseCost(x) - clauseCost(y));
  return unique.slice(0, MAX_CLAUSES).map((clause) => Int32Array.from(clause));
}

/** Whether every match of the node holds a non-ASCII character. */
function needsNonAscii(node: Node): boolean {
  switch (node.t) {
    case 'set':
      for (let c = 0; c < 128; c++) if (node.set[c] === 1) return false;
      return node.set[NON_ASCII] === 1;
    case 'cat':
      return node.items.some(needsNonAscii);
    case 'alt':
      return node.items.every(needsNonAscii);
    case 'rep':
      return node.min > 0 && needsNonAscii(node.item);
    default:
      return false;
  }
}

/**
 * One table for several anchored patterns: at each `firstIndex`, bit k is set where pattern k
 * may match a line so beginning (always, for a pattern `firstChars` cannot gate).
 */
export function leadTable(patterns: readonly RegExp[]): Uint32Array {
  if (patterns.length > 32) throw new Error('leadTable: at most 32 patterns');
  const table = new Uint32Array(END + 1);
  patterns.forEach((re, k) => {
    const first = firstChars(re);
    for (let i = 0; i <= END; i++) if (first === null || first[i] === 1) table[i]! |= 1 << k;
  });
  return table;
}

/** The gates of a pattern. */
export function gateOf(re: RegExp): Gate {
  const node = parse(re);
  return { first: firstCharsOf(node), nonAscii: node !== null && needsNonAscii(node), clauses: clausesOf(node) };
}

/**
 * The trigrams of one line at a time (each line replaces the last): a stamp per trigram hash,
 * so marking a line costs one store per character and nothing to clear.
 */
export class LineTrigrams {
  private readonly stamp = new Uint32Array(NON_ASCII_TRIGRAM + 1);
  private current = 0;

  /** Marks the trigrams of `line` (the previous line's are forgotten). */
  mark(line: string): void {
    let now = this.current + 1;
    if (now === 0xffffffff) {
      this.stamp.fill(0);
      now = 1;
    }
    this.current = now;
    const stamp = this.stamp;
    let h = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c < 128) h = ((h << 5) | SYMBOL[c]!) & 0x7fff;
      else {
        h = (h << 5) & 0x7fff;
        stamp[NON_ASCII_TRIGRAM] = now;
      }
      stamp[h] = now;
    }
  }

  /** Marks the trigrams of `line` as `mark` does; whether it holds the trigram hash `h`. */
  markHas(line: string, h: number): boolean {
    this.mark(line);
    return this.stamp[h] === this.current;
  }

  /** Whether the marked line holds one trigram of each clause. */
  satisfies(clauses: readonly Int32Array[]): boolean {
    return holdsEachClause(this.stamp, this.current, clauses);
  }
}

/** Whether the line stamped `now` in `stamp` holds one trigram of each clause (LineTrigrams, GateIndex). */
export function holdsEachClause(stamp: Uint32Array, now: number, clauses: readonly Int32Array[]): boolean {
  for (let k = 0; k < clauses.length; k++) {
    const clause = clauses[k]!;
    let found = false;
    for (let j = 0; j < clause.length; j++) {
      if (stamp[clause[j]!] === now) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
