/**
 * What can be missing or broken in a JENKINS_HOME, as typed errors: the context builder turns
 * them into `error` strings inside the context, a route may turn them into 404 instead.
 */
import type { ErrorCode } from '../protocol/types.js';
export { XmlCorruptError } from './xml.js';

/** ` (did you mean a/b or c/b?)`, or nothing. */
export function didYouMean(names: string[]): string {
  if (names.length === 0) return '';
  const quoted = names.map((n) => (/\s/.test(n) ? `"${n}"` : n));
  return ` (did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`}?)`;
}

/** The code a 404 for what JENKINS_HOME lacks carries (protocol/types.ts ERROR_CODES): a missing job or build; none for anything else. */
export function notFoundCode(err: unknown): ErrorCode | undefined {
  return err instanceof JobNotFoundError ? 'job_not_found' : err instanceof BuildNotFoundError ? 'build_not_found' : undefined;
}

/** No job of that full name (or an unsafe name) in JENKINS_HOME. */
export class JobNotFoundError extends Error {
  readonly status = 404;
  /** `reason`: the job's folder is there but is not read (e.g. a symbolic link out of the home). */
  constructor(
    readonly jobName: string,
    readonly reason?: string,
    /** Full names of the jobs it may have meant (`svc` for `eng/platform/svc`). */
    readonly similar: string[] = [],
  ) {
    super(reason === undefined ? `No job ${jobName} in JENKINS_HOME${didYouMean(similar)}` : `Job ${jobName} is not read: ${reason}`);
    this.name = 'JobNotFoundError';
  }
}

/** The job exists but has no build of that number (or the permalink points nowhere). */
export class BuildNotFoundError extends Error {
  readonly status = 404;
  constructor(
    readonly jobName: string,
    readonly build: number | string,
  ) {
    super(
      typeof build === 'number'
        ? `No build #${build} of job ${jobName} in JENKINS_HOME`
        : `No ${build} of job ${jobName} in JENKINS_HOME`,
    );
    this.name = 'BuildNotFoundError';
  }
}
