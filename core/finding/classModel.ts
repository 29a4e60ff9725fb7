/**
 * A hedged guess at the class of a finding the rules left `unknown` (issue 25): a multinomial naive
 * Bayes model over the tokens of the excerpt (docs/notes/analyzer.md, "A class model"). It never
 * changes `class`: it adds `likely_class` (class, posterior, the excerpt's words that weigh most for
 * it) beside `class: unknown`, and only at a posterior of at least LIKELY_AT (0.9, fixed). The
 * posteriors are tempered (the log-scores divided by the table's temperature, fitted by
 * leave-one-round-out on the tuning rounds, scripts/classModelData.ts) so that 0.9 means about 9 in
 * 10. The weights are counts of the labelled real failures, in classModelTable.ts, which `npm run
 * class-model` writes.
 *
 * Tokens, each counted once per case: the lower-case words of the excerpt's first 60 lines; shapes
 * (`#code:TS` for a `TS2339`, `#code:E` for rustc's `E0425`, `#exit:N`, `#gotest`, `#causedby`, JVM /
 * Node / Python frames, a `file:line`, an `sh -x` echo); the words of the finding's message
 * (`m:word`); the words of the ABOVE lines before the excerpt (`b:word`: the command and the step
 * that led to it); its tool, the rules' class and confidence. Every word is reduced to its stem
 * (`stemOf`: a new wording of a known word meets it). The words above and the stems were chosen by
 * the forward protocol (docs/notes/analyzer.md, "The class model on unseen breaks").
 */
import type { Finding, FindingClass, LikelyClass, LogExcerpt } from '../../protocol/types.js';
import { CLASS_MODEL } from './classModelTable.js';

/** The lines of an excerpt the model reads. */
export const MODEL_LINES = 60;
/** The lines above the excerpt whose words the model reads (`b:word`). */
export const ABOVE_LINES = 20;
/** Laplace smoothing of the counts. */
export const SMOOTHING = 0.5;
/** The least (tempered) posterior at which a class is named: fixed, not tuned (docs/notes/analyzer.md, "A stable threshold"). */
export const LIKELY_AT = 0.9;

/** A table of counts: per class the cases, and per token the cases of each class that hold it. */
export interface ClassModelTable {
  /** The classes, in the order of the counts below. */
  classes: readonly FindingClass[];
  /** Cases per class. */
  cases: readonly number[];
  /** Per token, `class index:count` pairs (classes with no case holding it left out). */
  tokens: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** The least posterior at which a class is named. */
  threshold: number;
  /** The log-scores are divided by it before they are normalised into posteriors (1: naive Bayes' own, overconfident). */
  temperature: number;
}

const WORD = /\b[a-z][a-z0-9_]{1,39}\b/g;
const SHAPES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/\b(TS|CS|FS|BC|LNK|MSB|NU|NETSDK|C|E|F|W|D|N|SC|PLW|PLE|RUF)\d{3,5}\b/, (m) => `#code:${m[1] as string}`],
  [/\bexit (?:code|status|value)[ :]*(\d{1,3})\b|\bError (\d{1,3})\b|\breturned (\d{1,3})\b/i, (m) => `#exit:${m[1] ?? m[2] ?? m[3] ?? ''}`],
  [/_test\.go\b/, () => '#gotest'],
  [/^\s*Caused by\b/, () => '#causedby'],
  [/^\s+at [\w$.<>]+\([\w$]+\.(?:java|kt|scala|groovy):\d+\)/, () => '#jvmframe'],
  [/^\s+at (?:.* \()?(?:file:\/\/)?[^\s()]+\.[cm]?[jt]sx?:\d+:\d+\)?\s*$/, () => '#nodeframe'],
  [/^\s*File "[^"]+", line \d+/, () => '#pyframe'],
  [/[\w.-]+\.[a-zA-Z]{1,5}:\d+\b/, () => '#fileline'],
  [/^\+{1,3} \S/, () => '#xtrace'],
];

/**
 * A lower-case word's stem: a common English ending cut (`-ations`, `-ings`, `-ed`, `-es`, `-s`,
 * `-ions`, `-ers`, `-ly`...) when three letters or more stay, then at most 12 letters (`resolving`,
 * `resolved`, `resolves` -> `resolv`; `connections` -> `connect`). Crude on purpose: it only has to
 * make the same word in another form the same token.
 */
export function stemOf(word: string): string {
  const cut = word.replace(/(?:ations?|ings?|ed|es|s|ions?|ers?|ly)$/, '');
  return (cut.length >= 3 ? cut : word).slice(0, 12);
}

function wordsOf(text: string, prefix: string, into: Set<string>): void {
  for (const m of text.toLowerCase().matchAll(WORD)) into.add(prefix + stemOf(m[0]));
}

