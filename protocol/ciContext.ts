/**
 * The CiContext codec (CONTRACT section 2): one zod schema per shape, which type-checks an upload
 * in either spelling (the interface specification's names, as the original Jenkins plugin posts
 * them, and the aliases older cichat clients send) and outputs the canonical form the backend
 * stores and the engines read. The TypeScript types (protocol/types.ts) are inferred from these
 * schemas and the OpenAPI document is generated from them, so the three cannot drift.
 *
 * Adding a field: add it to its shape here (canonical name, and its older name under the
 * shape's aliases if it has one), answer it in backend/answer/, test it (docs/notes/house.md).
 */
import { z } from 'zod';
import { arr, bool, int, isDict, loose, num, obj, opt, rec, scalar, shape, str, withAliases, withoutNulls, type Dict } from './fields.js';

export { withoutNulls } from './fields.js';

const MASK = '****';

/** Parameters named like secrets carry `****`, whoever sent them. */
export const SECRET_PARAMETER_NAME = /passw(or)?d|passphrase|secret|token|api[_-]?key|private[_-]?key|credential/i;

/** One plugin (`plugins`, or the older array form of `activePlugins`): version as text, `unknown` when not sent. */
const pluginSchema = shape({
  shortName: str,
  longName: opt(str),
  version: opt(z.union([z.string(), z.number()], { error: 'must be a string' })),
  enabled: opt(bool),
  pinned: opt(bool),
}).transform((p) => loose({ ...p, shortName: p.shortName.trim(), version: p.version === undefined ? 'unknown' : String(p.version) }));

/** A list of plugins; an entry with a blank short name names nothing and is left out. */
const pluginListSchema = arr(pluginSchema).transform((list) => list.filter((p) => p.shortName !== ''));

/** `activePlugins`: the specification's map (short name -> version), or the older array of plugins. */
const activePluginsSchema = z.union(
  [z.record(z.string(), opt(z.union([z.string(), z.number()], { error: 'must be a version string' }))), pluginListSchema],
  { error: 'must be an object of plugin name -> version (or an array of {shortName, version, enabled})' },
);

const causeObjectSchema = shape({ shortDescription: opt(str), userId: opt(str), userName: opt(str) });
/** The original plugin sends plain strings: read as `{shortDescription}` (a blank one is none). */
const causeSchema = z
  .union([str, causeObjectSchema], { error: 'must be a string or an object with shortDescription' })
  .transform((c) => {
    if (typeof c === 'string' && !c.trim()) return undefined;
    const cause: z.output<typeof causeObjectSchema> = typeof c === 'string' ? { shortDescription: c.trim() } : c;
    return loose({ ...cause, shortDescription: cause.shortDescription ?? '' });
  });
const causesSchema = arr(causeSchema).transform((list) => list.filter((c) => c !== undefined));

/** Name -> value (an array of `{name, value}` is read as that map); secret-named values `****`. */
const parametersSchema = z
  .union([rec, arr(obj({ name: str, value: z.unknown() }))], { error: 'must be an object of name -> value (or an array of {name, value})' })
  .transform((v) => {
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((p) => [p.name, p.value ?? null]) : Object.entries(v);
    const out: Record<string, unknown> = {};
    for (const [name, value] of entries) out[name] = SECRET_PARAMETER_NAME.test(name) && value !== '' && value !== null && value !== undefined ? MASK : value;
    return out;
  });

const testResultsSchema = shape({ total: opt(int), failed: opt(int), skipped: opt(int), passed: opt(int) });

/** Upstream/downstream projects as full names (`{fullName}` or `{name}` objects read as it). */
const projectsSchema = arr(z.union([str, obj({ fullName: opt(str), name: opt(str) })], { error: 'must be a project name' })).transform((list) =>
  list.flatMap((p) => {
    const name = (typeof p === 'string' ? p : (p.fullName ?? p.name ?? '')).trim();
    return name ? [name] : [];
  }),
);

/** ISO 8601; epoch milliseconds (a number, or digits) are converted; a blank or non-positive value is none. */
const timestampSchema = z.union([str, num], { error: 'must be an ISO date string or epoch milliseconds' }).transform((v) => {
  if (typeof v === 'string') {
    if (!v.trim()) return undefined;
    return /^\d{10,}$/.test(v.trim()) ? new Date(Number(v)).toISOString() : v;
  }
  return Number.isFinite(v) && v > 0 ? new Date(v).toISOString() : undefined;
});

