/**
 * Every job of a JENKINS_HOME, found by walking it the way Jenkins lays items out on disk:
 * `jobs/<name>` (folders nest their own `jobs/`), multibranch branches under `branches/`
 * (their real name in `name-utf8.txt` or `<displayName>`). Used where the controller or the CLI needs all jobs
 * rather than one by name (the demo chat of `cichat serve`, the failed-build watcher, the jobs a
 * name that was not found may have meant).
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { editDistance } from '../core/log/symbols.js';
import { realInside } from './homeguard.js';
import { branchItemName, buildsDirOf } from './paths.js';

export interface JobEntry {
  /** `team/api`, `org/repo/main`. */
  fullName: string;
  dir: string;
  /** Where its builds are (`builds/` unless the home sets another buildsDir). */
  buildsDir: string;
}

export interface ListJobsOptions {
  /** Folder nesting followed at most (a loop of links cannot make the walk endless). */
  maxDepth?: number;
  /** The instance's `<buildsDir>` setting, when not the default. */
  buildsDirSetting?: string;
}

async function subdirs(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() || d.isSymbolicLink());
  } catch {
    return [];
  }
}

/**
 * The jobs (items that can have builds) under a home, folders and branches included. A folder
 * that is a symbolic link leading out of JENKINS_HOME is not followed (issue 12). An item is a
 * job when it has a `builds` folder or no children of its own; a folder with children is walked.
 */
export async function listJobs(jenkinsHome: string, options: ListJobsOptions = {}): Promise<JobEntry[]> {
  const maxDepth = options.maxDepth ?? 20;
  const out: JobEntry[] = [];
  const walk = async (parent: string, prefix: string, depth: number): Promise<void> => {
    if (depth > maxDepth) return;
    for (const group of ['jobs', 'branches']) {
      for (const entry of await subdirs(path.join(parent, group))) {
        const dir = path.join(parent, group, entry.name);
        if (!(await realInside(jenkinsHome, dir))) continue;
        const name = group === 'branches' ? await branchItemName(dir, entry.name) : entry.name;
        const fullName = prefix ? `${prefix}/${name}` : name;
        const children = (await subdirs(path.join(dir, 'jobs'))).length + (await subdirs(path.join(dir, 'branches'))).length;
        const buildsDir = buildsDirOf(jenkinsHome, dir, fullName, options.buildsDirSetting);
        if (children === 0 || (await subdirs(buildsDir)).length > 0) out.push({ fullName, dir, buildsDir });
        if (children > 0) await walk(dir, fullName, depth + 1);
      }
    }
  };
  await walk(path.resolve(jenkinsHome), '', 0);
  return out;
}

/**
 * The jobs a name that is not a job's full name may have meant (ux3, session 42): the name as
 * Jenkins shows it elsewhere (`eng » platform » svc`, a URL path `job/eng/job/platform/job/svc`),
 * another case, a branch named with its slash (`feature/x`), a job's own name without its
 * folders (`svc` for `eng/platform/svc`), or a name a typo away (`java-calcc`). At most five, for a "did you mean" after a job was
 * not found; walks the home, so only on that path.
 */
export async function similarJobNames(jenkinsHome: string, wanted: string): Promise<string[]> {
  let name = wanted.trim().replace(/\s*\u00bb\s*/g, '/');
  const url = /(?:^|\/)job\/(.+)$/.exec(name.replace(/^[a-z]+:\/\/[^/]+/i, ''));
  if (url) name = (url[1] as string).split('/job/').map((s) => s.replace(/\/.*$/, '')).join('/');
  try {
    name = decodeURIComponent(name);
  } catch {
    // not URL-encoded: kept as it is
  }
  name = name.replace(/^\/+|\/+$/g, '');
  if (!name) return [];
  const lower = name.toLowerCase();
  const last = lower.split('/').pop() as string;
  const jobs = (await listJobs(jenkinsHome)).map((j) => j.fullName);
  // another case, or a branch named with its slash (`feature/x` for the job `feature%2Fx`)
  const slashed = (j: string): string => j.toLowerCase().replace(/%2f/g, '/');
  const tiers = [
    jobs.filter((j) => j === name),
    jobs.filter((j) => j.toLowerCase() === lower || slashed(j) === lower),
    jobs.filter((j) => j.toLowerCase().endsWith(`/${lower}`) || slashed(j).endsWith(`/${lower}`)),
    jobs.filter((j) => (j.toLowerCase().split('/').pop() as string) === last),
    // a typo (ux4: `java-calcc` for `java-calc`): the full name, or the job's own name, a few letters off
    jobs.filter((j) => {
      const own = j.toLowerCase().split('/').pop() as string;
      const near = (a: string, b: string): boolean => editDistance(a, b) <= Math.min(2, Math.floor(Math.min(a.length, b.length) / 4));
      return near(lower, j.toLowerCase()) || near(last, own);
    }),
  ];
  const found = tiers.find((t) => t.length > 0) ?? [];
  return found.filter((j) => j !== wanted).slice(0, 5);
}
