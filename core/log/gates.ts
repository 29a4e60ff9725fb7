/**
 * The prefilter's gates (prefilter.ts `gateOf`) read from a table made once from the patterns'
 * sources (gateTable.ts, written by `npm run gates`), instead of being derived at every import:
 * deriving them all took 60-70 ms of every process and test file that loads the analyzer
 * (issue 31). A pattern is found in the table by a hash of its flags and source; a pattern the
 * table does not hold (a rule added or edited since the table was written) is derived as before,
 * so the table only ever changes how fast the module loads, never a gate. A test
 * (gates.test.ts) fails while the table differs from what the patterns derive.
 */
import { GATE_TABLE, type GateRow } from './gateTable.js';
import { END, LineTrigrams, NON_ASCII_TRIGRAM, firstIndex, gateOf, type Gate } from './prefilter.js';

/** Every pattern a gate was asked for, by key (what `npm run gates` writes the table of). */
const asked = new Map<string, RegExp>();

/** A pattern's key in the table: its flags, source length and a 32-bit FNV-1a hash of both. */
export function patternKey(re: RegExp): string {
  const text = `${re.flags}/${re.source}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${(h >>> 0).toString(36)}.${text.length}`;
}

/** The gate of a pattern: from the table when it holds the pattern, else derived (`gateOf`). */
export function gateFor(re: RegExp): Gate {
  const key = patternKey(re);
  asked.set(key, re);
  const row = GATE_TABLE[key];
  return row === undefined ? gateOf(re) : gateOfRow(row);
}

/**
 * By a line's first character (`firstIndex`): 1 where one of the patterns may match a line so
 * beginning (everywhere, for a pattern whose gate knows no first characters).
 */
export function firstCharsOfAny(patterns: readonly RegExp[]): Uint8Array {
  const table = new Uint8Array(END + 1);
  for (const re of patterns) {
    const first = gateFor(re).first;
    if (first === null) return table.fill(1);
    for (let i = 0; i <= END; i++) if (first[i] === 1) table[i] = 1;
  }
  return table;
}

/**
 * The gates of a list of patterns tried in turn on a line (the finding's rules, the test-name
 * shapes): `read` the line once, then `may(k)` says whether pattern k can match it at all. A
 * pattern `may` rules out would not have matched, so skipping it changes nothing but the time.
 */
export class PatternGates {
  private readonly gates: readonly Gate[];
  private readonly trigrams = new LineTrigrams();
  private first = END;
  private ascii = true;
  /** By first character (`firstIndex`): the patterns a line of ASCII only, or any line, may match by it and its ASCII-ness. */
  private readonly byFirstAscii: readonly Int32Array[];
  private readonly byFirstAny: readonly Int32Array[];

  constructor(patterns: readonly RegExp[]) {
    this.gates = patterns.map(gateFor);
    const byFirst = (ascii: boolean): Int32Array[] => {
      const out: Int32Array[] = [];
      for (let fi = 0; fi <= END; fi++) {
        const ks: number[] = [];
        this.gates.forEach((gate, k) => {
          if ((gate.first === null || gate.first[fi] === 1) && !(gate.nonAscii && ascii)) ks.push(k);
        });
        out.push(Int32Array.from(ks));
      }
      return out;
    };
    this.byFirstAscii = byFirst(true);
    this.byFirstAny = byFirst(false);
  }

  /** The line the next `may` calls are about. */
  read(line: string): void {
    this.first = firstIndex(line);
    this.ascii = !this.trigrams.markHas(line, NON_ASCII_TRIGRAM);
  }

  /**
   * The patterns (indexes, in order) that the line read last may match by its first character
   * and its ASCII-ness: `may(k)` of any other is false, and of these it is `holds(k)`.
   */
  candidates(): Int32Array {
    return (this.ascii ? this.byFirstAscii : this.byFirstAny)[this.first]!;
  }

  /** For a pattern of `candidates()`: whether the line read last holds its trigram clauses (what `may` says of it). */
  holds(k: number): boolean {
    return this.trigrams.satisfies(this.gates[k]!.clauses);
  }

  /** Whether pattern k (of the constructor's list) may match the line read last. */
  may(k: number): boolean {
    const gate = this.gates[k];
    if (gate === undefined) return true;
    if (gate.first !== null && gate.first[this.first] !== 1) return false;
    if (gate.nonAscii && this.ascii) return false;
    return this.trigrams.satisfies(gate.clauses);
  }
}

function gateOfRow([first, nonAscii, clauses]: GateRow): Gate {
  let table: Uint8Array | null = null;
  if (first !== null) {
    table = new Uint8Array(END + 1);
    for (const [from, to] of first) table.fill(1, from, to + 1);
  }
  return { first: table, nonAscii: nonAscii === 1, clauses: clauses.map((c) => Int32Array.from(c)) };
}

function rowOf(gate: Gate): GateRow {
  let first: [number, number][] | null = null;
  if (gate.first !== null) {
    first = [];
    for (let i = 0; i <= END; i++) {
      if (gate.first[i] !== 1) continue;
      const last = first[first.length - 1];
      if (last !== undefined && last[1] === i - 1) last[1] = i;
      else first.push([i, i]);
    }
  }
  return [first, gate.nonAscii ? 1 : 0, gate.clauses.map((c) => [...c])];
}

/**
 * The text of gateTable.ts for every pattern asked for so far (the caller loads the modules
 * whose patterns it covers first), each gate derived afresh: what `npm run gates` writes.
 */
export function gateTableSource(): string {
  const rows = [...asked]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, re]) => `  '${key}': ${JSON.stringify(rowOf(gateOf(re)))},`);
  return [
    '// Generated by `npm run gates` (scripts/gates.ts) from the analyzer\'s patterns: do not edit.',
    '// Each row: [first characters as inclusive ranges of `firstIndex` or null, every match non-ASCII, trigram clauses].',
    'export type GateRow = readonly [first: readonly (readonly [number, number])[] | null, nonAscii: 0 | 1, clauses: readonly (readonly number[])[]];',
    '',
    'export const GATE_TABLE: Readonly<Record<string, GateRow>> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}
