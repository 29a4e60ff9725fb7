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
  /** By trigram hash: 1 + the slot of its pattern set in `keyed`, or 0 (no pattern keyed by it). */
  private readonly slotOf = new Int32Array(NON_ASCII_TRIGRAM + 1);
  /** The pattern sets keyed by each trigram, `words` ints a slot. */
  private readonly keyed: Int32Array;
  /** By first character (`firstIndex`), `words` ints each: the patterns a line so beginning may match, for a line of ASCII only and for any line. */
  private readonly firstAscii: Int32Array;
  private readonly firstAny: Int32Array;
  /** Patterns without a trigram clause: candidates whatever the trigrams. */
  private readonly free: Int32Array;
  /** Each pattern's clauses past its key. */
  private readonly rest: readonly (readonly Int32Array[])[];
  private readonly stamp = new Uint32Array(NON_ASCII_TRIGRAM + 1);
  private now = 0;
  /** The line read last: its pattern set (keys held, or free). */
  private readonly held: Int32Array;
  /** The slots of the keys the line read last holds (each once). */
  private slots = new Int32Array(64);
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
    const keys: number[] = [];
    gates.forEach((gate, k) => {
      const bit = 1 << (k & 31);
      const w = k >> 5;
      for (let fi = 0; fi <= END; fi++) {
        if (gate.first !== null && gate.first[fi] !== 1) continue;
        this.firstAny[fi * words + w]! |= bit;
        if (!gate.nonAscii) this.firstAscii[fi * words + w]! |= bit;
      }
      const key = gate.clauses[0];
      if (key === undefined) {
        this.free[w]! |= bit;
        return;
      }
      for (const h of key) {
        if (this.slotOf[h] === 0) {
          keys.push(h);
          this.slotOf[h] = keys.length;
        }
      }
    });
    this.keyed = new Int32Array(keys.length * words);
    gates.forEach((gate, k) => {
      for (const h of gate.clauses[0] ?? []) this.keyed[(this.slotOf[h]! - 1) * words + (k >> 5)]! |= 1 << (k & 31);
    });
    this.rest = gates.map((gate) => gate.clauses.slice(1));
  }

  /** Reads a line: `list` / `count` are then the patterns it may match, in order. */
  read(line: string): void {
    let now = this.now + 1;
    if (now === 0xffffffff) {
      this.stamp.fill(0);
      now = 1;
    }
    this.now = now;
    const stamp = this.stamp;
    const slotOf = this.slotOf;
    let slots = this.slots;
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
          stamp[NON_ASCII_TRIGRAM] = now;
          const s = slotOf[NON_ASCII_TRIGRAM]!;
          if (s !== 0) slots[found++] = s;
        }
      }
      if (stamp[h] === now) continue;
      stamp[h] = now;
      const s = slotOf[h]!;
      if (s === 0) continue;
      if (found === slots.length) {
        const more = new Int32Array(found * 2);
        more.set(slots);
        this.slots = slots = more;
      }
      slots[found++] = s;
    }
    this.ascii = ascii;
    this.first = firstIndex(line);
    const words = this.words;
    const held = this.held;
    held.set(this.free);
    const keyed = this.keyed;
    for (let j = 0; j < found; j++) {
      const at = (slots[j]! - 1) * words;
      for (let w = 0; w < words; w++) held[w]! |= keyed[at + w]!;
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
    return holdsEachClause(this.stamp, this.now, this.rest[k]!);
  }

}
