/**
 * A job's failure history read from JENKINS_HOME (issue 29): for each of the job's last N
 * builds, its result, commit, how many changes it recorded, its failed tests and the
 * fingerprint of its failure (core/history). Records of finished builds never change, so they
 * are kept in an index file per job in a cache folder (the controller's DATA_DIR/history) and
 * only builds that are new, or were still running, are read again: asking costs a `readdir`, a
 * `stat` per build of the window and one small JSON file.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fingerprintOf } from '../core/history/fingerprint.js';
import { signatureOfLines } from '../core/history/signature.js';
import { historyOf, type BuildRecord } from '../core/history/verdict.js';
import { maskSecrets } from '../core/secrets.js';
import type { BuildHistory } from '../protocol/types.js';
import { readChanges, readScm, readTestResult, TAIL_LINES } from './builds.js';
import { realInside } from './homeguard.js';
import { findBuildDir, listBuildNumbers, locateJob, summaryOf, type JobLocation } from './jobs.js';
import { readGzipLogTail, readLogTail } from './logTail.js';
import { childInt, isMissing, readXmlFile } from './xml.js';

/** The default number of builds looked at (CICHAT_HISTORY_BUILDS). */
export const HISTORY_WINDOW = 50;
/** How many records an index file keeps (the window of the newest build plus room to step back). */
const RECORDS_KEPT = 400;
/**
 * Bumped when what makes a fingerprint changes (the signature, the normalisation): an index
 * written by another version is read again from the builds.
 */
export const HISTORY_INDEX_VERSION = 1;
/** At most this many sibling jobs are compared for `otherJobs`. */
const SIBLINGS_MAX = 10;

/** One build as the index keeps it: the record plus what tells whether it changed on disk. */
interface IndexedBuild extends BuildRecord {
  /** build.xml's modification time when it was read. */
  mtimeMs: number;
}

interface IndexFile {
  version: number;
  job: string;
  builds: IndexedBuild[];
}

export interface JobHistory {
  job: string;
  /** The builds looked at, newest first. */
  builds: BuildRecord[];
  /** The history of the failure of the build asked about (or of the newest failed one). */
  current?: { build: number; history: BuildHistory | null };
  /** Builds read from disk for this answer (0 when the index had them all). */
  readBuilds: number;
}

export interface HistoryOptions {
  jenkinsHome: string;
  /** Where the index files are kept; without one nothing is cached. */
  cacheDir?: string;
  /** How many builds to look at (default 50). */
  window?: number;
  /** Root `<buildsDir>` of the instance, when not the default. */
  buildsDirSetting?: string;
}

/** One build's record from its folder, or null when it has no readable build.xml. */
export async function readBuildRecord(buildDir: string, number: number): Promise<IndexedBuild | null> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(path.join(buildDir, 'build.xml'))).mtimeMs;
  } catch {
    return null;
  }
  let build;
  try {
    build = await readXmlFile(path.join(buildDir, 'build.xml'));
  } catch {
    return null;
  }
  if (!build) return null;
  const summary = summaryOf(number, build);
  const record: IndexedBuild = { number, result: summary.building ? null : summary.result, mtimeMs };
  const timestamp = childInt(build, 'timestamp') ?? childInt(build, 'startTime');
  if (timestamp !== undefined) record.timestamp = timestamp;
  const commit = readScm(build, number).find((s) => s.commit)?.commit;
  if (commit) record.commit = commit;
  if (await hasChangelog(buildDir)) record.changes = (await readChanges(buildDir)).length;
  if (record.result !== 'FAILURE' && record.result !== 'UNSTABLE' && record.result !== 'SUCCESS') return record;
  const tests = await readTestResult(buildDir, number);
  if (tests && tests.unavailable === undefined) {
    record.testsReported = true;
    const failures = (tests as { failedTests?: { className?: unknown; name?: unknown }[] }).failedTests ?? [];
    const failed = failures
      .map((f) => [f.className, f.name].filter((x): x is string => typeof x === 'string' && x !== '').join('.'))
      .filter((n) => n !== '');
    if (failed.length > 0) record.failedTests = failed;
  }
  if (record.result === 'SUCCESS') return record;
  const lines = await logTailLines(buildDir);
  const signature = signatureOfLines(lines, record.failedTests ?? []);
  if (signature) {
    const fp = fingerprintOf(signature);
    record.fingerprint = fp.id;
    record.class = fp.class;
    record.message = maskSecrets(fp.message);
  }
  return record;
}

async function hasChangelog(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((name) => /^changelog\d*\.xml$/.test(name));
  } catch {
    return false;
  }
}

/** The last lines of the build's log (cleaned, as the context's `consoleLogTail`), or none. */
async function logTailLines(dir: string): Promise<string[]> {
  for (const [name, read] of [
    ['log', readLogTail],
    ['log.gz', readGzipLogTail],
  ] as const) {
    const file = path.join(dir, name);
    if (!(await realInside(dir, file, true))) return [];
    try {
      return (await read(file, TAIL_LINES)).lines;
    } catch (err) {
      if (!isMissing(err)) return [];
    }
  }
  return [];
}

/** In-process: one update of a job's index at a time (two requests for one job share it). */
const updating = new Map<string, Promise<JobHistory>>();

/** The index file of a job in `cacheDir`. */
export function indexFileOf(cacheDir: string, job: string): string {
  return path.join(cacheDir, `${createHash('sha256').update(job).digest('hex').slice(0, 24)}.json`);
}

