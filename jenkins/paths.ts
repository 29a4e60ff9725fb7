import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { NotRegularFileError, readHeadText, readTextFile } from './xml.js';

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

/**
 * Whether a directory entry names a child item: the segment itself, or (multibranch branches,
 * whose directories are mangled: `feature%2Fx` may live in `branches/feature-x.k2f9a`) the
 * name recorded in its `name-utf8.txt` or `<displayName>`. Jenkins item names of branches
 * keep `/` encoded as `%2F`; a segment that arrives decoded (`feature/x`) matches too.
 */
function sameItemName(recorded: string, wanted: string): boolean {
  if (recorded === wanted) return true;
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const a = decode(recorded);
  const b = decode(wanted);
  // Homes copied from macOS may hold names in NFD while URLs carry NFC.
  return a === b || a.normalize('NFC') === b.normalize('NFC');
}

/** The head of a file, or '' when it is not a regular file (a FIFO, a directory). */
async function readHead(file: string, bytes: number): Promise<string> {
  try {
    return await readHeadText(file, bytes);
  } catch (err) {
    if (err instanceof NotRegularFileError) return '';
    throw err;
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** The name a mangled item directory records for itself, from name-utf8.txt or config.xml. */
async function recordedItemNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    names.push((await readTextFile(path.join(dir, 'name-utf8.txt'))).trim());
  } catch {
    /* older branch-api versions do not write it */
  }
  try {
    // Only the head of the file: <displayName> is near the top and configs can be large.
    const head = await readHead(path.join(dir, 'config.xml'), 4096);
    const m = /<displayName>([^<]*)<\/displayName>/.exec(head);
    if (m?.[1]) names.push(m[1].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').trim());
  } catch {
    /* no config: not an item */
  }
  return names;
}

/**
 * The item name a branch directory stands for: its `name-utf8.txt`, else its config's
 * `<displayName>` (older branch-api versions write only that), else the directory's own name.
 * A `/` in the recorded name is kept encoded (`feature%2Fx`), as Jenkins names branch items,
 * so the name stays one segment of the full name.
 */
export async function branchItemName(dir: string, fallback: string): Promise<string> {
  const name = (await recordedItemNames(dir)).find((n) => n.length > 0);
  return name ? name.replace(/\//g, '%2F') : fallback;
}

/**
 * The directory of a job by full name, as Jenkins lays it out on disk: folder children under
 * `jobs/<name>`, multibranch branches under `branches/<mangled name>` (found through
 * `name-utf8.txt` or `<displayName>`). Null when the name is unsafe or no such item exists.
 */
export async function resolveJobDir(jenkinsHome: string, fullName: string): Promise<string | null> {
  const segments = jobNameSegments(fullName);
  if (!segments) return null;
  let dir = path.resolve(jenkinsHome);
  for (const segment of segments) {
    const direct = [path.join(dir, 'jobs', segment), path.join(dir, 'branches', segment)];
    // Maven modules (`com.acme$core`) live under `modules/` of their module set.
    if (segment.includes('$')) direct.push(path.join(dir, 'modules', segment));
    let next: string | null = null;
    for (const candidate of direct) {
      if (await isDirectory(candidate)) {
        next = candidate;
        break;
      }
    }
    if (!next) next = await findMangledChild(dir, segment);
    if (!next) next = await findMatrixConfiguration(dir, segment);
    if (!next) return null;
    dir = next;
  }
  return (await isDirectory(dir)) ? dir : null;
}

/**
 * A matrix combination (`jdk=17,label=linux`) as Jenkins parses it: `axis=value` pairs split
 * on commas, sorted by axis name (a Combination is a sorted map). Null when it is not one.
 */
export function parseCombination(segment: string): [string, string][] | null {
  if (!segment.includes('=')) return null;
  const pairs: [string, string][] = [];
  for (const part of segment.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    pairs.push([part.slice(0, eq), part.slice(eq + 1)]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return pairs;
}

/** Jenkins' `Util.rawEncode`, used for axis values in directory names. */
function rawEncode(s: string): string {
  return encodeURIComponent(s).replace(/%2C/gi, ',').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A matrix configuration's directory: `configurations/axis-<a>/<value>/axis-<b>/<value>` under
 * the matrix project, axes in name order. Null when `segment` is no combination or absent.
 */
async function findMatrixConfiguration(parent: string, segment: string): Promise<string | null> {
  const pairs = parseCombination(segment);
  if (!pairs) return null;
  for (const [axis, value] of pairs) {
    if (!axis || axis.includes('/') || axis === '.' || axis === '..' || value.includes('/') || value === '.' || value === '..') return null;
  }
  for (const encode of [(v: string) => v, rawEncode]) {
    let dir = path.join(parent, 'configurations');
    for (const [axis, value] of pairs) dir = path.join(dir, `axis-${axis}`, encode(value));
    if (await isDirectory(dir)) return dir;
  }
  return null;
}

/**
 * True when a job directory is an item whose URL has no `job/` before its name: a matrix
 * configuration (inside its project's `configurations/`) or a Maven module (`modules/`).
 */
export function isMatrixConfigurationDir(dir: string): boolean {
  return /[/\\]configurations[/\\]axis-[^/\\]+[/\\]/.test(dir) || path.basename(path.dirname(dir)) === 'modules';
}

async function findMangledChild(parent: string, segment: string): Promise<string | null> {
  for (const group of ['branches', 'jobs']) {
    const groupDir = path.join(parent, group);
    let entries: string[];
    try {
      entries = await readdir(groupDir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const candidate = path.join(groupDir, entry);
      if (sameItemName(entry, segment)) return candidate;
    }
    for (const entry of entries) {
      const candidate = path.join(groupDir, entry);
      const names = await recordedItemNames(candidate);
      if (names.some((n) => sameItemName(n, segment))) return candidate;
    }
  }
  return null;
}

/**
 * Where a job keeps its builds: `<buildsDir>` of the root config.xml with `${ITEM_ROOTDIR}`,
 * `${ITEM_FULL_NAME}` and `${JENKINS_HOME}` expanded (default `${ITEM_ROOTDIR}/builds`).
 */
export function buildsDirOf(jenkinsHome: string, jobRoot: string, fullName: string, buildsDirSetting?: string): string {
  const setting = buildsDirSetting?.trim() || '${ITEM_ROOTDIR}/builds';
  const expanded = setting
    .replace(/\$\{ITEM_ROOTDIR\}/g, jobRoot)
    .replace(/\$\{ITEM_FULL_?NAME\}/g, fullName.replace(/:/g, '$'))
    .replace(/\$\{JENKINS_HOME\}/g, path.resolve(jenkinsHome));
  return path.resolve(expanded);
}
