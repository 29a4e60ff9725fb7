/**
 * Workspace snippets read by the CLI (issue 17): `cichat context upload --from-env` reads them
 * from `$WORKSPACE` on the agent, `cichat ask --workspace DIR` from a local checkout, with the
 * controller's own reader (jenkins/workspace/snippets.ts: same locations, caps, masking, and
 * the same refusals: nothing outside DIR, no binary, no `.git`).
 */
import fs from 'node:fs';
import type { LogExcerpt, WorkspaceChanges, WorkspaceChangesNotRead, WorkspaceSnippet } from '../protocol/types.js';
import { collectSnippets } from '../jenkins/workspace/snippets.js';
import { UserError } from './errors.js';

/** The workspace id of snippets the CLI read. */
export const LOCAL_WORKSPACE_ID = 'local';

/**
 * The snippets of `dir` for a log: the source around the file:line its failure names, and the
 * `Jenkinsfile` at the top of the checkout when there is one. Without a log only the Jenkinsfile.
 * `excerpts`: the log's analysis when the caller has it (collectSnippets' `excerpts`).
 */
export async function snippetsFromDir(dir: string, log: string | undefined, what = '--workspace', excerpts?: readonly LogExcerpt[]): Promise<WorkspaceSnippet[]> {
  let real: string;
  try {
    real = fs.realpathSync(dir);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new UserError(`${what} ${dir} is not a directory`, 'give the checkout the build ran in, e.g. --workspace .');
  }
  const { snippets } = await collectSnippets({
    log: log ?? '',
    workspaces: [{ workspaceId: LOCAL_WORKSPACE_ID, dir: real }],
    pipeline: { scriptPath: 'Jenkinsfile' },
    ...(excerpts ? { excerpts } : {}),
  });
  return snippets;
}

/**
 * The snippets of `$WORKSPACE` for `--from-env` (ux3, session 42): optional facts, so a
 * workspace that is not on this machine (a `post` step after `cleanWs()`, a container that
 * mounts it elsewhere) is a note on stderr and no snippets, never a failed upload of the log.
 */
export async function envWorkspaceSnippets(dir: string, log: string | undefined, note: (text: string) => void): Promise<WorkspaceSnippet[]> {
  try {
    return await snippetsFromDir(dir, log, '$WORKSPACE');
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    note(`${err.message} on this machine: the log is uploaded without the source lines it names`);
    return [];
  }
}

/**
 * The checkout's change for `ask --workspace DIR` (session 52): git's commits since the last green build's commit
 * when the environment names it (`GIT_PREVIOUS_SUCCESSFUL_COMMIT`, Jenkins' git plugin; `GIT_COMMIT` the build's),
 * else the checkout's last commit, with the diffs of the files the snippets name first
 * (jenkins/workspace/gitChanges.ts: confined, read-only). Nothing when DIR is no git checkout; `notRead` (reason
 * `shallow`, session 55) when DIR is a shallow clone whose last commit's parent is not there.
 */
export async function checkoutFromDir(dir: string, snippets: readonly WorkspaceSnippet[], env: NodeJS.ProcessEnv): Promise<{ changes?: WorkspaceChanges; notRead?: WorkspaceChangesNotRead }> {
  const { readCheckout, namedPaths, shallowNotRead } = await import('../jenkins/workspace/gitChanges.js');
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return {};
  }
  const { changes, shallow } = await readCheckout(real, {
    base: env.GIT_PREVIOUS_SUCCESSFUL_COMMIT,
    head: env.GIT_COMMIT,
    named: namedPaths(snippets),
    workspaceId: LOCAL_WORKSPACE_ID,
    gitFileAllowed: true,
  });
  return changes ? { changes } : shallow ? { notRead: shallowNotRead(LOCAL_WORKSPACE_ID, shallow) } : {};
}
