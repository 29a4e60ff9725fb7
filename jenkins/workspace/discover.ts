import { promises as fs } from 'node:fs';
import path from 'node:path';
import { applyPathMap, foreignHomeOf, mapRecordedPath } from '../pathmap.js';
import type { PathMap } from '../pathmap.js';
import { BuildNotFoundError, didYouMean, JobNotFoundError } from '../errors.js';
import { PERMALINKS, findBuildDir, isPermalink, locateJob, resolveBuildNumber } from '../jobs.js';
import type { JobLocation } from '../jobs.js';
import { buildsDirOf, jobDir, jobNameSegments, parseCombination } from '../paths.js';
import { Confiner } from './confine.js';
import type { WorkspaceConfinement } from './confine.js';
import { badRequest, notFound, pathTraversal } from './errors.js';
import { hasFlowStorage, readBuildRecord, readText, recordedWorkspaces } from './flownodes.js';
import { isInside } from './pathguard.js';
import type { BuildRecord } from './flownodes.js';
import type { Workspace } from './types.js';
import { childOf, parseXml, rootElement, textOf } from './xml.js';

export const DEFAULT_WORKSPACE_ID = 'ws-default';
export const BUILT_IN_NODE = 'built-in';
export const DEFAULT_WORKSPACE_DIR = '${JENKINS_HOME}/workspace/${ITEM_FULL_NAME}';
/** Where workspaces were before Jenkins 2.x moved them out of the job directories. */
export const OLD_WORKSPACE_DIR = '${ITEM_ROOTDIR}/workspace';

export interface WorkspaceQuery {
  /** JENKINS_HOME on this host. */
  jenkinsHome: string;
  pathMap: PathMap;
  /** Full name with folders: `team/app/main`; a multibranch branch keeps `/` encoded: `mb/feature%2Fx`. */
  jobName: string;
  /** A build number (or its decimal text), or a permalink name such as `lastFailedBuild`. */
  buildNumber: number | string;
  /** Workspace roots and private directories (CICHAT_WORKSPACE_ROOTS, DATA_DIR); the default roots when absent. */
  confinement?: WorkspaceConfinement;
}

/** A workspace the build recorded (or its job configures) that confinement refuses to serve. */
export interface RefusedWorkspace {
  workspaceId: string;
  node: string;
  /** The path as Jenkins recorded it; absent for a workspace the job's configuration places. */
  path?: string;
  /** Why, as the end of a sentence: `lies outside the workspace roots (CICHAT_WORKSPACE_ROOTS)`. */
  reason: string;
}

/** Where a build of a job is on disk, its number resolved. */
interface LocatedBuild {
  job: JobLocation;
  number: number;
  dir: string;
}

