/**
 * The CiContext field table of CONTRACT section 2, as data: for every field its canonical path,
 * the alias older cichat clients send (and how the value looks there), the phrasings a user
 * types about it, and what an answer must show with the fact present and absent. The two
 * shapes of the context are built from it: the original plugin's (test/fixtures/ci-context/
 * original-plugin.json, the specification's names) and the alias shape (older cichat names:
 * `jenkinsVersion`, plugins as an array, `type`, `buildable`, `config`, `durationMs`, `tests`,
 * `builtOn`, parameters as an array, causes as objects).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;
type Want = RegExp | string;

export interface FieldRow {
  /** Canonical path (`buildDetails.duration`); `ciEnvironment.NAME` for environment variables. */
  field: string;
  /** Where the alias shape carries it, when it differs. */
  alias?: string;
  /** The alias shape's value, from the original value (default: the same value). */
  toAlias?: (value: unknown, original: Json) => unknown;
  /** At least three phrasings a user types. */
  questions: string[];
  /** What every answer shows when the fact is present (value and verdict). */
  present: Want[];
  /** What every answer shows when it is absent (default: says so plainly, and where it would come from). */
  absent?: Want[];
  /** What no answer shows when it is absent (default: the present strings). */
  notWhenAbsent?: Want[];
  /** Facts removed with it in the absent case: the ones that would answer in its place. */
  alsoAbsent?: string[];
  /** Facts removed in both cases, so that this field is the one answering. */
  without?: string[];
  /** Not in the base context: added only for its own "present" case (the log). */
  optIn?: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const ORIGINAL_FIXTURE = path.join(here, '..', 'fixtures', 'ci-context', 'original-plugin.json');

/** The original plugin's full context, as its Java side posts it. */
export function originalPluginContext(): Json {
  return JSON.parse(fs.readFileSync(ORIGINAL_FIXTURE, 'utf8')) as Json;
}

/** The build log of the log row (opt-in): a failed Gradle compile. */
export const FIELD_LOG = [
  '[Pipeline] sh',
  '+ ./gradlew build',
  '> Task :compileJava',
  'src/main/java/com/acme/OrderTotals.java:42: error: cannot find symbol',
  '        return totals.sumOf(items);',
  '1 error',
  'BUILD FAILED in 14s',
  'ERROR: script returned exit code 1',
  'Finished: FAILURE',
  '',
].join('\n');

const DOES_NOT_SAY = /The uploaded context does not say/;
const WHERE_FROM = /would come from/;

const pluginArray = (_v: unknown, original: Json): unknown =>
  (original.plugins as Json[]).map((p) => ({ shortName: p.shortName, longName: p.longName, version: p.version, enabled: p.enabled }));
const withDurationMs = (v: unknown): unknown => {
  const { duration, ...rest } = v as Json;
  return { ...rest, durationMs: duration, timestamp: new Date(rest.timestamp as number).toISOString() };
};

