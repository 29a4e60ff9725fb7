/**
 * A manifest and its lock file that disagree (issue 25 point 3, session 50, helper fx12): the dependencies a manifest
 * asks for that its lock file does not record (Gemfile / Gemfile.lock, package.json / yarn.lock or package-lock.json,
 * composer.json / composer.lock, with no lock file at all for the last), and a path package of a Cargo workspace whose
 * version Cargo.lock records otherwise. Read when an install stops on its lock file (`--frozen-lockfile`, `--locked`)
 * or on the registry it had to ask (a dependency the lock records is resolved without asking it). Each hit is the
 * manifest's line.
 */

/** An install that stopped on its lock file or on the registry it had to resolve from. */
export const LOCK_OR_REGISTRY = /lock ?file|\block\b.*\b(?:outdated|out of date|needs to be updated)|--locked|--frozen|rubygems\.org|packagist\.org|registry\.(?:npmjs|yarnpkg)\.|crates\.io/i;

export interface LockHit {
  rel: string;
  /** 0-based line of the manifest. */
  index: number;
  message: string;
}

interface Files {
  rel: string;
  lines: readonly string[];
}

const dirOf = (rel: string): string => rel.slice(0, rel.lastIndexOf('/') + 1);

/** The line of a JSON manifest's `"name":` key inside the object `section` opens, or the first such key line. */
function jsonKeyLine(lines: readonly string[], section: string, name: string): number {
  const open = lines.findIndex((l) => new RegExp(`"${section}"\\s*:`).test(l));
  const key = new RegExp(`"${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\s*:`);
  const from = open < 0 ? 0 : open;
  const at = lines.findIndex((l, i) => i >= from && key.test(l));
  return at;
}

function parseJson(lines: readonly string[]): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(lines.join('\n'));
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const keysOf = (o: unknown): string[] => (o !== null && typeof o === 'object' ? Object.keys(o) : []);

/** The dependencies a manifest asks for, each with its 0-based line. */
function asked(m: Files): { name: string; index: number }[] {
  const file = m.rel.slice(m.rel.lastIndexOf('/') + 1);
  if (file === 'Gemfile') {
    return m.lines.flatMap((l, index) => {
      const name = /^\s*gem\s+["']([\w.-]+)["']/.exec(l)?.[1];
      return name ? [{ name, index }] : [];
    });
  }
  const json = parseJson(m.lines);
  if (!json) return [];
  const sections = file === 'composer.json' ? ['require', 'require-dev'] : ['dependencies', 'devDependencies', 'optionalDependencies'];
  return sections.flatMap((section) =>
    keysOf(json[section])
      // Composer's platform requirements are not packages of a registry.
      .filter((name) => !(file === 'composer.json' && (name === 'php' || /^(?:ext|lib)-/.test(name))))
      .map((name) => ({ name, index: jsonKeyLine(m.lines, section, name) }))
      .filter((d) => d.index >= 0),
  );
}

/** The package names a lock file records. */
function recorded(lock: Files): Set<string> {
  const file = lock.rel.slice(lock.rel.lastIndexOf('/') + 1);
  const names = new Set<string>();
  if (file === 'Gemfile.lock') {
    for (const l of lock.lines) {
      const name = /^\s+([\w.-]+)(?:\s*\(|!?\s*$)/.exec(l)?.[1];
      if (name) names.add(name);
    }
  } else if (file === 'yarn.lock') {
    for (const l of lock.lines) {
      // `ms@^2.1.3:`, `"@babel/core@^7.0.0", "@babel/core@^7.1.0":`
      for (const entry of /^"?@?[^\s"]/.test(l) && /:\s*$/.test(l) ? l.replace(/:\s*$/, '').split(',') : []) {
        const name = /^\s*"?(@?[^@"\s]+)@/.exec(entry)?.[1];
        if (name) names.add(name);
      }
    }
  } else {
    const json = parseJson(lock.lines);
    if (file === 'composer.lock') {
      for (const p of [...((json?.packages as unknown[]) ?? []), ...((json?.['packages-dev'] as unknown[]) ?? [])]) {
        const name = (p as { name?: unknown }).name;
        if (typeof name === 'string') names.add(name);
      }
    } else {
      for (const k of keysOf(json?.packages)) if (k.startsWith('node_modules/')) names.add(k.slice(k.lastIndexOf('node_modules/') + 'node_modules/'.length));
      for (const k of keysOf(json?.dependencies)) names.add(k);
    }
  }
  return names;
}