/** What the workspace reader needs from the root config.xml. */
interface RootSettings {
  workspaceDir: string;
  buildsDir?: string;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** A build reference as received: a positive number, its decimal text, or a permalink name. */
function parseBuildRef(ref: number | string): number | string {
  if (typeof ref === 'number') {
    if (Number.isSafeInteger(ref) && ref >= 1) return ref;
  } else if (/^[1-9][0-9]{0,9}$/.test(ref)) {
    return Number(ref);
  } else if (isPermalink(ref)) {
    return ref;
  }
  throw badRequest(`buildNumber must be a positive integer or one of ${PERMALINKS.join(', ')}`);
}

/**
 * Finds the job (folders, multibranch branches in their mangled `branches/` directories) and
 * the build's directory under the job's builds directory (`<buildsDir>` of the root config),
 * resolving a permalink to its number first. Old homes' timestamp-named build directories are
 * found by build.xml's `<number>`.
 */
async function locateBuild(query: WorkspaceQuery, settings: RootSettings): Promise<LocatedBuild> {
  if (!jobNameSegments(query.jobName)) throw pathTraversal(`jobName "${query.jobName}" is not a job name`);
  const ref = parseBuildRef(query.buildNumber);
  let job: JobLocation;
  let number: number;
  try {
    job = await locateJob(query.jenkinsHome, query.jobName, settings.buildsDir);
    await checkBuildsReadable(job, query.jobName);
    number = typeof ref === 'number' ? ref : await resolveBuildNumber(query.jenkinsHome, query.jobName, ref);
  } catch (err) {
    if (err instanceof JobNotFoundError) throw notFound(err.reason === undefined ? `Job not found: ${query.jobName}${didYouMean(err.similar)}` : err.message);
    if (err instanceof BuildNotFoundError) throw notFound(`Build not found: ${query.jobName} has no ${String(ref)}`);
    throw err;
  }
  const dir = await findBuildDir(job.buildsDir, number);
  if (!dir) throw notFound(`Build not found: ${query.jobName} #${number}`);
  return { job, number, dir };
}

/**
 * A builds directory that exists but cannot be listed (a symbolic link loop, no permission, a
 * file in its place): the build cannot be found, so 404 as the contract says for a build not
 * found, but with a message naming why, not a bare "no such build" that sends the user looking
 * for a build that is there. A missing one is simply a job without builds.
 */
async function checkBuildsReadable(job: JobLocation, jobName: string): Promise<void> {
  try {
    const dir = await fs.opendir(job.buildsDir);
    await dir.close();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT') return;
    const why: Record<string, string> = {
      ELOOP: 'its builds directory is a symbolic link loop',
      EACCES: 'the controller may not read its builds directory',
      EPERM: 'the controller may not read its builds directory',
      ENOTDIR: 'its builds directory is not a directory',
    };
    throw notFound(`Builds of ${jobName} are unreadable (${code}): ${why[code] ?? 'the builds directory cannot be listed'}`);
  }
}

/** `<workspaceDir>` (Jenkins' default when unset) and `<buildsDir>` of the root config.xml. */
async function readRootSettings(jenkinsHome: string): Promise<RootSettings> {
  try {
    // readText: regular files only (a FIFO must not block the request).
    const text = await readText(path.join(jenkinsHome, 'config.xml'));
    if (text === null) return { workspaceDir: DEFAULT_WORKSPACE_DIR };
    const root = childOf(parseXml(text) ?? undefined, 'hudson');
    const buildsDir = textOf(root, 'buildsDir');
    return { workspaceDir: textOf(root, 'workspaceDir') || DEFAULT_WORKSPACE_DIR, ...(buildsDir ? { buildsDir } : {}) };
  } catch {
    // a home without config.xml uses the defaults
    return { workspaceDir: DEFAULT_WORKSPACE_DIR };
  }
}

/**
 * Expands a workspaceDir template as Jenkins does: `${JENKINS_HOME}` (here: where the home is on
 * this host), `${ITEM_ROOTDIR}` (the job's directory), `${ITEM_FULL_NAME}` and the older
 * `${ITEM_FULLNAME}`. A template rooted elsewhere (`/ssd/ws/${ITEM_FULL_NAME}`) is a path Jenkins
 * sees, so it goes through JENKINS_PATH_MAP. `itemRootDir` is the job's directory when it was
 * looked up on disk (a multibranch branch's is mangled); else the plain `jobs/<name>` layout.
 */
export function expandWorkspaceDir(
  template: string,
  jenkinsHome: string,
  jobName: string,
  pathMap: PathMap,
  itemRootDir?: string,
): string | null {
  const itemRoot = itemRootDir ?? jobDir(jenkinsHome, jobName);
  if (!itemRoot || !jobNameSegments(jobName)) return null;
  // Jenkins turns `:` into `$` here (a colon is not allowed in Windows paths).
  const fullName = jobName.split('/').filter((s) => s !== '').join('/').replaceAll(':', '$');
  const local = template.startsWith('${JENKINS_HOME}') || template.startsWith('${ITEM_ROOTDIR}');
  const expanded = template
    // Replacer functions: a `$` in a path or job name must not act as a replacement pattern.
    .replaceAll('${JENKINS_HOME}', () => path.resolve(jenkinsHome))
    .replaceAll('${ITEM_ROOTDIR}', () => itemRoot)
    .replaceAll('${ITEM_FULL_NAME}', () => fullName)
    .replaceAll('${ITEM_FULLNAME}', () => fullName);
  if (expanded.includes('${')) return null;
  const onHost = local ? expanded : applyPathMap(pathMap, expanded);
  return path.isAbsolute(onHost) ? path.normalize(onHost) : null;
}

function nodeName(recorded: string | undefined): string {
  return recorded ? recorded : BUILT_IN_NODE;
}

/** The settings of an item's own config.xml that place its workspace (regular file only). */
interface ItemSettings {
  customWorkspace?: string;
  childCustomWorkspace?: string;
  relativePath?: string;
}

async function readItemSettings(itemDir: string): Promise<ItemSettings> {
  const text = await readText(path.join(itemDir, 'config.xml'));
  const doc = text === null ? null : parseXml(text);
  const root = doc ? rootElement(doc) : null;
  if (!root) return {};
  const settings: ItemSettings = {};
  for (const key of ['customWorkspace', 'childCustomWorkspace', 'relativePath'] as const) {
    const value = textOf(root.content, key);
    if (value !== undefined) settings[key] = value.trim();
  }
  return settings;
}

/**
 * Expands `${NAME}` variables of a path setting; null when one is unknown (a build variable we
 * cannot know from disk). Replacer functions: a `$` in a value is not a replacement pattern.
 */
function expandVariables(template: string, vars: Record<string, string>): string | null {
  let unknown = false;
  const expanded = template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) unknown = true;
    return value ?? whole;
  });
  return unknown ? null : expanded;
}

