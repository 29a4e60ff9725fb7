/**
 * What a compiler's message says is wrong with a line: the symbol it cannot find, or the two
 * types that do not match (javac, kotlinc, tsc, go, rustc, gcc/clang, Python); and the names in
 * source lines that look like a missing symbol. Pure: used by the snippet reader (to also send
 * the lines declaring similar names) and the offline engine (to suggest them).
 */

const KEYWORDS = new Set(
  ('abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var val fun let function def from as in is not and or pass lambda yield async await type readonly string number any unknown undefined self nil func struct impl mut pub use mod match where').split(' '),
);

/** The symbol a compiler says is missing, from its message (javac, kotlinc, tsc, go, rustc, gcc, Python). */
export function missingSymbolOf(message: string): string | undefined {
  const patterns = [
    /symbol:\s+(?:method|variable|class|field|constructor)\s+([A-Za-z_$][\w$]*)/,
    /Unresolved reference:?\s+`?([A-Za-z_$][\w$]*)`?/,
    /\bundefined: (?:[\w.]+\.)?([A-Za-z_]\w*)/,
    /cannot find (?:value|function|type|struct|macro|trait|module|method|field) `([A-Za-z_]\w*)`/,
    /no (?:method|field) named `([A-Za-z_]\w*)`/,
    /Property '([A-Za-z_$][\w$]*)' does not exist/,
    /Cannot find name '([A-Za-z_$][\w$]*)'/,
    /name '([A-Za-z_]\w*)' is not defined/,
    /has no attribute '([A-Za-z_]\w*)'/,
    /'([A-Za-z_]\w*)' (?:was not declared|undeclared)/,
    /use of undeclared identifier '([A-Za-z_]\w*)'/,
    /implicit declaration of function '([A-Za-z_]\w*)'/,
    /has no (?:field or method|member named) '?([A-Za-z_]\w*)'?/,
  ];
  for (const re of patterns) {
    const m = re.exec(message);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/** The two types of a mismatch (what the code gives, what is needed), from the compiler's message. */
export function typeMismatchOf(message: string): { found: string; required: string } | undefined {
  const patterns: [RegExp, 'found-first' | 'required-first'][] = [
    [/incompatible types: (.+?) cannot be converted to (.+?)$/m, 'found-first'],
    [/Type '(.+?)' is not assignable to type '(.+?)'/, 'found-first'],
    [/Argument of type '(.+?)' is not assignable to parameter of type '(.+?)'/, 'found-first'],
    [/Type mismatch: inferred type is (.+?) but (.+?) was expected/, 'found-first'],
    [/cannot use .+? \((?:variable|constant|value) of (?:type )?(.+?)\) as (.+?) value/, 'found-first'],
    [/expected `(.+?)`, found `(.+?)`/, 'required-first'],
    [/incompatible types when (?:assigning to|initializing) type '(.+?)' (?:from|using) type '(.+?)'/, 'required-first'],
    [/cannot convert '(.+?)' to '(.+?)'/, 'found-first'],
  ];
  for (const [re, order] of patterns) {
    const m = re.exec(message);
    if (m?.[1] && m[2]) return order === 'found-first' ? { found: m[1].trim(), required: m[2].trim() } : { required: m[1].trim(), found: m[2].trim() };
  }
  const required = /required:\s*(.+)$/m.exec(message)?.[1];
  const found = /found:\s*(.+)$/m.exec(message)?.[1];
  if (required && found) return { found: found.trim(), required: required.trim() };
  return undefined;
}

export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0] as number;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j] as number;
      dp[j] = Math.min((dp[j] as number) + 1, (dp[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length] as number;
}

/**
 * Identifiers in `lines` that look like `missing` (another case, one or two typos, a prefix),
 * nearest first, each with the index of the first line holding it; keywords are skipped.
 */
export function similarIdentifiers(missing: string, lines: readonly string[], max = 3): { name: string; index: number; score: number }[] {
  const seen = new Map<string, { name: string; index: number; score: number }>();
  const lower = missing.toLowerCase();
  lines.forEach((text, index) => {
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const name = m[0];
      if (name === missing || name.length < 2 || KEYWORDS.has(name) || seen.has(name)) continue;
      const nl = name.toLowerCase();
      const distance = editDistance(lower, nl);
      const related =
        nl === lower ||
        distance <= Math.max(1, Math.floor(Math.min(lower.length, nl.length) / 3)) ||
        (lower.length >= 4 && (nl.startsWith(lower) || lower.startsWith(nl)) && Math.abs(nl.length - lower.length) <= 6);
      if (related) seen.set(name, { name, index, score: nl === lower ? 0 : distance });
    }
  });
  return [...seen.values()].sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, max);
}
