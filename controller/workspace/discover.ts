import { promises as fs } from 'node:fs';
import path from 'node:path';
import { applyPathMap } from '../jenkins/pathmap.js';
import type { PathMap } from '../jenkins/pathmap.js';
import { buildDir, jobDir } from '../jenkins/paths.js';
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
/** Build directories of Jenkins before 1.597 were named by start time (`2017-01-09_09-19-54`). */
const TIMESTAMP_BUILD_DIR = /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$/;

export interface WorkspaceQuery {
  /** JENKINS_HOME on this host. */
  jenkinsHome: string;
  pathMap: PathMap;
  /** Full name with folders: `team/app/main`. */
  jobName: string;
  buildNumber: number;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The build's directory: `builds/<n>`, or for homes from before Jenkins 1.597 without the number
 * links, the timestamp-named directory whose build.xml holds `<number>n</number>`.
 */
async function findBuildDirectory(jenkinsHome: string, jobName: string, buildNumber: number): Promise<string> {
  const job = jobDir(jenkinsHome, jobName);
  const build = buildDir(jenkinsHome, jobName, buildNumber);
  if (!job || !build) throw pathTraversal(`jobName "${jobName}" is not a job name`);
  if (!(await isDirectory(job))) throw notFound(`Job not found: ${jobName}`);
  if (await isDirectory(build)) return build;
  const builds = path.dirname(build);
  let names: string[] = [];
  try {
    names = await fs.readdir(builds);
  } catch {
    // no builds at all
  }
  for (const name of names.filter((n) => TIMESTAMP_BUILD_DIR.test(n))) {
    const record = await readBuildRecord(path.join(builds, name));
    if (record?.number === String(buildNumber)) return path.join(builds, name);
  }
  throw notFound(`Build not found: ${jobName} #${buildNumber}`);
}

/** The root config.xml's `<workspaceDir>`, or Jenkins' default when unset or unreadable. */
async function workspaceDirTemplate(jenkinsHome: string): Promise<string> {
  try {
    const doc = parseXml(await fs.readFile(path.join(jenkinsHome, 'config.xml'), 'utf8'));
    const configured = textOf(childOf(doc ?? undefined, 'hudson'), 'workspaceDir');
    if (configured) return configured;
  } catch {
    // a home without config.xml uses the defaults
  }
  return DEFAULT_WORKSPACE_DIR;
}

/**
 * Expands a workspaceDir template as Jenkins does: `${JENKINS_HOME}` (here: where the home is on
 * this host), `${ITEM_ROOTDIR}` (the job's directory), `${ITEM_FULL_NAME}` and the older
 * `${ITEM_FULLNAME}`. A template rooted elsewhere (`/ssd/ws/${ITEM_FULL_NAME}`) is a path Jenkins
 * sees, so it goes through JENKINS_PATH_MAP.
 */
export function expandWorkspaceDir(template: string, jenkinsHome: string, jobName: string, pathMap: PathMap): string | null {
  const itemRoot = jobDir(jenkinsHome, jobName);
  if (!itemRoot) return null;
  const fullName = jobName.split('/').filter((s) => s !== '').join('/');
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
async function classicWorkspace(query: WorkspaceQuery, record: BuildRecord | null): Promise<Workspace[]> {
  if (record?.workspace) {
    const dir = applyPathMap(query.pathMap, record.workspace);
    if (path.isAbsolute(dir) && (await isDirectory(dir))) {
      return [{ workspaceId: DEFAULT_WORKSPACE_ID, node: nodeName(record.builtOn), path: record.workspace, dir }];
    }
  }
  const templates = [await workspaceDirTemplate(query.jenkinsHome), DEFAULT_WORKSPACE_DIR, OLD_WORKSPACE_DIR];
  for (const template of new Set(templates)) {
    const dir = expandWorkspaceDir(template, query.jenkinsHome, query.jobName, query.pathMap);
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
async function allWorkspaces(query: WorkspaceQuery): Promise<Workspace[]> {
  if (!Number.isSafeInteger(query.buildNumber) || query.buildNumber < 1) {
    throw badRequest('buildNumber must be a positive integer');
  }
  const build = await findBuildDirectory(query.jenkinsHome, query.jobName, query.buildNumber);
  const record = await readBuildRecord(build);
  const pipeline = record ? record.pipeline : await hasFlowStorage(build);
  return pipeline ? pipelineWorkspaces(query, build, record) : classicWorkspace(query, record);
}

/**
 * The workspaces of a build that exist on this host. A classic job has one, `ws-default`; a
 * pipeline build has one per workspace its `node` steps allocated, keyed by the flow node id,
 * with the recorded path mapped through JENKINS_PATH_MAP. Two `node` steps that reused the same
 * workspace are listed once, under the first flow node. Throws a WorkspaceError: 400 for a bad
 * job name or build number, 404 for a job or build that does not exist.
 */
export async function listWorkspaces(query: WorkspaceQuery): Promise<Workspace[]> {
  const seen = new Set<string>();
  const listed: Workspace[] = [];
  for (const workspace of await allWorkspaces(query)) {
    const key = `${workspace.node}\0${workspace.dir}`;
    if (seen.has(key)) continue;
    seen.add(key);
    listed.push(workspace);
  }
  return listed;
}

/** One workspace of the build by id (any flow node that recorded it); 404 when not on this host. */
export async function findWorkspace(query: WorkspaceQuery & { workspaceId: string }): Promise<Workspace> {
  const match = (await allWorkspaces(query)).find((w) => w.workspaceId === query.workspaceId);
  if (!match) {
    throw notFound(`Workspace ${query.workspaceId} not found for ${query.jobName} #${query.buildNumber} on this host`);
  }
  return match;
}
