/**
 * One build on disk: build.xml (result, timing, causes, parameters, node), its change log,
 * its test report and the end of its console log.
 */
import path from 'node:path';
import { isSecretName, maskSecrets, MASK } from '../core/secrets.js';
import type { BuildDetails } from '../protocol/types.js';
import { BuildNotFoundError, XmlCorruptError } from './errors.js';
import { realInside } from './homeguard.js';
import { findBuildDir, jobUrl, listBuildNumbers, maskText, readBuildSummary, readPermalinks, summaryOf } from './jobs.js';
import type { JobLocation } from './jobs.js';
import { readGzipLogTail, readLogTail } from './logTail.js';
import { fillFailingSteps } from './flowDetails.js';
import { fillDownstream } from './downstream.js';
import { readTestResult } from './tests.js';
import { child, childInt, childText, childrenNamed, errorMessage, isMissing, readTextFile, readXmlFile, simpleClassName, xstreamClassName } from './xml.js';
import type { XmlElement } from './xml.js';

export const TAIL_LINES = 1000;

/**
 * Jenkins' own way of saying a duration (`Util.getTimeSpanString`): `1 hr 5 min`,
 * `2 min 3 sec`, `4.2 sec`, `12 ms`.
 */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'unknown';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const units: [string, number][] = [
    ['day', 86_400_000],
    ['hr', 3_600_000],
    ['min', 60_000],
  ];
  for (let i = 0; i < units.length; i++) {
    const [name, size] = units[i]!;
    if (ms >= size) {
      const major = Math.floor(ms / size);
      const rest = ms - major * size;
      const next = units[i + 1];
      const plural = name === 'day' && major > 1 ? 's' : '';
      if (next) {
        const minor = Math.floor(rest / next[1]);
        return minor > 0 ? `${major} ${name}${plural} ${minor} ${next[0]}` : `${major} ${name}${plural}`;
      }
      const sec = Math.floor(rest / 1000);
      return sec > 0 ? `${major} ${name} ${sec} sec` : `${major} ${name}`;
    }
  }
  const sec = ms / 1000;
  return sec < 10 ? `${sec.toFixed(1)} sec` : `${Math.floor(sec)} sec`;
}

// ------------------------------------------------------------------------------ parameters

const ENCRYPTED = /\{AQAAAB[A-Za-z0-9+/=]*\}/;
const ENCRYPTED_ALL = /\{AQAAAB[A-Za-z0-9+/=]*\}/g;

/** Build parameters; passwords (and parameters named like secrets) carry `****`. */
export function readParameters(build: XmlElement): { name: string; value: unknown; type?: string }[] {
  const out: { name: string; value: unknown; type?: string }[] = [];
  for (const action of childrenNamed(child(build, 'actions'), 'hudson.model.ParametersAction')) {
    for (const p of child(action, 'parameters')?.children ?? []) {
      const name = childText(p, 'name') ?? '';
      const type = simpleClassName(p.attrs['class'] ?? p.name).replace(/ParameterValue$/, '');
      let value: unknown;
      const raw = child(p, 'value')?.text;
      if (/Password/i.test(type) || isSecretName(name)) value = raw === undefined || raw === '' ? raw ?? null : MASK;
      else if (type === 'Boolean') value = raw?.trim() === 'true';
      else if (type === 'File') value = childText(p, 'originalFileName') ?? null;
      else if (type === 'Run') value = childText(p, 'runId') ?? null;
      else value = raw === undefined ? null : maskSecrets(raw);
      // Jenkins' encrypted secrets ({AQAAAB...}) may sit in any parameter type.
      if (typeof value === 'string' && ENCRYPTED.test(value)) value = value.replace(ENCRYPTED_ALL, MASK);
      out.push({ name, value, type });
    }
  }
  return out;
}

// --------------------------------------------------------------------------------- changes

import { CHANGES_MAX, readChanges, readScm, scanPrunedGitData, type Change } from './changes.js';
import { readCauses } from './causes.js';

export { CHANGES_MAX, parseGitWhatchanged, readChanges, readScm, scanPrunedGitData, type ScmRevision } from './changes.js';
export { readCauses } from './causes.js';

// ----------------------------------------------------------------------------------- tests

/** Moved to tests.ts (issue 26); kept here for its callers. */
export { readTestResult } from './tests.js';
// ----------------------------------------------------------------------------------- build

export interface BuildReadOptions {
  jenkinsHome: string;
  job: JobLocation;
  number: number;
  /** The caller's own log: replaces the tail read from disk. */
  consoleLog?: string;
  /** The caller's log of the last passing build (`--baseline-log`): replaces the one read from disk. */
  baselineLog?: string;
  rootUrl?: string;
  now?: Date;
}

