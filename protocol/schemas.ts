/**
 * The wire shape of CiContext as zod schemas (CONTRACT section 2): the canonical field names of
 * the interface specification, which the original Jenkins plugin posts, and the aliases older
 * cichat clients send. `ciContextSchema` type-checks an upload (a wrong type names its field);
 * `normaliseCiContext` turns either shape into the canonical one, tolerating anything (it also
 * runs on contexts stored before the canonical names, so they still answer).
 */
import { z } from 'zod';
import type { AgentInfo, BuildCause, BuildChange, BuildDetails, BuildSummary, CiContext, JobDetails, PluginInfo, TestResults } from './types.js';

const MASK = '****';

const str = z.string({ error: 'must be a string' });
const num = z.number({ error: 'must be a number' });
const int = z.number({ error: 'must be a number' }).int({ error: 'must be an integer' });
const bool = z.boolean({ error: 'must be a boolean' });
const obj = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape, { error: 'must be an object' });
const arr = <T extends z.ZodType>(item: T) => z.array(item, { error: 'must be an array' });
const rec = z.record(z.string(), z.unknown(), { error: 'must be an object' });
/** Jenkins sends null for what it does not know: read as absent. */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string, a number or a boolean' });

const pluginSchema = obj({
  shortName: str,
  longName: opt(str),
  version: opt(z.union([z.string(), z.number()], { error: 'must be a string' })),
  enabled: opt(bool),
  pinned: opt(bool),
});

/** `activePlugins`: the specification's map (short name -> version), or the older array of plugins. */
const activePluginsSchema = z.union(
  [z.record(z.string(), opt(z.union([z.string(), z.number()], { error: 'must be a version string' }))), arr(pluginSchema)],
  { error: 'must be an object of plugin name -> version (or an array of {shortName, version, enabled})' },
);

const causeSchema = z.union([str, obj({ shortDescription: opt(str), userId: opt(str), userName: opt(str) })], {
  error: 'must be a string or an object with shortDescription',
});

const parametersSchema = z.union([rec, arr(obj({ name: str, value: z.unknown() }))], {
  error: 'must be an object of name -> value (or an array of {name, value})',
});

const testsSchema = obj({ total: opt(int), failed: opt(int), skipped: opt(int), passed: opt(int) });
const projectsSchema = arr(z.union([str, obj({ fullName: opt(str), name: opt(str) })], { error: 'must be a project name' }));

/** A build's facts without its log (previousBuild, lastSuccessfulBuild), both names of each field. */
const buildShape = {
  number: opt(int),
  result: opt(str),
  building: opt(bool),
  duration: opt(num),
  durationMs: opt(num),
  timestamp: opt(z.union([str, num], { error: 'must be an ISO date string or epoch milliseconds' })),
  causes: opt(arr(causeSchema)),
  parameters: opt(parametersSchema),
  testResults: opt(testsSchema),
  tests: opt(testsSchema),
  builtOnNode: opt(str),
  builtOn: opt(str),
  changes: opt(arr(obj({ commitId: opt(str), author: opt(str), message: opt(str) }))),
};

export const jobDetailsSchema = obj({
  name: opt(str),
  fullName: opt(str),
  jobType: opt(str),
  type: opt(str),
  url: opt(str),
  isBuildable: opt(bool),
  buildable: opt(bool),
  inQueue: opt(bool),
  healthScore: opt(num),
  description: opt(str),
  configXml: opt(str),
  config: opt(str),
  isPipeline: opt(bool),
  concurrentBuild: opt(bool),
  upstreamProjects: opt(projectsSchema),
  downstreamProjects: opt(projectsSchema),
  nextBuildNumber: opt(int),
});

export const buildDetailsSchema = obj({
  ...buildShape,
  consoleLog: opt(str),
  consoleLogTail: opt(str),
  previousBuild: opt(obj(buildShape)),
  lastSuccessfulBuild: opt(obj({ ...buildShape, consoleLogTail: opt(str), consoleLog: opt(str) })),
});