export const FIELD_TABLE: FieldRow[] = [
  {
    field: 'currentScreen',
    questions: ['what page am I looking at?', 'which screen am I on?', 'where am I in jenkins?'],
    present: ['Console team/api #42'],
  },
  {
    field: 'ciVersion',
    alias: 'jenkinsVersion',
    questions: ['what version of jenkins is this?', 'which jenkins release are we running?', 'jenkins version?'],
    present: ['2.440.3'],
  },
  {
    field: 'rootUrl',
    questions: ["what is the jenkins root url?", "what's the base URL of the server?", 'where is jenkins hosted?'],
    present: ['https://ci.example.com/'],
    alsoAbsent: ['jobDetails.url'],
  },
  {
    field: 'systemMessage',
    questions: ['what is the system message?', 'is there a banner on jenkins?', 'any announcement from the admins?'],
    present: ['Maintenance', 'Sunday 02:00-04:00 UTC'],
    // The original plugin leaves it out when none is set.
    absent: [/No system message is set/],
  },
  {
    field: 'activePlugins',
    toAlias: pluginArray,
    questions: ['is the git plugin installed?', 'what version of the docker-workflow plugin do we have?', 'do we have the junit plugin?'],
    present: [/Yes — `(git|docker-workflow|junit)` [\w.-]+ is installed/],
    alsoAbsent: ['plugins'],
  },
  {
    field: 'plugins',
    alias: 'activePlugins',
    toAlias: pluginArray,
    questions: ['which plugins are disabled?', 'list the disabled plugins', 'are any plugins disabled?'],
    present: ['blueocean', 'disabled'],
    alsoAbsent: ['activePlugins'],
  },
  {
    field: 'masterNode.executors',
    questions: ['how many executors does the built-in node have?', 'number of executors on the controller?', 'how many executors are there?'],
    present: ['2 executors'],
    alsoAbsent: ['agentStats'],
  },
  {
    field: 'masterNode.isOnline',
    questions: ['is the built-in node online?', 'is the master node up?', 'is the controller node offline?'],
    present: [/built-in node is online/],
  },
  {
    field: 'masterNode.systemInfo',
    toAlias: (v) => {
      const i = v as Json;
      return {
        'os.name': i.osName,
        'os.arch': i.osArch,
        'os.version': i.osVersion,
        'java.version': i.javaVersion,
        availableProcessors: i.availableProcessors,
        totalMemory: (i.totalMemoryMB as number) * 1024 * 1024,
      };
    },
    questions: ['what OS does the controller run?', 'how much memory does the built-in node have?', 'which java version is the built-in node on?'],
    present: [/Linux|15\.6 GiB|17\.0\.9/],
  },
  {
    field: 'agentStats.onlineAgents',
    questions: ['how many agents are online?', 'how many build agents are connected?', 'how many agents do we have online?'],
    present: [/2 agents online/],
    alsoAbsent: ['agentStats.agents', 'agentStats.offlineAgents'],
  },
  {
    field: 'agentStats.offlineAgents',
    questions: ['are any agents offline?', 'is any agent down?', 'how many agents are disconnected?'],
    present: [/1 agent is offline/],
    alsoAbsent: ['agentStats.agents', 'agentStats.onlineAgents'],
  },
  {
    field: 'agentStats.agents',
    toAlias: (v) => (v as Json[]).map((a) => ({ ...a, labels: (a.labels as string[]).join(' ') })),
    questions: ['which agents are offline?', 'list the agents', 'what labels do the agents have?'],
    present: ['windows-agent-1'],
    alsoAbsent: ['agentStats'],
  },
  {
    field: 'jobDetails.fullName',
    questions: ['which job is this?', "what's the job name?", 'what job am I looking at?'],
    present: ['team/api'],
    alsoAbsent: ['jobDetails.name', 'ciEnvironment.JOB_NAME', 'currentScreen'],
  },
  {
    field: 'jobDetails.jobType',
    alias: 'jobDetails.type',
    questions: ['what type of job is this?', 'what kind of project is this job?', 'is this a freestyle job?'],
    present: [/Pipeline/],
    alsoAbsent: ['jobDetails.isPipeline'],
  },
  {
    field: 'jobDetails.url',
    questions: ["what's the job's URL?", 'give me a link to the job page', 'where can I open this job?'],
    present: ['https://ci.example.com/job/team/job/api/'],
    alsoAbsent: ['rootUrl'],
  },
  {
    field: 'jobDetails.isBuildable',
    alias: 'jobDetails.buildable',
    questions: ['is the job buildable?', 'can I build this job?', 'is the job buildable or disabled?'],
    present: [/Yes — `team\/api` is buildable/],
  },
  {
    field: 'jobDetails.inQueue',
    questions: ['is the job in the queue?', 'why is it queued?', 'is my build stuck because the built-in node is offline?'],
    present: [/waiting in the queue/, /built-in node is \*\*online\*\*/, /2 agents online/, /Maintenance/],
    absent: [/does not say whether `team\/api` is in the queue/, /built-in node is \*\*online\*\*/, /2 agents online/],
    notWhenAbsent: [/waiting in the queue/],
  },
  {
    field: 'jobDetails.healthScore',
    questions: ["what is the job's health score?", 'how healthy is this job?', "what's the weather of the job?"],
    present: [/health score of 60%/],
  },
  {
    field: 'jobDetails.description',
    questions: ['what does this job do?', 'describe the job', "what is the job's description?"],
    present: [/orders.*API service/],
    notWhenAbsent: ['API service'],
  },
  {
    field: 'jobDetails.configXml',
    alias: 'jobDetails.config',
    questions: ["show me the job's config.xml", 'what does the job configuration say?', 'which repository is configured in the job config?'],
    present: ['https://github.com/acme/orders-api.git'],
  },
  {
    field: 'jobDetails.isPipeline',
    questions: ['is this a pipeline job?', 'is team/api a pipeline?', 'does this job use a Jenkinsfile?'],
    present: [/Yes — `team\/api` is a Pipeline/],
    without: ['jobDetails.jobType'],
  },
  {
    field: 'jobDetails.concurrentBuild',
    questions: ['can builds of this job run concurrently?', 'does the job allow concurrent builds?', 'can two builds of this job run at the same time?'],
    present: [/No — `team\/api` does not allow concurrent builds/],
  },
  {
    field: 'jobDetails.upstreamProjects',
    questions: ['which projects trigger this job?', 'what are the upstream projects?', 'what job runs before this one?'],
    present: ['team/lib-core'],
  },
  {
    field: 'jobDetails.downstreamProjects',
    questions: ['which jobs run after this one?', 'what are the downstream projects?', 'what does this job trigger?'],
    present: ['team/deploy-staging', 'team/smoke-tests'],
  },
  {
    field: 'buildDetails.number',
    questions: ['which build number is this?', 'what build is this?', "what's the build number?"],
    present: ['#42'],
    alsoAbsent: ['ciEnvironment.BUILD_NUMBER'],
  },
  {
    field: 'buildDetails.result',
    questions: ['did the build pass?', 'what was the result of the build?', "what's the build status?"],
    present: [/FAILURE/],
  },
  {
    field: 'buildDetails.duration',
    alias: 'buildDetails.durationMs',
    questions: ['how long did the build take?', 'what was the build duration?', 'how many minutes did it run?'],
    present: ['3 min 12 s'],
  },
  {
    field: 'buildDetails.timestamp',
    toAlias: (v) => new Date(v as number).toISOString(),
    questions: ['when did the build start?', 'what time was the build started?', 'when was it run?'],
    present: [/2025-11-22|2025/],
  },
  {
    field: 'buildDetails.causes',
    toAlias: (v) => (v as string[]).map((s) => ({ shortDescription: s, userId: 'alice', userName: 'Alice Martin' })),
    questions: ['who started the build?', 'what triggered this build?', 'who kicked off this build?'],
    present: ['Alice Martin'],
  },
  {
    field: 'buildDetails.parameters',
    toAlias: (v) => Object.entries(v as Json).map(([name, value]) => ({ name, value })),
    questions: ['what parameters did the build use?', 'which build parameters were passed?', 'with what values was it run?'],
    present: ['TARGET_ENV', 'staging', '****'],
    notWhenAbsent: ['TARGET_ENV'],
  },
  {
    field: 'buildDetails.testResults',
    alias: 'buildDetails.tests',
    questions: ['how many tests failed?', 'what were the test results?', 'how many tests ran?'],
    present: [/\b3\b/, /120/],
  },
  {
    field: 'buildDetails.builtOnNode',
    alias: 'buildDetails.builtOn',
    questions: ['which node did the build run on?', 'where was the build executed?', 'which agent built it?'],
    present: ['linux-agent-1'],
    alsoAbsent: ['ciEnvironment.NODE_NAME'],
  },
  {
    field: 'buildDetails.changes',
    questions: ['what changed in this build?', 'which commits went into the build?', 'who committed changes?'],
    present: ['Apply the discount before tax'],
  },
  {
    field: 'buildDetails.previousBuild',
    toAlias: withDurationMs,
    questions: ['how did the previous build end?', 'did the build before this one pass?', 'what was the result of the prior build?'],
    present: ['#41', 'FAILURE'],
    notWhenAbsent: ['#41'],
  },
  {
    field: 'buildDetails.lastSuccessfulBuild',
    toAlias: withDurationMs,
    questions: ['when did it last pass?', 'which was the last successful build?', 'what was the last green build?'],
    present: ['#40'],
    notWhenAbsent: ['#40'],
  },
  {
    field: 'buildDetails.consoleLog',
    optIn: true,
    questions: ['show me the last lines of the log', 'what does the end of the console output say?', 'tail of the log'],
    present: ['Finished: FAILURE'],
    absent: [/no (build )?log|does not (say|hold)|not .*uploaded|no console/i],
    notWhenAbsent: ['Finished: FAILURE'],
  },
  {
    field: 'ciEnvironment.GIT_COMMIT',
    questions: ['which commit was built?', "what's the git sha of this build?", 'which revision did it build?'],
    present: ['a1b2c3d4e5f6'],
  },
  {
    field: 'ciEnvironment.GIT_BRANCH',
    questions: ['which branch was built?', 'what branch is this build on?', 'which git branch did the build use?'],
    present: ['release-2.1'],
    without: ['ciEnvironment.GIT_COMMIT'],
  },
  {
    field: 'ciEnvironment.NODE_NAME',
    questions: ['which node did the build run on?', 'what machine ran this build?', 'on which agent was it built?'],
    present: ['linux-agent-1'],
    without: ['buildDetails.builtOnNode'],
  },
  {
    field: 'ciEnvironment.BUILD_NUMBER',
    questions: ['which build number is this?', 'what build is this?', "what's the build number?"],
    present: ['#42'],
    without: ['buildDetails.number'],
  },
  {
    field: 'ciEnvironment.JOB_NAME',
    questions: ['which job is this?', "what's the job name?", 'what job was built?'],
    present: ['team/api'],
    without: ['jobDetails.fullName', 'jobDetails.name', 'currentScreen'],
  },
  {
    field: 'ciEnvironment.GIT_URL',
    questions: ['what is GIT_URL?', 'what environment variables did the build have?', 'show the build environment'],
    present: ['https://github.com/acme/orders-api.git'],
    alsoAbsent: ['ciEnvironment'],
  },
  {
    field: 'contextParsingError',
    questions: ['was there a problem reading the context?', 'did the context upload have errors?', 'is any of the context missing?'],
    present: ['windows-agent-1: agent offline'],
    absent: [/No problem was reported/],
  },
];

