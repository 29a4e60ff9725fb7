/**
 * Exact-term matching for retrieval: the identifiers a build log is made of (class names,
 * error codes such as E0425, TS2345 or ORA-00942, file paths, dotted names, snake_case and
 * camelCase names) found in a question must count for a lot when the same string is in a
 * chunk, whatever a vector model thinks of it. Combined with vector similarity in hybridRank.
 */

/**
 * Candidate identifier runs are what `/[A-Za-z0-9_$][A-Za-z0-9_.$/\\-]{1,200}/g` matches: letters,
 * digits and the joiners of paths and dotted names (error codes such as E0425, TS2345,
 * ORA-00942, ERR_PNPM_FETCH_404 are runs of their own), scanned by hand below (the regex, its
 * match arrays and the splitting of every run cost most of an upload's term extraction).
 */
const RUN_START = new Uint8Array(128);
const RUN_PART = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$') {
  RUN_START[ch.charCodeAt(0)] = 1;
  RUN_PART[ch.charCodeAt(0)] = 1;
}
for (const ch of './\\-') RUN_PART[ch.charCodeAt(0)] = 1;
/** Characters after the first of a run, at most. */
const MAX_RUN_TAIL = 200;
/** `. - / \` at the end of a run. */
const isTrailing = (c: number): boolean => c === 46 || c === 45 || c === 47 || c === 92;
const SOURCE_EXTENSION = /^(?:java|kt|ts|tsx|js|mjs|py|go|rs|c|cc|cpp|h|hpp|cs|rb|scala|groovy|xml|json|ya?ml|gradle|sh)$/i;
/** The longest of those extensions. */
const MAX_EXTENSION = 6;
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$-]*)+$/;

/**
 * A run text[from, to) that is an identifier worth exact matching, not an ordinary word or
 * number: a path, a dotted name (`a.b`, `file.ext`), snake_case, camelCase / PascalCase, or
 * letters with digits (`E0425`, `x86_64`). One pass over the characters: this runs on every
 * run of every chunk.
 */
function isIdentifierAt(text: string, from: number, to: number): boolean {
  if (to - from < 3) return false;
  let letters = 0;
  let digits = 0;
  let underscore = false;
  let slash = false;
  let dot = false;
  let camel = false;
  let prevLower = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      letters++;
      prevLower = true;
      continue;
    }
    if (c >= 65 && c <= 90) {
      letters++;
      // aB (camelCase), or a capital after the first one of a PascalCase word (UserService).
      if (prevLower && i > from) camel = true;
      prevLower = false;
      continue;
    }
    prevLower = false;
    if (c >= 48 && c <= 57) digits++;
    else if (c === 95) underscore = true;
    else if (c === 47 || c === 92) slash = true;
    else if (c === 46) dot = true;
  }
  if (letters === 0) return false; // numbers, versions, dates
  if (slash || underscore || camel) return true;
  if (dot) return DOTTED_NAME.test(text.slice(from, to));
  const first = text.charCodeAt(from);
  return digits > 0 && ((first >= 65 && first <= 90) || (first >= 97 && first <= 122));
}

/**
 * The identifiers of a text, lowercased and deduplicated, in order of first appearance. A path
 * or dotted name also gives its last segment (`src/api/client.ts` -> `client.ts`,
 * `com.acme.UserService` -> `userservice`), so either spelling in a question matches.
 */
