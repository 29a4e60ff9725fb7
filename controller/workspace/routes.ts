import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PathMap } from '../../jenkins/pathmap.js';
import type { WorkspaceConfinement } from '../../jenkins/workspace/confine.js';
import { discoverWorkspaces, findWorkspace, pathMapSuggestion } from '../../jenkins/workspace/discover.js';
import type { Logger } from '../../http/logger.js';
import { WorkspaceError } from '../../jenkins/workspace/errors.js';
import { readWorkspaceFile } from '../../jenkins/workspace/file.js';
import { DEFAULT_TREE_DEPTH, workspaceTree } from '../../jenkins/workspace/tree.js';
import type { WorkspaceFileAnswer, WorkspaceTreeEntry } from '../../jenkins/workspace/types.js';
import { WorkspaceFileQuerySchema, WorkspaceTreeQuerySchema, parseWorkspaceQuery } from '../schemas.js';
import { requestLog } from '../../http/request.js';

export interface WorkspaceRouteDeps {
  /** JENKINS_HOME on this host. */
  jenkinsHome: string;
  pathMap: PathMap;
  /** Workspace roots and private directories (CICHAT_WORKSPACE_ROOTS, DATA_DIR); the default roots when absent. */
  confinement?: WorkspaceConfinement;
  /** Where the once-per-home JENKINS_PATH_MAP advice is logged. */
  logger?: Logger;
  /** Whether the advice sent to callers may name JENKINS_HOME's path (`none` mode: the caller is this host's user). */
  revealHome?: boolean;
}

/** The header that carries a notice about the answer (the workspace list stays the contract's array). */
export const NOTICE_HEADER = 'X-Cichat-Notice';

/** Renders our errors as the contract's `{status: "error", message}`; anything else goes on up. */
async function answering(ctx: RouterContext, work: () => Promise<unknown>): Promise<void> {
  try {
    ctx.body = await work();
  } catch (err) {
    // A path within the length checks of the query that is still too long once joined to the workspace's own.
    if ((err as NodeJS.ErrnoException).code === 'ENAMETOOLONG') {
      ctx.status = 400;
      ctx.body = { status: 'error', message: 'The path is too long for the file system of the workspace.' };
      return;
    }
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
  // Homes already advised about in the log (once each per process).
  const advised = new Set<string>();
  router.get('/workspaceTree', async (ctx) => {
    await answering(ctx, async () => {
      const query = parseWorkspaceQuery(WorkspaceTreeQuerySchema, ctx.query);
      const { jobName, buildNumber } = query;
      const depth = query.depth ?? DEFAULT_TREE_DEPTH;
      const { workspaces, foreignHomes } = await discoverWorkspaces({ ...deps, jobName, buildNumber });
      if (foreignHomes.length > 0) {
        const fix = `JENKINS_PATH_MAP=${pathMapSuggestion(foreignHomes, deps.jenkinsHome)}`;
        const key = foreignHomes.join(',');
        if (!advised.has(key)) {
          advised.add(key);
          (deps.logger ? requestLog(deps.logger) : undefined)?.warn(
            { recordedHome: foreignHomes, jenkinsHome: deps.jenkinsHome },
            `builds recorded their workspaces under ${foreignHomes.join(', ')}, not this JENKINS_HOME (a copied or moved home?): set ${fix}`,
          );
        }
        const notice = `the builds recorded their workspaces under ${foreignHomes.join(', ')}, which is not this JENKINS_HOME (a copied or moved home?): ${
          deps.revealHome ? `set ${fix} on the controller` : 'set JENKINS_PATH_MAP on the controller (its log names the value)'
        }`;
        ctx.set(NOTICE_HEADER, encodeURIComponent(notice));
      }
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

  router.get('/workspaceFile', async (ctx) => {
    await answering(ctx, async () => {
      const { jobName, buildNumber, workspaceId, filePath } = parseWorkspaceQuery(WorkspaceFileQuerySchema, ctx.query);
      const workspace = await findWorkspace({ ...deps, jobName, buildNumber, workspaceId });
      const content = await readWorkspaceFile(workspace.dir, filePath);
      const answer: WorkspaceFileAnswer = { status: 'success', content };
      return answer;
    });
  });
}
