/**
 * The CI context of the contract (section 3, "Context injection"), built from a JENKINS_HOME
 * on disk. Nothing in a home can make this throw: what is missing or broken becomes an `error`
 * string where it would have been, and is also returned as a typed problem for routes that
 * would rather answer 404.
 */
import { stat } from 'node:fs/promises';
import type { BuildDetails, CiContext, JobDetails, WorkspaceChanges, WorkspaceChangesNotRead, WorkspaceSnippet } from '../protocol/types.js';
import { readBuildDetails } from './builds.js';
import { jobHistory } from './history.js';
import { BuildNotFoundError, JobNotFoundError, XmlCorruptError } from './errors.js';
import { locateJob, readJobDetails } from './jobs.js';
import type { JobLocation } from './jobs.js';
import { masterNodeOf, readAgents, readLastExecVersion, readPlugins, readRootConfig, readRootUrl } from './system.js';
import type { RootConfig } from './system.js';
import type { PathMap } from './pathmap.js';
import type { WorkspaceConfinement } from './workspace/confine.js';
import { listWorkspaces, type WorkspaceQuery } from './workspace/discover.js';
import { collectSnippets, readPipelineScript } from './workspace/snippets.js';
import { isGitCheckout, namedPaths, readCheckout, shallowNotRead } from './workspace/gitChanges.js';
import { laterBuildsInWorkspace } from './workspace/checkoutOwner.js';
import type { Workspace } from './workspace/types.js';
import { errorMessage } from './xml.js';

export interface CiContextOptions {
  jenkinsHome: string;
  jobName?: string;
  buildNumber?: number;
  currentScreen?: string;
  /** The caller's own log: sent as `buildDetails.consoleLog`, and no tail is read. */
  consoleLog?: string;
  /** The caller's log of the last passing build: sent as `buildDetails.lastSuccessfulBuild.consoleLog`. */
  baselineLog?: string;
  now?: Date;
  /**
   * Where the build's workspaces are (JENKINS_PATH_MAP, confinement): when given, the build
   * (whatever its result) gets `workspaceSnippets` (jenkins/workspace/snippets.ts).
   */
  workspace?: { pathMap: PathMap; confinement?: WorkspaceConfinement };
  /**
   * The job's failure history (issue 29): a failed or unstable build gets `buildDetails.history`
   * from its last `window` builds, indexed in `cacheDir` (jenkins/history.ts).
   */
  history?: { cacheDir?: string; window?: number };
}

/** A part of the context that could not be read, with the typed cause. */
export interface ContextProblem {
  field: 'jenkinsHome' | 'ciVersion' | 'rootUrl' | 'activePlugins' | 'agentStats' | 'jobDetails' | 'buildDetails';
  error: Error;
}

export interface CiContextResult {
  context: CiContext;
  problems: ContextProblem[];
  /** True when the requested job or build does not exist (a route may answer 404). */
  notFound: boolean;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(errorMessage(err));
}

/**
 * Builds the CI context, with the list of problems met on the way. `notFound` is set when the
 * requested job or build is absent (JobNotFoundError / BuildNotFoundError among the problems).
 */
