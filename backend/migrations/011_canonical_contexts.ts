import type { Knex } from 'knex';

// Stored contexts in the canonical form of CONTRACT section 2, once. Until now the read path
// normalised every context on every read (contexts stored before the canonical names carry the
// older aliases: `jenkinsVersion`, plugins as an array, `type`, `buildable`, `config`,
// `durationMs`, `tests`, `builtOn`, parameters as an array, causes as strings); from here on the
// upload's codec (protocol/ciContext.ts) stores the canonical form and the read path trusts it.
//
// Frozen (issue 31): the normaliser below is a copy of the hand normaliser of
// protocol/schemas.ts as it was when 011 was written (the reading every stored context got on
// read until then), not an import of the codec (which may change). `down` keeps the canonical
// form: older code reads it as it is (it normalised canonical input to itself).

const MASK = '****';

const PAGE = 200;

type PluginInfo = { shortName: string; version: string; enabled?: boolean; [key: string]: unknown };
type BuildCause = { shortDescription: string; [key: string]: unknown };
type BuildChange = Record<string, unknown>;
type TestResults = Record<string, unknown>;
type BuildSummary = Record<string, unknown>;
type BuildDetails = Record<string, unknown>;
type JobDetails = Record<string, unknown>;
type AgentInfo = { name: string; online: boolean; labels?: string[]; executors?: number; [key: string]: unknown };
type CiContext = Record<string, unknown> & { agentStats?: unknown };

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNum = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
};
const asBool = (v: unknown): boolean | undefined => {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
};

/** Parameters named like secrets carry `****`, whoever sent them. */
const SECRET_PARAMETER_NAME = /passw(or)?d|passphrase|secret|token|api[_-]?key|private[_-]?key|credential/i;

/**
 * Drops nulls (Jenkins' "unknown") and undefined at every level. Iterative: client JSON of any
 * depth cannot exhaust the stack here (the body reader also refuses more than 64 levels).
 */
function withoutNulls(value: unknown): unknown {
  const work: [unknown[] | Dict, unknown[] | Dict][] = [];
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const target: unknown[] = [];
      work.push([v, target]);
      return target;
    }
    if (isDict(v)) {
      const target: Dict = {};
      work.push([v, target]);
      return target;
    }
    return v;
  };
  const root = copy(value);
  while (work.length > 0) {
    const [source, target] = work.pop()!;
    if (Array.isArray(source)) {
      for (const v of source) if (v !== null && v !== undefined) (target as unknown[]).push(copy(v));
    } else {
      for (const [k, v] of Object.entries(source)) if (v !== null && v !== undefined) (target as Dict)[k] = copy(v);
    }
  }
  return root;
}

/** Sets `canonical` from itself or its alias (first usable value wins) and removes the alias. */
function rename<T>(o: Dict, canonical: string, alias: string, read: (v: unknown) => T | undefined): void {
  const value = read(o[canonical]) ?? read(o[alias]);
  delete o[alias];
  if (value === undefined) delete o[canonical];
  else o[canonical] = value;
}

function pluginOf(p: unknown): PluginInfo | undefined {
  if (!isDict(p)) return undefined;
  const shortName = asStr(p.shortName)?.trim();
  if (!shortName) return undefined;
  const version = asStr(p.version) ?? (asNum(p.version) !== undefined ? String(p.version) : 'unknown');
  const out: PluginInfo = { ...p, shortName, version };
  const enabled = asBool(p.enabled);
  if (enabled === undefined) delete out.enabled;
  else out.enabled = enabled;
  if (typeof out.longName !== 'string') delete out.longName;
  return out;
}

function causeOf(c: unknown): BuildCause | undefined {
  if (typeof c === 'string') return c.trim() ? { shortDescription: c.trim() } : undefined;
  if (!isDict(c)) return undefined;
  return { ...c, shortDescription: asStr(c.shortDescription) ?? '' };
}

function parametersOf(v: unknown): Record<string, unknown> | undefined {
  let entries: [string, unknown][];
  if (Array.isArray(v)) {
    entries = v.filter(isDict).flatMap((p) => (typeof p.name === 'string' ? [[p.name, p.value ?? null] as [string, unknown]] : []));
  } else if (isDict(v)) {
    entries = Object.entries(v);
  } else {
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    out[name] = SECRET_PARAMETER_NAME.test(name) && value !== '' && value !== null && value !== undefined ? MASK : value;
  }
  return out;
}