function isoOf(ms: number | undefined): string | undefined {
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined;
}

/**
 * Build details from `builds/<n>/`. Throws BuildNotFoundError when the build folder does not
 * exist; a corrupt build.xml yields details with an `error` (and still the log tail, the most
 * useful part).
 */
export async function readBuildDetails(opts: BuildReadOptions): Promise<BuildDetails> {
  const { job, number } = opts;
  const dir = await findBuildDir(job.buildsDir, number);
  if (!dir) throw new BuildNotFoundError(job.fullName, number);
  const details: BuildDetails = { number };
  if (opts.rootUrl) details.url = `${jobUrl(opts.rootUrl, job)}${number}/`;

  let build: XmlElement | null = null;
  try {
    build = await readXmlFile(path.join(dir, 'build.xml'));
    if (!build) details.error = `Build #${number} of job ${job.fullName} has no build.xml`;
  } catch (err) {
    const message = errorMessage(err);
    details.error =
      err instanceof XmlCorruptError
        ? `build.xml of ${job.fullName} #${number} is corrupt: ${message}`
        : `build.xml of ${job.fullName} #${number} is unreadable: ${message}`;
  }
  if (build) await fillFromBuildXml(details, build, opts, dir);

  if (opts.consoleLog !== undefined) {
    details.consoleLog = opts.consoleLog;
  } else {
    await fillLogTail(details, dir, `${job.fullName} #${number}`);
  }
  if (build && details.kind === 'pipeline') await fillFailingSteps(details, dir, build);
  if (details.result === 'FAILURE' || details.result === 'UNSTABLE') await fillDownstream(details, opts.jenkinsHome, dir);
  if (details.result === 'FAILURE' || details.result === 'UNSTABLE' || opts.baselineLog !== undefined) {
    await fillLastSuccessfulBuild(details, opts);
  }
  return details;
}

/** How much of the last green build's log is sent: its end, more of it than of the failed build's. */
export const BASELINE_TAIL_LINES = 5000;
export const BASELINE_TAIL_BYTES = 8 * 1024 * 1024;
/**
 * How many builds are looked at, newest first, when no permalink names a green build before this
 * one. A count, not a time budget: the answer must not depend on how loaded the machine is.
 */
const GREEN_SCAN = 1000;
/** How many builds after the green one are read for the commits in between. */
const CHANGES_BUILDS_MAX = 50;

/**
 * The newest build before `n` whose result is SUCCESS: the `lastStableBuild` /
 * `lastSuccessfulBuild` permalinks when they name one before `n` (a permalink is the newest such
 * build of the whole job, so nothing newer before `n` can have passed), else a scan of the
 * builds below `n`, newest first (numbered and timestamp-named folders alike; a build folder
 * that leads out of the builds folder is never read). Null when none passed.
 */
export async function findLastGreenBefore(job: JobLocation, n: number): Promise<{ number: number | null; looked: number }> {
  const numbers = (await listBuildNumbers(job.buildsDir)).filter((x) => x < n);
  if (numbers.length === 0) return { number: null, looked: 0 };
  const links = await readPermalinks(job.buildsDir);
  for (const name of ['lastStableBuild', 'lastSuccessfulBuild']) {
    const p = links.get(name);
    if (p === undefined || p === null || p >= n || !numbers.includes(p)) continue;
    if ((await readBuildSummary(job.buildsDir, p))?.result === 'SUCCESS') return { number: p, looked: 1 };
  }
  let looked = 0;
  for (let i = numbers.length - 1; i >= 0 && looked < GREEN_SCAN; i--, looked++) {
    const k = numbers[i] as number;
    if ((await readBuildSummary(job.buildsDir, k))?.result === 'SUCCESS') return { number: k, looked: looked + 1 };
  }
  return { number: null, looked };
}

/**
 * `buildDetails.lastSuccessfulBuild` of a failed or unstable build (CONTRACT section 2): the
 * job's last green build before it with its number, result, time and log end, and the commits
 * of the builds in between (`changesSince`). No green build: `lastSuccessfulBuild: null` and
 * `noSuccessfulBuild` saying so. The caller's own passing log replaces the one on disk.
 */