const changeShape = { commitId: opt(str), author: opt(str), message: opt(str) };
const changeSchema = shape(changeShape);

/** A build's facts without its log (`previousBuild` has this shape). */
const buildSummaryShape = {
  number: opt(int),
  result: opt(str),
  building: opt(bool),
  /** Milliseconds. */
  duration: opt(num),
  timestamp: opt(timestampSchema),
  causes: opt(causesSchema),
  parameters: opt(parametersSchema),
  testResults: opt(testResultsSchema),
  builtOnNode: opt(str),
  changes: opt(arr(changeSchema)),
};
/** The older names of a build's fields. */
const buildAliases = { durationMs: 'duration', tests: 'testResults', builtOn: 'builtOnNode' } as const;

export const buildSummarySchema = withAliases(buildSummaryShape, buildAliases);

/** The baseline a failure is compared with: a build's facts with its log end when known. */
const lastSuccessfulBuildSchema = withAliases(
  {
    ...buildSummaryShape,
    consoleLogTail: opt(str),
    consoleLog: opt(str),
    /** How long its log was once the backend compared the logs (the text itself is not stored). */
    comparedLogLines: opt(int),
    /** The commits of the builds after it. */
    changesSince: opt(arr(shape({ ...changeShape, build: opt(int) }))),
  },
  buildAliases,
);

/** One pipeline step that failed, as the flow nodes recorded it (issue 26). */
const failingStepSchema = shape({
  stage: opt(str),
  stagePath: opt(arr(str)),
  branch: opt(str),
  step: str,
  nodeId: opt(str),
  errorClass: str,
  errorMessage: str,
  /** The step's own lines of the whole log, [first, last], 1-based. */
  logLines: opt(z.tuple([int, int], { error: 'must be [first, last]' })),
  log: opt(str),
  /** `script returned exit code N`: the step's wrapper; its output says why. */
  wrapper: opt(bool),
});

/** `new`: first seen here; `recurring`: failing since; `flaky`: passes and fails without a change; `fixed-and-back`. */
export const historyVerdictSchema = z.enum(['new', 'recurring', 'flaky', 'fixed-and-back'], { error: 'must be new, recurring, flaky or fixed-and-back' });

const testHistorySchema = shape({
  name: str,
  /** Builds (of those looked at) where it failed, oldest first. */
  failedIn: arr(int),
  /** The last builds (at most 10) whose test report has it passing. */
  passedIn: arr(int),
  verdict: historyVerdictSchema,
  /** A build where it passed on a commit on which it also failed. */
  sameCommitPass: opt(int),
});

/**
 * A failed build's failure against the job's last `window` builds (CONTRACT section 6): its
 * fingerprint (core/history/fingerprint.ts), where it was first seen, how often, and the verdict
 * with the builds that show it.
 */
export const buildHistorySchema = shape({
  fingerprint: str,
  /** The normalised message and class behind the fingerprint. */
  message: opt(str),
  class: opt(str),
  /** How many builds were looked at (this one included), from `firstBuildLooked` on. */
  window: int,
  firstBuildLooked: int,
  /** How many of them failed this way (this one included). */
  seenInLast: int,
  /** The first build of the window that failed this way. */
  firstSeen: int,
  /** The first build of the unbroken run of such failures that ends with this one, and its length. */
  failingSince: int,
  streak: int,
  /** The commit the run started with, when the build recorded one. */
  firstAfterCommit: opt(str),
  /** Builds that passed between the first occurrence and this build. */
  passedBetween: arr(int),
  verdict: historyVerdictSchema,
  evidenceBuilds: arr(int),
  /** One sentence saying why, naming the evidence builds. */
  reason: str,
  tests: opt(arr(testHistorySchema)),
  /** The same fingerprint in other jobs of the same folder during the window's period. */
  otherJobs: opt(arr(obj({ job: str, builds: arr(int) }))),
});

