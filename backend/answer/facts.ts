/**
 * Reading facts out of a CiContext the way a person would state them: durations in human units,
 * memory in GiB, plugins found by any of their names. Shared by the offline engine (which
 * answers from them) and the prompt builder (which hands them to a model).
 */
import type { CiContext, PluginInfo } from '../../protocol/types.js';
import { editDistance } from '../../core/log/symbols.js';
import { escapeRegExp } from '../../core/regexp.js';

/** "3 min 12 s", "1 h 5 min", "850 ms", "2 d 3 h": the two largest units that matter. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'an unknown time';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const totalSeconds = Math.round(ms / 1000);
  const units: [string, number][] = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = totalSeconds;
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) parts.push(`${n} ${unit}`);
    if (parts.length === 2) break;
  }
  // "1 h 0 min" reads worse than "1 h".
  return parts.filter((p, i) => i === 0 || !p.startsWith('0 ')).join(' ');
}

/** Bytes as a person reads them: "15.6 GiB", "512 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 100 ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/**
 * A variable of the build's environment (`ciEnvironment`, what a pipeline step saw), the first
 * of `names` that is set, with the field to cite.
 */
export function envOf(ci: CiContext, ...names: string[]): { name: string; value: string; field: string } | undefined {
  const env = ci.ciEnvironment;
  if (!env) return undefined;
  for (const name of names) {
    const value = env[name];
    if (typeof value === 'string' && value.trim()) return { name, value: value.trim(), field: `ciEnvironment.${name}` };
  }
  return undefined;
}

/** The job's full name (folders included) or its short name, else the build environment's `JOB_NAME`. */
export function jobNameOf(ci: CiContext): string | undefined {
  const job = ci.jobDetails;
  const name = job?.fullName ?? job?.name;
  if (typeof name === 'string' && name.trim()) return name;
  return envOf(ci, 'JOB_NAME')?.value;
}

/** The build's number, else the build environment's `BUILD_NUMBER`. */
export function buildNumberOf(ci: CiContext): { number: number; field: string } | undefined {
  const n = ci.buildDetails?.number;
  if (typeof n === 'number') return { number: n, field: 'buildDetails.number' };
  const env = envOf(ci, 'BUILD_NUMBER', 'BUILD_ID');
  if (env && /^\d+$/.test(env.value)) return { number: Number(env.value), field: env.field };
  return undefined;
}

/** "build #42 of `team/api`", "build #42", or "the build" when nothing identifies it. */
export function buildLabel(ci: CiContext, withJob = false): string {
  const n = buildNumberOf(ci)?.number;
  const job = jobNameOf(ci);
  const build = typeof n === 'number' ? `build #${n}` : 'the build';
  return withJob && job ? `${build} of \`${job}\`` : build;
}

/**
 * Whether the context came from a CI server's own view (the original plugin, the controller):
 * then an absent `systemMessage` means none is set, since those senders omit it only then.
 */
export function fromCiServer(ci: CiContext): boolean {
  return ciVersionOf(ci) !== undefined || ci.activePlugins !== undefined || ci.masterNode !== undefined || typeof ci.rootUrl === 'string';
}

/** The CI version, whichever name the uploader used for it. */
export function ciVersionOf(ci: CiContext): { version: string; field: string } | undefined {
  if (typeof ci.ciVersion === 'string' && ci.ciVersion.trim()) return { version: ci.ciVersion, field: 'ciVersion' };
  const legacy = ci['jenkinsVersion'];
  if (typeof legacy === 'string' && legacy.trim()) return { version: legacy, field: 'jenkinsVersion' };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Plugins

/** Plugin names compared the way people say them: case, punctuation and the word "plugin" ignored. */
export function normalizePluginName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\b(jenkins|plugins?|plug-in)\b/g, ' ')
    .replace(/[^a-z0-9]+/g, '');
}