export function extractTerms(text: string, max = 200): string[] {
  const seen = new Set<string>();
  const add = (term: string) => {
    const t = term.toLowerCase();
    if (t.length >= 3 && seen.size < max) seen.add(t);
  };
  const n = text.length;
  let p = 0;
  while (p < n) {
    const c = text.charCodeAt(p);
    if (c >= 128 || RUN_START[c] !== 1) {
      p++;
      continue;
    }
    const limit = Math.min(n, p + 1 + MAX_RUN_TAIL);
    let q = p + 1;
    while (q < limit) {
      const d = text.charCodeAt(q);
      if (d >= 128 || RUN_PART[d] !== 1) break;
      q++;
    }
    if (q === p + 1) {
      p++;
      continue;
    }
    const from = p;
    p = q;
    // Trailing sentence punctuation is not part of a name (`done.`, `src/`).
    let end = q;
    while (end > from && isTrailing(text.charCodeAt(end - 1))) end--;
    if (!isIdentifierAt(text, from, end)) continue;
    const run = text.slice(from, end);
    add(run);
    let cut = -1;
    let lastDot = -1;
    let dotBefore = -1;
    for (let i = end - 1; i >= from; i--) {
      const d = text.charCodeAt(i);
      if (d === 47 || d === 92) {
        cut = i;
        break;
      }
      if (d === 46 && dotBefore < 0) {
        if (lastDot < 0) lastDot = i;
        else dotBefore = i;
      }
    }
    if (cut >= 0) {
      if (end - cut - 1 >= 3) add(text.slice(cut + 1, end));
    } else if (lastDot >= 0) {
      // `UserService.java` keeps `userservice` too; `com.acme.UserService` gives `userservice`.
      let stemFrom = lastDot + 1;
      let stemTo = end;
      if (end - lastDot - 1 <= MAX_EXTENSION && SOURCE_EXTENSION.test(text.slice(lastDot + 1, end))) {
        stemFrom = dotBefore >= 0 ? dotBefore + 1 : from;
        stemTo = lastDot;
      }
      if (stemTo - stemFrom >= 3) {
        const first = text.charCodeAt(stemFrom);
        if ((first >= 65 && first <= 90) || isIdentifierAt(text, stemFrom, stemTo)) add(text.slice(stemFrom, stemTo));
      }
    }
    if (seen.size >= max) break;
  }
  return [...seen];
}

const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;

/**
 * True when `lowered` holds `term` as a whole name: not glued to letters, digits or `_` on
 * either side (`E0425` is not in `E04251`; `client.ts` is in `src/api/client.ts(12,7)`).
 */
export function containsTerm(lowered: string, term: string): boolean {
  let at = lowered.indexOf(term);
  while (at >= 0) {
    const before = at > 0 ? lowered.charCodeAt(at - 1) : 32;
    const after = at + term.length < lowered.length ? lowered.charCodeAt(at + term.length) : 32;
    if (!isWordChar(before) && !isWordChar(after)) return true;
    at = lowered.indexOf(term, at + 1);
  }
  return false;
}

export interface Candidate {
  text: string;
  /** Vector (cosine) similarity to the query, -1..1; 0 when the candidate came from term search only. */
  similarity: number;
}

export type Ranked<T> = T & { score: number; matchedTerms: string[] };

/** Weight of the exact-term part against the vector part (which has 1 - TERM_WEIGHT). */
export const TERM_WEIGHT = 0.5;

/**
 * Ranks candidates by vector similarity combined with exact matches of the question's
 * identifiers: each term found in a candidate adds its rarity among the candidates (a term
 * every chunk holds says little), normalised to 0..1 over the question's terms. A question
 * without identifiers is ranked by similarity alone. Highest score first; ties keep order.
 */
export function hybridRank<T extends Candidate>(query: string, candidates: readonly T[]): Ranked<T>[] {
  const terms = extractTerms(query);
  const lowered = terms.length > 0 ? candidates.map((c) => c.text.toLowerCase()) : [];
  const df = terms.map((t) => lowered.reduce((n, text) => n + (containsTerm(text, t) ? 1 : 0), 0));
  const n = candidates.length;
  const weights = df.map((d) => Math.log(1 + n / (1 + d)) + 0.1);
  const total = weights.reduce((a, b) => a + b, 0);
  const ranked = candidates.map((c, i) => {
    const matchedTerms: string[] = [];
    let termScore = 0;
    terms.forEach((t, j) => {
      if (containsTerm(lowered[i]!, t)) {
        matchedTerms.push(t);
        termScore += weights[j]!;
      }
    });
    const similarity = Math.max(0, c.similarity);
    const score = terms.length === 0 ? similarity : (1 - TERM_WEIGHT) * similarity + TERM_WEIGHT * (termScore / total);
    return { ...c, score, matchedTerms, order: i };
  });
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  return ranked.map(({ order: _order, ...rest }) => rest as unknown as Ranked<T>);
}
