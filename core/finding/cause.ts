/**
 * A consequence and its cause (issue 25; docs/notes/analyzer.md, "Round 11 opened (helper t12)"): a build that
 * goes on after a fetch failed (`git submodule update` refused, then `fatal error: minijson.h: No such file or
 * directory`) fails again on what the fetch should have brought. The later error names the missing thing (a
 * header, a library, a module, a crate); when an earlier failure to fetch (network, credentials, dependency
 * resolution) names the same thing, that earlier failure is the cause the rest depends on.
 */
import { escapeRegExp } from '../regexp.js';

/** What a consequence error says is missing: a header's name without its extension, a library, a module, a crate. */
const MISSING: readonly RegExp[] = [
  /fatal error: (?:[\w.+-]+\/)*([\w+-][\w.+-]*?)\.(?:h|hh|hpp|hxx): No such file or directory/,
  /cannot find -l([\w.+-]+)/,
  /No module named '([\w]+)/,
  /can't find crate for `(\w+)`/,
  /cannot find package "(?:[^"]*\/)?([^"/]+)"/,
];
/** The classes of a failure to fetch. */
const FETCH = new Set(['network', 'permission-credentials', 'dependency-resolution']);
/** How far above the consequence the cause is looked for. */
const REACH = 3000;

/** The name of what the message says is missing, if it says so. */
export function missingName(message: string): string | undefined {
  for (const re of MISSING) {
    const m = re.exec(message);
    if (m && (m[1] as string).length >= 3) return m[1] as string;
  }
  return undefined;
}

/**
 * The 0-based index of the nearest line above `at` (0-based) whose rule class is a failure to fetch and whose
 * words name `name` (as a word of a path or URL), else undefined.
 */
export function earlierCause(at: number, name: string, bodyAt: (i: number) => string, classAt: (i: number) => string | undefined): number | undefined {
  const named = new RegExp(`(?:^|[^\\w-])${escapeRegExp(name)}(?:[^\\w-]|$)`, 'i');
  for (let k = at - 1; k >= Math.max(0, at - REACH); k--) {
    if (!named.test(bodyAt(k))) continue;
    const cls = classAt(k);
    if (cls !== undefined && FETCH.has(cls)) return k;
  }
  return undefined;
}