export const buildDetailsSchema = withAliases(
  {
    ...buildSummaryShape,
    consoleLog: opt(str),
    consoleLogTail: opt(str),
    /** The line of the whole log that `consoleLogTail` starts with (1-based), when known. */
    consoleLogTailStartLine: opt(int),
    /** The pipeline steps that failed (stage, branch, step, exception, their own log lines). */
    failingSteps: opt(arr(failingStepSchema)),
    previousBuild: opt(buildSummarySchema),
    lastSuccessfulBuild: opt(lastSuccessfulBuildSchema),
    /** Why there is no `lastSuccessfulBuild` (`#1 is the first build of app: no earlier build passed`). */
    noSuccessfulBuild: opt(str),
    /** The failure against the job's recent builds (issue 29). */
    history: opt(buildHistorySchema),
    /** Why there is no `history`: the controller could not read the job's builds. */
    historyError: opt(str),
    /**
     * The ids of the build's workspaces the controller found on its host (and may serve) when it
     * built this context from JENKINS_HOME, for a failed or unstable build (`ws-default`, a flow
     * node id): `cichat ws cat` can read them. Absent: none found, or not looked for.
     */
    workspaces: opt(arr(str)),
  },
  buildAliases,
);

export const jobDetailsSchema = withAliases(
  {
    name: opt(str),
    fullName: opt(str),
    jobType: opt(str),
    url: opt(str),
    isBuildable: opt(bool),
    inQueue: opt(bool),
    healthScore: opt(num),
    description: opt(str),
    configXml: opt(str),
    isPipeline: opt(bool),
    concurrentBuild: opt(bool),
    upstreamProjects: opt(projectsSchema),
    downstreamProjects: opt(projectsSchema),
    nextBuildNumber: opt(int),
  },
  { type: 'jobType', buildable: 'isBuildable', config: 'configXml' },
);

/** `systemInfo`: `osName, osArch, osVersion, javaVersion, availableProcessors, freeMemoryMB, totalMemoryMB, maxMemoryMB`, more kept. */
const masterNodeSchema = shape({ executors: opt(int), isOnline: opt(bool), systemInfo: opt(rec) });

/** One agent: labels as a list (a space-separated string is read as one), offline unless it says online. */
const agentSchema = shape({
  name: str,
  online: opt(bool),
  executors: opt(int),
  labels: opt(z.union([str, arr(str)], { error: 'must be a string or an array of strings' })),
  offlineReason: opt(str),
}).transform(({ labels, ...a }) => loose({
  ...a,
  online: a.online ?? false,
  ...(labels === undefined ? {} : { labels: typeof labels === 'string' ? labels.split(/\s+/).filter(Boolean) : labels }),
}));

const agentStatsSchema = shape({ onlineAgents: opt(int), offlineAgents: opt(int), agents: opt(arr(agentSchema)) });

/** NAME -> value as text (numbers and booleans written as strings). */
const ciEnvironmentSchema = z
  .record(z.string(), opt(scalar), { error: 'must be an object of NAME -> value' })
  .transform((env) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== null && v !== undefined) out[k] = String(v);
    return out;
  });

/** Caps on workspace snippets, whoever sends them: what the controller itself sends at most. */
export const MAX_SNIPPETS = 20;
export const MAX_SNIPPET_CHARS = 20_000;

const lineNumber = z
  .number({ error: 'must be a positive whole number' })
  .int({ error: 'must be a positive whole number' })
  .min(1, { error: 'must be a positive whole number' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'must be a positive whole number' });

/**
 * Lines of a workspace file sent with the context of a failed build: `path` is relative to the
 * workspace (`WorkflowScript` for a pipeline script kept in the job's configuration), lines are
 * 1-based and inclusive, `text` has its secrets masked.
 */
/**
 * How a snippet's `message` starts when the snippet is a clue (issue 25): a workspace line that
 * names what failed (the manifest line of a dependency, the script line of a host), found by
 * text, not a line the log names.
 */
export const SNIPPET_CLUE_MARK = 'clue: ';

export const workspaceSnippetSchema = shape({
  path: str.min(1, { error: 'must not be empty' }).max(1000, { error: 'must be at most 1000 characters' }),
  /** `ws-default`, a flow node id, `local` (a checkout the CLI read) or `job-config` (an inline pipeline script). */
  workspaceId: str.max(200, { error: 'must be at most 200 characters' }),
  startLine: lineNumber,
  endLine: lineNumber,
  text: str.max(MAX_SNIPPET_CHARS, { error: `must be at most ${MAX_SNIPPET_CHARS} characters` }),
  /** `source`: around a line the failure names; `pipeline`: the pipeline script. */
  kind: opt(z.enum(['source', 'pipeline'], { error: 'must be "source" or "pipeline"' })),
  /** The line the log names, when there is one. */
  line: opt(lineNumber),
  /** The log line that names it. */
  logLine: opt(lineNumber),
  /** What the tool said at that line (`cannot find symbol` with its `symbol:` line...). */
  message: opt(str),
})
  .refine((s) => s.endLine >= s.startLine, { message: 'must not be before startLine', path: ['endLine'] })
  .meta({ id: 'WorkspaceSnippet', description: 'Source around a line the failure names, or the pipeline script' });

