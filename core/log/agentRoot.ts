/**
 * Jenkins' line naming the directory a build runs in: a freestyle job's `Building in workspace /x/y` (or `Building
 * remotely on agent (label) in workspace /x/y`), `Running on agent in /x/y`, a pipeline's `Running in /x/y` (its
 * `ws`/`dir`); group 1 is the path (POSIX or Windows). One pattern for the readers that map the CI agent's paths to
 * a checkout (jenkins/workspace/locate.ts `agentWorkspaceRoots`, backend/answer/local/checkoutPaths.ts).
 */
export const JENKINS_ROOT_LINE = /(?:Building (?:remotely on \S+(?: \([^)]*\))? )?in workspace|Running on .+? in|^\s*Running in) ((?:[A-Za-z]:)?[\\/]\S+)\s*$/;
