/**
 * What a step's `sh -x` trace says of the command that failed (issue 25): the last command echoed
 * before the error, how many times it ran, and which files may hold the script line that ran it
 * (jenkins/workspace/snippets.ts quotes that line).
 */

/** Classes whose cause is in how a step ran, not in a line of the code it built. */
export const SCRIPT_CLASSES = new Set(['network', 'permission-credentials', 'missing-tool', 'timeout-aborted', 'out-of-memory', 'disk-full', 'ci-script', 'dependency-resolution', 'unknown']);

/** The last command `sh -x` echoed (`+ cmd`) before log line `n` (1-based), within 60 lines. */
export function commandBefore(lines: readonly string[], n: number): string | undefined {
  for (let i = Math.min(lines.length, n) - 1; i >= Math.max(0, n - 61); i--) {
    const t = (lines[i] ?? '').replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z ?/, '').trim();
    const m = /^\+{1,2} (\S.*)$/.exec(t);
    // An assignment is a setting, not the command that failed.
    if (m && !/^(?:export )?[A-Za-z_]\w*=/.test(m[1] as string)) return m[1] as string;
  }
  return undefined;
}

export const SCRIPT_FILE = /(?:^|\/)(?:[^/]+\.(?:sh|bash|ya?ml|groovy|mk|ps1|cmd|bat)|Makefile|GNUmakefile|Jenkinsfile|Dockerfile|package\.json|tox\.ini|noxfile\.py)$/;
export const SCRIPT_FILES_MAX = 200;

/** How many times `command` was traced (`+ command`) up to line `n` (1-based) of the log: the failing run's number. */
export function tracesOf(lines: readonly string[], command: string, n: number): number {
  let count = 0;
  for (let i = 0; i < Math.min(lines.length, n); i++) {
    const t = (lines[i] ?? '').replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z ?/, '').trim();
    const m = /^\+{1,2} (\S.*)$/.exec(t);
    if (m && m[1] === command) count++;
  }
  return count;
}
