import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import { applyPathMap } from '../pathmap.js';
import type { PathMap } from '../pathmap.js';
import { isInside, privateHomeDirIn } from './pathguard.js';

/**
 * Workspace confinement (issue 12, CONTRACT section 3): a workspace path that Jenkins recorded
 * (flow nodes, build.xml's `<workspace>`, a `customWorkspace`) is written by whoever writes the
 * pipeline or the job, so `ws('/etc')` or `/proc/self/cwd` must not turn the controller into a
 * file server for its own host. A directory is served only when its real path lies under a
 * workspace root and outside the places below; every reader of workspaces goes through here.
 */

/** Never served, nor anything inside them, whatever the roots say. */
export const SYSTEM_DIRS: readonly string[] = ['/proc', '/sys', '/dev', '/etc'];

/** The variable naming an item's own directory in a root (`${ITEM_ROOTDIR}/workspace`). */
const ITEM_ROOTDIR = '${ITEM_ROOTDIR}';
const JENKINS_HOME_VAR = '${JENKINS_HOME}';
/** Where Jenkins 1.x kept an item's workspace, still found in migrated homes. */
const LEGACY_ITEM_WORKSPACE = 'workspace';
/** Directories of an item that hold child items by name (folders, branches, Maven modules). */
const ITEM_CONTAINERS = new Set(['jobs', 'branches', 'modules']);

export interface WorkspaceConfinement {
  /**
   * CICHAT_WORKSPACE_ROOTS as parseWorkspaceRoots returns it: absolute paths on this host, or
   * `${ITEM_ROOTDIR}/<relative>` (a directory inside every item's own directory). Undefined:
   * the default roots (the instance's workspace dir and each item's legacy `workspace/`).
   */
  roots?: readonly string[];
  /** This service's own directories, never served: DATA_DIR (its jwt-secret signs tokens for any user). */
  privateDirs?: readonly string[];
}

/** Why a directory is not served, as the end of a sentence: "workspace /etc recorded by build 7 <reason>". */
export type Verdict = { served: true; real: string } | { served: false; reason: string } | { served: false; missing: true };

const OUTSIDE_ROOTS = 'lies outside the workspace roots (CICHAT_WORKSPACE_ROOTS)';

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Parses CICHAT_WORKSPACE_ROOTS: entries separated by commas or the path delimiter (`:`), each
 * an absolute path on this host (`${JENKINS_HOME}` expanded) or `${ITEM_ROOTDIR}/<relative>`.
 * Returns every problem at once, each naming the entry: a relative path, an unknown variable,
 * `/`, a root that holds JENKINS_HOME or DATA_DIR, or one inside DATA_DIR, JENKINS_HOME/secrets,
 * /proc, /sys, /dev or /etc (checked on the path as written and on its real path).
 */
export function parseWorkspaceRoots(
  spec: string | undefined,
  where: { jenkinsHome: string; dataDir: string },
): { roots: string[] | undefined; problems: string[] } {
  if (spec === undefined || spec.trim() === '') return { roots: undefined, problems: [] };
  const problems: string[] = [];
  const roots: string[] = [];
  const home = path.resolve(where.jenkinsHome);
  const guarded = [home, realOrResolved(home)];
  const data = [path.resolve(where.dataDir), realOrResolved(where.dataDir)];
  const inside = [...SYSTEM_DIRS, ...data, ...guarded.map((h) => path.join(h, 'secrets'))];
  for (const raw of spec.split(new RegExp(`[,${path.delimiter}]`))) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.includes('\0')) {
      problems.push(`"${entry}" holds a NUL byte`);
      continue;
    }
    if (entry.startsWith(ITEM_ROOTDIR)) {
      const rel = entry.slice(ITEM_ROOTDIR.length).replace(/^\/+|\/+$/g, '');
      const segments = rel.split('/');
      if (rel === '' || rel.includes('${') || segments.some((s) => s === '' || s === '.' || s === '..' || s === 'builds')) {
        problems.push(`"${entry}": after ${ITEM_ROOTDIR} give a directory inside the item such as ${ITEM_ROOTDIR}/workspace (no "..", not builds)`);
        continue;
      }
      roots.push(`${ITEM_ROOTDIR}/${segments.join('/')}`);
      continue;
    }
    const expanded = entry.startsWith(JENKINS_HOME_VAR) ? home + entry.slice(JENKINS_HOME_VAR.length) : entry;
    if (expanded.includes('${')) {
      problems.push(`"${entry}": only \${JENKINS_HOME} and \${ITEM_ROOTDIR} may be used`);
      continue;
    }
    if (!path.isAbsolute(expanded)) {
      problems.push(`"${entry}" is not an absolute path`);
      continue;
    }
    const root = path.resolve(expanded);
    const real = realOrResolved(root);
    const holds = [...guarded.map((h) => ['JENKINS_HOME', h] as const), ...data.map((d) => ['DATA_DIR', d] as const)].find(
      ([, dir]) => isInside(root, dir) || isInside(real, dir),
    );
    if (holds) {
      problems.push(`"${entry}" holds ${holds[0]}: a root must be a directory of workspaces, such as ${path.join(home, 'workspace')}`);
      continue;
    }
    const within = inside.find((dir) => isInside(dir, root) || isInside(dir, real));
    if (within) {
      problems.push(`"${entry}" lies in ${within}, which is never served`);
      continue;
    }
    roots.push(root);
  }
  if (problems.length === 0 && roots.length === 0) problems.push('names no directory (unset it for the default roots)');
  return { roots: problems.length > 0 ? undefined : roots, problems };
}