/** The model's tokens of an excerpt of `lines` (1-based start/end) and the rules' finding of it, each once. */
export function classTokens(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, finding: Finding): string[] {
  const out = new Set<string>();
  const last = Math.min(excerpt.end_line, excerpt.start_line + MODEL_LINES - 1, lines.length);
  for (let n = excerpt.start_line; n <= last; n++) {
    const line = (lines[n - 1] ?? '').slice(0, 1000);
    wordsOf(line, '', out);
    for (const [re, name] of SHAPES) {
      const m = re.exec(line);
      if (m) out.add(name(m));
    }
  }
  for (let n = Math.max(1, excerpt.start_line - ABOVE_LINES); n < excerpt.start_line; n++) wordsOf((lines[n - 1] ?? '').slice(0, 1000), 'b:', out);
  wordsOf(finding.message.slice(0, 1000), 'm:', out);
  // A tool's name may hold a space (`go test`, `cargo test`): the table's rows are `token k:n ...` split at the
  // first space, so the name is written with `_` (`#tool:go_test`), else it became `#tool:go` and overwrote go's row.
  out.add(`#tool:${(finding.tool ?? '-').replace(/\s+/g, '_')}`);
  // The rules' own class and level: a `high` that calibration lowered, a medium or low class it set aside (calibration.ts), read as the rules gave them.
  out.add(`#rule:${finding.rules_class ?? finding.class}`);
  out.add(`#conf:${finding.rules_confidence ?? finding.confidence}`);
  return [...out];
}

const MASS = new WeakMap<ClassModelTable, number[]>();
/** Each token once per case: P(token | class) is a share of the class's token occurrences, counted here once per table. */
function massOf(table: ClassModelTable): number[] {
  let mass = MASS.get(table);
  if (!mass) {
    const m = table.classes.map(() => 0);
    for (const counts of table.tokens.values()) for (const [k, n] of counts) m[k] = (m[k] as number) + n;
    MASS.set(table, (mass = m));
  }
  return mass;
}

/**
 * Per table, the class-wise term of each token the table holds: `log(count + SMOOTHING) - log(mass + SMOOTHING * vocab)`,
 * the very doubles logScores used to compute per call (a token's ~20 terms were read back and logged at every excerpt:
 * ~8 % of a tuned case's analysis). Bounded by the table's tokens; a token it lacks is not kept.
 */
const TERMS = new WeakMap<ClassModelTable, Map<string, Float64Array>>();

/** The (untempered) log-probability of each class given `tokens`, up to a constant (tokens the table does not hold are left out). */
export function logScores(table: ClassModelTable, tokens: readonly string[]): number[] {
  const total = table.cases.reduce((a, b) => a + b, 0);
  const vocab = table.tokens.size;
  const mass = massOf(table);
  const n = table.classes.length;
  let terms = TERMS.get(table);
  if (!terms) TERMS.set(table, (terms = new Map()));
  const denom: number[] = [];
  const s: number[] = [];
  for (let k = 0; k < n; k++) {
    s.push(Math.log(((table.cases[k] as number) + SMOOTHING) / (total + SMOOTHING * n)));
    denom.push(Math.log((mass[k] as number) + SMOOTHING * vocab));
  }
  // Each class's sum is added in the tokens' order, term by term, as before: the same doubles.
  for (const t of tokens) {
    let row = terms.get(t);
    if (row === undefined) {
      const counts = table.tokens.get(t);
      if (!counts) continue;
      row = new Float64Array(n);
      for (let k = 0; k < n; k++) row[k] = Math.log((counts.get(k) ?? 0) + SMOOTHING) - (denom[k] as number);
      terms.set(t, row);
    }
    for (let k = 0; k < n; k++) s[k] = (s[k] as number) + (row[k] as number);
  }
  return s;
}