// ---------------------------------------------------------------------------------------------
// Paths

function parts(p: string): string[] {
  // `ciEnvironment.NAME` and `masterNode.systemInfo` are two levels; names hold no dots.
  return p.split('.');
}

export function getPath(o: Json, p: string): unknown {
  let cur: unknown = o;
  for (const key of parts(p)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Json)[key];
  }
  return cur;
}

export function setPath(o: Json, p: string, value: unknown): void {
  const keys = parts(p);
  let cur = o;
  for (const key of keys.slice(0, -1)) {
    if (typeof cur[key] !== 'object' || cur[key] === null) cur[key] = {};
    cur = cur[key] as Json;
  }
  cur[keys[keys.length - 1] as string] = value;
}

export function deletePath(o: Json, p: string): void {
  const keys = parts(p);
  let cur: unknown = o;
  for (const key of keys.slice(0, -1)) {
    if (typeof cur !== 'object' || cur === null) return;
    cur = (cur as Json)[key];
  }
  if (typeof cur === 'object' && cur !== null) delete (cur as Json)[keys[keys.length - 1] as string];
}

export type Shape = 'original' | 'alias';

/** The full context in the original plugin's shape or in the alias shape (no log). */
export function contextOfShape(shape: Shape): Json {
  const original = originalPluginContext();
  if (shape === 'original') return original;
  const out = structuredClone(original);
  for (const row of FIELD_TABLE) {
    if (row.optIn || (!row.alias && !row.toAlias)) continue;
    const value = getPath(original, row.field);
    if (value === undefined) continue;
    deletePath(out, row.field);
    setPath(out, row.alias ?? row.field, row.toAlias ? row.toAlias(value, original) : structuredClone(value));
  }
  return out;
}

/** The path a row's field has in a shape. */
export function pathIn(row: FieldRow, shape: Shape): string {
  return shape === 'alias' && row.alias ? row.alias : row.field;
}

/** A field's path in a shape, for the fields other rows name (`alsoAbsent`, `without`). */
export function fieldPathIn(field: string, shape: Shape): string {
  const row = FIELD_TABLE.find((r) => r.field === field);
  return row ? pathIn(row, shape) : field;
}

/** The context of one case: the shape's full context, the row's field present or absent. */
export function caseContext(row: FieldRow, shape: Shape, present: boolean): { ci: Json; log?: string } {
  const ci = contextOfShape(shape);
  for (const other of row.without ?? []) deletePath(ci, fieldPathIn(other, shape));
  if (!present) {
    deletePath(ci, pathIn(row, shape));
    for (const other of row.alsoAbsent ?? []) deletePath(ci, fieldPathIn(other, shape));
  }
  const log = row.optIn && present ? FIELD_LOG : undefined;
  return log === undefined ? { ci } : { ci, log };
}

export const ABSENT_DEFAULT: Want[] = [DOES_NOT_SAY, WHERE_FROM];