export async function buildCiContextResult(opts: CiContextOptions): Promise<CiContextResult> {
  const problems: ContextProblem[] = [];
  const context: CiContext = { currentScreen: opts.currentScreen?.trim() || 'Unknown Page' };
  const home = opts.jenkinsHome;

  const homeError = await checkHome(home);
  if (homeError) {
    context.jenkinsHomeError = homeError;
    problems.push({ field: 'jenkinsHome', error: new Error(homeError) });
  }

  let config: RootConfig = { inlineAgents: [] };
  try {
    config = await readRootConfig(home);
    if (config.version) context.ciVersion = config.version;
    if (config.systemMessage) context.systemMessage = config.systemMessage;
  } catch (err) {
    problems.push({ field: 'ciVersion', error: asError(err) });
  }
  if (!context.ciVersion) {
    const version = await readLastExecVersion(home);
    if (version) context.ciVersion = version;
  }
  try {
    const rootUrl = await readRootUrl(home);
    if (rootUrl) context.rootUrl = rootUrl;
  } catch (err) {
    problems.push({ field: 'rootUrl', error: asError(err) });
  }
  try {
    // CONTRACT section 3: `activePlugins` is the map of enabled plugins; `plugins` the fuller facts.
    const plugins = await readPlugins(home);
    context.activePlugins = Object.fromEntries(plugins.filter((p) => p.enabled !== false).map((p) => [p.shortName, p.version]));
    context.plugins = plugins;
  } catch (err) {
    problems.push({ field: 'activePlugins', error: asError(err) });
  }
  context.masterNode = masterNodeOf(config);
  try {
    context.agentStats = await readAgents(home, config.inlineAgents);
  } catch (err) {
    problems.push({ field: 'agentStats', error: asError(err) });
  }

  const jobName = opts.jobName?.trim();
  if (jobName) {
    let job: JobLocation | null = null;
    try {
      job = await locateJob(home, jobName, config.buildsDir);
      context.jobDetails = await readJobDetails(home, job, context.rootUrl);
    } catch (err) {
      const error = asError(err);
      // When the home itself is missing, that is the cause worth naming.
      if (homeError && error instanceof JobNotFoundError) error.message = `No job ${jobName}: ${homeError}`;
      problems.push({ field: 'jobDetails', error });
      context.jobDetails = { fullName: jobName, error: describe(error, jobName) } satisfies JobDetails;
    }
    if (opts.buildNumber !== undefined) {
      const type = context.jobDetails?.jobType;
      if (job && (type === 'folder' || type === 'multibranch' || type === 'organization-folder')) {
        // A folder has no builds of its own: say so rather than "no build #n".
        const error = new BuildNotFoundError(jobName, opts.buildNumber);
        error.message = `${jobName} is a ${type} and has no builds of its own; name one of its jobs`;
        problems.push({ field: 'buildDetails', error });
        context.buildDetails = { number: opts.buildNumber, error: error.message };
      } else {
        context.buildDetails = await buildPart(opts, job, jobName, context.rootUrl, problems);
        if (opts.workspace && job) {
          const { snippets, workspaceIds, changes, notRead } = await buildSnippets(opts, job, jobName, context.buildDetails);
          if (snippets.length > 0) context.workspaceSnippets = snippets;
          if (changes) context.workspaceChanges = changes;
          if (notRead) context.workspaceChangesNotRead = notRead;
          if (workspaceIds.length > 0) context.buildDetails.workspaces = workspaceIds;
        }
      }
    }
  } else if (opts.consoleLog !== undefined || opts.baselineLog !== undefined) {
    context.buildDetails = {
      ...(opts.consoleLog !== undefined ? { consoleLog: opts.consoleLog } : {}),
      ...(opts.baselineLog !== undefined ? { lastSuccessfulBuild: { consoleLog: opts.baselineLog } } : {}),
    };
  }

  const notFound = problems.some((p) => p.error instanceof JobNotFoundError || p.error instanceof BuildNotFoundError);
  return { context, problems, notFound };
}

async function buildPart(
  opts: CiContextOptions,
  job: JobLocation | null,
  jobName: string,
  rootUrl: string | undefined,
  problems: ContextProblem[],
): Promise<BuildDetails> {
  const number = opts.buildNumber as number;
  const withLog = (d: BuildDetails): BuildDetails => ({
    ...d,
    ...(opts.consoleLog !== undefined ? { consoleLog: opts.consoleLog } : {}),
    ...(opts.baselineLog !== undefined ? { lastSuccessfulBuild: { consoleLog: opts.baselineLog } } : {}),
  });
  if (!Number.isSafeInteger(number) || number < 1) {
    const error = new BuildNotFoundError(jobName, number);
    problems.push({ field: 'buildDetails', error });
    return withLog({ error: `Build number must be a positive integer, got ${String(number)}` });
  }
  if (!job) {
    return withLog({ number, error: `No build #${number}: there is no job ${jobName} in JENKINS_HOME` });
  }
  try {
    const details = await readBuildDetails({
      jenkinsHome: opts.jenkinsHome,
      job,
      number,
      consoleLog: opts.consoleLog,
      baselineLog: opts.baselineLog,
      rootUrl,
      now: opts.now,
    });
    if (typeof details.error === 'string') problems.push({ field: 'buildDetails', error: new Error(details.error) });
    if (opts.history && (details.result === 'FAILURE' || details.result === 'UNSTABLE')) {
      try {
        const found = await jobHistory(jobName, { jenkinsHome: opts.jenkinsHome, ...opts.history, build: number });
        details.history = found.current?.history ?? null;
      } catch (err) {
        details.historyError = `Could not read the history of ${jobName}: ${errorMessage(err)}`;
      }
    }
    return details;
  } catch (err) {
    const error = asError(err);
    problems.push({ field: 'buildDetails', error });
    return withLog({ number, error: describe(error, jobName) });
  }
}

/**
 * The workspace snippets of a build: source around the lines its log's failure names and the
 * pipeline script, from its confined workspaces; and the ids of those workspaces
 * (`buildDetails.workspaces`: the answer offers `cichat ws cat` even when none holds a file the
 * log names). Whatever the build's result (ux4: a user asks about a passing, aborted or running
 * build too, and its workspace is as much there). A workspace that cannot be read gives none;
 * nothing here fails the upload.
 */