/** Caps on workspace snippets, whoever sends them: what the controller itself sends at most. */
export const MAX_SNIPPETS = 20;
export const MAX_SNIPPET_CHARS = 20_000;

const lineNumber = z
  .number({ error: 'must be a positive whole number' })
  .int({ error: 'must be a positive whole number' })
  .min(1, { error: 'must be a positive whole number' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'must be a positive whole number' });

/** One snippet of source (protocol/types.ts `WorkspaceSnippet`). */
export const workspaceSnippetSchema = obj({
  path: str.min(1, { error: 'must not be empty' }).max(1000, { error: 'must be at most 1000 characters' }),
  workspaceId: str.max(200, { error: 'must be at most 200 characters' }),
  startLine: lineNumber,
  endLine: lineNumber,
  text: str.max(MAX_SNIPPET_CHARS, { error: `must be at most ${MAX_SNIPPET_CHARS} characters` }),
  kind: opt(z.enum(['source', 'pipeline'], { error: 'must be "source" or "pipeline"' })),
  line: opt(lineNumber),
  logLine: opt(lineNumber),
  message: opt(str),
})
  .refine((s) => s.endLine >= s.startLine, { message: 'must not be before startLine', path: ['endLine'] })
  .meta({ id: 'WorkspaceSnippet', description: 'Source around a line the failure names, or the pipeline script' });

/** `workspaceSnippets` of a context request and of a CiContext upload: the same check for both. */
export const workspaceSnippetsSchema = z
  .array(workspaceSnippetSchema, { error: 'must be an array of {path, workspaceId, startLine, endLine, text}' })
  .max(MAX_SNIPPETS, { error: `must hold at most ${MAX_SNIPPETS} snippets` });

/**
 * CiContext as uploaded: every known field (canonical name or alias) type-checked, every field
 * optional, `null` read as unknown, unknown fields kept.
 */
export const ciContextSchema = obj({
  currentScreen: opt(str),
  ciVersion: opt(str),
  jenkinsVersion: opt(str),
  rootUrl: opt(str),
  systemMessage: opt(str),
  activePlugins: opt(activePluginsSchema),
  plugins: opt(arr(pluginSchema)),
  masterNode: opt(obj({ executors: opt(int), isOnline: opt(bool), systemInfo: opt(rec) })),
  agentStats: opt(
    obj({
      onlineAgents: opt(int),
      offlineAgents: opt(int),
      agents: opt(
        arr(
          obj({
            name: str,
            online: opt(bool),
            executors: opt(int),
            labels: opt(z.union([str, arr(str)], { error: 'must be a string or an array of strings' })),
            offlineReason: opt(str),
          }),
        ),
      ),
    }),
  ),
  jobDetails: opt(jobDetailsSchema),
  buildDetails: opt(buildDetailsSchema),
  ciEnvironment: opt(z.record(z.string(), opt(scalar), { error: 'must be an object of NAME -> value' })),
  contextParsingError: opt(str),
  // Source around the failure's file:line and the pipeline script (issue 17; docs/notes/workspace.md).
  workspaceSnippets: opt(workspaceSnippetsSchema),
}).meta({ id: 'CiContext', description: 'CONTRACT section 2: canonical names, aliases accepted' });

/** The backend's context upload body: `{ciContext}` or `{jenkinsContext}` (the same object). */
export const uploadContextBodySchema = z
  .looseObject({ ciContext: opt(ciContextSchema), jenkinsContext: opt(ciContextSchema) }, { error: 'must be an object' })
  .refine((b) => b.ciContext != null || b.jenkinsContext != null, {
    message: 'is required (send {"ciContext": {...}})',
    path: ['ciContext'],
  });

// ---------------------------------------------------------------------------------------------
// Normalisation: either shape (and anything stored before) -> the canonical CiContext.

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
export const SECRET_PARAMETER_NAME = /passw(or)?d|passphrase|secret|token|api[_-]?key|private[_-]?key|credential/i;

