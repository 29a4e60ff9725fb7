/**
 * The prefilter's gates (prefilter.ts) of a list of patterns tried in turn on a line, as an
 * inverted index (issue 28): each pattern is keyed by its first trigram clause (the rarest), so
 * one scan of the line's characters marks its trigrams and gathers, as a bit set, the patterns
 * whose key it holds; the candidates are then those bits, kept where the line's first character
 * and its ASCII-ness allow the pattern, and only their other clauses are checked. The same
 * patterns, in the same order, as asking every pattern of the first character's list whether
 * the line holds all its clauses (`LineTrigrams.satisfies`): on the real logs ~34 such asks a line
 * that reaches the shapes, on the generated log ~59; most are turned away by their first clause.
 */
import { END, NON_ASCII_TRIGRAM, SYMBOL, firstIndex, holdsEachClause, type Gate } from './prefilter.js';

export class GateIndex {
  /** 32-bit words of a pattern set. */
  private readonly words: number;
  /**
   * By trigram hash: the slot of a trigram some clause names (1-based), or 0. A line's other
   * trigrams cost one lookup here and nothing else; the table is 64 KiB, not the 128 KiB stamp
   * per trigram an index had, which with the findings' indexes beside it did not stay in cache.
   */
  private readonly slotOf = new Uint16Array(NON_ASCII_TRIGRAM + 1);
  /** The trigrams with a slot, one bit each (4 KiB, asked first: most of a line's trigrams have none). */
  private readonly named = new Int32Array(NON_ASCII_TRIGRAM >> 5);
  /**
   * The pattern sets keyed by each slot's trigram, sparse: slot s's are the words `keyWord[j]` and
   * bits `keyBits[j]` for j from `keyFrom[s]` to `keyFrom[s + 1]` (none for a trigram only later
   * clauses name). Most trigrams key one or two patterns: OR-ing every word of the set for each
   * trigram found was a fifth of `read`.
   */
  private readonly keyFrom: Int32Array;
  private readonly keyWord: Int32Array;
  private readonly keyBits: Int32Array;
  /** By first character (`firstIndex`), `words` ints each: the patterns a line so beginning may match, for a line of ASCII only and for any line. */
  private readonly firstAscii: Int32Array;
  private readonly firstAny: Int32Array;
  /** Patterns without a trigram clause: candidates whatever the trigrams. */
  private readonly free: Int32Array;
  /** Each pattern's clauses past its key, as slots. */
  private readonly rest: readonly (readonly Int32Array[])[];
  /** By slot: the read that last found its trigram in the line. */
  private readonly marks: Uint32Array;
  private now = 0;
  /** The line read last: its pattern set (keys held, or free). */
  private readonly held: Int32Array;
  /** The slots the line read last holds (each once). */
  private readonly slots: Int32Array;
  private first = END;
  private ascii = true;
  /** The candidates of the line read last, in order: `count` of them. */
  readonly list: Int32Array;
  count = 0;

  constructor(gates: readonly Gate[]) {
    const n = gates.length;
    const words = (this.words = Math.max(1, Math.ceil(n / 32)));
    this.list = new Int32Array(n);
    this.free = new Int32Array(words);
    this.held = new Int32Array(words);
    this.firstAscii = new Int32Array((END + 1) * words);
    this.firstAny = new Int32Array((END + 1) * words);
    let slots = 0;
    const slotFor = (h: number): void => {
      if (this.slotOf[h] !== 0) return;
      this.slotOf[h] = ++slots;
      if (h < NON_ASCII_TRIGRAM) this.named[h >> 5]! |= 1 << (h & 31);
    };
    gates.forEach((gate, k) => {
      const bit = 1 << (k & 31);
      const w = k >> 5;
      for (let fi = 0; fi <= END; fi++) {
        if (gate.first !== null && gate.first[fi] !== 1) continue;
        this.firstAny[fi * words + w]! |= bit;
        if (!gate.nonAscii) this.firstAscii[fi * words + w]! |= bit;
      }
      if (gate.clauses.length === 0) this.free[w]! |= bit;
      for (const clause of gate.clauses) for (const h of clause) slotFor(h);
    });
    const keyed = new Int32Array((slots + 1) * words);
    gates.forEach((gate, k) => {
      for (const h of gate.clauses[0] ?? []) keyed[this.slotOf[h]! * words + (k >> 5)]! |= 1 << (k & 31);
    });
    this.keyFrom = new Int32Array(slots + 2);
    const keyWord: number[] = [];
    const keyBits: number[] = [];
    for (let s = 0; s <= slots; s++) {
      this.keyFrom[s] = keyWord.length;
      for (let w = 0; w < words; w++) {
        if (keyed[s * words + w] === 0) continue;
        keyWord.push(w);
        keyBits.push(keyed[s * words + w]!);
      }
    }
    this.keyFrom[slots + 1] = keyWord.length;
    this.keyWord = Int32Array.from(keyWord);
    this.keyBits = Int32Array.from(keyBits);
    this.rest = gates.map((gate) => gate.clauses.slice(1).map((clause) => Int32Array.from(clause, (h) => this.slotOf[h]!)));
    this.marks = new Uint32Array(slots + 1);
    this.slots = new Int32Array(slots + 1);
  }

  /** Reads a line: `list` / `count` are then the patterns it may match, in order. */
  read(line: string): void {
    let now = this.now + 1;
    if (now === 0xffffffff) {
      this.marks.fill(0);
      now = 1;
    }
    this.now = now;
    const marks = this.marks;
    const slotOf = this.slotOf;
    const named = this.named;
    const slots = this.slots;
    let found = 0;
    let ascii = true;
    let h = 0;
    const n = line.length;
    for (let i = 0; i < n; i++) {
      const c = line.charCodeAt(i);
      if (c < 128) h = ((h << 5) | SYMBOL[c]!) & 0x7fff;
      else {
        h = (h << 5) & 0x7fff;
        if (ascii) {
          ascii = false;
          const s = slotOf[NON_ASCII_TRIGRAM]!;
          if (s !== 0) {
            marks[s] = now;
            slots[found++] = s;
          }
        }
      }
      // `>>>` counts its shift modulo 32: bit h & 31 of the word.
      if (((named[h >> 5]! >>> h) & 1) === 0) continue;
      const s = slotOf[h]!;
      if (marks[s] === now) continue;
      marks[s] = now;
      slots[found++] = s;
    }
    this.ascii = ascii;
    this.first = firstIndex(line);
    const words = this.words;
    const held = this.held;
    held.set(this.free);
    const keyFrom = this.keyFrom;
    const keyWord = this.keyWord;
    const keyBits = this.keyBits;
    for (let j = 0; j < found; j++) {
      const s = slots[j]!;
      for (let x = keyFrom[s]!, end = keyFrom[s + 1]!; x < end; x++) held[keyWord[x]!]! |= keyBits[x]!;
    }
    // The patterns whose key the line holds, as its first character and ASCII-ness allow, in order; their other clauses checked.
    const byFirst = ascii ? this.firstAscii : this.firstAny;
    const base = this.first * words;
    const list = this.list;
    let count = 0;
    for (let w = 0; w < words; w++) {
      let m = held[w]! & byFirst[base + w]!;
      while (m !== 0) {
        const low = m & -m;
        m ^= low;
        const k = (w << 5) | (31 - Math.clz32(low));
        if (this.holdsRest(k)) list[count++] = k;
      }
    }
    this.count = count;
  }

  /** Whether the line read last holds one trigram of each of pattern k's clauses past its key. */
  private holdsRest(k: number): boolean {
    return holdsEachClause(this.marks, this.now, this.rest[k]!);
  }
}