/** Log-scores divided by `temperature`, normalised into probabilities (same order). */
export function tempered(scores: readonly number[], temperature: number): number[] {
  const top = Math.max(...scores);
  const e = scores.map((x) => Math.exp((x - top) / temperature));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** The posterior of each class given `tokens`, by class, at the table's temperature. */
export function posteriors(table: ClassModelTable, tokens: readonly string[]): Map<FindingClass, number> {
  const p = tempered(logScores(table, tokens), table.temperature);
  return new Map(table.classes.map((c, k) => [c, p[k] as number]));
}

/** The most probable class other than `unknown` and its posterior. */
export function bestGuess(table: ClassModelTable, tokens: readonly string[]): { class: Exclude<FindingClass, 'unknown'>; probability: number } | undefined {
  let best: { class: Exclude<FindingClass, 'unknown'>; probability: number } | undefined;
  for (const [c, p] of posteriors(table, tokens)) if (c !== 'unknown' && (!best || p > best.probability)) best = { class: c, probability: p };
  return best;
}

/** How many of a class's cases must hold a word before it is shown as a word that weighs for the class (not one project's name). */
const SHOWN_MIN_CASES = 3;

/**
 * The words of the excerpt (as its lines spell them, first occurrence) that weigh most for class
 * `c` against the others: log P(word | c) - log P(word | not c), as shares of cases; only words that
 * weigh for it (above zero), of 3 letters or more, those held by SHOWN_MIN_CASES cases of the class
 * first (a word of one project's names says little to a reader); at most 6.
 */
function weightiest(table: ClassModelTable, c: FindingClass, lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): string[] {
  const k = table.classes.indexOf(c);
  const all = table.cases.reduce((a, b) => a + b, 0);
  const inC = table.cases[k] as number;
  const spelled = new Map<string, string>();
  const last = Math.min(excerpt.end_line, excerpt.start_line + MODEL_LINES - 1, lines.length);
  for (let n = excerpt.start_line; n <= last; n++) {
    for (const m of (lines[n - 1] ?? '').slice(0, 1000).matchAll(/\b[A-Za-z][A-Za-z0-9_]{2,39}\b/g)) {
      const stem = stemOf(m[0].toLowerCase());
      if (!spelled.has(stem)) spelled.set(stem, m[0]);
    }
  }
  const weighed: { word: string; w: number; general: boolean }[] = [];
  for (const [stem, word] of spelled) {
    const counts = table.tokens.get(stem);
    if (!counts) continue;
    const here = counts.get(k) ?? 0;
    let elsewhere = 0;
    for (const [j, n] of counts) if (j !== k) elsewhere += n;
    // As shares of cases (a word is once per case), smoothed: how much more often class c's cases hold it.
    const w = Math.log((here + SMOOTHING) / (inC + SMOOTHING * 2)) - Math.log((elsewhere + SMOOTHING) / (all - inC + SMOOTHING * 2));
    if (w > 0) weighed.push({ word, w, general: here >= SHOWN_MIN_CASES });
  }
  weighed.sort((a, b) => Number(b.general) - Number(a.general) || b.w - a.w || a.word.localeCompare(b.word));
  return weighed.slice(0, 6).map((x) => x.word);
}

/**
 * The likely class of an excerpt whose rules' finding is `unknown`: the model's best class other
 * than unknown, when its posterior is at least the table's threshold; undefined otherwise, and
 * always when the rules named a class (the rules' class stands).
 */
export function likelyClassOf(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, finding: Finding, given?: ClassModelTable): LikelyClass | undefined {
  if (finding.class !== 'unknown') return undefined;
  // The landed table is decoded on the first finding that needs it: an unknown one, or one calibration reads (calibration.ts).
  const table = given ?? modelTable();
  const all = classTokens(lines, excerpt, finding);
  // A class calibration set aside (`rules_class`): the words alone are read, as calibration read them, and that class is never the guess.
  const tokens = finding.rules_class ? all.filter((t) => !t.startsWith('#rule:') && !t.startsWith('#conf:')) : all;
  const guess = bestGuess(table, tokens);
  if (!guess || guess.probability < table.threshold || guess.class === finding.rules_class) return undefined;
  const words = weightiest(table, guess.class, lines, excerpt);
  if (words.length === 0) return undefined;
  return { class: guess.class, probability: Math.floor(guess.probability * 10000) / 10000, words };
}

/** The finding with its likely class when the model has one (a new object; the rules' fields unchanged). */
export function withLikelyClass(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, finding: Finding): Finding {
  const likely = likelyClassOf(lines, excerpt, finding);
  return likely ? { ...finding, likely_class: likely } : finding;
}

let loaded: ClassModelTable | undefined;
/** The generated table (classModelTable.ts), decoded once, on first use. */
export function modelTable(): ClassModelTable {
  return (loaded ??= decodeTable(CLASS_MODEL));
}

/** Whether this process has decoded the generated table yet (a finding the rules classed never needs it). */
export const modelTableDecoded = (): boolean => loaded !== undefined;

/** The table as classModelTable.ts holds it: classes, cases, threshold, temperature, and `token k:n k:n` rows joined by newlines. */
export interface EncodedTable {
  classes: readonly string[];
  cases: readonly number[];
  threshold: number;
  temperature?: number;
  rows: readonly string[];
}

/** A token's `k:n k:n` pairs as classModelTable.ts writes them (`''`: none). */
function pairsOf(text: string): ReadonlyMap<number, number> {
  return new Map(text === '' ? [] : text.split(' ').map((p) => p.split(':').map(Number) as [number, number]));
}

/**
 * The token counts of an encoded table, each token's pairs read when it is first asked for: a guess looks up the few
 * hundred tokens of one excerpt among ~4,900, and reading them all took ~30 of the ~40 CPU-ms a process paid to decode
 * the table for its first unknown finding (docs/notes/house.md, "The class model table, decoded when needed").
 */
class EncodedCounts implements ReadonlyMap<string, ReadonlyMap<number, number>> {
  readonly #rows: Map<string, string | ReadonlyMap<number, number>>;
  constructor(rows: Map<string, string>) {
    this.#rows = rows;
  }
  get size(): number {
    return this.#rows.size;
  }
  has(token: string): boolean {
    return this.#rows.has(token);
  }
  get(token: string): ReadonlyMap<number, number> | undefined {
    const row = this.#rows.get(token);
    if (typeof row !== 'string') return row;
    const counts = pairsOf(row);
    this.#rows.set(token, counts);
    return counts;
  }
  /** Every token read: what the iterations below walk. */
  #all(): Map<string, ReadonlyMap<number, number>> {
    for (const token of this.#rows.keys()) this.get(token);
    return this.#rows as Map<string, ReadonlyMap<number, number>>;
  }
  entries(): MapIterator<[string, ReadonlyMap<number, number>]> {
    return this.#all().entries();
  }
  keys(): MapIterator<string> {
    return this.#rows.keys();
  }
  values(): MapIterator<ReadonlyMap<number, number>> {
    return this.#all().values();
  }
  [Symbol.iterator](): MapIterator<[string, ReadonlyMap<number, number>]> {
    return this.entries();
  }
  forEach(fn: (counts: ReadonlyMap<number, number>, token: string, map: ReadonlyMap<string, ReadonlyMap<number, number>>) => void): void {
    for (const [token, counts] of this.entries()) fn(counts, token, this);
  }
}

export function decodeTable(enc: EncodedTable): ClassModelTable {
  const rows = new Map<string, string>();
  for (const chunk of enc.rows) {
    for (const row of chunk.split('\n')) {
      if (row === '') continue;
      const space = row.indexOf(' ');
      // A token holds no space (classTokens writes a tool's name with `_`): the first space ends it.
      rows.set(space < 0 ? row : row.slice(0, space), space < 0 ? '' : row.slice(space + 1));
    }
  }
  // Each class's token occurrences (massOf), summed from the pairs' text: no token's map made.
  const mass = enc.classes.map(() => 0);
  for (const pairs of rows.values()) {
    if (pairs === '') continue;
    for (const p of pairs.split(' ')) {
      const colon = p.indexOf(':');
      const k = Number(p.slice(0, colon));
      mass[k] = (mass[k] as number) + Number(p.slice(colon + 1));
    }
  }
  const table: ClassModelTable = { classes: enc.classes as FindingClass[], cases: enc.cases, tokens: new EncodedCounts(rows), threshold: enc.threshold, temperature: enc.temperature ?? 1 };
  MASS.set(table, mass);
  return table;
}

/** Counts of labelled cases (tokens held by one case only dropped). */
export function trainTable(cases: readonly { tokens: readonly string[]; label: FindingClass }[], classes: readonly FindingClass[], threshold: number, temperature = 1): ClassModelTable {
  const counts = new Map<string, Map<number, number>>();
  const seen = new Map<string, number>();
  const perClass = classes.map(() => 0);
  for (const c of cases) {
    const k = classes.indexOf(c.label);
    perClass[k] = (perClass[k] as number) + 1;
    for (const t of c.tokens) {
      seen.set(t, (seen.get(t) ?? 0) + 1);
      let m = counts.get(t);
      if (!m) counts.set(t, (m = new Map()));
      m.set(k, (m.get(k) ?? 0) + 1);
    }
  }
  for (const [t, n] of seen) if (n < 2) counts.delete(t);
  return { classes, cases: perClass, tokens: counts, threshold, temperature };
}

/** The TypeScript source of classModelTable.ts for `table` (sorted, so the same data writes the same file). */
export function tableSource(table: ClassModelTable, note: string): string {
  const rows = [...table.tokens.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([t, m]) => `${t} ${[...m.entries()].sort(([a], [b]) => a - b).map(([k, n]) => `${k}:${n}`).join(' ')}`);
  const chunks: string[] = [];
  for (let i = 0; i < rows.length; i += 20) chunks.push(rows.slice(i, i + 20).join('\n'));
  return [
    '// Generated by `npm run class-model` (scripts/classModel.ts) from the labelled real failures: do not edit.',
    `// ${note}`,
    '// The class model (classModel.ts, EncodedTable): per token, the cases of each class (by index) that hold it.',
    '',
    '// prettier-ignore',
    'export const CLASS_MODEL = {',
    `  classes: ${JSON.stringify(table.classes)},`,
    `  cases: ${JSON.stringify(table.cases)},`,
    `  threshold: ${table.threshold},`,
    `  temperature: ${table.temperature},`,
    '  rows: [',
    ...chunks.map((c) => `    ${JSON.stringify(c)},`),
    '  ],',
    '};',
    '',
  ].join('\n');
}