function testsOf(v: unknown): TestResults | undefined {
  if (!isDict(v)) return undefined;
  const out: TestResults = { ...v };
  for (const k of ['total', 'failed', 'skipped', 'passed'] as const) {
    const n = asNum(v[k]);
    if (n === undefined) delete out[k];
    else out[k] = n;
  }
  return out;
}

function projectsOf(v: unknown): string[] | undefined {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(v)) return undefined;
  return v.flatMap((p) => {
    if (typeof p === 'string') return p.trim() ? [p.trim()] : [];
    if (isDict(p)) {
      const name = asStr(p.fullName) ?? asStr(p.name);
      return name ? [name] : [];
    }
    return [];
  });
}

function timestampOf(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim()) {
    // "1763800000000" is epoch ms written as a string.
    if (/^\d{10,}$/.test(v.trim())) return new Date(Number(v)).toISOString();
    return v;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return new Date(v).toISOString();
  return undefined;
}

/** Sets each field of `d` to its reader's value of `v[field]`, or drops it when that cannot be read. */
function readFields(d: Dict, v: Dict, readers: Record<string, (value: unknown) => unknown>): void {
  for (const [key, read] of Object.entries(readers)) {
    const value = read(v[key]);
    if (value === undefined) delete d[key];
    else d[key] = value;
  }
}

/**
 * A copy of `v` with each `[canonical, alias, read]` name settled on its canonical one and each
 * field of `readers` read with its reader (dropped when unreadable).
 */
function reshape(v: Dict, renames: Array<[canonical: string, alias: string, read: (x: unknown) => unknown]>, readers: Record<string, (value: unknown) => unknown>): Dict {
  const d: Dict = { ...v };
  for (const [canonical, alias, read] of renames) rename(d, canonical, alias, read);
  readFields(d, v, readers);
  return d;
}

function buildSummaryOf(v: unknown): BuildSummary | undefined {
  if (!isDict(v)) return undefined;
  // The controller once sent a human `duration` string beside `durationMs`: the number wins.
  const b = reshape(v, [['duration', 'durationMs', asNum], ['testResults', 'tests', testsOf], ['builtOnNode', 'builtOn', asStr]], {
    number: asNum,
    result: asStr,
    building: asBool,
    timestamp: timestampOf,
    causes: (x) => (Array.isArray(x) ? x.map(causeOf).filter((c): c is BuildCause => c !== undefined) : undefined),
    parameters: parametersOf,
    changes: (x) => (Array.isArray(x) ? x.filter(isDict).map((c): BuildChange => ({ ...c })) : undefined),
  });
  return b as BuildSummary;
}

function buildDetailsOf(v: unknown): BuildDetails | undefined {
  const b = buildSummaryOf(v) as (BuildDetails & Dict) | undefined;
  if (!b || !isDict(v)) return b;
  for (const key of ['consoleLog', 'consoleLogTail'] as const) if (typeof b[key] !== 'string') delete b[key];
  if ('previousBuild' in v) {
    const prev = v.previousBuild === null ? null : buildSummaryOf(v.previousBuild);
    if (prev === undefined) delete b.previousBuild;
    else b.previousBuild = prev;
  }
  if ('lastSuccessfulBuild' in v) {
    const last = v.lastSuccessfulBuild === null ? null : buildDetailsOf(v.lastSuccessfulBuild);
    if (last === undefined) delete b.lastSuccessfulBuild;
    else b.lastSuccessfulBuild = last;
  }
  return b;
}

function jobDetailsOf(v: unknown): JobDetails | undefined {
  if (!isDict(v)) return undefined;
  const j = reshape(v, [['jobType', 'type', asStr], ['isBuildable', 'buildable', asBool], ['configXml', 'config', asStr]], {
    inQueue: asBool,
    isPipeline: asBool,
    concurrentBuild: asBool,
    healthScore: asNum,
    nextBuildNumber: asNum,
    upstreamProjects: projectsOf,
    downstreamProjects: projectsOf,
  });
  return j as JobDetails;
}

function agentStatsOf(v: unknown): CiContext['agentStats'] {
  if (!isDict(v)) return undefined;
  const out: Dict = { ...v };
  for (const k of ['onlineAgents', 'offlineAgents']) {
    const n = asNum(v[k]);
    if (n === undefined) delete out[k];
    else out[k] = n;
  }
  if (Array.isArray(v.agents)) {
    out.agents = v.agents.filter(isDict).flatMap((a): AgentInfo[] => {
      const name = asStr(a.name);
      if (name === undefined) return [];
      const agent: AgentInfo = { ...a, name, online: asBool(a.online) ?? false };
      if (typeof a.labels === 'string') agent.labels = a.labels.split(/\s+/).filter(Boolean);
      const executors = asNum(a.executors);
      if (executors === undefined) delete agent.executors;
      else agent.executors = executors;
      return [agent];
    });
  } else delete out.agents;
  return out;
}

