/**
 * A name used before its declaration has run (issue 25 point 3, session 49, helper fx11): JavaScript's temporal dead
 * zone (`Cannot access 'X' before initialization`), TypeScript's TS2448/TS2449/TS2450 (`used before its
 * declaration`). In the failing file: the top-level declaration of the name, the lines it spans, and the top-level
 * line above it that runs first and reaches the use (the use itself, or a call of the function that holds it), so the
 * fix can say which lines to move where. Nothing when the file does not show that order.
 */

/** The name a message says was used before its declaration ran. */
export function usedEarlyName(message: string): string | undefined {
  return /Cannot access '([\w$]+)' before initialization|(?:Block-scoped variable|Class|Enum) '([\w$]+)' used before its declaration/.exec(message)?.slice(1).find((x) => x !== undefined);
}

export interface EarlyUse {
  /** 0-based lines of the declaration, first and last. */
  first: number;
  last: number;
  /** 0-based top-level line that runs before it and reaches the use. */
  runs: number;
  message: string;
}

const esc = (s: string): string => s.replace(/[$]/g, '\\$');
const topLevel = (l: string): boolean => /^\S/.test(l) && !/^\s*(?:\/\/|\/\*|\*|}|\)|]|#)/.test(l);

/** The last line of the statement that starts at `start` (brackets balanced, strings not read). */
function statementEnd(lines: readonly string[], start: number): number {
  let depth = 0;
  for (let i = start; i < lines.length && i < start + 200; i++) {
    for (const ch of (lines[i] as string).replace(/\/\/.*$/, '')) {
      if ('{[('.includes(ch)) depth++;
      else if ('}])'.includes(ch)) depth--;
    }
    if (depth <= 0) return i;
  }
  return start;
}

/** The function declared at top level whose body holds line `use` (0-based): its name. */
function enclosingFunction(lines: readonly string[], use: number): string | undefined {
  for (let i = use; i >= 0; i--) {
    const m = /^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(|^(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>/.exec(lines[i] as string);
    if (m) return statementEnd(lines, i) >= use ? (m[1] ?? m[2]) : undefined;
    if (i < use && topLevel(lines[i] as string) && !/^(?:export\s+)?(?:async\s+)?function\b/.test(lines[i] as string)) return undefined;
  }
  return undefined;
}

/** Where the failing file declares `name` below a top-level line that runs first and reaches the use at `use` (1-based). */
export function earlyUse(lines: readonly string[], name: string, use: number): EarlyUse | undefined {
  const decl = new RegExp(`^(?:export\\s+)?(?:const|let|class|enum)\\s+${esc(name)}\\b`);
  const first = lines.findIndex((l) => decl.test(l));
  if (first < 0) return undefined;
  const last = statementEnd(lines, first);
  const u = use - 1;
  let runs: number | undefined;
  if (u < first && topLevel(lines[u] ?? '')) runs = u;
  else {
    const fn = enclosingFunction(lines, u);
    if (fn && fn !== name) {
      const call = new RegExp(`(?:^|[^\\w$.])${esc(fn)}\\s*\\(`);
      runs = lines.slice(0, first).findIndex((l, i) => topLevel(l) && call.test(l) && !/^(?:export\s+)?(?:async\s+)?function\b/.test(l) && enclosingFunction(lines, i) === undefined);
      if (runs < 0) runs = undefined;
    }
  }
  if (runs === undefined) return undefined;
  return { first, last, runs, message: `declares ${name} at lines ${first + 1}-${last + 1}, below line ${runs + 1}, which runs first and reaches its use at line ${use}` };
}