/** `workspaceSnippets` of a context request and of a CiContext upload: the same check for both. */
export const workspaceSnippetsSchema = z
  .array(workspaceSnippetSchema, { error: 'must be an array of {path, workspaceId, startLine, endLine, text}' })
  .max(MAX_SNIPPETS, { error: `must hold at most ${MAX_SNIPPETS} snippets` });

/** The longest diff text of one file in `workspaceChanges` (a few KB: the lines the failure names, not the whole change). */
export const MAX_CHANGE_DIFF_CHARS = 4000;
const commitId = str.min(1, { error: 'must not be empty' }).max(64, { error: 'must be at most 64 characters' });

/**
 * The paths a changelog file line names (`M src/a.c` -> `[src/a.c]`; a rename or copy `R100 old -> new` ->
 * `[old, new]`): the form of `workspaceChanges.commits[].files` and of Jenkins' git changelog. The path after the
 * change comes last. One reader for the controller, the CLI and the answers.
 */
export function changeLinePaths(line: string): string[] {
  return line.replace(/^[ACDMRTUX]\d*\s+/, '').split(' -> ');
}

/**
 * The change a failed build's checkout holds (issue 25 point 3, session 52): read by a confined,
 * read-only `git` run in the checkout (`cichat ask --workspace DIR`, or the build's workspace by the
 * controller) when it is a git checkout. `since-green`: the commits from the last green build's
 * commit to the build's; `last-commit`: that commit unknown, the checkout's last commit alone.
 * `diffs` holds the files the failure names first, each cut to a few KB, secrets masked.
 */
export const workspaceChangesSchema = shape({
  range: z.enum(['since-green', 'last-commit'], { error: 'must be "since-green" or "last-commit"' }),
  base: commitId,
  head: commitId,
  /**
   * Where `head` came from (session 53): `recorded`, the build's own commit (`GIT_COMMIT`, the revision its build.xml
   * records); `checkout-head`, the HEAD of a checkout the user pointed at, no commit of the build given;
   * `workspace-head`, the HEAD of the build's workspace, read as its checkout because the build recorded no commit
   * (or `recordedCommit`, which the workspace does not hold) and no later build of the job has used that workspace.
   */
  headFrom: opt(z.enum(['recorded', 'checkout-head', 'workspace-head'], { error: 'must be "recorded", "checkout-head" or "workspace-head"' })),
  /** The build's recorded commit when the checkout does not hold it (`head` is then the checkout's HEAD). */
  recordedCommit: opt(commitId),
  /** `local` (a checkout the CLI read) or the build's workspace id. */
  workspaceId: opt(str.max(200, { error: 'must be at most 200 characters' })),
  /** Newest first; `files` as Jenkins' changelog gives them (`M path`, `A path`, `R100 old -> new`). */
  commits: arr(
    shape({
      commitId,
      author: opt(str.max(200, { error: 'must be at most 200 characters' })),
      message: opt(str.max(2000, { error: 'must be at most 2000 characters' })),
      files: opt(arr(str.max(1000, { error: 'must be at most 1000 characters' })).max(100, { error: 'must hold at most 100 files' })),
    }),
  ).max(50, { error: 'must hold at most 50 commits' }),
  /** Commits in the range beyond those listed. */
  moreCommits: opt(int),
  /** One file's change in one commit: its unified diff from the first `@@`, masked. */
  diffs: arr(
    shape({
      path: str.min(1, { error: 'must not be empty' }).max(1000, { error: 'must be at most 1000 characters' }),
      commitId,
      text: str.max(MAX_CHANGE_DIFF_CHARS, { error: `must be at most ${MAX_CHANGE_DIFF_CHARS} characters` }),
      /** The file's diff went on past `text`. */
      truncated: opt(bool),
    }),
  ).max(20, { error: 'must hold at most 20 diffs' }),
}).meta({ id: 'WorkspaceChanges', description: "The checkout's change since the last green build (or its last commit), from git" });

