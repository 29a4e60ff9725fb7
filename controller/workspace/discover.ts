import { promises as fs } from 'node:fs';
import path from 'node:path';
import { applyPathMap } from '../jenkins/pathmap.js';
import type { PathMap } from '../jenkins/pathmap.js';
import { BuildNotFoundError, JobNotFoundError } from '../jenkins/errors.js';
import { PERMALINKS, findBuildDir, isPermalink, locateJob, resolveBuildNumber } from '../jenkins/jobs.js';
import type { JobLocation } from '../jenkins/jobs.js';
import { jobDir, jobNameSegments } from '../jenkins/paths.js';
import { badRequest, notFound, pathTraversal } from './errors.js';
import { hasFlowStorage, readBuildRecord, recordedWorkspaces } from './flownodes.js';
import type { BuildRecord } from './flownodes.js';
import type { Workspace } from './types.js';
import { childOf, parseXml, textOf } from './xml.js';

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
    number = typeof ref === 'number' ? ref : await resolveBuildNumber(query.jenkinsHome, query.jobName, ref);
  } catch (err) {
    if (err instanceof JobNotFoundError) throw notFound(`Job not found: ${query.jobName}`);
    if (err instanceof BuildNotFoundError) throw notFound(`Build not found: ${query.jobName} has no ${String(ref)}`);
    throw err;
  }
  const dir = await findBuildDir(job.buildsDir, number);
  if (!dir) throw notFound(`Build not found: ${query.jobName} #${number}`);
  return { job, number, dir };
}

/** `<workspaceDir>` (Jenkins' default when unset) and `<buildsDir>` of the root config.xml. */
async function readRootSettings(jenkinsHome: string): Promise<RootSettings> {
  try {
    const root = childOf(parseXml(await fs.readFile(path.join(jenkinsHome, 'config.xml'), 'utf8')) ?? undefined, 'hudson');
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

/**
 * A classic build's one workspace: where build.xml says it ran (`<workspace>`, `@2` for a
 * concurrent build), else the configured workspaceDir, else the old `${ITEM_ROOTDIR}/workspace`.
 */
async function classicWorkspace(
  query: WorkspaceQuery,
  build: LocatedBuild,
  settings: RootSettings,
  record: BuildRecord | null,
): Promise<Workspace[]> {
  if (record?.workspace) {
    const dir = applyPathMap(query.pathMap, record.workspace);
    if (path.isAbsolute(dir) && (await isDirectory(dir))) {
      return [{ workspaceId: DEFAULT_WORKSPACE_ID, node: nodeName(record.builtOn), path: record.workspace, dir }];
    }
  }
  const templates = [settings.workspaceDir, DEFAULT_WORKSPACE_DIR, OLD_WORKSPACE_DIR];
  for (const template of new Set(templates)) {
    const dir = expandWorkspaceDir(template, query.jenkinsHome, query.jobName, query.pathMap, build.job.dir);
    if (dir && (await isDirectory(dir))) return [{ workspaceId: DEFAULT_WORKSPACE_ID, node: BUILT_IN_NODE, dir }];
  }
  return [];
}

async function pipelineWorkspaces(query: WorkspaceQuery, build: string, record: BuildRecord | null): Promise<Workspace[]> {
  const found: Workspace[] = [];
  for (const recorded of await recordedWorkspaces(build, record)) {
    const dir = applyPathMap(query.pathMap, recorded.path);
    if (!path.isAbsolute(dir) || !(await isDirectory(dir))) continue;
    found.push({ workspaceId: recorded.flowNodeId, node: nodeName(recorded.node), path: recorded.path, dir });
  }
  return found;
}

/** Every workspace of the build on this host, duplicates included (see listWorkspaces). */
async function allWorkspaces(query: WorkspaceQuery): Promise<{ build: LocatedBuild; workspaces: Workspace[] }> {
  const settings = await readRootSettings(query.jenkinsHome);
  const build = await locateBuild(query, settings);
  const record = await readBuildRecord(build.dir);
  const pipeline = record ? record.pipeline : await hasFlowStorage(build.dir);
  const workspaces = pipeline ? await pipelineWorkspaces(query, build.dir, record) : await classicWorkspace(query, build, settings, record);
  return { build, workspaces };
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
  const seen = new Set<string>();
  const listed: Workspace[] = [];
  for (const workspace of (await allWorkspaces(query)).workspaces) {
    const key = `${workspace.node}\0${workspace.dir}`;
    if (seen.has(key)) continue;
    seen.add(key);
    listed.push(workspace);
  }
  return listed;
}

/** One workspace of the build by id (any flow node that recorded it); 404 when not on this host. */
export async function findWorkspace(query: WorkspaceQuery & { workspaceId: string }): Promise<Workspace> {
  const { build, workspaces } = await allWorkspaces(query);
  const match = workspaces.find((w) => w.workspaceId === query.workspaceId);
  if (!match) {
    throw notFound(`Workspace ${query.workspaceId} not found for ${query.jobName} #${build.number} on this host`);
  }
  return match;
}