/**
 * A `customWorkspace` as Jenkins resolves it on the built-in node: relative to the node's root
 * (JENKINS_HOME), an absolute one being a path Jenkins sees (through JENKINS_PATH_MAP).
 */
function customWorkspaceDir(setting: string, query: WorkspaceQuery, fullName: string): string | null {
  const segments = fullName.split('/').filter((s) => s !== '');
  const home = path.resolve(query.jenkinsHome);
  const expanded = expandVariables(setting, {
    JENKINS_HOME: home,
    JOB_NAME: segments.join('/'),
    ITEM_FULL_NAME: segments.join('/').replaceAll(':', '$'),
    ITEM_FULLNAME: segments.join('/').replaceAll(':', '$'),
    JOB_BASE_NAME: segments[segments.length - 1] ?? '',
  });
  if (!expanded) return null;
  if (path.isAbsolute(expanded)) return path.normalize(expanded.startsWith(home) ? expanded : applyPathMap(query.pathMap, expanded));
  if (/^[A-Za-z]:|\\/.test(expanded)) return null;
  return path.resolve(home, expanded);
}

/** `base/rel` when `rel` stays inside `base` (a config's relative path must not climb out). */
function childInside(base: string, rel: string): string | null {
  if (rel.includes('\0') || rel.includes('\\')) return null;
  const joined = path.resolve(base, rel);
  return isInside(path.resolve(base), joined) ? joined : null;
}

/**
 * Where a top-level-like item's builds ran when the build recorded nothing usable: its own
 * `customWorkspace`, then the root config's workspaceDir, the default, and the old layout.
 */
async function itemWorkspaceDirs(query: WorkspaceQuery, settings: RootSettings, fullName: string, itemDir: string): Promise<string[]> {
  const dirs: string[] = [];
  const own = await readItemSettings(itemDir);
  const custom = own.customWorkspace ? customWorkspaceDir(own.customWorkspace, query, fullName) : null;
  if (custom) dirs.push(custom);
  for (const template of new Set([settings.workspaceDir, DEFAULT_WORKSPACE_DIR, OLD_WORKSPACE_DIR])) {
    const dir = expandWorkspaceDir(template, query.jenkinsHome, fullName, query.pathMap, itemDir);
    if (dir) dirs.push(dir);
  }
  return dirs;
}

/**
 * The workspaces the parent of a matrix configuration or Maven module used for build `number`:
 * the parent build's recorded `<workspace>` first, then the parent's own rules.
 */
async function parentWorkspaceDirs(query: WorkspaceQuery, settings: RootSettings, parentName: string, parentDir: string, number: number): Promise<string[]> {
  const dirs: string[] = [];
  const buildsDir = buildsDirOf(query.jenkinsHome, parentDir, parentName, settings.buildsDir);
  const parentBuild = await findBuildDir(buildsDir, number);
  const record = parentBuild ? await readBuildRecord(parentBuild) : null;
  if (record?.workspace) {
    const dir = applyPathMap(query.pathMap, record.workspace);
    if (path.isAbsolute(dir)) dirs.push(path.normalize(dir));
  }
  dirs.push(...(await itemWorkspaceDirs(query, settings, parentName, parentDir)));
  return [...new Set(dirs)];
}

