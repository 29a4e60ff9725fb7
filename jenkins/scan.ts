/**
 * Every job of a JENKINS_HOME, found by walking it the way Jenkins lays items out on disk:
 * `jobs/<name>` (folders nest their own `jobs/`), multibranch branches under `branches/`
 * (their real name in `name-utf8.txt`). Used where the controller or the CLI needs all jobs
 * rather than one by name (the demo chat of `cichat serve`, the failed-build watcher).
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { realInside } from './homeguard.js';
import { listBuildNumbers, readBuildSummary, type BuildSummary } from './jobs.js';
import { buildsDirOf } from './paths.js';

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

async function displayName(dir: string, fallback: string): Promise<string> {
  try {
    const name = (await readFile(path.join(dir, 'name-utf8.txt'), 'utf8')).trim();
    return name && !name.includes('/') ? name : fallback;
  } catch {
    return fallback;
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
        const name = group === 'branches' ? await displayName(dir, entry.name) : entry.name;
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

/** The newest build of a job whose result `wanted` accepts (build.xml read, newest first), or null. */
export async function newestBuildWhere(job: JobEntry, wanted: (s: BuildSummary) => boolean, scanAtMost = 200): Promise<BuildSummary | null> {
  const numbers = await listBuildNumbers(job.buildsDir);
  for (let i = numbers.length - 1, read = 0; i >= 0 && read < scanAtMost; i--, read++) {
    const summary = await readBuildSummary(job.buildsDir, numbers[i]!);
    if (summary && wanted(summary)) return summary;
  }
  return null;
}
