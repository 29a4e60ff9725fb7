/**
 * Jenkins' line naming the directory a build runs in: a freestyle job's `Building in workspace /x/y` (or `Building
 * remotely on agent (label) in workspace /x/y`), `Running on agent in /x/y`, a pipeline's `Running in /x/y` (its
 * `ws`/`dir`); group 1 is the path (POSIX or Windows). One pattern for the readers that map the CI agent's paths to
 * a checkout (jenkins/workspace/locate.ts `agentWorkspaceRoots`, backend/answer/local/checkoutPaths.ts).
 */
export const JENKINS_ROOT_LINE = /(?:Building (?:remotely on \S+(?: \([^)]*\))? )?in workspace|Running on .+? in|^\s*Running in) ((?:[A-Za-z]:)?[\\/]\S+)\s*$/;

/**
 * The build's own workspace a line names (`Building in workspace /x/y`, `Running on agent in /x/y`), without a trailing
 * `/`; not a pipeline's `Running in /x/y`, which is a `dir`/`ws` step's directory, maybe one under the workspace: the
 * readers that ask whether a path is the project's, or lies outside the workspace, need the build's root
 * (core/finding/places.ts `workspaceIn`, backend/answer/local/fixWhatNeeds.ts, osCondition's test directories).
 */
export function buildRootIn(line: string): string | undefined {
  const m = JENKINS_ROOT_LINE.exec(line);
  if (!m || /^\s*Running in /.test(line)) return undefined;
  const root = (m[1] as string).replace(/[\\/]+$/, '');
  return root === '' ? undefined : root;
}
