/**
 * Jobs on disk: where a full name lives, what kind of item it is, its builds and permalinks.
 */
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { readdir, readlink, stat } from 'node:fs/promises';
import { MASK, maskSecrets, maskValueByName } from '../core/secrets.js';
import type { JobDetails } from '../protocol/types.js';
import { BuildNotFoundError, JobNotFoundError } from './errors.js';
import { LINK_OUT_OF_HOME, realInside } from './homeguard.js';
import { branchItemName, buildsDirOf, isMatrixConfigurationDir, parseCombination, resolveJobDir } from './paths.js';
import { similarJobNames, type JobEntry } from './scan.js';
import { child, childText, errorMessage, isMissing, LARGE_XML_BYTES, parseXml, pruneLargeElements, readHeadText, readTextFile, readXmlFile, xstreamClassName } from './xml.js';
import type { XmlElement } from './xml.js';

export const DESCRIPTION_MAX = 1000;
export const CONFIG_MAX = 5000;

export interface JobLocation {
  fullName: string;
  dir: string;
  buildsDir: string;
}

/** Finds a job by full name (folders, multibranch branches); JobNotFoundError otherwise. */
export async function locateJob(jenkinsHome: string, fullName: string, buildsDirSetting?: string): Promise<JobLocation> {
  const notFound = async (): Promise<JobNotFoundError> => new JobNotFoundError(fullName, undefined, await similarJobNames(jenkinsHome, fullName).catch(() => []));
  const dir = await resolveJobDir(jenkinsHome, fullName);
  if (!dir) throw await notFound();
  if (!(await realInside(jenkinsHome, dir))) throw new JobNotFoundError(fullName, LINK_OUT_OF_HOME);
  const isJob = await stat(path.join(dir, 'config.xml')).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isJob) throw await notFound();
  const buildsDir = buildsDirOf(jenkinsHome, dir, fullName, buildsDirSetting);
  // A builds folder placed outside the home by <buildsDir> is the administrator's choice; one
  // inside it that links out is not.
  const home = path.resolve(jenkinsHome);
  if (buildsDir.startsWith(home + path.sep) && !(await realInside(jenkinsHome, buildsDir, true))) {
    throw new JobNotFoundError(fullName, 'its builds folder is a symbolic link leading out of JENKINS_HOME, which is not followed');
  }
  return { fullName, dir, buildsDir };
}

/** The kind of item, from the root element of its config.xml. */
export function jobType(rootElement: string): string {
  const name = xstreamClassName(rootElement);
  switch (name) {
    case 'project':
      return 'freestyle';
    case 'flow-definition':
      return 'pipeline';
    case 'maven2-moduleset':
      return 'maven';
    case 'matrix-project':
      return 'matrix';
    case 'matrix-config':
      return 'matrix-configuration';
    case 'maven2':
      return 'maven-module';
    case 'jenkins.branch.OrganizationFolder':
      return 'organization-folder';
    default:
      if (/MultiBranchProject$/.test(name)) return 'multibranch';
      if (/Folder$/.test(name)) return 'folder';
      return name;
  }
}

/**
 * Masks a job's config.xml text: the content of elements named like secrets, Jenkins'
 * encrypted `{AQAAAB...}` blobs, and whatever `maskSecrets` recognises.
 */
export function maskConfigXml(xml: string): string {
  const byElement = xml.replace(/<([\w.-]+)(\s[^>]*)?>([^<]+)<\/\1>/g, (whole, name: string, attrs: string | undefined, value: string) => {
    // The one rule of names (core/secrets.ts): `<useAuth>true</useAuth>` and `<token>${TOKEN}</token>` stay.
    if (value.trim() === '' || maskValueByName(name, value.trim()) !== MASK) return whole;
    return `<${name}${attrs ?? ''}>****</${name}>`;
  });
  return maskSecrets(byElement.replace(/\{AQAAAB[A-Za-z0-9+/=]+\}/g, '****'));
}

