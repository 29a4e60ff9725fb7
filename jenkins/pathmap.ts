/**
 * JENKINS_PATH_MAP: where the paths Jenkins recorded (workspaces in build.xml and flow nodes) are
 * found on this host, for a JENKINS_HOME mounted at another path than Jenkins sees
 * (`/var/jenkins_home=/srv/jenkins,/home/jenkins/agent=/mnt/agent`).
 */

/** One `from=to` pair: `from` as Jenkins recorded it, `to` where it is on this host. */
export interface PathMapping {
  readonly from: string;
  readonly to: string;
}

/** Pairs ordered longest `from` first, so the first match is the longest prefix. */
export type PathMap = readonly PathMapping[];

export class PathMapError extends Error {
  override name = 'PathMapError';
}

/** A Windows path as an agent records it: `C:\jenkins` or `C:/jenkins`. */
function isWindowsAbsolute(p: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(p);
}

/**
 * Drops trailing separators (but keeps a lone root `/` or `C:\`), so `/a/` and `/a` compare the
 * same and prefix matching can test the next character for a segment boundary.
 */
function trimTrailingSeparators(p: string): string {
  let end = p.length;
  while (end > 1 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  const trimmed = p.slice(0, end);
  if (/^[A-Za-z]:$/.test(trimmed)) return `${trimmed}${p[end] ?? '\\'}`;
  return trimmed;
}

/**
 * Parses `from=to[,from=to...]`. Both sides must be absolute (`from` may be a Windows path, as
 * agents on Windows record them; `to` is a path on this host). Whitespace around pairs is
 * ignored; an empty or missing value gives an empty map. Throws a PathMapError naming every bad
 * pair at once, so start-up can report them together.
 */
export function parsePathMap(spec: string | undefined): PathMap {
  if (spec === undefined || spec.trim() === '') return [];
  const problems: string[] = [];
  const pairs: PathMapping[] = [];
  const seen = new Set<string>();
  for (const raw of spec.split(',')) {
    const pair = raw.trim();
    if (pair === '') {
      problems.push('empty pair (two commas in a row, or a trailing comma)');
      continue;
    }
    const eq = pair.indexOf('=');
    if (eq < 0) {
      problems.push(`"${pair}" has no "=" (expected from=to)`);
      continue;
    }
    const from = pair.slice(0, eq).trim();
    const to = pair.slice(eq + 1).trim();
    if (!from.startsWith('/') && !isWindowsAbsolute(from)) {
      problems.push(`"${pair}": "${from}" is not an absolute path`);
      continue;
    }
    if (!to.startsWith('/')) {
      problems.push(`"${pair}": "${to}" is not an absolute path on this host`);
      continue;
    }
    if (from.includes('\0') || to.includes('\0')) {
      problems.push(`"${pair}" holds a NUL byte`);
      continue;
    }
    const mapping = { from: trimTrailingSeparators(from), to: trimTrailingSeparators(to) };
    if (seen.has(mapping.from)) {
      problems.push(`"${mapping.from}" is mapped twice`);
      continue;
    }
    seen.add(mapping.from);
    pairs.push(mapping);
  }
  if (problems.length > 0) {
    throw new PathMapError(`JENKINS_PATH_MAP: ${problems.join('; ')}`);
  }
  return pairs.sort((a, b) => b.from.length - a.from.length);
}

function isSeparator(c: string | undefined, windows: boolean): boolean {
  return c === '/' || (windows && c === '\\');
}

/**
 * Maps a path Jenkins recorded to where it is on this host. The longest matching `from` wins and
 * matches only whole path segments (`/var/jenkins_home` maps `/var/jenkins_home/x`, never
 * `/var/jenkins_home2`). A Windows `from` matches case-insensitively and the rest of the path has
 * its backslashes turned into `/`. A path no pair matches comes back unchanged.
 */
export function applyPathMap(map: PathMap, recorded: string): string {
  return mapRecordedPath(map, recorded).path;
}

/**
 * As applyPathMap, also telling whether an entry matched: a path recorded on an agent is read
 * only through an explicit mapping (workspace confinement, CONTRACT section 3).
 */
export function mapRecordedPath(map: PathMap, recorded: string): { path: string; mapped: boolean } {
  for (const { from, to } of map) {
    const windows = isWindowsAbsolute(from);
    const head = recorded.slice(0, from.length);
    const matches = windows ? head.toLowerCase() === from.toLowerCase() : head === from;
    if (!matches) continue;
    const rootOnly = isSeparator(from[from.length - 1], windows);
    const next = recorded[from.length];
    if (!rootOnly && next !== undefined && !isSeparator(next, windows)) continue;
    let rest = recorded.slice(from.length);
    if (windows) rest = rest.replace(/\\/g, '/');
    rest = rest.replace(/^\/+/, '');
    if (rest === '') return { path: to, mapped: true };
    return { path: to.endsWith('/') ? `${to}${rest}` : `${to}/${rest}`, mapped: true };
  }
  return { path: recorded, mapped: false };
}

/**
 * When a path Jenkins recorded (a workspace, built-in node) lies under another home than this
 * JENKINS_HOME (a copied or moved home: `/var/jenkins_home/workspace/team/api` read from
 * `/srv/copy`), the recorded home: the part before its `/workspace/` or `/jobs/` segment.
 * Undefined for paths under this home, or that name no home.
 */
export function foreignHomeOf(recorded: string, jenkinsHome: string): string | undefined {
  if (!recorded.startsWith('/')) return undefined;
  const home = trimTrailingSeparators(jenkinsHome);
  if (recorded === home || recorded.startsWith(`${home}/`)) return undefined;
  const at = [recorded.indexOf('/workspace/'), recorded.indexOf('/jobs/')].filter((i) => i > 0);
  if (at.length === 0) return undefined;
  const prefix = recorded.slice(0, Math.min(...at));
  return prefix === home ? undefined : prefix;
}