/**
 * Why the controller did not read a build's workspace as its checkout (session 53): the build recorded no commit
 * (or one the workspace does not hold), and later builds of the job (`laterBuilds`, the first few) have used that
 * workspace since, so its HEAD may be a later build's checkout. Or (session 55, `shallow`) the checkout is a shallow
 * clone holding `head` (`headSubject` its subject) without its parent, so git cannot show what that commit changed;
 * `laterBuilds` is then empty.
 */
export const workspaceChangesNotReadSchema = shape({
  workspaceId: str.max(200, { error: 'must be at most 200 characters' }),
  reason: z.enum(['no-recorded-commit', 'recorded-commit-absent', 'shallow'], { error: 'must be "no-recorded-commit", "recorded-commit-absent" or "shallow"' }),
  recordedCommit: opt(commitId),
  head: opt(commitId),
  headSubject: opt(str.max(200, { error: 'must be at most 200 characters' })),
  laterBuilds: arr(int).max(20, { error: 'must hold at most 20 builds' }),
}).meta({ id: 'WorkspaceChangesNotRead', description: "Why the build's workspace was not read as its checkout" });

/**
 * CiContext as uploaded: every known field (canonical name or alias) type-checked, every field
 * optional, `null` read as unknown, unknown fields kept; the output is canonical.
 */
const ciContextObjectSchema = withAliases(
  {
    /** The CI page the user is looking at (`Build team/api #42`). */
    currentScreen: opt(str),
    ciVersion: opt(str),
    rootUrl: opt(str),
    /** Absent from the original plugin when none is set. */
    systemMessage: opt(str),
    /** Enabled plugins: short name -> version (an array of plugins is read as the map of its enabled ones). */
    activePlugins: opt(activePluginsSchema),
    /** Fuller plugin facts, disabled ones included. */
    plugins: opt(pluginListSchema),
    masterNode: opt(masterNodeSchema),
    agentStats: opt(agentStatsSchema),
    jobDetails: opt(jobDetailsSchema),
    buildDetails: opt(buildDetailsSchema),
    /** The build's environment as a pipeline step saw it (`JOB_NAME`, `GIT_COMMIT`, ...). */
    ciEnvironment: opt(ciEnvironmentSchema),
    /** The client could not read part of the context. */
    contextParsingError: opt(str),
    /** Source around the `file:line`s the failure names, and the pipeline script (issue 17). */
    workspaceSnippets: opt(workspaceSnippetsSchema),
    /** The checkout's change since the last green build, or its last commit (session 52). */
    workspaceChanges: opt(workspaceChangesSchema),
    /** Why the build's workspace was not read as its checkout (session 53). */
    workspaceChangesNotRead: opt(workspaceChangesNotReadSchema),
  },
  { jenkinsVersion: 'ciVersion' },
  ['ciVersion'],
).transform(({ activePlugins, plugins, ...ci }) => {
  let active: Record<string, string> | undefined;
  let list = plugins;
  if (Array.isArray(activePlugins)) {
    active = {};
    for (const p of activePlugins) if (p.enabled !== false) active[p.shortName] = p.version;
    list ??= activePlugins;
  } else if (activePlugins) {
    active = {};
    for (const [name, version] of Object.entries(activePlugins)) if (version !== null && version !== undefined) active[name] = String(version);
  }
  return loose({ ...ci, ...(active ? { activePlugins: active } : {}), ...(list ? { plugins: list } : {}) });
});

/** What a client may upload as `ciContext`: either shape (canonical names or the aliases), nulls for "unknown". */
export type CiContextUpload = z.input<typeof ciContextObjectSchema>;

/** The CiContext schema: parses an upload in either spelling into the canonical CiContext (nulls dropped at every level first). */
export const ciContextSchema = z
  .preprocess(withoutNulls, ciContextObjectSchema)
  .meta({ id: 'CiContext', description: 'CONTRACT section 2: canonical names, aliases accepted' });

/** The backend's context upload body: `{ciContext}` or `{jenkinsContext}` (the same object). */
export const uploadContextBodySchema = z
  .looseObject({ ciContext: opt(ciContextSchema), jenkinsContext: opt(ciContextSchema) }, { error: 'must be an object' })
  .refine((b) => b.ciContext != null || b.jenkinsContext != null, {
    message: 'is required (send {"ciContext": {...}})',
    path: ['ciContext'],
  });

// ---------------------------------------------------------------------------------------------
// Reading a context that was not checked on the way in (a caller's engine input, old data).