/** Free text from a home (descriptions, display names): secrets and encrypted `{AQAAAB...}` values masked. */
export function maskText(text: string): string {
  return maskSecrets(text.replace(/\{AQAAAB[A-Za-z0-9+/=]*\}/g, '****'));
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[TRUNCATED]`;
}

/**
 * Build numbers present in a builds directory: numeric folders (or, cores 1.597 to 2.185,
 * numeric symlinks to timestamp folders; dangling or looping links are not builds), plus old
 * timestamp-named folders that no numeric link points to (their number is in build.xml).
 * Copied permalink folders (`lastStable/` from a zip) are skipped.
 */
export async function listBuildNumbers(buildsDir: string): Promise<number[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(buildsDir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const numbers = new Set<number>();
  const linked = new Set<string>();
  for (const e of entries) {
    if (!/^[1-9]\d{0,9}$/.test(e.name)) continue;
    if (e.isDirectory()) {
      numbers.add(Number(e.name));
    } else if (e.isSymbolicLink()) {
      try {
        if (!(await stat(path.join(buildsDir, e.name))).isDirectory()) continue;
        linked.add(path.basename(await readlink(path.join(buildsDir, e.name))));
        numbers.add(Number(e.name));
      } catch {
        /* dangling or looping link: the build was deleted */
      }
    }
  }
  if (entries.some((e) => TIMESTAMP_DIR.test(e.name) && !linked.has(e.name))) {
    for (const [n, dirName] of await timestampBuilds(buildsDir)) if (!linked.has(dirName)) numbers.add(n);
  }
  return [...numbers].sort((a, b) => a - b);
}

const TIMESTAMP_DIR = /^\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d$/;

async function numberOfTimestampBuild(dir: string): Promise<number | undefined> {
  try {
    const head = await readHeadText(path.join(dir, 'build.xml'), 64 * 1024);
    const m = /<number>(\d+)<\/number>/.exec(head);
    return m?.[1] ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Number -> folder of the timestamp-named builds of a builds directory, remembered while the
 * directory's mtime stays the same: a home restored from a zip has hundreds of such folders and
 * no links, and each lookup would otherwise read every build.xml again.
 */
const timestampMaps = new Map<string, { mtimeMs: number; map: Map<number, string> }>();

async function timestampBuilds(buildsDir: string): Promise<Map<number, string>> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(buildsDir)).mtimeMs;
  } catch {
    return new Map();
  }
  const cached = timestampMaps.get(buildsDir);
  if (cached && cached.mtimeMs === mtimeMs) return cached.map;
  const map = new Map<number, string>();
  let entries: string[] = [];
  try {
    entries = await readdir(buildsDir);
  } catch {
    /* unreadable: no old builds */
  }
  for (const e of entries) {
    if (!TIMESTAMP_DIR.test(e)) continue;
    const n = await numberOfTimestampBuild(path.join(buildsDir, e));
    if (n !== undefined && !map.has(n)) map.set(n, e);
  }
  if (timestampMaps.size > 500) timestampMaps.clear();
  timestampMaps.set(buildsDir, { mtimeMs, map });
  return map;
}

/**
 * The directory of build `n`: `<buildsDir>/<n>` (a folder or, before core 2.185, a symlink),
 * else an old timestamp-named folder whose build.xml says `<number>n</number>`.
 */
export async function findBuildDir(buildsDir: string, n: number): Promise<string | null> {
  const found = await findBuildDirAnywhere(buildsDir, n);
  // `builds/7 -> 2017-01-09_09-19-54` is Jenkins' own layout; a link out of the builds folder
  // (`builds/7 -> /etc`) is not followed: that build's log would reach a chat's context.
  return found !== null && (await realInside(buildsDir, found)) ? found : null;
}

async function findBuildDirAnywhere(buildsDir: string, n: number): Promise<string | null> {
  const direct = path.join(buildsDir, String(n));
  try {
    if ((await stat(direct)).isDirectory()) return direct;
  } catch {
    /* fall through to the old layout */
  }
  const old = (await timestampBuilds(buildsDir)).get(n);
  if (!old) return null;
  try {
    return (await stat(path.join(buildsDir, old))).isDirectory() ? path.join(buildsDir, old) : null;
  } catch {
    return null;
  }
}

/** Permalink names Jenkins records in `builds/permalinks`. */
export const PERMALINKS = [
  'lastBuild',
  'lastStableBuild',
  'lastSuccessfulBuild',
  'lastFailedBuild',
  'lastUnstableBuild',
  'lastUnsuccessfulBuild',
  'lastCompletedBuild',
] as const;
export type Permalink = (typeof PERMALINKS)[number];

export function isPermalink(ref: string): ref is Permalink {
  return (PERMALINKS as readonly string[]).includes(ref);
}

/**
 * Reads `builds/permalinks` (`lastSuccessfulBuild 22`, `-1` for none), and the symlinks
 * (`builds/lastSuccessfulBuild -> 22`) that older cores wrote instead.
 */
export async function readPermalinks(buildsDir: string): Promise<Map<string, number | null>> {
  const links = new Map<string, number | null>();
  try {
    const text = await readTextFile(path.join(buildsDir, 'permalinks'));
    for (const line of text.split(/\r?\n/)) {
      const m = /^(\w+)\s+(-?\d+)\s*$/.exec(line.trim());
      if (m?.[1] && m[2]) links.set(m[1], Number(m[2]) > 0 ? Number(m[2]) : null);
    }
  } catch {
    /* no file: maybe symlinks */
  }
  for (const name of PERMALINKS) {
    if (links.has(name)) continue;
    try {
      const target = await readlink(path.join(buildsDir, name));
      const n = Number(path.basename(target));
      links.set(name, Number.isSafeInteger(n) && n > 0 ? n : null);
    } catch {
      /* not a symlink (or a copied folder from a zip, which says nothing reliable) */
    }
  }
  return links;
}

export interface BuildSummary {
  number: number;
  result: string;
  building: boolean;
  /** A running pipeline's result so far (`currentBuild.result = 'UNSTABLE'` before the end). */
  interimResult?: string;
}

/**
 * The result of a build from its build.xml: the top-level `<result>`, or IN_PROGRESS. A
 * pipeline that says `<completed>false</completed>` is running even when a step already set a
 * top-level `<result>` (kept as `interimResult`).
 */
export function summaryOf(number: number, build: XmlElement): BuildSummary {
  const result = childText(build, 'result');
  const completed = childText(build, 'completed');
  if (result && completed === 'false') return { number, result: 'IN_PROGRESS', building: true, interimResult: result };
  if (result) return { number, result, building: false };
  // A finished flow-build written before <completed> existed still has no top-level <result>
  // only while running; an old build without either is treated as running too.
  return { number, result: completed === 'true' ? 'UNKNOWN' : 'IN_PROGRESS', building: completed !== 'true' };
}

/** A build's number and result, or null when its build.xml is missing or unreadable. */
export async function readBuildSummary(buildsDir: string, n: number): Promise<BuildSummary | null> {
  const dir = await findBuildDir(buildsDir, n);
  if (!dir) return null;
  try {
    const build = await readXmlFile(path.join(dir, 'build.xml'));
    return build ? summaryOf(n, build) : null;
  } catch {
    return null;
  }
}

const RESULT_MATCH: Record<Permalink, (s: BuildSummary) => boolean> = {
  lastBuild: () => true,
  lastStableBuild: (s) => s.result === 'SUCCESS',
  lastSuccessfulBuild: (s) => s.result === 'SUCCESS' || s.result === 'UNSTABLE',
  lastFailedBuild: (s) => s.result === 'FAILURE',
  lastUnstableBuild: (s) => s.result === 'UNSTABLE',
  lastUnsuccessfulBuild: (s) => !s.building && s.result !== 'SUCCESS',
  lastCompletedBuild: (s) => !s.building,
};

/**
 * How many builds to read, newest first, when a permalink is neither recorded nor linked (a
 * home restored from a zip): past it the permalink is reported as none. A count, not a time
 * budget: the answer must not depend on how loaded the machine is.
 */
const PERMALINK_SCAN = 1000;

/** Resolves a permalink among known build numbers: the permalinks file, then a scan of recent builds. */
export async function resolvePermalink(buildsDir: string, ref: Permalink, numbers?: number[]): Promise<number | null> {
  const all = numbers ?? (await listBuildNumbers(buildsDir));
  if (ref === 'lastBuild') return all.length > 0 ? (all[all.length - 1] ?? null) : null;
  const links = await readPermalinks(buildsDir);
  const recorded = links.get(ref);
  // A recorded build may since have been deleted (a build discarder): then look for the newest match.
  if (recorded === null) return null;
  if (recorded !== undefined && all.includes(recorded)) return recorded;
  for (let i = all.length - 1, seen = 0; i >= 0 && seen < PERMALINK_SCAN; i--, seen++) {
    const n = all[i];
    if (n === undefined) continue;
    const summary = await readBuildSummary(buildsDir, n);
    if (summary && RESULT_MATCH[ref](summary)) return n;
  }
  return null;
}

/**
 * Turns a build reference (a number, `"7"`, or a permalink such as `lastFailedBuild`) into a
 * build number. Throws JobNotFoundError / BuildNotFoundError when there is no such build.
 */
export async function resolveBuildNumber(jenkinsHome: string, jobName: string, ref: number | string): Promise<number> {
  const config = await readBuildsDirSetting(jenkinsHome);
  const job = await locateJob(jenkinsHome, jobName, config);
  if (typeof ref === 'number' || /^\d+$/.test(ref)) {
    const n = Number(ref);
    if (!Number.isSafeInteger(n) || n < 1 || !(await findBuildDir(job.buildsDir, n))) throw new BuildNotFoundError(jobName, n);
    return n;
  }
  if (!isPermalink(ref)) throw new BuildNotFoundError(jobName, ref);
  const n = await resolvePermalink(job.buildsDir, ref);
  if (n === null) throw new BuildNotFoundError(jobName, ref);
  return n;
}

async function readBuildsDirSetting(jenkinsHome: string): Promise<string | undefined> {
  try {
    return childText(await readXmlFile(path.join(jenkinsHome, 'config.xml')), 'buildsDir');
  } catch {
    return undefined;
  }
}

/**
 * Job details for the context: kind, description (<= 1000 chars), config.xml (<= 5000 chars,
 * secrets masked), buildable, next build number, last / last successful / last failed builds.
 */
export async function readJobDetails(jenkinsHome: string, job: JobLocation, rootUrl?: string): Promise<JobDetails> {
  const configFile = path.join(job.dir, 'config.xml');
  const configText = await readTextFile(configFile);
  const root = parseXml(configText.length > LARGE_XML_BYTES ? pruneLargeElements(configText) : configText, configFile);
  const segments = job.fullName.split('/').filter((s) => s !== '');
  const type = jobType(root.name);
  const details: JobDetails = {
    name: segments[segments.length - 1] ?? job.fullName,
    fullName: job.fullName,
    jobType: type,
    isPipeline: type === 'pipeline' || type === 'multibranch',
  };
  const displayName = childText(root, 'displayName');
  if (displayName) details.displayName = maskText(displayName);
  const description = child(root, 'description')?.text.trim();
  if (description) details.description = cut(maskText(description), DESCRIPTION_MAX);
  const isContainer = type === 'folder' || type === 'multibranch' || type === 'organization-folder';
  details.isBuildable = !isContainer && childText(root, 'disabled') !== 'true';
  const concurrent = childText(root, 'concurrentBuild');
  // A pipeline allows concurrent builds unless its DisableConcurrentBuildsJobProperty says no.
  if (concurrent !== undefined) details.concurrentBuild = concurrent === 'true';
  else if (type === 'pipeline') details.concurrentBuild = !findProperty(root, 'org.jenkinsci.plugins.workflow.job.properties.DisableConcurrentBuildsJobProperty');
  // Masked before the cut (a secret element cut in half would escape the element rule), on a
  // bounded prefix so a huge config costs no more than a small one.
  details.configXml = cut(maskConfigXml(configText.slice(0, CONFIG_MAX + 64 * 1024)), CONFIG_MAX);
  if (rootUrl) details.url = jobUrl(rootUrl, job);
  const links = projectLinks(root, job.fullName);
  details.upstreamProjects = links.upstream;
  details.downstreamProjects = links.downstream;
  if (type === 'matrix') details.configurations = await matrixConfigurations(job.dir);
  if (type === 'maven') details.modules = await mavenModules(job.dir);

  if (isContainer) {
    details.jobs = await childItems(job.dir);
    return details;
  }
  let numbers: number[] = [];
  try {
    numbers = await listBuildNumbers(job.buildsDir);
  } catch (err) {
    // An unreadable builds directory (permissions, a symlink loop) costs the build fields only.
    details.buildsError = `Builds of ${job.fullName} are unreadable: ${errorMessage(err)}`;
  }
  details.nextBuildNumber = await readNextBuildNumber(job.dir, numbers);
  const lastN = numbers[numbers.length - 1];
  if (lastN !== undefined) {
    const last = await readBuildSummary(job.buildsDir, lastN);
    details.lastBuild = last ? { number: last.number, result: last.result } : { number: lastN };
    for (const link of ['lastSuccessfulBuild', 'lastFailedBuild'] as const) {
      const n = await resolvePermalink(job.buildsDir, link, numbers);
      if (n === null) {
        details[link] = null;
        continue;
      }
      const s = await readBuildSummary(job.buildsDir, n);
      details[link] = s ? { number: s.number, result: s.result } : { number: n };
    }
  } else {
    details.lastBuild = null;
  }
  details.buildCount = numbers.length;
  const health = await stabilityScore(job.buildsDir, numbers);
  if (health !== undefined) details.healthScore = health;
  const params = child(findProperty(root, 'hudson.model.ParametersDefinitionProperty'), 'parameterDefinitions');
  if (params && params.children.length > 0) {
    details.parameterDefinitions = params.children.map((p) => ({
      name: childText(p, 'name') ?? '',
      type: xstreamClassName(p.name).replace(/^.*\./, '').replace(/ParameterDefinition$/, ''),
    }));
  }
  return details;
}

/**
 * Jenkins' build stability health (the weather icon): of the last 5 completed builds, the share
 * that did not fail (FAILURE or worse), in percent. Undefined with no completed build.
 */
async function stabilityScore(buildsDir: string, numbers: number[]): Promise<number | undefined> {
  let total = 0;
  let failed = 0;
  for (let i = numbers.length - 1; i >= 0 && total < 5 && numbers.length - i <= 20; i--) {
    const s = await readBuildSummary(buildsDir, numbers[i] as number);
    if (!s || s.building || s.result === 'UNKNOWN') continue;
    total++;
    if (s.result === 'FAILURE' || s.result === 'NOT_BUILT' || s.result === 'ABORTED') failed++;
  }
  return total === 0 ? undefined : Math.round((100 * (total - failed)) / total);
}

function allNamed(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    allNamed(c, name, out);
  }
  return out;
}

/**
 * Upstream and downstream projects as the job's own config.xml names them: `BuildTrigger`
 * `childProjects` (downstream, "Build other projects") and `ReverseBuildTrigger`
 * `upstreamProjects` ("Build after other projects are built"), relative names resolved against
 * the job's folder. Links declared only in the other job's config are not seen from here.
 */
function projectLinks(root: XmlElement, fullName: string): { upstream: string[]; downstream: string[] } {
  const folder = fullName.includes('/') ? fullName.slice(0, fullName.lastIndexOf('/')) : '';
  const names = (els: XmlElement[]): string[] => {
    const out = new Set<string>();
    for (const el of els) {
      for (const raw of el.text.split(',')) {
        const name = raw.trim().replace(/^\/+/, '');
        if (!name) continue;
        out.add(raw.trim().startsWith('/') || !folder ? name : `${folder}/${name}`);
      }
    }
    return [...out];
  };
  const downstream = allNamed(root, 'hudson.tasks.BuildTrigger').flatMap((t) => (child(t, 'childProjects') ? [child(t, 'childProjects') as XmlElement] : []));
  const upstream = allNamed(root, 'jenkins.triggers.ReverseBuildTrigger').flatMap((t) => (child(t, 'upstreamProjects') ? [child(t, 'upstreamProjects') as XmlElement] : []));
  return { upstream: names(upstream), downstream: names(downstream) };
}

function findProperty(root: XmlElement, name: string): XmlElement | undefined {
  const props = child(root, 'properties');
  return child(props, name);
}

/**
 * `nextBuildNumber` (trailing newline or not); absent, garbage, or behind the newest build on
 * disk (a restored backup), it is the newest build + 1, as Jenkins corrects it on load.
 */
async function readNextBuildNumber(dir: string, numbers: number[]): Promise<number> {
  const computed = (numbers[numbers.length - 1] ?? 0) + 1;
  try {
    const n = Number((await readTextFile(path.join(dir, 'nextBuildNumber'))).trim());
    if (Number.isSafeInteger(n) && n > 0) return Math.max(n, computed);
  } catch {
    /* computed */
  }
  return computed;
}

/** Names of the items directly inside a folder (folders: `jobs/`; multibranch: `branches/`). */
async function childItems(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const group of ['jobs', 'branches']) {
    let entries: string[];
    try {
      entries = await readdir(path.join(dir, group));
    } catch {
      continue;
    }
    for (const e of entries.sort()) {
      let name = e;
      if (group === 'branches') {
        name = await branchItemName(path.join(dir, group, e), e);
      } else {
        try {
          name = (await readTextFile(path.join(dir, group, e, 'name-utf8.txt'))).trim() || e;
        } catch {
          /* plain folder child: the directory name is the item name */
        }
      }
      names.push(name);
      if (names.length >= 200) return names;
    }
  }
  return names;
}

/**
 * The URL of a job: `job/<name>/` per segment, except a matrix configuration, whose last
 * segment is the bare combination (`job/mx/jdk=17,label=linux/`).
 */
export function jobUrl(rootUrl: string, job: JobLocation): string {
  const segments = job.fullName.split('/').filter((s) => s !== '');
  const matrix = isMatrixConfigurationDir(job.dir);
  const parts = segments.map((s, i) => (matrix && i === segments.length - 1 ? `${encodeURIComponent(s).replace(/%3D/gi, '=').replace(/%2C/gi, ',')}/` : `job/${encodeURIComponent(s)}/`));
  return `${rootUrl.replace(/\/+$/, '')}/${parts.join('')}`;
}

/** The combinations of a matrix project (`jdk=17,label=linux`), from `configurations/axis-*`, at most 200. */
async function matrixConfigurations(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (d: string, pairs: string[], depth: number): Promise<void> => {
    if (found.length >= 200 || depth > 16) return;
    let axes: string[];
    try {
      axes = (await readdir(d)).filter((e) => e.startsWith('axis-')).sort();
    } catch {
      return;
    }
    if (axes.length === 0) {
      if (pairs.length > 0) {
        try {
          if ((await stat(path.join(d, 'config.xml'))).isFile()) found.push(pairs.join(','));
        } catch {
          /* an axis folder without a configuration */
        }
      }
      return;
    }
    for (const axisDir of axes) {
      let values: string[];
      try {
        values = (await readdir(path.join(d, axisDir))).sort();
      } catch {
        continue;
      }
      for (const v of values) {
        let value = v;
        try {
          value = decodeURIComponent(v);
        } catch {
          /* not encoded */
        }
        await walk(path.join(d, axisDir, v), [...pairs, `${axisDir.slice(5)}=${value}`], depth + 1);
      }
    }
  };
  await walk(path.join(dir, 'configurations'), [], 0);
  return found.map((c) => (parseCombination(c) ?? []).map(([a, v]) => `${a}=${v}`).join(',')).sort();
}

/** The modules of a Maven module set (`modules/<groupId>$<artifactId>`), at most 200. */
async function mavenModules(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await readdir(path.join(dir, 'modules'))).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    try {
      if ((await stat(path.join(dir, 'modules', e, 'config.xml'))).isFile()) out.push(e);
    } catch {
      /* not a module */
    }
    if (out.length >= 200) break;
  }
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
