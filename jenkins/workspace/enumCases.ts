/**
 * A switch that does not cover every value of its enum (issue 25 point 3, session 50, helper fx12): javac's `the switch
 * expression does not cover all possible input values` / `the switch statement does not cover all possible input
 * values`, kotlinc's `'when' expression must be exhaustive`. The compiler does not name the missing constants; the
 * project does: the failing switch's `case` labels, and the enum declared in the project whose constants include every
 * one of them. Its constants the switch has no case for are what the fix adds. Nothing when no enum of the project
 * holds all the labels, or when it holds none the switch lacks.
 */

/** The message of a switch over an enum that misses some of its values. */
export const NOT_EXHAUSTIVE = /does not cover all possible input values|'when' expression must be exhaustive/;

/** The `case` labels (Java `case A, B ->` / `case A:`, Kotlin `A, B ->`) of the switch that starts on line `at` (0-based), up to its closing brace. */
export function caseLabels(lines: readonly string[], at: number): string[] {
  const labels: string[] = [];
  let depth = 0;
  let opened = false;
  for (let i = at; i < lines.length && i < at + 400; i++) {
    const line = (lines[i] ?? '').replace(/"(?:[^"\\]|\\.)*"|\/\/.*$/g, '');
    // Labels at the switch's own level only (a nested switch's are its own).
    if (opened && depth === 1) {
      const m = /^\s*case\s+(.+?)\s*(?:->|:(?!:))/.exec(line) ?? /^\s*((?:[A-Z_][\w.]*\s*,\s*)*[A-Z_][\w.]*)\s*->/.exec(line);
      if (m) for (const l of (m[1] as string).split(',')) labels.push((l.trim().split('.').pop() as string).trim());
    }
    for (const ch of line) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) break;
  }
  return labels.filter((l) => /^[A-Za-z_]\w*$/.test(l));
}

/** The constants an `enum Name {` declared on line `at` (0-based) lists (Java, Kotlin `enum class`), in order, each with its 0-based line. */
export function enumConstants(lines: readonly string[], at: number): { name: string; index: number }[] {
  const out: { name: string; index: number }[] = [];
  let depth = 0;
  for (let i = at; i < lines.length && i < at + 400; i++) {
    const raw = lines[i] ?? '';
    const line = raw.replace(/"(?:[^"\\]|\\.)*"|\/\/.*$|\/\*.*?\*\//g, '');
    // The constants are the enum body's first entries: at its own level, until the first `;` there.
    const body = i === at ? line.slice(line.indexOf('{') + 1) : line;
    if (i === at) depth = 1;
    if (depth === 1) {
      let level = 0;
      let entry = '';
      for (const ch of body) {
        if (ch === '(' || ch === '{') level++;
        if (ch === ')' || ch === '}') level--;
        if (level < 0) break;
        if (level === 0 && (ch === ',' || ch === ';')) {
          const name = /^\s*(?:@\w+\s+)*([A-Za-z_]\w*)/.exec(entry)?.[1];
          if (name) out.push({ name, index: i });
          entry = '';
          if (ch === ';') return out;
          continue;
        }
        if (level === 0) entry += ch;
      }
      const last = /^\s*(?:@\w+\s+)*([A-Za-z_]\w*)\s*$/.exec(entry)?.[1];
      if (last && !out.some((o) => o.name === last)) out.push({ name: last, index: i });
    }
    for (const ch of i === at ? body : line) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
    if (depth <= 0) break;
  }
  return out;
}

export interface EnumCaseHit {
  rel: string;
  /** 0-based line of the first constant the switch lacks. */
  index: number;
  message: string;
}

const ENUM_DECLARATION = /\benum\s+(?:class\s+)?([A-Z]\w*)\b[^{]*\{/;

/**
 * The enum of the project whose constants hold every label of the failing switch (line `line`, 1-based, of
 * `failingRel`), with the constants the switch has no case for. `files` are the project's files of the failing
 * file's language, with their lines.
 */
export function missingEnumCases(files: readonly { rel: string; lines: readonly string[] }[], failingRel: string, failingLines: readonly string[], line: number): EnumCaseHit[] {
  // The switch the compiler points at: its line, or the nearest line above that opens one (a column inside it).
  let at = line - 1;
  while (at >= 0 && at >= line - 4 && !/\b(?:switch|when)\b/.test(failingLines[at] ?? '')) at--;
  if (at < 0 || at < line - 4) return [];
  const labels = caseLabels(failingLines, at);
  if (labels.length === 0) return [];
  const hits: EnumCaseHit[] = [];
  for (const f of files) {
    f.lines.forEach((l, i) => {
      const name = ENUM_DECLARATION.exec(l)?.[1];
      if (!name) return;
      const constants = enumConstants(f.lines, i);
      const names = new Set(constants.map((c) => c.name));
      if (!labels.every((x) => names.has(x))) return;
      const lacking = constants.filter((c) => !labels.includes(c.name));
      const first = lacking[0];
      if (!first) return;
      hits.push({
        rel: f.rel,
        index: first.index,
        message: `declares ${lacking.map((c) => c.name).join(',')}, constants of the enum ${name} that the switch at ${failingRel}:${at + 1} has no case for (it covers ${labels.join(',')})`,
      });
    });
  }
  // Two enums with those labels: I can't tell which one the switch is over, so nothing.
  return hits.length === 1 ? hits : [];
}