/**
 * Drops nulls (Jenkins' "unknown") and undefined at every level. Iterative: client JSON of any
 * depth cannot exhaust the stack here (the body reader also refuses more than 64 levels).
 */
export function withoutNulls(value: unknown): unknown {
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

/** The plugins of a context as one list: `plugins` when sent, plus enabled `activePlugins` entries it lacks. */
export function pluginList(ci: CiContext): PluginInfo[] | undefined {
  const full = Array.isArray(ci.plugins) ? ci.plugins : undefined;
  const active = isDict(ci.activePlugins) ? ci.activePlugins : undefined;
  if (!full && !active) return undefined;
  const list: PluginInfo[] = full ? [...full] : [];
  const known = new Set(list.map((p) => p.shortName));
  for (const [shortName, version] of Object.entries(active ?? {})) {
    if (!known.has(shortName)) list.push({ shortName, version: String(version), enabled: true });
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// The controller's own inputs (CONTRACT section 3), validated with these and described by them in
// GET /chatbot-api/openapi.json.

/** `POST|PUT /chatbot-api/context/{chat_id}/`: what the caller may say; `{}` is valid (Referer decides). */
/** The build permalinks a context request may name instead of a number (Jenkins' own names). */
export const BUILD_PERMALINKS = ['lastBuild', 'lastCompletedBuild', 'lastFailedBuild', 'lastSuccessfulBuild', 'lastUnsuccessfulBuild', 'lastStableBuild', 'lastUnstableBuild'] as const;

const BUILD_NUMBER_ERROR = `must be a positive whole number or one of ${BUILD_PERMALINKS.join(', ')}`;

export const contextRequestSchema = z
  .looseObject(
    {
      currentScreen: opt(str),
      jobName: opt(str),
      buildNumber: opt(
        z.union(
          [
            z
              .number({ error: BUILD_NUMBER_ERROR })
              .int({ error: BUILD_NUMBER_ERROR })
              .min(1, { error: BUILD_NUMBER_ERROR })
              .max(Number.MAX_SAFE_INTEGER, { error: BUILD_NUMBER_ERROR }),
            z.string({ error: BUILD_NUMBER_ERROR }).regex(/^\d{1,15}$/, { error: BUILD_NUMBER_ERROR }).refine((s) => Number(s) >= 1, { message: BUILD_NUMBER_ERROR }),
            z.literal('', { error: BUILD_NUMBER_ERROR }),
            // A permalink Jenkins keeps per job: the controller resolves it (`cichat ask --job J`
            // without --build sends `lastCompletedBuild` or `lastFailedBuild`).
            z.enum(BUILD_PERMALINKS, { error: BUILD_NUMBER_ERROR }),
          ],
          { error: BUILD_NUMBER_ERROR },
        ),
      ),
      consoleLog: opt(str),
      /** The last passing build's log (`cichat context upload --baseline-log`). */
      baselineLog: opt(str),
      ciEnvironment: opt(
        z
          .record(z.string(), z.string({ error: 'must be a string' }).max(4000, { error: 'must be at most 4000 characters' }), {
            error: 'must be an object of strings',
          })
          .refine((env) => Object.keys(env).length <= 200, { message: 'must hold at most 200 variables' }),
      ),
      workspaceSnippets: opt(workspaceSnippetsSchema),
      ciContext: opt(ciContextSchema),
      jenkinsContext: opt(ciContextSchema),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'ContextRequest' });

/** What a client may upload as `ciContext`: either shape (canonical names or the aliases). */
export type CiContextUpload = z.input<typeof ciContextSchema>;

// ---------------------------------------------------------------------------------------------
// The chat API's inputs (CONTRACT section 2), validated by the backend's routes with these, and
// the answers' shapes, for the OpenAPI document the controller serves.

/** Length in characters (code points), as MySQL's utf8mb4 columns count them. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A string of min..max characters (code points), with the contract's messages. */
export function textOfLength(min: number, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .refine((s) => codePoints(s) >= min && codePoints(s) <= max, { message: `must be between ${min} and ${max} characters` })
    .meta({ minLength: min, maxLength: max });
}

export const createChatBodySchema = z.object({ title: textOfLength(1, 200).optional() }).meta({ id: 'CreateChatBody' });
export const renameChatBodySchema = z.object({ new_title: textOfLength(1, 200) }).meta({ id: 'RenameChatBody' });
export const sendMessageBodySchema = z
  .object({
    chat_id: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)], {
      error: (iss) => (iss.input === undefined ? 'is required' : 'must be a chat id (a positive integer)'),
    }),
    content: textOfLength(1, 20000),
  })
  .meta({ id: 'SendMessageBody' });