const MATRIX_CONFIGURATIONS = `${path.sep}configurations${path.sep}axis-`;

/**
 * Candidate workspaces of a matrix configuration or a Maven module, Jenkins' own rules:
 * a configuration runs in `<parent workspace>/<childCustomWorkspace>` (default `${COMBINATION}`,
 * `jdk/17/label/linux`, axes sorted by name), the parent's `customWorkspace` replacing its
 * workspace; a module runs in `<module set workspace>/<relativePath>`. Empty for other items.
 */
async function childItemWorkspaceDirs(query: WorkspaceQuery, settings: RootSettings, build: LocatedBuild): Promise<string[]> {
  const segments = jobNameSegments(query.jobName);
  if (!segments || segments.length < 2) return [];
  const parentName = segments.slice(0, -1).join('/');
  const last = segments[segments.length - 1] ?? '';
  const matrixAt = build.job.dir.lastIndexOf(MATRIX_CONFIGURATIONS);
  if (matrixAt > 0) {
    const pairs = parseCombination(last);
    if (!pairs) return [];
    const parentDir = build.job.dir.slice(0, matrixAt);
    const parent = await readItemSettings(parentDir);
    const combination = pairs.map(([axis, value]) => `${axis}/${value}`).join('/');
    const dirs: string[] = [];
    for (const base of await parentWorkspaceDirs(query, settings, parentName, parentDir, build.number)) {
      const child = expandVariables(parent.childCustomWorkspace || '${COMBINATION}', {
        COMBINATION: combination,
        PARENT_WORKSPACE: base,
        ...Object.fromEntries(pairs),
      });
      if (child === null) continue;
      const dir = path.isAbsolute(child) ? path.normalize(child.startsWith(base) ? child : applyPathMap(query.pathMap, child)) : childInside(base, child);
      if (dir) dirs.push(dir);
    }
    return dirs;
  }
  if (path.basename(path.dirname(build.job.dir)) === 'modules') {
    const parentDir = path.dirname(path.dirname(build.job.dir));
    const relativePath = (await readItemSettings(build.job.dir)).relativePath ?? '';
    const dirs: string[] = [];
    for (const base of await parentWorkspaceDirs(query, settings, parentName, parentDir, build.number)) {
      const dir = childInside(base, relativePath);
      if (dir) dirs.push(dir);
    }
    return dirs;
  }
  return [];
}

/**
 * The directory itself when it exists, else the same path with every segment matched in any
 * Unicode normalisation: a home copied from macOS holds NFD names, requests carry NFC.
 */
async function findDirectory(dir: string): Promise<string | null> {
  if (await isDirectory(dir)) return dir;
  if (/^[\x00-\x7f]*$/.test(dir)) return null;
  let current = path.parse(dir).root;
  for (const part of dir.slice(current.length).split(path.sep)) {
    if (part === '') continue;
    const direct = current + (current.endsWith(path.sep) ? '' : path.sep) + part;
    try {
      await fs.lstat(direct);
      current = direct;
      continue;
    } catch {
      // look for the same name in another normalisation
    }
    let names: string[];
    try {
      names = await fs.readdir(current);
    } catch {
      return null;
    }
    const wanted = part.normalize('NFC');
    const match = names.find((n) => n.normalize('NFC') === wanted);
    if (match === undefined) return null;
    current = path.join(current, match);
  }
  return (await isDirectory(current)) ? current : null;
}

/** The first candidate that exists on this host, or why the first existing ones were refused. */
type Found = { dir: string } | { refused: { path?: string; reason: string } } | null;

/**
 * The first candidate that exists on this host and confinement serves (its real path). A
 * candidate that exists but is refused is skipped; when none is served, the first refusal is
 * answered so that a request for it can say why.
 */