/**
 * The canonical CiContext of CONTRACT section 2 from either shape: `jenkinsVersion` becomes
 * `ciVersion`; `activePlugins` as an array becomes the map of its enabled entries (the entries,
 * disabled ones included, go to `plugins` unless that was sent); `parameters` as an array becomes
 * a map, secret-named values `****`; `causes` strings become `{shortDescription}`; job and build
 * aliases (`type`, `buildable`, `config`, `durationMs`, `tests`, `builtOn`) take their canonical
 * names; `ciEnvironment` values become strings. Nulls are dropped; unknown fields are kept. Never
 * throws: a field of a type it cannot read is dropped (uploads were type-checked before).
 */
export function normaliseCiContext(raw: unknown): CiContext {
  const input = withoutNulls(raw);
  if (!isDict(input)) return {};
  const ci: Dict = { ...input };
  rename(ci, 'ciVersion', 'jenkinsVersion', (v) => (typeof v === 'string' && v.trim() ? v : undefined));
  for (const key of ['currentScreen', 'rootUrl', 'systemMessage', 'contextParsingError']) {
    if (key in ci && typeof ci[key] !== 'string') delete ci[key];
  }

  const plugins = Array.isArray(ci.plugins) ? ci.plugins.map(pluginOf).filter((p): p is PluginInfo => p !== undefined) : undefined;
  const active = ci.activePlugins;
  if (Array.isArray(active)) {
    const list = active.map(pluginOf).filter((p): p is PluginInfo => p !== undefined);
    const map: Record<string, string> = {};
    for (const p of list) if (p.enabled !== false) map[p.shortName] = p.version;
    ci.activePlugins = map;
    ci.plugins = plugins ?? list;
  } else if (isDict(active)) {
    const map: Record<string, string> = {};
    for (const [name, version] of Object.entries(active)) {
      if (typeof version === 'string' || typeof version === 'number') map[name] = String(version);
    }
    ci.activePlugins = map;
    if (plugins) ci.plugins = plugins;
    else delete ci.plugins;
  } else {
    delete ci.activePlugins;
    if (plugins) ci.plugins = plugins;
    else delete ci.plugins;
  }

  if ('masterNode' in ci) {
    const m = ci.masterNode;
    if (isDict(m)) {
      const node: Dict = { ...m };
      const executors = asNum(m.executors);
      if (executors === undefined) delete node.executors;
      else node.executors = executors;
      const online = asBool(m.isOnline);
      if (online === undefined) delete node.isOnline;
      else node.isOnline = online;
      if (!isDict(m.systemInfo)) delete node.systemInfo;
      ci.masterNode = node;
    } else delete ci.masterNode;
  }
  const agents = agentStatsOf(ci.agentStats);
  if (agents) ci.agentStats = agents;
  else delete ci.agentStats;
  const job = jobDetailsOf(ci.jobDetails);
  if (job) ci.jobDetails = job;
  else delete ci.jobDetails;
  const build = buildDetailsOf(ci.buildDetails);
  if (build) ci.buildDetails = build;
  else delete ci.buildDetails;
  if (isDict(ci.ciEnvironment)) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(ci.ciEnvironment)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') env[k] = String(v);
    }
    ci.ciEnvironment = env;
  } else delete ci.ciEnvironment;
  return ci as CiContext;
}


/** The stored JSON of one context (mysql2 may hand a JSON column over parsed). */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export async function up(knex: Knex): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = (await knex('contexts').select('id', 'ci_context').where('id', '>', after).orderBy('id').limit(PAGE)) as { id: number | string; ci_context: unknown }[];
    if (rows.length === 0) return;
    for (const row of rows) {
      const stored = parsed(row.ci_context);
      // Not JSON: left for the reader to refuse, as before.
      if (stored === undefined) continue;
      const text = JSON.stringify(normaliseCiContext(stored));
      if (text !== (typeof row.ci_context === 'string' ? row.ci_context : JSON.stringify(row.ci_context))) {
        await knex('contexts').where('id', row.id).update({ ci_context: text });
      }
    }
    after = Number(rows.at(-1)!.id);
  }
}

export async function down(): Promise<void> {
  // The canonical form is what older code made of every context on read: nothing to undo.
}