type CiContextOut = z.output<typeof ciContextObjectSchema>;

/** A value of the wrong type in an obvious other spelling of the expected one, else undefined. */
function coerced(value: unknown, expected: string): unknown {
  if (expected === 'number' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (expected === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  // `"a, b"` for a list of names.
  if (expected === 'array' && typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  return undefined;
}

const DROP = Symbol('drop');

/**
 * A union's issue as the issues of the branch the value is closest to (its own type matched and
 * the fewest issues inside), with whole paths; the union's own issue when no branch matched.
 */
function withinUnions(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const inner = issue.errors
    .filter((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0))
    .sort((a, b) => a.length - b.length)[0];
  if (!inner) return [issue];
  return inner.flatMap((i) => withinUnions({ ...i, path: [...issue.path, ...i.path] } as z.core.$ZodIssue));
}

/** Repairs `root` in place at each issue: the value coerced when it can be, else dropped (a missing required field drops its object). */
function repair(root: Dict, issues: readonly z.core.$ZodIssue[]): boolean {
  const arrays = new Set<unknown[]>();
  let changed = false;
  for (const issue of issues.flatMap((i) => withinUnions(i))) {
    let path = issue.path as PropertyKey[];
    let parent: unknown = root;
    for (const key of path.slice(0, -1)) parent = isDict(parent) || Array.isArray(parent) ? (parent as Dict)[key as string] : undefined;
    let key = path.at(-1);
    if (key === undefined || !(isDict(parent) || Array.isArray(parent))) continue;
    let value = (parent as Dict)[key as string];
    if (value === undefined) {
      // A required field is missing: its object goes.
      if (path.length < 2) continue;
      path = path.slice(0, -1);
      parent = root;
      for (const k of path.slice(0, -1)) parent = isDict(parent) || Array.isArray(parent) ? (parent as Dict)[k as string] : undefined;
      key = path.at(-1);
      if (key === undefined || !(isDict(parent) || Array.isArray(parent))) continue;
      value = DROP;
    }
    const fixed = value === DROP || issue.code !== 'invalid_type' ? undefined : coerced(value, issue.expected);
    if (Array.isArray(parent)) {
      parent[key as number] = fixed ?? DROP;
      arrays.add(parent);
    } else if (fixed === undefined) delete (parent as Dict)[key as string];
    else (parent as Dict)[key as string] = fixed;
    changed = true;
  }
  for (const list of arrays) {
    const kept = list.filter((v) => v !== DROP);
    list.length = 0;
    list.push(...kept);
  }
  return changed;
}

/**
 * The canonical CiContext of any value, never throwing: what the schema reads, with each value of
 * the wrong type coerced when it is an obvious spelling (`"80"` for a number, `"true"` for a
 * boolean, `"a, b"` for a list) and dropped otherwise. For contexts that did not come through the
 * upload's check (an engine's caller, data older than the schema); uploads use `ciContextSchema`.
 */
export function normaliseCiContext(raw: unknown): CiContextOut {
  const input = withoutNulls(raw);
  if (!isDict(input)) return {};
  for (let round = 0; round < 32; round++) {
    const parsed = ciContextObjectSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    if (!repair(input, parsed.error.issues)) break;
  }
  return {};
}

/** The plugins of a context as one list: `plugins` when sent, plus enabled `activePlugins` entries it lacks. */
export function pluginList(ci: { plugins?: readonly z.output<typeof pluginSchema>[] | undefined; activePlugins?: Record<string, string> | undefined }): z.output<typeof pluginSchema>[] | undefined {
  const full = Array.isArray(ci.plugins) ? ci.plugins : undefined;
  const active = isDict(ci.activePlugins) ? ci.activePlugins : undefined;
  if (!full && !active) return undefined;
  const list = full ? [...full] : [];
  const known = new Set(list.map((p) => p.shortName));
  for (const [shortName, version] of Object.entries(active ?? {})) {
    if (!known.has(shortName)) list.push(loose({ shortName, version: String(version), enabled: true }));
  }
  return list;
}

/** The schemas whose output types protocol/types.ts names. */
export {
  pluginSchema,
  causeSchema,
  changeSchema,
  testResultsSchema,
  failingStepSchema,
  testHistorySchema,
  masterNodeSchema,
  agentSchema,
  agentStatsSchema,
  lastSuccessfulBuildSchema,
  ciContextObjectSchema,
};
