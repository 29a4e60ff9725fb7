/**
 * What page of the CI server a browser client was on, from its `Referer`: job full name,
 * build number and a screen name (contract section 3: `Dashboard`, `Job <name>`,
 * `Build <name> #<n>`, `Console <name> #<n>`, `Manage Jenkins`, `Plugin Manager`, ...).
 */
import { isPermalink, resolveBuildNumber } from './jobs.js';
import { readRootUrl } from './system.js';

export interface RefererInfo {
  jobName?: string;
  buildNumber?: number;
  /** A permalink in the URL (`lastBuild`, `lastFailedBuild`...), to resolve with resolveBuildNumber. */
  buildRef?: string;
  currentScreen?: string;
}

/** First path segments of the pages we name; whatever comes before the first is a context path. */
const ANCHORS = new Set([
  'job',
  'view',
  'manage',
  'pluginManager',
  'computer',
  'user',
  'people',
  'asynchPeople',
  'blue',
  'configure',
  'configureSecurity',
  'credentials',
  'script',
  'systemInfo',
  'log',
  'me',
  'builds',
  'queue',
  'cloud',
  'newJob',
  'view-all',
]);

const MANAGE_PAGES: Record<string, string> = {
  pluginManager: 'Plugin Manager',
  configure: 'Configure System',
  configureSecurity: 'Security',
  computer: 'Nodes',
  credentials: 'Credentials',
  script: 'Script Console',
  systemInfo: 'System Information',
  log: 'System Log',
  configureTools: 'Tools',
  securityRealm: 'Users',
  about: 'About Jenkins',
  cloud: 'Clouds',
};

const BUILD_PAGES: Record<string, string> = {
  console: 'Console',
  consoleFull: 'Console',
  consoleText: 'Console',
  'pipeline-console': 'Console',
  testReport: 'Test Results',
  changes: 'Changes',
  artifact: 'Artifacts',
  parameters: 'Parameters',
  flowGraphTable: 'Pipeline Steps',
  'pipeline-graph': 'Pipeline Graph',
  'pipeline-overview': 'Pipeline Graph',
  replay: 'Replay',
  rebuild: 'Rebuild',
};

const JOB_PAGES: Record<string, string> = {
  configure: 'Configure',
  ws: 'Workspace',
  changes: 'Changes',
  build: 'Build with Parameters',
  buildWithParameters: 'Build with Parameters',
};

