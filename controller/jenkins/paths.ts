import path from 'node:path';

/**
 * Splits a job's full name (`team/app/main`) into its segments, refusing anything that could
 * leave JENKINS_HOME (empty segments, `.`, `..`, backslashes, NUL).
 */
export function jobNameSegments(fullName: string): string[] | null {
  if (!fullName || fullName.includes('\\') || fullName.includes('\0')) return null;
  const segments = fullName.split('/').filter((s) => s !== '');
  if (segments.length === 0) return null;
  for (const s of segments) if (s === '.' || s === '..') return null;
  return segments;
}

/**
 * The directory of a job by full name: `team/app` is `JENKINS_HOME/jobs/team/jobs/app`.
 * Returns null for a name that is not a safe job name.
 */
export function jobDir(jenkinsHome: string, fullName: string): string | null {
  const segments = jobNameSegments(fullName);
  if (!segments) return null;
  let dir = path.resolve(jenkinsHome);
  for (const s of segments) dir = path.join(dir, 'jobs', s);
  return dir;
}

/** The directory of a build: `<jobDir>/builds/<n>`; null for a bad name or number. */
export function buildDir(jenkinsHome: string, fullName: string, buildNumber: number): string | null {
  const dir = jobDir(jenkinsHome, fullName);
  if (!dir || !Number.isSafeInteger(buildNumber) || buildNumber < 1) return null;
  return path.join(dir, 'builds', String(buildNumber));
}