async function fillLastSuccessfulBuild(details: BuildDetails, opts: BuildReadOptions): Promise<void> {
  const { job, number } = opts;
  let found: { number: number | null; looked: number };
  try {
    found = await findLastGreenBefore(job, number);
  } catch (err) {
    details.lastSuccessfulBuildError = `Could not look for the last successful build of ${job.fullName}: ${errorMessage(err)}`;
    if (opts.baselineLog !== undefined) details.lastSuccessfulBuild = { consoleLog: opts.baselineLog };
    return;
  }
  if (found.number === null) {
    if (opts.baselineLog !== undefined) {
      details.lastSuccessfulBuild = { consoleLog: opts.baselineLog };
      return;
    }
    details.lastSuccessfulBuild = null;
    details.noSuccessfulBuild =
      found.looked === 0
        ? `#${number} is the first build of ${job.fullName}: no earlier build passed`
        : `No build of ${job.fullName} before #${number} succeeded (${found.looked} looked at)`;
    return;
  }
  const green = found.number;
  const dir = await findBuildDir(job.buildsDir, green);
  const out: Record<string, unknown> & { number: number } = { number: green, result: 'SUCCESS' };
  if (opts.rootUrl) out.url = `${jobUrl(opts.rootUrl, job)}${green}/`;
  if (dir) {
    try {
      const build = await readXmlFile(path.join(dir, 'build.xml'));
      if (build) {
        const iso = isoOf(childInt(build, 'timestamp') ?? childInt(build, 'startTime') ?? timestampFromDirName(dir));
        if (iso) out.timestamp = iso;
        const duration = childInt(build, 'duration');
        if (duration !== undefined) out.duration = duration;
        // Its commit: where the change since the last green build starts (workspaceChanges, session 52).
        const scm = readScm(build, green);
        if (scm.length > 0) out.scm = scm;
      }
    } catch {
      /* its result was read already; the time stays unknown */
    }
    if (opts.baselineLog !== undefined) out.consoleLog = opts.baselineLog;
    else {
      const log: BuildDetails = {};
      await fillLogTail(log, dir, `${job.fullName} #${green}`, BASELINE_TAIL_LINES, BASELINE_TAIL_BYTES);
      Object.assign(out, log);
    }
  }
  out.changesSince = await changesBetween(job, green, number);
  details.lastSuccessfulBuild = out;
}

/** The commits of the builds after `green` up to and including `n`, newest build first. */
async function changesBetween(job: JobLocation, green: number, n: number): Promise<(Change & { build: number })[]> {
  const numbers = (await listBuildNumbers(job.buildsDir)).filter((x) => x > green && x <= n).slice(-CHANGES_BUILDS_MAX).reverse();
  const out: (Change & { build: number })[] = [];
  for (const k of numbers) {
    const dir = await findBuildDir(job.buildsDir, k);
    if (!dir) continue;
    try {
      for (const c of await readChanges(dir)) {
        if (out.length >= CHANGES_MAX) return out;
        out.push({ ...c, build: k });
      }
    } catch {
      /* a build whose changelog cannot be read adds nothing */
    }
  }
  return out;
}

/**
 * The end of the build's console log: `log`, else `log.gz` (the compress-buildlog plugin
 * replaces the one by the other). No log at all is not an error (a build that never started
 * writing one); a log that cannot be read is, in `consoleLogError`.
 */
/** A log's last lines (secrets masked), its size and whether it was cut, into the build's details. */
function keepTail(details: BuildDetails, tail: { lines: string[]; fileBytes: number; truncated: boolean }): void {
  details.consoleLogTail = maskSecrets(tail.lines.join('\n'));
  details.consoleLogBytes = tail.fileBytes;
  details.consoleLogTruncated = tail.truncated;
}

async function fillLogTail(details: BuildDetails, dir: string, label: string, lines = TAIL_LINES, bytes?: number): Promise<void> {
  const reason = (err: unknown): string => (errorMessage(err));
  // A log that is a symbolic link out of its build folder (`log -> /etc/shadow`) is not read.
  for (const name of ['log', 'log.gz']) {
    if (!(await realInside(dir, path.join(dir, name), true))) {
      details.consoleLogError = `Log of ${label} is a symbolic link leading out of its build folder, which is not followed`;
      return;
    }
  }
  try {
    keepTail(details, await readLogTail(path.join(dir, 'log'), lines, bytes));
    return;
  } catch (err) {
    if (!isMissing(err)) {
      details.consoleLogError = `Log of ${label} is unreadable: ${reason(err)}`;
      return;
    }
  }
  try {
    keepTail(details, await readGzipLogTail(path.join(dir, 'log.gz'), lines, bytes));
    details.consoleLogCompressed = true;
  } catch (err) {
    if (!isMissing(err)) details.consoleLogError = `Log of ${label} (log.gz) is unreadable: ${reason(err)}`;
  }
}