/** A job item name from a URL segment: decoded once; a `/` that was encoded stays `%2F` (branch names). */
function itemName(rawSegment: string): string {
  let decoded = rawSegment;
  try {
    decoded = decodeURIComponent(rawSegment);
  } catch {
    /* keep the raw segment */
  }
  return decoded.replace(/\//g, '%2F');
}

/** `axis=value[,axis=value...]`: a matrix configuration's name in a URL. */
function isCombination(segment: string): boolean {
  return /^[^=,/]+=[^,/]*(?:,[^=,/]+=[^,/]*)*$/.test(segment);
}

/** `groupId$artifactId`: a Maven module's name in a URL. */
function isMavenModule(segment: string): boolean {
  return /^[\w.-]+\$[\w.-]+$/.test(segment);
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function pathOf(referer: string): string | null {
  try {
    return new URL(referer, 'http://referer.invalid').pathname;
  } catch {
    return null;
  }
}

/** The screen name for a build page, once its number is known. */
export function buildScreen(page: string, jobName: string, build: number | string): string {
  const label = typeof build === 'number' || /^\d+$/.test(build) ? `#${build}` : build;
  return `${page} ${jobName} ${label}`;
}

/**
 * Parses a Referer URL (or path). `rootUrl`, when known, tells where the CI server's context
 * path ends (`http://host/jenkins/`); without it, segments before the first known page
 * segment (`job`, `manage`, `view`...) are taken as the context path.
 */
export function parseReferer(referer: string | undefined, rootUrl?: string): RefererInfo {
  if (!referer) return {};
  let pathname = pathOf(referer.trim());
  if (pathname === null) return {};
  const rootPath = rootUrl ? pathOf(rootUrl) : null;
  if (rootPath && rootPath !== '/' && pathname.startsWith(rootPath.replace(/\/?$/, '/'))) {
    pathname = pathname.slice(rootPath.replace(/\/?$/, '').length);
  } else if (rootPath && rootPath !== '/' && pathname === rootPath.replace(/\/$/, '')) {
    pathname = '/';
  }
  let segs = pathname.split('/').filter((s) => s !== '');
  const anchor = segs.findIndex((s) => ANCHORS.has(s));
  if (anchor < 0) return segs.length <= 1 ? { currentScreen: 'Dashboard' } : {};
  segs = segs.slice(anchor);

  const first = segs[0] ?? '';
  if (first === 'manage') {
    const page = segs[1];
    if (!page) return { currentScreen: 'Manage Jenkins' };
    if (page === 'computer' && segs[2]) return { currentScreen: `Node ${decodeSegment(segs[2])}` };
    return { currentScreen: MANAGE_PAGES[page] ?? `Manage Jenkins: ${decodeSegment(page)}` };
  }
  if (first === 'blue') return parseBlueOcean(segs);
  if (first === 'computer') return { currentScreen: segs[1] ? `Node ${decodeSegment(segs[1])}` : 'Nodes' };
  if (first === 'user') return { currentScreen: segs[1] ? `User ${decodeSegment(segs[1])}` : 'People' };
  if (first !== 'job' && first !== 'view') {
    const page = MANAGE_PAGES[first];
    if (page) return { currentScreen: page };
    if (first === 'people' || first === 'asynchPeople') return { currentScreen: 'People' };
    if (first === 'newJob') return { currentScreen: 'New Item' };
    return { currentScreen: decodeSegment(first) };
  }

  // job/<a>/job/<b>/..., with views allowed between them (view/<v>/job/<x>).
  const names: string[] = [];
  let view: string | undefined;
  let i = 0;
  while (i < segs.length) {
    if (segs[i] === 'job' && segs[i + 1] !== undefined) {
      names.push(itemName(segs[i + 1] as string));
      i += 2;
    } else if (segs[i] === 'view' && segs[i + 1] !== undefined) {
      view = decodeSegment(segs[i + 1] as string);
      i += 2;
    } else break;
  }
  if (names.length === 0) return { currentScreen: view ? `View ${view}` : 'Dashboard' };
  let rest = segs.slice(i);
  // Matrix configurations: `job/mx/jdk=17,label=linux/5/`, or the build first: `job/mx/5/jdk=17,label=linux/`.
  if (rest[0] !== undefined && (isCombination(decodeSegment(rest[0])) || isMavenModule(decodeSegment(rest[0])))) {
    names.push(decodeSegment(rest[0]));
    rest = rest.slice(1);
  } else if (rest[0] !== undefined && /^\d+$/.test(rest[0]) && rest[1] !== undefined && isCombination(decodeSegment(rest[1]))) {
    names.push(decodeSegment(rest[1]));
    rest = [rest[0], ...rest.slice(2)];
  }
  const jobName = names.join('/');
  const head = rest[0];
  if (head === undefined) return { jobName, currentScreen: `Job ${jobName}` };
  if (/^\d+$/.test(head) || isPermalink(head)) {
    const pageName = BUILD_PAGES[rest[1] ?? ''] ?? 'Build';
    const info: RefererInfo = { jobName, currentScreen: buildScreen(pageName, jobName, head) };
    if (/^\d+$/.test(head)) info.buildNumber = Number(head);
    else info.buildRef = head;
    return info;
  }
  const jobPage = JOB_PAGES[head];
  return { jobName, currentScreen: jobPage ? `${jobPage} ${jobName}` : `Job ${jobName}` };
}

/** Blue Ocean: `/blue/organizations/jenkins/<team%2Fapi>/detail/<branch>/<n>/pipeline`. */
function parseBlueOcean(segs: string[]): RefererInfo {
  const pipeline = segs[3] !== undefined ? decodeSegment(segs[3]) : undefined;
  if (segs[1] !== 'organizations' || !pipeline) return { currentScreen: 'Blue Ocean' };
  const parts = pipeline.split('/');
  let jobName = pipeline;
  if (segs[4] === 'detail' && segs[5] !== undefined) {
    const branch = itemName(segs[5]);
    if (branch !== parts[parts.length - 1]) jobName = `${pipeline}/${branch}`;
    const n = segs[6];
    if (n !== undefined && /^\d+$/.test(n)) {
      return { jobName, buildNumber: Number(n), currentScreen: buildScreen('Build', jobName, n) };
    }
  }
  return { jobName, currentScreen: `Job ${jobName}` };
}

/**
 * parseReferer, with a permalink (`lastFailedBuild`) resolved to its build number through the
 * job's `builds/permalinks` and the screen named with that number. An unknown job or missing
 * permalink leaves the build number unset. Without `rootUrl`, the home's configured root URL
 * tells where the context path ends.
 */
export async function resolveReferer(jenkinsHome: string, referer: string | undefined, rootUrl?: string): Promise<RefererInfo> {
  let root = rootUrl;
  if (root === undefined && referer) {
    try {
      root = await readRootUrl(jenkinsHome);
    } catch {
      /* an unreadable location config: fall back to the context-path heuristic */
    }
  }
  const info = parseReferer(referer, root);
  if (info.jobName && info.buildRef && info.buildNumber === undefined) {
    try {
      const n = await resolveBuildNumber(jenkinsHome, info.jobName, info.buildRef);
      info.buildNumber = n;
      if (info.currentScreen) info.currentScreen = info.currentScreen.replace(new RegExp(` ${info.buildRef}$`), ` #${n}`);
    } catch {
      /* the context will say the job or build is missing */
    }
  }
  return info;
}