/**
 * The default roots: `JENKINS_HOME/workspace`, each item's legacy `workspace/`, and the
 * instance's own workspace directory from the root config's workspaceDir template: the part
 * before the first item variable (`${JENKINS_HOME}/workspace/${ITEM_FULL_NAME}` ->
 * `JENKINS_HOME/workspace`), or the item-relative suffix when the template starts with
 * `${ITEM_ROOTDIR}` (`${ITEM_ROOTDIR}/ws` -> `ws`). A template rooted elsewhere is a path
 * Jenkins sees, so it goes through JENKINS_PATH_MAP.
 */
export function defaultRootsOf(workspaceDir: string, jenkinsHome: string, pathMap: PathMap): string[] {
  // Jenkins' own default stays a root when workspaceDir was changed: builds made before the
  // change recorded their workspaces there.
  const roots: string[] = [`${ITEM_ROOTDIR}/${LEGACY_ITEM_WORKSPACE}`, path.join(path.resolve(jenkinsHome), 'workspace')];
  if (workspaceDir.startsWith(ITEM_ROOTDIR)) {
    const suffix = workspaceDir.slice(ITEM_ROOTDIR.length).replace(/^\/+|\/+$/g, '');
    const segments = suffix.split('/');
    if (suffix !== '' && !suffix.includes('${') && !segments.some((s) => s === '' || s === '.' || s === '..')) {
      roots.push(`${ITEM_ROOTDIR}/${segments.join('/')}`);
    }
    return [...new Set(roots)];
  }
  if (!workspaceDir.includes('${') && !path.isAbsolute(workspaceDir)) return roots;
  const cut = workspaceDir.search(/\$\{ITEM_(FULL_NAME|FULLNAME|ROOTDIR)\}/);
  let prefix = cut < 0 ? workspaceDir : workspaceDir.slice(0, cut);
  if (cut >= 0 && !prefix.endsWith('/')) prefix = path.dirname(prefix);
  const local = prefix.startsWith(JENKINS_HOME_VAR);
  const expanded = local ? path.resolve(jenkinsHome) + prefix.slice(JENKINS_HOME_VAR.length) : applyPathMap(pathMap, prefix);
  if (!expanded.includes('${') && path.isAbsolute(expanded)) roots.push(path.resolve(expanded));
  return [...new Set(roots)];
}

interface Guarded {
  dir: string;
  label: string;
}

/**
 * The confinement of one request: roots and guarded places resolved to real paths once, then
 * `check` for every candidate directory. Built per request (a few realpath calls) so a root
 * replaced by a symbolic link (`workspace -> /`) is seen at once.
 */
export class Confiner {
  private constructor(
    private readonly homeReal: string,
    private readonly roots: readonly string[],
    private readonly itemSuffixes: readonly string[][],
    /** Never served, nor anything inside. */
    private readonly closed: readonly Guarded[],
    /** A workspace holding one of these would expose it. */
    private readonly held: readonly Guarded[],
    /** Served only through a root that itself lies inside. */
    private readonly fenced: readonly Guarded[],
  ) {}