async function firstWorkspaceDir(candidates: readonly string[], confiner: Confiner): Promise<Found> {
  let refused: Found = null;
  for (const candidate of new Set(candidates)) {
    const dir = await findDirectory(candidate);
    if (!dir) continue;
    const verdict = await confiner.check(dir);
    if (verdict.served) return { dir: verdict.real };
    if (!('missing' in verdict)) refused ??= { refused: { reason: verdict.reason } };
  }
  return refused;
}

/** The built-in node records itself as `` (and is shown as `built-in`). */
function isBuiltIn(node: string | undefined): boolean {
  return !node || node === BUILT_IN_NODE;
}

/**
 * Where a recorded path is on this host: through JENKINS_PATH_MAP; a path recorded on an agent
 * only through an explicit entry (without one it names the agent's disk, not this host's).
 */
async function recordedDir(query: WorkspaceQuery, recorded: string, node: string | undefined, confiner: Confiner, foreign?: Set<string>): Promise<Found> {
  const { path: mapped, mapped: byEntry } = mapRecordedPath(query.pathMap, recorded);
  if (!isBuiltIn(node) && !byEntry) {
    return { refused: { path: recorded, reason: `was recorded on agent ${node ?? ''} and no JENKINS_PATH_MAP entry maps it to this host` } };
  }
  if (!path.isAbsolute(mapped)) return null;
  const found = await firstWorkspaceDir([mapped], confiner);
  // Not on this host, recorded under another home's path, and no entry maps it: a copied home.
  if (found === null && !byEntry) {
    const home = foreignHomeOf(recorded, query.jenkinsHome);
    if (home !== undefined) foreign?.add(home);
  }
  return found && 'refused' in found ? { refused: { path: recorded, reason: found.refused.reason } } : found;
}

/**
 * A classic build's one workspace: where build.xml says it ran (`<workspace>`, `@2` for a
 * concurrent build); else Jenkins' rules: a matrix configuration's or Maven module's place in its
 * parent's workspace, the job's `customWorkspace`, the configured workspaceDir, the old
 * `${ITEM_ROOTDIR}/workspace`.
 */
async function classicWorkspace(
  query: WorkspaceQuery,
  build: LocatedBuild,
  settings: RootSettings,
  record: BuildRecord | null,
  confiner: Confiner,
  foreign: Set<string>,
): Promise<Discovered> {
  if (record?.workspace) {
    const found = await recordedDir(query, record.workspace, record.builtOn, confiner, foreign);
    const node = nodeName(record.builtOn);
    if (found && 'dir' in found) {
      return { workspaces: [{ workspaceId: DEFAULT_WORKSPACE_ID, node, path: record.workspace, dir: found.dir }], refused: [] };
    }
    // The build ran there: another directory of the same job would show other files.
    if (found) return { workspaces: [], refused: [{ workspaceId: DEFAULT_WORKSPACE_ID, node, ...found.refused }] };
  }
  const candidates = [
    ...(await childItemWorkspaceDirs(query, settings, build)),
    ...(await itemWorkspaceDirs(query, settings, query.jobName, build.job.dir)),
  ];
  const found = await firstWorkspaceDir(candidates, confiner);
  if (!found) return { workspaces: [], refused: [] };
  if ('dir' in found) return { workspaces: [{ workspaceId: DEFAULT_WORKSPACE_ID, node: BUILT_IN_NODE, dir: found.dir }], refused: [] };
  return { workspaces: [], refused: [{ workspaceId: DEFAULT_WORKSPACE_ID, node: BUILT_IN_NODE, ...found.refused }] };
}

async function pipelineWorkspaces(query: WorkspaceQuery, build: string, record: BuildRecord | null, confiner: Confiner, foreign: Set<string>): Promise<Discovered> {
  const discovered: Discovered = { workspaces: [], refused: [] };
  for (const recorded of await recordedWorkspaces(build, record)) {
    const found = await recordedDir(query, recorded.path, recorded.node, confiner, foreign);
    if (!found) continue;
    const entry = { workspaceId: recorded.flowNodeId, node: nodeName(recorded.node), path: recorded.path };
    if ('dir' in found) discovered.workspaces.push({ ...entry, dir: found.dir });
    else discovered.refused.push({ ...entry, reason: found.refused.reason });
  }
  return discovered;
}

