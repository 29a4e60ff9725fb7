/**
 * Exact-term matching for retrieval: the identifiers a build log is made of (class names,
 * error codes such as E0425, TS2345 or ORA-00942, file paths, dotted names, snake_case and
 * camelCase names) found in a question must count for a lot when the same string is in a
 * chunk, whatever a vector model thinks of it. Combined with vector similarity in hybridRank.
 */

/**
 * Candidate identifier runs: letters, digits and the joiners of paths and dotted names. Error
 * codes (E0425, TS2345, ORA-00942, ERR_PNPM_FETCH_404) are runs of their own.
 */
const RUN = /[A-Za-z0-9_$][A-Za-z0-9_.$/\\-]{1,200}/g;
/** `. - / \` at the end of a run. */
const TRAILING = new Set([46, 45, 47, 92]);
const SOURCE_EXTENSION = /^(?:java|kt|ts|tsx|js|mjs|py|go|rs|c|cc|cpp|h|hpp|cs|rb|scala|groovy|xml|json|ya?ml|gradle|sh)$/i;

/**
 * A run that is an identifier worth exact matching, not an ordinary word or number: a path,
 * a dotted name (`a.b`, `file.ext`), snake_case, camelCase / PascalCase, or letters with digits
 * (`E0425`, `x86_64`). One pass over the characters: this runs on every run of every chunk.
 */
function isIdentifier(run: string): boolean {
  const n = run.length;
  if (n < 3) return false;
  let letters = 0;
  let digits = 0;
  let underscore = false;
  let slash = false;
  let dot = false;
  let camel = false;
  let prevLower = false;
  for (let i = 0; i < n; i++) {
    const c = run.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      letters++;
      prevLower = true;
      continue;
    }
    if (c >= 65 && c <= 90) {
      letters++;
      // aB (camelCase), or a capital after the first one of a PascalCase word (UserService).
      if (prevLower && i > 0) camel = true;
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
  if (dot) return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$-]*)+$/.test(run);
  const first = run.charCodeAt(0);
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
  RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = RUN.exec(text)) !== null) {
    // Trailing sentence punctuation is not part of a name (`done.`, `src/`).
    let run = m[0];
    let end = run.length;
    while (end > 0 && TRAILING.has(run.charCodeAt(end - 1))) end--;
    if (end !== run.length) run = run.slice(0, end);
    if (!isIdentifier(run)) continue;
    add(run);
    const cut = Math.max(run.lastIndexOf('/'), run.lastIndexOf('\\'));
    if (cut >= 0) {
      const lastPath = run.slice(cut + 1);
      if (lastPath.length >= 3) add(lastPath);
    } else if (run.includes('.')) {
      const parts = run.split('.');
      const last = parts[parts.length - 1] ?? '';
      // `UserService.java` keeps `userservice` too; `com.acme.UserService` gives `userservice`.
      const stem = SOURCE_EXTENSION.test(last) ? (parts[parts.length - 2] ?? '') : last;
      if (stem.length >= 3 && (isIdentifier(stem) || /^[A-Z]/.test(stem))) add(stem);
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
