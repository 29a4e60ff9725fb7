import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PathMap } from '../../jenkins/pathmap.js';
import type { WorkspaceConfinement } from '../../jenkins/workspace/confine.js';
import { PERMALINKS, isPermalink } from '../../jenkins/jobs.js';
import { findWorkspace, listWorkspaces } from '../../jenkins/workspace/discover.js';
import { WorkspaceError, badRequest, pathTraversal } from '../../jenkins/workspace/errors.js';
import { readWorkspaceFile } from '../../jenkins/workspace/file.js';
import { relativePathSegments } from '../../jenkins/workspace/pathguard.js';
import { DEFAULT_TREE_DEPTH, MAX_TREE_DEPTH, workspaceTree } from '../../jenkins/workspace/tree.js';
import type { WorkspaceFileAnswer, WorkspaceTreeEntry } from '../../jenkins/workspace/types.js';

export interface WorkspaceRouteDeps {
  /** JENKINS_HOME on this host. */
  jenkinsHome: string;
  pathMap: PathMap;
  /** Workspace roots and private directories (CICHAT_WORKSPACE_ROOTS, DATA_DIR); the default roots when absent. */
  confinement?: WorkspaceConfinement;
}

/** One query parameter as a single string; a repeated parameter is ambiguous and refused. */
function queryParam(ctx: RouterContext, name: string, required: boolean): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw badRequest(`${name} must be given once`);
  if (value === undefined || value === '') {
    if (required) throw badRequest(`${name} is required`);
    return undefined;
  }
  return value;
}

function jobNameParam(ctx: RouterContext): string {
  const jobName = queryParam(ctx, 'jobName', true) ?? '';
  // Job names are folder paths (`team/app`): the same traversal rules as file paths apply.
  relativePathSegments(jobName, 'jobName');
  return jobName;
}

/** A build number, or a permalink name (`lastFailedBuild`) that discovery resolves. */
function buildNumberParam(ctx: RouterContext): number | string {
  const raw = queryParam(ctx, 'buildNumber', true) ?? '';
  if (/^[1-9][0-9]{0,9}$/.test(raw)) return Number(raw);
  if (isPermalink(raw)) return raw;
  if (/[./\\%\0]/.test(raw)) throw pathTraversal('buildNumber must be a build number');
  throw badRequest(`buildNumber must be a positive integer or one of ${PERMALINKS.join(', ')}`);
}

function depthParam(ctx: RouterContext): number {
  const raw = queryParam(ctx, 'depth', false);
  if (raw === undefined) return DEFAULT_TREE_DEPTH;
  const depth = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(depth >= 1 && depth <= MAX_TREE_DEPTH)) throw badRequest(`depth must be between 1 and ${MAX_TREE_DEPTH}`);
  return depth;
}

function workspaceIdParam(ctx: RouterContext): string {
  const workspaceId = queryParam(ctx, 'workspaceId', true) ?? '';
  relativePathSegments(workspaceId, 'workspaceId');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(workspaceId)) {
    throw badRequest('workspaceId must be "ws-default" or a flow node id from workspaceTree');
  }
  return workspaceId;
}

/** Renders our errors as the contract's `{status: "error", message}`; anything else goes on up. */
async function answering(ctx: RouterContext, work: () => Promise<unknown>): Promise<void> {
  try {
    ctx.body = await work();
  } catch (err) {
    if (!(err instanceof WorkspaceError)) throw err;
    ctx.status = err.status;
    ctx.body = { status: 'error', message: err.message };
  }
}

/**
 * Adds `GET /workspaceTree` and `GET /workspaceFile` (each with and without a trailing slash) to
 * a router the app mounts under `/chatbot-api` (CONTRACT.md section 3, "Workspaces").
 */
export function registerWorkspaceRoutes(router: Router, deps: WorkspaceRouteDeps): void {
  router.get(['/workspaceTree', '/workspaceTree/'], async (ctx) => {
    await answering(ctx, async () => {
      const jobName = jobNameParam(ctx);
      const buildNumber = buildNumberParam(ctx);
      const depth = depthParam(ctx);
      const workspaces = await listWorkspaces({ ...deps, jobName, buildNumber });
      const entries: WorkspaceTreeEntry[] = [];
      for (const workspace of workspaces) {
        let tree;
        try {
          tree = await workspaceTree(workspace.dir, { depth });
        } catch (err) {
          // Removed between discovery and listing: no longer on this host.
          if (err instanceof WorkspaceError && err.status === 404) continue;
          throw err;
        }
        const entry: WorkspaceTreeEntry = {
          workspaceId: workspace.workspaceId,
          node: workspace.node,
          ...(workspace.path !== undefined ? { path: workspace.path } : {}),
          tree,
        };
        entries.push(entry);
      }
      return entries;
    });
  });

  router.get(['/workspaceFile', '/workspaceFile/'], async (ctx) => {
    await answering(ctx, async () => {
      const jobName = jobNameParam(ctx);
      const buildNumber = buildNumberParam(ctx);
      const workspaceId = workspaceIdParam(ctx);
      const filePath = queryParam(ctx, 'filePath', true) ?? '';
      relativePathSegments(filePath);
      const workspace = await findWorkspace({ ...deps, jobName, buildNumber, workspaceId });
      const content = await readWorkspaceFile(workspace.dir, filePath);
      const answer: WorkspaceFileAnswer = { status: 'success', content };
      return answer;
    });
  });
}