function pluginTokens(plugin: PluginInfo): Set<string> {
  const words = `${plugin.shortName} ${plugin.longName ?? ''}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && w !== 'plugin' && w !== 'jenkins');
  return new Set(words);
}


export interface PluginMatch {
  /** The name as asked. */
  wanted: string;
  /** Plugins that are the one asked for (short or long name). */
  exact: PluginInfo[];
  /** Plugins that share a word with it (`git` -> `git-client`) or are one typo away. */
  related: PluginInfo[];
}

/**
 * Finds the plugin a person named: `git` is the Git plugin (exact) and `git-client` is only
 * related; `pipeline` finds the plugin whose long name is "Pipeline"; `kubernets` finds
 * `kubernetes` as related.
 */
export function findPlugins(plugins: PluginInfo[], wanted: string): PluginMatch {
  const key = normalizePluginName(wanted);
  const wantedWords = wanted
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && w !== 'plugin' && w !== 'plugins' && w !== 'jenkins');
  const exact: PluginInfo[] = [];
  const related: PluginInfo[] = [];
  if (!key) return { wanted, exact, related };
  for (const plugin of plugins) {
    const short = normalizePluginName(plugin.shortName);
    const long = plugin.longName ? normalizePluginName(plugin.longName) : '';
    if (short === key || long === key) {
      exact.push(plugin);
      continue;
    }
    const tokens = pluginTokens(plugin);
    const sharesWord = wantedWords.length > 0 && wantedWords.every((w) => tokens.has(w));
    const contains = key.length >= 4 && (short.includes(key) || (long !== '' && long.includes(key)));
    const typo = key.length >= 5 && (editDistance(key, short) <= 1 || (long !== '' && editDistance(key, long) <= 1));
    if (sharesWord || contains || typo) related.push(plugin);
  }
  related.sort((a, b) => a.shortName.length - b.shortName.length || a.shortName.localeCompare(b.shortName));
  return { wanted, exact, related };
}

const NAME_STOPWORDS = new Set(
  (
    'a an the is are was were be any we our us this that there have has had do does did installed install enabled ' +
    'disabled plugin plugins version versions of which what whats jenkins ci server on in it its got you i me my show ' +
    'list tell about all how many much with for used using use available present check if whether please know can ' +
    'could would should and or to running run have we and also'
  ).split(' '),
);

function namesFromPhrase(phrase: string): string[] {
  return phrase
    .split(/,|\/|\band\b|\bor\b|&/)
    .map((part) =>
      part
        .split(/\s+/)
        .map((w) => w.replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, ''))
        .filter((w) => w && !NAME_STOPWORDS.has(w))
        .join(' '),
    )
    .filter((name) => name.length > 0 && name.split(' ').length <= 3);
}

/**
 * The plugin names a question asks about ("is the git plugin installed", "do we have
 * docker-workflow", "version of the blue ocean plugin", "are git and docker plugins installed"),
 * plus any installed plugin the question names outright. Empty when it asks about plugins in
 * general ("what plugins are installed").
 */
export function pluginNamesAskedFor(question: string, plugins: PluginInfo[]): string[] {
  const q = question.toLowerCase().replace(/[?!"'`“”]/g, ' ').replace(/\s+/g, ' ');
  const phrases: string[] = [];
  const patterns = [
    /((?:[a-z0-9][\w.-]*\s+){1,3})plugins?\b/g,
    /\bplugins?\s+(?:called\s+|named\s+)?([a-z0-9][\w.-]*)/g,
    /\b(?:is|are)\s+(?:the\s+)?(.+?)\s+(?:plugins?\s+)?(?:installed|enabled|available|present|there)\b/g,
    /\b(?:do|does)\s+(?:we|it|jenkins|the server|this server|this instance)\s+have\s+(?:the\s+)?(.+?)(?:\s+plugins?|\s+installed|$)/g,
    /\bversion\s+of\s+(?:the\s+)?(.+?)(?:\s+plugins?|$)/g,
    /\bhave\s+(?:the\s+)?(.+?)\s+installed\b/g,
  ];
  for (const pattern of patterns) {
    for (const m of q.matchAll(pattern)) if (m[1]) phrases.push(m[1]);
  }
  const names = new Set<string>();
  for (const phrase of phrases) for (const name of namesFromPhrase(phrase)) names.add(name);
  // An installed plugin named outright ("git-client version?") counts even without a pattern.
  for (const plugin of plugins) {
    const short = plugin.shortName.toLowerCase();
    if (short.length >= 3 && new RegExp(`(^|[^\\w-])${escapeRegExp(short)}($|[^\\w-])`).test(q)) {
      if (![...names].some((n) => normalizePluginName(n) === normalizePluginName(short))) names.add(short);
    }
  }
  // A shorter name inside a longer one that was also named ("git" inside "git client") is noise.
  const list = [...names];
  return list.filter((n) => !list.some((other) => other !== n && other.split(' ').includes(n) && other.includes(' ')));
}

export { escapeRegExp };

// ---------------------------------------------------------------------------------------------
// The master node's system information

export interface SystemFact {
  label: string;
  value: string;
  field: string;
  /** Every systemInfo key the fact was read from. */
  keys: string[];
}