async function readIndex(file: string, job: string): Promise<Map<number, IndexedBuild>> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<IndexFile>;
    if (parsed.version !== HISTORY_INDEX_VERSION || parsed.job !== job || !Array.isArray(parsed.builds)) return new Map();
    const out = new Map<number, IndexedBuild>();
    for (const b of parsed.builds) {
      if (b && typeof b === 'object' && Number.isSafeInteger(b.number) && typeof b.mtimeMs === 'number') out.set(b.number, b);
    }
    return out;
  } catch {
    // Missing or broken: the builds are read again (it is only a cache).
    return new Map();
  }
}

async function writeIndex(file: string, job: string, builds: Map<number, IndexedBuild>): Promise<void> {
  const kept = [...builds.values()].sort((a, b) => a.number - b.number).slice(-RECORDS_KEPT);
  const body: IndexFile = { version: HISTORY_INDEX_VERSION, job, builds: kept };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
  await rename(tmp, file);
}

/**
 * The records of `job`'s last `window` builds up to `upTo` (default: its newest build), from the
 * index where it has them, from disk otherwise; the index is brought up to date.
 */
async function recordsOf(job: JobLocation, fullName: string, opts: HistoryOptions, upTo?: number): Promise<{ records: BuildRecord[]; read: number }> {
  const window = opts.window ?? HISTORY_WINDOW;
  const numbers = (await listBuildNumbers(job.buildsDir)).filter((n) => upTo === undefined || n <= upTo);
  const wanted = numbers.slice(-window);
  const file = opts.cacheDir ? indexFileOf(opts.cacheDir, fullName) : undefined;
  const index = file ? await readIndex(file, fullName) : new Map<number, IndexedBuild>();
  let read = 0;
  const records: BuildRecord[] = [];
  for (const n of wanted) {
    const dir = await findBuildDir(job.buildsDir, n);
    if (!dir) continue;
    const cached = index.get(n);
    if (cached && cached.result !== null) {
      // A finished build's record stands unless its build.xml was written again.
      const mtime = await stat(path.join(dir, 'build.xml')).then((s) => s.mtimeMs, () => -1);
      if (mtime === cached.mtimeMs) {
        records.push(stripIndexFields(cached));
        continue;
      }
    }
    const fresh = await readBuildRecord(dir, n);
    read++;
    if (!fresh) {
      index.delete(n);
      continue;
    }
    index.set(n, fresh);
    records.push(stripIndexFields(fresh));
  }
  if (file && read > 0) await writeIndex(file, fullName, index).catch(() => undefined);
  return { records, read };
}

function stripIndexFields(b: IndexedBuild): BuildRecord {
  const { mtimeMs: _mtime, ...record } = b;
  return record;
}

/**
 * The history of `jobName` (CONTRACT section 6): its last builds and, for `build` (default: the
 * newest failed or unstable build), the verdict. Throws JobNotFoundError for an unknown job.
 */
export async function jobHistory(jobName: string, opts: HistoryOptions & { build?: number; siblings?: boolean }): Promise<JobHistory> {
  const key = `${opts.cacheDir ?? ''}\u0000${jobName}\u0000${opts.build ?? ''}\u0000${opts.window ?? ''}\u0000${opts.siblings ? 1 : 0}`;
  const running = updating.get(key);
  if (running) return running;
  const work = computeHistory(jobName, opts).finally(() => updating.delete(key));
  updating.set(key, work);
  return work;
}

async function computeHistory(jobName: string, opts: HistoryOptions & { build?: number; siblings?: boolean }): Promise<JobHistory> {
  const job = await locateJob(opts.jenkinsHome, jobName, opts.buildsDirSetting);
  const { records, read } = await recordsOf(job, jobName, opts, opts.build);
  const newestFirst = [...records].sort((a, b) => b.number - a.number);
  const target = opts.build ?? newestFirst.find((r) => r.result === 'FAILURE' || r.result === 'UNSTABLE')?.number;
  const out: JobHistory = { job: jobName, builds: newestFirst, readBuilds: read };
  if (target === undefined) return out;
  const history = historyOf(records, target) ?? null;
  if (history && opts.siblings !== false) {
    const others = await siblingsWithFingerprint(jobName, history, records, opts);
    if (others.length > 0) history.otherJobs = others;
  }
  out.current = { build: target, history };
  return out;
}

/**
 * The same fingerprint in other jobs of the same folder, in builds started during the period
 * the window covers (a shared dependency or agent that went bad shows up in several jobs), as
 * far as those jobs' indexes know them.
 */
async function siblingsWithFingerprint(jobName: string, history: BuildHistory, records: BuildRecord[], opts: HistoryOptions): Promise<{ job: string; builds: number[] }[]> {
  const slash = jobName.lastIndexOf('/');
  const folder = slash >= 0 ? jobName.slice(0, slash) : '';
  const times = records.map((r) => r.timestamp).filter((t): t is number => t !== undefined);
  if (times.length === 0) return [];
  const from = Math.min(...times);
  let names: string[];
  try {
    const jobsDir = path.join(opts.jenkinsHome, ...folder.split('/').filter(Boolean).flatMap((f) => ['jobs', f]), 'jobs');
    names = (await readdir(jobsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  } catch {
    return [];
  }
  const out: { job: string; builds: number[] }[] = [];
  for (const name of names.slice(0, SIBLINGS_MAX + 1)) {
    const sibling = folder ? `${folder}/${name}` : name;
    if (sibling === jobName) continue;
    try {
      // Only what their index holds (written when they were looked at or watched): comparing
      // siblings must not make a context upload read other jobs' builds from disk.
      if (!opts.cacheDir) break;
      const theirs = [...(await readIndex(indexFileOf(opts.cacheDir, sibling), sibling)).values()];
      const builds = theirs.filter((r) => r.fingerprint === history.fingerprint && (r.timestamp ?? 0) >= from).map((r) => r.number);
      if (builds.length > 0) out.push({ job: sibling, builds });
    } catch {
      /* a folder, a broken job: not a sibling with builds */
    }
  }
  return out;
}