  static async create(opts: {
    jenkinsHome: string;
    pathMap: PathMap;
    workspaceDir: string;
    confinement?: WorkspaceConfinement;
  }): Promise<Confiner> {
    // Synchronous: a handful of short lookups, each far cheaper than a thread-pool round trip
    // (the walk in tree.ts makes the same choice); redone per request so links swapped in count.
    const homeReal = realOrResolved(opts.jenkinsHome);
    const cwdReal = realOrResolved(process.cwd());
    const privateReals = (opts.confinement?.privateDirs ?? []).map(realOrResolved);
    const closed: Guarded[] = [
      ...SYSTEM_DIRS.map((dir) => ({ dir, label: dir })),
      { dir: path.join(homeReal, 'secrets'), label: 'JENKINS_HOME/secrets' },
      ...privateReals.map((dir) => ({ dir, label: "the controller's DATA_DIR" })),
    ];
    const held: Guarded[] = [
      { dir: homeReal, label: 'JENKINS_HOME' },
      { dir: cwdReal, label: "the controller's working directory" },
      ...privateReals.map((dir) => ({ dir, label: "the controller's DATA_DIR" })),
    ];
    const fenced: Guarded[] = [
      { dir: homeReal, label: 'JENKINS_HOME outside the workspace roots (CICHAT_WORKSPACE_ROOTS)' },
      { dir: cwdReal, label: "the controller's working directory outside the workspace roots (CICHAT_WORKSPACE_ROOTS)" },
    ];
    const named = opts.confinement?.roots !== undefined;
    const specs = opts.confinement?.roots ?? defaultRootsOf(opts.workspaceDir, opts.jenkinsHome, opts.pathMap);
    const roots: string[] = [];
    const itemSuffixes: string[][] = [];
    for (const spec of specs) {
      if (spec.startsWith(ITEM_ROOTDIR)) {
        itemSuffixes.push(spec.slice(ITEM_ROOTDIR.length + 1).split('/'));
        continue;
      }
      let root: string;
      try {
        root = realpathSync(spec);
      } catch {
        continue; // not on this host (yet): nothing under it to serve
      }
      // A root that became (or links to) a guarded place serves nothing: `workspace -> ..`.
      if (held.some((g) => isInside(root, g.dir)) || closed.some((g) => isInside(g.dir, root))) continue;
      // A default root serves only inside JENKINS_HOME: `JENKINS_HOME/workspace -> /home/jenkins`
      // or a root config.xml `<workspaceDir>` elsewhere must be named in CICHAT_WORKSPACE_ROOTS.
      if (!named && !isInside(homeReal, root)) continue;
      roots.push(root);
    }
    return new Confiner(homeReal, roots, itemSuffixes, closed, held, fenced);
  }

  /**
   * Whether `dir` may be served: its real path must lie under a root (or an item's own root such
   * as its legacy `workspace/`), outside /proc, /sys, /dev, /etc, JENKINS_HOME/secrets and
   * DATA_DIR, must not hold JENKINS_HOME, DATA_DIR or the working directory, and lies in
   * JENKINS_HOME or the working directory only through a root placed there. A directory that
   * does not exist is `missing` (not on this host), not refused.
   */
  async check(dir: string): Promise<Verdict> {
    let real: string;
    try {
      real = await fs.realpath(dir);
      if (!(await fs.stat(real)).isDirectory()) return { served: false, missing: true };
    } catch {
      return { served: false, missing: true };
    }
    const closed = this.closed.find((g) => isInside(g.dir, real));
    if (closed) return { served: false, reason: `lies in ${closed.label}, which is never served` };
    const keys = privateHomeDirIn(real);
    if (keys) return { served: false, reason: `lies in a home's ${keys} directory, which is never served` };
    const held = this.held.find((g) => isInside(real, g.dir));
    if (held) return { served: false, reason: `holds ${held.label}, which is never served` };
    const root = this.roots.find((r) => isInside(r, real)) ?? (await this.itemRootOf(real));
    const fenced = this.fenced.find((g) => isInside(g.dir, real) && (root === null || !isInside(g.dir, root)));
    if (fenced) return { served: false, reason: `lies in ${fenced.label}` };
    if (root === null) return { served: false, reason: OUTSIDE_ROOTS };
    return { served: true, real };
  }

  /**
   * The item-relative root holding `real`, if any: `JENKINS_HOME/jobs/<item path>/<suffix>` where
   * the item directory holds a config.xml (a job, not a build folder or a stray directory).
   */
  private async itemRootOf(real: string): Promise<string | null> {
    if (this.itemSuffixes.length === 0 || real === this.homeReal || !isInside(this.homeReal, real)) return null;
    const segments = path.relative(this.homeReal, real).split(path.sep);
    if (segments[0] !== 'jobs') return null;
    for (const suffix of this.itemSuffixes) {
      for (let i = 2; i + suffix.length <= segments.length; i++) {
        if (!suffix.every((s, k) => segments[i + k] === s)) continue;
        const item = segments.slice(0, i);
        // Workspaces and build folders are not items, even with a config.xml written into them
        // (a segment right after `jobs/` is an item's name, whatever it is).
        const inert = new Set(['builds', LEGACY_ITEM_WORKSPACE, suffix[0]]);
        if (item.some((s, j) => j > 0 && inert.has(s) && !ITEM_CONTAINERS.has(item[j - 1] ?? ''))) continue;
        const itemDir = path.join(this.homeReal, ...item);
        const config = await fs.lstat(path.join(itemDir, 'config.xml')).catch(() => null);
        if (config?.isFile()) return path.join(itemDir, ...suffix);
      }
    }
    return null;
  }
}