function lookup(info: Record<string, unknown>, names: string[]): { key: string; value: unknown } | undefined {
  const byLower = new Map(Object.keys(info).map((k) => [k.toLowerCase().replace(/[^a-z0-9]/g, ''), k]));
  for (const name of names) {
    const key = byLower.get(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
    if (key !== undefined && info[key] !== undefined && info[key] !== null && info[key] !== '') {
      return { key, value: info[key] };
    }
  }
  return undefined;
}

function asMemory(value: unknown, key = ''): string {
  // The specification's keys count megabytes (`totalMemoryMB`); the others bytes.
  const scale = /mb$/i.test(key) ? 1024 * 1024 : 1;
  if (typeof value === 'number') return formatBytes(value * scale);
  if (typeof value === 'string' && /^\d+$/.test(value.trim()) && scale > 1) return formatBytes(Number(value) * scale);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return formatBytes(Number(value));
  return String(value);
}

/**
 * The OS, CPU, memory and Java facts of `masterNode.systemInfo`, whatever the uploader named the
 * keys (`os.name` as Jenkins' system properties do, or `os`, `totalMemory`, ...).
 */
export function systemFacts(info: Record<string, unknown> | undefined): SystemFact[] {
  if (!info) return [];
  const facts: SystemFact[] = [];
  const field = (key: string): string => `masterNode.systemInfo.${key}`;
  const os = lookup(info, ['os.name', 'os', 'osName', 'operatingSystem', 'platform']);
  const osVersion = lookup(info, ['os.version', 'osVersion', 'kernel', 'release']);
  const arch = lookup(info, ['os.arch', 'osArch', 'arch', 'architecture']);
  if (os) {
    const extra = [osVersion?.value, arch?.value].filter((v) => v !== undefined).map(String);
    const keys = [os.key, osVersion?.key, arch?.key].filter((k): k is string => k !== undefined);
    facts.push({ label: 'OS', value: [String(os.value), ...extra].join(' '), field: field(os.key), keys });
  } else if (osVersion) {
    facts.push({ label: 'OS version', value: String(osVersion.value), field: field(osVersion.key), keys: [osVersion.key] });
  }
  const cpus = lookup(info, ['availableProcessors', 'cpus', 'cpuCount', 'processors', 'cores', 'numCpus']);
  if (cpus) {
    const model = lookup(info, ['cpuModel', 'cpu.model', 'processorModel']);
    const value = model ? `${String(cpus.value)} × ${String(model.value).replace(/\s+/g, ' ').trim()}` : String(cpus.value);
    const keys = [cpus.key, model?.key].filter((k): k is string => k !== undefined);
    facts.push({ label: 'CPUs', value, field: field(cpus.key), keys });
  }
  const total = lookup(info, [
    'totalMemoryMB',
    'totalMemory',
    'memory.total',
    'totalPhysicalMemory',
    'physicalMemory',
    'memTotal',
    'memory',
    'totalMemoryBytes',
    'ram',
  ]);
  if (total) facts.push({ label: 'Memory', value: asMemory(total.value, total.key), field: field(total.key), keys: [total.key] });
  const free = lookup(info, ['freeMemoryMB', 'freeMemory', 'freeMemoryBytes', 'memory.free', 'freePhysicalMemory', 'availableMemory', 'memFree']);
  if (free) facts.push({ label: 'Free memory', value: asMemory(free.value, free.key), field: field(free.key), keys: [free.key] });
  const heap = lookup(info, ['maxMemoryMB', 'maxMemory', 'heapMax', 'jvm.maxMemory', 'maxHeap', 'heap']);
  if (heap) facts.push({ label: 'JVM max heap', value: asMemory(heap.value, heap.key), field: field(heap.key), keys: [heap.key] });
  const java = lookup(info, ['java.version', 'javaVersion', 'java.runtime.version', 'java']);
  if (java) {
    const vendor = lookup(info, ['java.vendor', 'javaVendor']);
    facts.push({
      label: 'Java',
      value: vendor ? `${String(java.value)} (${String(vendor.value)})` : String(java.value),
      field: field(java.key),
      keys: [java.key, vendor?.key].filter((k): k is string => k !== undefined),
    });
  }
  return facts;
}

/**
 * Whether the question names an installed plugin by its short name ("what version is
 * git-client?"), which makes it a plugin question even without the word "plugin".
 */
export function namesInstalledPlugin(question: string, plugins: PluginInfo[] | undefined): boolean {
  if (!Array.isArray(plugins)) return false;
  const q = question.toLowerCase();
  return plugins.some(
    (p) => p.shortName.length >= 3 && new RegExp(`(^|[^\\w-])${escapeRegExp(p.shortName.toLowerCase())}($|[^\\w-])`).test(q),
  );
}

/** Renders any context value compactly for a sentence or a prompt line. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