const BUILD_KINDS: Record<string, string> = {
  build: 'freestyle',
  'flow-build': 'pipeline',
  'matrix-build': 'matrix',
  'matrix-run': 'matrix-run',
  'maven2-moduleset-build': 'maven',
  'maven-build': 'maven-module',
};

async function fillFromBuildXml(details: BuildDetails, build: XmlElement, opts: BuildReadOptions, dir: string): Promise<void> {
  const summary = summaryOf(opts.number, build);
  details.result = summary.result;
  details.building = summary.building;
  if (summary.interimResult) details.interimResult = summary.interimResult;
  details.kind = BUILD_KINDS[build.name] ?? xstreamClassName(build.name);
  const timestamp = childInt(build, 'timestamp') ?? childInt(build, 'startTime') ?? timestampFromDirName(dir);
  const started = childInt(build, 'startTime') ?? timestamp;
  const iso = isoOf(timestamp);
  if (iso) details.timestamp = iso;
  if (summary.building) {
    const now = (opts.now ?? new Date()).getTime();
    if (started !== undefined) {
      details.duration = Math.max(0, now - started);
      details.durationText = `${humanDuration(details.duration)} so far`;
    }
  } else {
    const duration = childInt(build, 'duration');
    if (duration !== undefined) {
      details.duration = duration;
      details.durationText = humanDuration(duration);
    }
  }
  const displayName = childText(build, 'displayName');
  if (displayName) details.displayName = maskText(displayName);
  const description = childText(build, 'description');
  if (description) details.description = maskText(description).slice(0, 1000);
  details.causes = await readCauses(opts.jenkinsHome, build);
  // CONTRACT section 2: parameters as a map name -> value (secrets `****`); their kinds beside it.
  const parameters = readParameters(build);
  details.parameters = Object.fromEntries(parameters.map((p) => [p.name, p.value]));
  const kinds = parameters.filter((p) => p.type !== undefined && p.type !== 'String');
  if (kinds.length > 0) details.parameterTypes = Object.fromEntries(kinds.map((p) => [p.name, p.type]));
  const builtOn = child(build, 'builtOn');
  if (builtOn || build.name === 'build') details.builtOnNode = builtOn?.text.trim() || 'built-in';
  const workspace = childText(build, 'workspace');
  if (workspace) details.workspace = workspace;
  const version = childText(build, 'hudsonVersion');
  if (version) details.ciVersion = version;
  let scm = readScm(build, opts.number);
  const pruned = childrenNamed(child(build, 'actions'), 'hudson.plugins.git.util.BuildData').some((d) => d.attrs['pruned'] !== undefined);
  if (pruned) {
    try {
      scm = [...scm, ...scanPrunedGitData(await readTextFile(path.join(dir, 'build.xml')), opts.number)];
    } catch {
      /* the facts stay unknown */
    }
  }
  if (scm.length > 0) details.scm = scm;
  details.changes = await readChanges(dir);
  details.previousBuild = await previousBuildOf(opts.job, opts.number);
  const tests = await readTestResult(dir, opts.number);
  if (tests) details.testResults = tests;
}

function timestampFromDirName(dir: string): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)_(\d\d)-(\d\d)-(\d\d)$/.exec(path.basename(dir));
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

async function previousBuildOf(job: JobLocation, n: number): Promise<BuildDetails['previousBuild']> {
  const numbers = await listBuildNumbers(job.buildsDir);
  const earlier = numbers.filter((x) => x < n);
  const prev = earlier[earlier.length - 1];
  if (prev === undefined) return null;
  // The same shape as buildDetails, without the log (CONTRACT section 2).
  const dir = await findBuildDir(job.buildsDir, prev);
  let build: XmlElement | null;
  try {
    build = dir ? await readXmlFile(path.join(dir, 'build.xml')) : null;
  } catch {
    build = null;
  }
  if (!build) return { number: prev };
  const summary = summaryOf(prev, build);
  const out: NonNullable<BuildDetails['previousBuild']> = { number: prev, result: summary.result, building: summary.building };
  const duration = childInt(build, 'duration');
  if (duration !== undefined && !summary.building) out.duration = duration;
  const iso = isoOf(childInt(build, 'timestamp') ?? childInt(build, 'startTime'));
  if (iso) out.timestamp = iso;
  const builtOn = child(build, 'builtOn');
  if (builtOn || build.name === 'build') out.builtOnNode = builtOn?.text.trim() || 'built-in';
  return out;
}