interface Discovered {
  workspaces: Workspace[];
  refused: RefusedWorkspace[];
}

/** Every workspace of the build on this host, duplicates included (see listWorkspaces). */
async function allWorkspaces(query: WorkspaceQuery): Promise<{ build: LocatedBuild; foreignHomes: string[] } & Discovered> {
  const settings = await readRootSettings(query.jenkinsHome);
  const build = await locateBuild(query, settings);
  const record = await readBuildRecord(build.dir);
  const pipeline = record ? record.pipeline : await hasFlowStorage(build.dir);
  const confiner = await Confiner.create({ ...query, workspaceDir: settings.workspaceDir });
  const foreign = new Set<string>();
  const discovered = pipeline
    ? await pipelineWorkspaces(query, build.dir, record, confiner, foreign)
    : await classicWorkspace(query, build, settings, record, confiner, foreign);
  return { build, ...discovered, foreignHomes: [...foreign] };
}

/**
 * The workspaces of a build that exist on this host. A classic job has one, `ws-default`; a
 * pipeline build has one per workspace its `node` steps allocated, keyed by the flow node id,
 * with the recorded path mapped through JENKINS_PATH_MAP. Two `node` steps that reused the same
 * workspace are listed once, under the first flow node. `buildNumber` may be a permalink
 * (`lastFailedBuild`). Throws a WorkspaceError: 400 for a bad job name or build reference, 404
 * for a job or build that does not exist.
 */
export async function listWorkspaces(query: WorkspaceQuery): Promise<Workspace[]> {
  return (await discoverWorkspaces(query)).workspaces;
}

/**
 * As listWorkspaces, plus the homes the build's recorded paths name when they are not this
 * JENKINS_HOME and no JENKINS_PATH_MAP entry maps them (`foreignHomes`: a copied home whose
 * workspaces would otherwise be lost without a word, issue 27).
 */
export async function discoverWorkspaces(query: WorkspaceQuery): Promise<{ workspaces: Workspace[]; foreignHomes: string[] }> {
  const seen = new Set<string>();
  const listed: Workspace[] = [];
  const all = await allWorkspaces(query);
  for (const workspace of all.workspaces) {
    const key = `${workspace.node}\0${workspace.dir}`;
    if (seen.has(key)) continue;
    seen.add(key);
    listed.push(workspace);
  }
  return { workspaces: listed, foreignHomes: all.foreignHomes };
}

/** The JENKINS_PATH_MAP value that maps `foreignHomes` onto `jenkinsHome`. */
export function pathMapSuggestion(foreignHomes: readonly string[], jenkinsHome: string): string {
  return foreignHomes.map((from) => `${from}=${jenkinsHome}`).join(',');
}

/**
 * The workspaces of a build that confinement refuses to serve (never listed by listWorkspaces),
 * each with the reason: for diagnostics and tests.
 */
export async function refusedWorkspaces(query: WorkspaceQuery): Promise<RefusedWorkspace[]> {
  return (await allWorkspaces(query)).refused;
}

/**
 * One workspace of the build by id (any flow node that recorded it); 404 when not on this host,
 * or when confinement refuses it, naming why: `workspace /etc recorded by build 7 lies outside
 * the workspace roots (CICHAT_WORKSPACE_ROOTS)`.
 */
export async function findWorkspace(query: WorkspaceQuery & { workspaceId: string }): Promise<Workspace> {
  const { build, workspaces, refused } = await allWorkspaces(query);
  const match = workspaces.find((w) => w.workspaceId === query.workspaceId);
  if (match) return match;
  const why = refused.find((w) => w.workspaceId === query.workspaceId);
  if (why) {
    // The recorded path is the build's own record; a configured one is named by what placed it
    // (its host path would tell the caller where JENKINS_HOME is).
    const what = why.path !== undefined ? `workspace ${why.path} recorded by build ${build.number}` : `the workspace its job configures`;
    throw notFound(`Workspace ${query.workspaceId} of ${query.jobName} #${build.number} is not served: ${what} ${why.reason}`);
  }
  throw notFound(`Workspace ${query.workspaceId} not found for ${query.jobName} #${build.number} on this host`);
}