async function buildSnippets(
  opts: CiContextOptions,
  job: JobLocation,
  jobName: string,
  details: BuildDetails,
): Promise<{ snippets: WorkspaceSnippet[]; workspaceIds: string[]; changes?: WorkspaceChanges; notRead?: WorkspaceChangesNotRead }> {
  const log = typeof details.consoleLog === 'string' ? details.consoleLog : typeof details.consoleLogTail === 'string' ? details.consoleLogTail : '';
  if (typeof details.number !== 'number' || typeof details.error === 'string' || !opts.workspace) return { snippets: [], workspaceIds: [] };
  // No workspace on this host still leaves an inline pipeline script to show.
  const query = {
    jenkinsHome: opts.jenkinsHome,
    pathMap: opts.workspace.pathMap,
    ...(opts.workspace.confinement ? { confinement: opts.workspace.confinement } : {}),
    jobName,
    buildNumber: details.number,
  };
  const workspaces = await listWorkspaces(query).catch(() => []);
  const workspaceIds = [...new Set(workspaces.map((w) => w.workspaceId))];
  try {
    const pipeline = await readPipelineScript(job.dir);
    const { snippets } = await collectSnippets({ log, workspaces, ...(pipeline ? { pipeline } : {}) });
    const { changes, notRead } = await workspaceChangesOf(query, job.buildsDir, workspaces, snippets, details);
    return { snippets, workspaceIds, ...(changes ? { changes } : {}), ...(notRead ? { notRead } : {}) };
  } catch {
    return { snippets: [], workspaceIds };
  }
}

/**
 * The change the build's workspace holds (session 52), when it is a git checkout (its own `.git` directory): the
 * commits from the last green build's recorded commit to this build's (jenkins/workspace/gitChanges.ts, confined
 * and read-only), else the checkout's last commit; the first workspace that is one, the snippets' workspace first.
 * A build that recorded no commit (or one the workspace lacks) is read at the workspace's HEAD only when no later
 * build of the job has used that workspace (checkoutOwner.ts, session 53); else nothing is read, and `notRead` says why.
 */
async function workspaceChangesOf(
  query: WorkspaceQuery & { buildNumber: number },
  buildsDir: string,
  workspaces: readonly Workspace[],
  snippets: readonly WorkspaceSnippet[],
  details: BuildDetails,
): Promise<{ changes?: WorkspaceChanges; notRead?: WorkspaceChangesNotRead }> {
  const commitOf = (scm: unknown): string | undefined => (Array.isArray(scm) ? (scm as { commit?: unknown }[]).map((x) => x.commit).find((c): c is string => typeof c === 'string') : undefined);
  const green = details.lastSuccessfulBuild as { scm?: unknown } | null | undefined;
  const recorded = commitOf(details.scm);
  const first = snippets.find((s) => s.kind !== 'pipeline')?.workspaceId;
  const ordered = [...workspaces].sort((a, b) => Number(b.workspaceId === first) - Number(a.workspaceId === first));
  let notRead: WorkspaceChangesNotRead | undefined;
  for (const w of ordered.slice(0, 3)) {
    // A workspace that is no git checkout has no change to read: its later builds are not looked up (review, session 53).
    if (!(await isGitCheckout(w.dir))) continue;
    const opts = { base: commitOf(green?.scm), head: recorded, named: namedPaths(snippets.filter((s) => s.workspaceId === w.workspaceId)), workspaceId: w.workspaceId };
    // The build's own commit first; its HEAD only when the workspace is still the build's checkout.
    const own = recorded ? await readCheckout(w.dir, { ...opts, headFallback: false }) : {};
    if (own.changes) return { changes: own.changes };
    // A shallow clone holds the build's commit without its parent: said, not taken for "nothing changed" (session 55).
    if (own.shallow) return { notRead: shallowNotRead(w.workspaceId, own.shallow) };
    const later = await laterBuildsInWorkspace(query, buildsDir, w.dir);
    if (later.length === 0) {
      const { changes, shallow } = await readCheckout(w.dir, { ...opts, headFallback: 'workspace-head' });
      if (changes) return { changes };
      if (shallow) notRead ??= shallowNotRead(w.workspaceId, shallow);
    } else if (!notRead) {
      // A git checkout we did not read: said, so the answer does not take silence for "nothing changed".
      notRead = { workspaceId: w.workspaceId, reason: recorded ? 'recorded-commit-absent' : 'no-recorded-commit', ...(recorded ? { recordedCommit: recorded } : {}), laterBuilds: later.slice(0, 20) };
    }
  }
  return notRead ? { notRead } : {};
}

/** Why JENKINS_HOME cannot be read at all, or undefined when it is a readable directory. */
async function checkHome(home: string): Promise<string | undefined> {
  try {
    if (!(await stat(home)).isDirectory()) return `JENKINS_HOME ${home} is not a directory`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `JENKINS_HOME ${home} does not exist` : `JENKINS_HOME ${home} cannot be read (${code ?? String(err)})`;
  }
  return undefined;
}

function describe(error: Error, jobName: string): string {
  if (error instanceof JobNotFoundError || error instanceof BuildNotFoundError) return error.message;
  if (error instanceof XmlCorruptError) return `Configuration of ${jobName} is corrupt: ${error.message}`;
  return `Could not read ${jobName} from JENKINS_HOME: ${error.message}`;
}

/**
 * The CiContext of protocol/types.ts from a JENKINS_HOME on disk. Never throws for a missing
 * or corrupt job or build: `jobDetails.error` / `buildDetails.error` say what is wrong. Use
 * buildCiContextResult to also learn whether the job or build was not found.
 */
export async function buildCiContext(opts: CiContextOptions): Promise<CiContext> {
  return (await buildCiContextResult(opts)).context;
}