const LOCKS: Record<string, { locks: string[]; required: boolean }> = {
  Gemfile: { locks: ['Gemfile.lock'], required: false },
  'package.json': { locks: ['yarn.lock', 'package-lock.json'], required: false },
  'composer.json': { locks: ['composer.lock'], required: true },
};

/** At most this many names of one manifest are named (more: the lock is simply old, and the update command says it all). */
const NAMES_MAX = 3;

/** The Cargo packages of the workspace whose `version` the lock records otherwise (a path package's bump without `cargo update`). */
function cargoDrift(files: readonly Files[]): LockHit[] {
  const lock = files.find((f) => f.rel === 'Cargo.lock');
  if (!lock) return [];
  // `[[package]]` entries without a `source`: the workspace's own (path) packages.
  const own = new Map<string, string>();
  let entry: { name?: string; version?: string; source?: boolean } | undefined;
  const flush = (): void => {
    if (entry?.name && entry.version && !entry.source) own.set(entry.name, entry.version);
  };
  for (const l of lock.lines) {
    if (/^\[\[package\]\]/.test(l)) {
      flush();
      entry = {};
    } else if (entry) {
      const m = /^(name|version|source)\s*=\s*"([^"]*)"/.exec(l);
      if (m?.[1] === 'name') entry.name = m[2];
      else if (m?.[1] === 'version') entry.version = m[2];
      else if (m?.[1] === 'source') entry.source = true;
    }
  }
  flush();
  const hits: LockHit[] = [];
  for (const m of files.filter((f) => /(?:^|\/)Cargo\.toml$/.test(f.rel))) {
    let inPackage = false;
    let name: string | undefined;
    let version: { v: string; index: number } | undefined;
    m.lines.forEach((l, index) => {
      if (/^\s*\[/.test(l)) inPackage = /^\s*\[package\]/.test(l);
      else if (inPackage) {
        const n = /^\s*name\s*=\s*"([^"]+)"/.exec(l)?.[1];
        const v = /^\s*version\s*=\s*"([^"]+)"/.exec(l)?.[1];
        if (n) name = n;
        if (v) version = { v, index };
      }
    });
    const locked = name ? own.get(name) : undefined;
    if (name && version && locked && locked !== version.v) hits.push({ rel: m.rel, index: version.index, message: `sets version ${version.v} of ${name}, and Cargo.lock records ${name} ${locked}` });
  }
  return hits;
}

/** The manifest lines whose dependency the lock beside it does not record (or that have no lock where one is needed). */
export function lockDrift(files: readonly Files[]): LockHit[] {
  const hits: LockHit[] = [...cargoDrift(files)];
  for (const m of files) {
    const file = m.rel.slice(m.rel.lastIndexOf('/') + 1);
    const pair = LOCKS[file];
    // The project's own manifests, not those of what it vendors or installed.
    if (!pair || /(?:^|\/)(?:node_modules|vendor)\//.test(m.rel)) continue;
    const lock = pair.locks.map((l) => files.find((f) => f.rel === `${dirOf(m.rel)}${l}`)).find((l) => l !== undefined);
    const deps = asked(m);
    if (deps.length === 0) continue;
    if (!lock) {
      const first = deps[0];
      if (pair.required && first) hits.push({ rel: m.rel, index: first.index, message: `asks for ${deps.slice(0, NAMES_MAX).map((d) => d.name).join(',')}, and the workspace has no ${dirOf(m.rel)}${pair.locks[0] as string}` });
      continue;
    }
    const have = recorded(lock);
    if (have.size === 0) continue;
    const missing = deps.filter((d) => !have.has(d.name));
    const first = missing[0];
    if (first && missing.length <= NAMES_MAX) hits.push({ rel: m.rel, index: first.index, message: `asks for ${missing.map((d) => d.name).join(',')}, which ${lock.rel} does not record` });
  }
  return hits;
}
