/**
 * Whether a build's workspace still holds that build's checkout (session 53): when the build recorded no commit
 * (or one the workspace does not hold), the workspace's `HEAD` is the build's only if no later build of the job has
 * used that workspace since. A classic job's workspace is shared by every build; a pipeline's builds record theirs
 * in their flow nodes (`ws@2` for a concurrent one), so a later build may have run elsewhere.
 */
import path from 'node:path';
import { listBuildNumbers } from '../jobs.js';
import { listWorkspaces, type WorkspaceQuery } from './discover.js';

/** Later builds looked at, nearest first; a job with more is not looked further (the answer is then "may have"). */
const LATER_BUILDS_READ = 10;

/**
 * The later builds of the job that used the workspace at `dir` (nearest first; at most `LATER_BUILDS_READ` read,
 * and the ones beyond counted as using it, since they were not read). Empty: the workspace is still the build's.
 */
export async function laterBuildsInWorkspace(query: WorkspaceQuery & { buildNumber: number }, buildsDir: string, dir: string): Promise<number[]> {
  const later = (await listBuildNumbers(buildsDir).catch(() => [] as number[])).filter((n) => n > query.buildNumber).sort((a, b) => a - b);
  const using: number[] = [];
  for (const n of later.slice(0, LATER_BUILDS_READ)) {
    const theirs = await listWorkspaces({ ...query, buildNumber: n }).catch(() => []);
    if (theirs.some((w) => path.resolve(w.dir) === path.resolve(dir))) using.push(n);
  }
  return [...using, ...later.slice(LATER_BUILDS_READ)];
}
