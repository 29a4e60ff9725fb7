/**
 * CICHAT_WATCH_JOBS patterns: globs over full job names (`team/api`, `org/repo/main`).
 * `*` and `?` stay inside one folder level, `**` crosses levels (`team/**` is every job under
 * team, at any depth), `{a,b}` is either. Matching is case-sensitive, as Jenkins item names are.
 */

function escapeRegExp(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** The regular expression of one pattern (anchored at both ends). */
export function globToRegExp(pattern: string): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') {
      if (pattern[i + 1] === '*') {
        i++;
        // `**/` also matches no folder at all: `team/**/main` matches `team/main`.
        if (pattern[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else {
          out += '.*';
        }
      } else {
        out += '[^/]*';
      }
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '{') {
      braces++;
      out += '(?:';
    } else if (ch === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (ch === ',' && braces > 0) {
      out += '|';
    } else {
      out += escapeRegExp(ch);
    }
  }
  out += ')'.repeat(braces);
  return new RegExp(`^${out}$`);
}

/** A predicate over full job names: true for every name when `patterns` is empty. */
export function jobMatcher(patterns: readonly string[]): (fullName: string) => boolean {
  if (patterns.length === 0) return () => true;
  const res = patterns.map(globToRegExp);
  return (fullName) => res.some((re) => re.test(fullName));
}