export const editMessageBodySchema = z.object({ new_content: textOfLength(1, 20000) }).meta({ id: 'EditMessageBody' });

const isoDate = z.string().meta({ format: 'date-time', examples: ['2026-11-22T01:18:14.123Z'] });
export const chatSchema = z
  .object({
    id: z.number().int(),
    user_id: z.string(),
    title: z.string(),
    created_at: isoDate,
    updated_at: isoDate,
    job_name: z.string().nullable().optional().meta({ description: "The job of the chat's current context (jobDetails.fullName, else JOB_NAME); null when none" }),
    build_number: z.number().int().nullable().optional().meta({ description: "The build of the chat's current context (buildDetails.number, else BUILD_NUMBER); null when none" }),
  })
  .meta({ id: 'Chat' });
const sourceSchema = z
  .union([
    z.object({ kind: z.literal('log'), start_line: z.number().int(), end_line: z.number().int() }),
    z.object({ kind: z.literal('context'), field: z.string() }),
    z.object({ kind: z.literal('file'), path: z.string() }),
  ])
  .meta({ id: 'Source' });
export const qaPairSchema = z
  .object({
    id: z.number().int(),
    qa_pair_id: z.number().int(),
    chat_id: z.number().int(),
    created_at: isoDate,
    question: z.object({ id: z.number().int(), content: z.string(), created_at: isoDate }),
    answer: z
      .object({
        id: z.number().int(),
        content: z.string(),
        status: z.enum(['streaming', 'complete', 'interrupted', 'failed']),
        sources: z.array(sourceSchema),
        created_at: isoDate,
      })
      .nullable(),
  })
  .meta({ id: 'QAPair' });
const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), total_items: z.number().int(), limit: z.number().int(), offset: z.number().int() }).meta({ id });
export const chatPageSchema = pageOf(chatSchema, 'ChatPage');
export const qaPairPageSchema = pageOf(qaPairSchema, 'QAPairPage');
export const errorBodySchema = z.object({ detail: z.string() }).meta({ id: 'Error', description: 'Every error: one sentence a person can act on' });
export const streamEventSchema = z
  .union([
    z.object({ event: z.literal('started'), qa_pair_id: z.number().int() }),
    z.object({ event: z.literal('chunk'), content: z.string() }),
    z.object({ event: z.literal('done') }),
    z.object({ event: z.literal('error'), detail: z.string() }),
  ])
  .meta({ id: 'StreamEvent', description: 'One `data:` line of the text/event-stream answer' });
export const uploadContextAnswerSchema = z
  .object({ success: z.literal(true), received_data: z.looseObject({}).meta({ description: 'The stored context, canonical names, secrets masked' }) })
  .meta({ id: 'ContextUploaded' });
export const paginationQuerySchema = z
  .object({
    limit: z.string().regex(/^\d+$/).optional().meta({ description: '1-100, default 20' }),
    offset: z.string().regex(/^\d+$/).optional().meta({ description: '>= 0, default 0' }),
  })
  .meta({ id: 'PaginationQuery' });
