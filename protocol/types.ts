/**
 * What crosses the wire between the backend, the controller and the CLI
 * (../shared/CONTRACT.md section 2). Field names follow the contract exactly.
 */

export type AnswerStatus = 'streaming' | 'complete' | 'interrupted' | 'failed';

/** What an answer rests on. */
export type Source =
  | { kind: 'log'; start_line: number; end_line: number }
  | { kind: 'context'; field: string }
  | { kind: 'file'; path: string; start_line?: number; end_line?: number }
  /** A workspace tool the `openai` engine called (list_workspace, read_workspace_file, search_log). */
  | { kind: 'tool'; name: string; input: string; ok: boolean };

export interface Chat {
  id: number;
  user_id: string;
  title: string;
  created_at: string;
  updated_at: string;
  /**
   * The job of the chat's uploaded context (jobDetails.fullName, else ciEnvironment JOB_NAME);
   * null when the context names none or there is no context. Absent from older backends.
   */
  job_name?: string | null;
  /** The build of that context (buildDetails.number, else BUILD_NUMBER); null or absent as job_name. */
  build_number?: number | null;
}

export interface Question {
  id: number;
  content: string;
  created_at: string;
}

export interface Answer {
  id: number;
  content: string;
  status: AnswerStatus;
  sources: Source[];
  created_at: string;
}

export interface QaPair {
  id: number;
  qa_pair_id: number;
  chat_id: number;
  created_at: string;
  question: Question;
  answer: Answer | null;
}

export interface Page<T> {
  items: T[];
  total_items: number;
  limit: number;
  offset: number;
}

export interface ErrorBody {
  detail: string;
}

/** One Server-Sent Event of an answer stream. */
export type StreamEvent =
  | { event: 'started'; qa_pair_id: number }
  | { event: 'chunk'; content: string }
  | { event: 'done' }
  | { event: 'error'; detail: string };

/** One plugin as the fuller `plugins` list (or the older array form of `activePlugins`) describes it. */
export interface PluginInfo {
  shortName: string;
  longName?: string;
  version: string;
  enabled?: boolean;
  pinned?: boolean;
  [key: string]: unknown;
}

export interface MasterNode {
  executors?: number;
  isOnline?: boolean;
  /** `osName, osArch, osVersion, javaVersion, availableProcessors, freeMemoryMB, totalMemoryMB, maxMemoryMB`, more kept. */
  systemInfo?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface AgentInfo {
  name: string;
  online: boolean;
  executors?: number;
  labels?: string[];
  offlineReason?: string;
  [key: string]: unknown;
}

export interface AgentStats {
  onlineAgents?: number;
  offlineAgents?: number;
  agents?: AgentInfo[];
  [key: string]: unknown;
}

/** Stored as an object; the original plugin sends plain strings (read as `{shortDescription}`). */
export interface BuildCause {
  shortDescription: string;
  userId?: string;
  userName?: string;
  [key: string]: unknown;
}

/** Canonical names of CONTRACT section 2 (aliases in comments are accepted on upload). */
export interface JobDetails {
  name?: string;
  fullName?: string;
  /** alias `type` */
  jobType?: string;
  url?: string;
  /** alias `buildable` */
  isBuildable?: boolean;
  inQueue?: boolean;
  healthScore?: number;
  description?: string;
  /** alias `config` */
  configXml?: string;
  isPipeline?: boolean;
  concurrentBuild?: boolean;
  upstreamProjects?: string[];
  downstreamProjects?: string[];
  nextBuildNumber?: number;
  [key: string]: unknown;
}

export interface TestResults {
  total?: number;
  failed?: number;
  skipped?: number;
  passed?: number;
  [key: string]: unknown;
}

export interface BuildChange {
  commitId?: string;
  author?: string;
  message?: string;
  [key: string]: unknown;
}

/** A build's facts without its log: `previousBuild` has this shape. */
export interface BuildSummary {
  number?: number;
  result?: string;
  building?: boolean;
  /** Milliseconds (alias `durationMs`). */
  duration?: number;
  /** ISO 8601 (epoch milliseconds are accepted and converted). */
  timestamp?: string;
  causes?: BuildCause[];
  /** Name -> value, secret values `****` (an array of `{name, value}` is accepted). */
  parameters?: Record<string, unknown>;
  /** alias `tests` */
  testResults?: TestResults;
  /** alias `builtOn` */
  builtOnNode?: string;
  changes?: BuildChange[];
  [key: string]: unknown;
}

export interface FailingStep {
  stage?: string;
  stagePath?: string[];
  branch?: string;
  step: string;
  nodeId?: string;
  errorClass: string;
  errorMessage: string;
  logLines?: [number, number];
  log?: string;
  /** `script returned exit code N`: the step's wrapper; its output says why. */
  wrapper?: boolean;
}

export interface BuildDetails extends BuildSummary {
  consoleLog?: string;
  consoleLogTail?: string;
  /** The line of the whole log that `consoleLogTail` starts with (1-based), when known. */
  consoleLogTailStartLine?: number;
  /**
   * The pipeline steps that failed, as the flow nodes recorded them (issue 26): the step's
   * stage (innermost; `stagePath` when nested), parallel branch, function name, exception and
   * message, and its own lines of the whole log (`logLines` [first, last], 1-based) and text.
   */
  failingSteps?: FailingStep[];
  previousBuild?: BuildSummary | null;
  /**
   * The baseline a failure is compared with: the same shape, with its log end when known
   * (`consoleLogTail`, or `consoleLog` sent by the caller), the commits of the builds after it
   * (`changesSince`), and once the backend compared the logs, how long its log was
   * (`comparedLogLines`; the text itself is not stored). `null`: no earlier build passed
   * (`noSuccessfulBuild` says so).
   */
  lastSuccessfulBuild?:
    | (BuildSummary & { consoleLogTail?: string; consoleLog?: string; comparedLogLines?: number; changesSince?: (BuildChange & { build?: number })[] })
    | null;
  /** Why there is no `lastSuccessfulBuild` (`#1 is the first build of app: no earlier build passed`). */
  noSuccessfulBuild?: string;
  /** The failure against the job's recent builds (issue 29); null when the build's failure has no fingerprint. */
  history?: BuildHistory | null;
}

/** `new`: first seen here; `recurring`: failing since; `flaky`: passes and fails without a change; `fixed-and-back`. */
export type HistoryVerdict = 'new' | 'recurring' | 'flaky' | 'fixed-and-back';

/** One failed test of a build against the job's recent builds. */
export interface TestHistory {
  name: string;
  /** Builds (of those looked at) where it failed, oldest first. */
  failedIn: number[];
  /** The last builds (at most 10) whose test report has it passing. */
  passedIn: number[];
  verdict: HistoryVerdict;
  /** A build where it passed on a commit on which it also failed. */
  sameCommitPass?: number;
}

/**
 * A failed build's failure against the job's last `window` builds (CONTRACT section 6): its
 * fingerprint (core/history/fingerprint.ts), where it was first seen, how often, and the verdict
 * with the builds that show it.
 */
export interface BuildHistory {
  fingerprint: string;
  /** The normalised message and class behind the fingerprint. */
  message?: string;
  class?: string;
  /** How many builds were looked at (this one included), from `firstBuildLooked` on. */
  window: number;
  firstBuildLooked: number;
  /** How many of them failed this way (this one included). */
  seenInLast: number;
  /** The first build of the window that failed this way. */
  firstSeen: number;
  /** The first build of the unbroken run of such failures that ends with this one, and its length. */
  failingSince: number;
  streak: number;
  /** The commit the run started with, when the build recorded one. */
  firstAfterCommit?: string;
  /** Builds that passed between the first occurrence and this build. */
  passedBetween: number[];
  verdict: HistoryVerdict;
  evidenceBuilds: number[];
  /** One sentence saying why, naming the evidence builds. */
  reason: string;
  tests?: TestHistory[];
  /** The same fingerprint in other jobs of the same folder during the window's period. */
  otherJobs?: { job: string; builds: number[] }[];
}

/**
 * The CI server's context in the canonical names of CONTRACT section 2 (what the backend stores
 * and echoes, and what the controller emits). Every field is optional and unknown fields are
 * kept. protocol/schemas.ts accepts the aliases and normalises to this.
 */
export interface CiContext {
  currentScreen?: string;
  /** alias `jenkinsVersion` */
  ciVersion?: string;
  rootUrl?: string;
  /** Absent from the original plugin when none is set. */
  systemMessage?: string;
  /** Enabled plugins: short name -> version. */
  activePlugins?: Record<string, string>;
  /** Fuller plugin facts, disabled ones included. */
  plugins?: PluginInfo[];
  masterNode?: MasterNode;
  agentStats?: AgentStats;
  jobDetails?: JobDetails;
  buildDetails?: BuildDetails;
  /** Source around the `file:line`s the failure names, and the pipeline script (issue 17). */
  workspaceSnippets?: WorkspaceSnippet[];
  /** The build's environment as a pipeline step saw it (`JOB_NAME`, `GIT_COMMIT`, ...). */
  ciEnvironment?: Record<string, string>;
  /** The client could not read part of the context. */
  contextParsingError?: string;
  [key: string]: unknown;
}

/**
 * Lines of a workspace file sent with the context of a failed build: `path` is relative to the
 * workspace (`WorkflowScript` for a pipeline script kept in the job's configuration), lines are
 * 1-based and inclusive, `text` has its secrets masked.
 */
export interface WorkspaceSnippet {
  path: string;
  /** `ws-default`, a flow node id, `local` (a checkout the CLI read) or `job-config` (an inline pipeline script). */
  workspaceId: string;
  startLine: number;
  endLine: number;
  text: string;
  /** `source`: around a line the failure names; `pipeline`: the pipeline script. */
  kind?: 'source' | 'pipeline';
  /** The line the log names, when there is one. */
  line?: number;
  /** The log line that names it. */
  logLine?: number;
  /** What the tool said at that line (`cannot find symbol` with its `symbol:` line...). */
  message?: string;
  [key: string]: unknown;
}

/** A ranked failure excerpt of a build log (1-based, inclusive line numbers of the original log). */
export interface LogExcerpt {
  start_line: number;
  end_line: number;
  score: number;
  reason: string;
  /** Only when analysed against a passing build's log: a line of it is not in that log. */
  new_since_baseline?: boolean;
  /** What the excerpt establishes (core/finding): class, message, location chain, test, evidence. */
  finding?: Finding;
}

/** The failure classes of a finding (CONTRACT section 6); `unknown` when no class's evidence rule held. */
export const FINDING_CLASSES = [
  'compile-error',
  'link-error',
  'test-assertion',
  'test-error',
  'runtime-exception',
  'dependency-resolution',
  'network',
  'disk-full',
  'out-of-memory',
  'timeout-aborted',
  'permission-credentials',
  'missing-tool',
  'lint',
  'ci-script',
  'agent-lost',
  'unknown',
] as const;
export type FindingClass = (typeof FINDING_CLASSES)[number];

/** One stack frame of a finding's location chain. */
export interface FindingFrame {
  file: string;
  line: number;
  column?: number;
  /** The function or method the frame names, when the trace prints it. */
  function?: string;
  /** 1-based log line of the frame. */
  log_line: number;
}

/** Where the failure is: the place the tool names, and the frames of a trace. */
export interface FindingLocation {
  file: string;
  line?: number;
  column?: number;
  /** 1-based log line that names it. */
  log_line: number;
  frames?: {
    /** The innermost frame: where the exception was raised or the panic happened. */
    raise?: FindingFrame;
    /** The innermost frame in the project's own code (not a library, the runtime or a test framework). */
    project?: FindingFrame;
  };
}

/**
 * What one failure excerpt establishes: the class (decided by that class's evidence rule), the
 * error message and the log line that carries it, the tool, the location chain, the failing
 * test, and the details the log states (compiler code, exception type, missing symbol,
 * expected/actual values, dependency, host). Nothing here is inferred beyond what a log line says.
 */
export interface Finding {
  class: FindingClass;
  /** The error message itself, as the log prints it (one line, trimmed of CI prefixes). */
  message: string;
  /** 1-based log line carrying the message: the headline. */
  message_line: number;
  /** The tool whose output the message is (`javac`, `tsc`, `pytest`, `maven`, `pip`, `ld`, `sh`, ...). */
  tool?: string;
  /** The compiler's or tool's error code (`TS2339`, `E0425`, `ETARGET`, `F401`). */
  code?: string;
  /** The exception or panic type (`NullPointerException`, `TypeError`, `panic`, `SIGSEGV`). */
  exception?: string;
  /** The missing symbol of a compile or link error, the missing command of missing-tool. */
  symbol?: string;
  /** The values an assertion compared, only when the log prints them. */
  expected?: string;
  actual?: string;
  /** The dependency (coordinates or name and version) that did not resolve. */
  dependency?: string;
  /** The host that could not be reached. */
  host?: string;
  location?: FindingLocation;
  /** The failing test, when one failed. */
  test?: { name: string; log_line: number };
  /** How sure the class is: high (a specific rule on the message line), medium, low (unknown or weak). */
  confidence: 'high' | 'medium' | 'low';
  /** The 1-based log lines the finding rests on, message line first. */
  evidence: number[];
}

/** One entry of a workspace tree (CONTRACT section 3, Workspaces). */
export interface WorkspaceTreeNode {
  name: string;
  type: 'directory' | 'file';
  /** Bytes, for files (symbolic links: the length of the link itself). */
  size?: number;
  /** For directories. */
  children?: WorkspaceTreeNode[];
  /** Set on a directory whose children were cut: by the node cap, or by the depth limit. */
  truncated?: true;
}

/**
 * One element of the `GET /chatbot-api/workspaceTree` answer (a JSON array of these): a
 * workspace of the build on the controller's host, `tree` being its root directory.
 */
export interface WorkspaceTreeEntry {
  /** `ws-default` for a classic job, the flow node id of the `node` step for a pipeline. */
  workspaceId: string;
  /** The agent's name; `built-in` for the controller's own node. */
  node: string;
  /** The path as Jenkins recorded it, when it was recorded. */
  path?: string;
  tree: WorkspaceTreeNode;
}

/** The `GET /chatbot-api/workspaceFile` answer (errors come with status 400, 404 or 415). */
export type WorkspaceFileAnswer = { status: 'success'; content: string } | { status: 'error'; message: string };

/**
 * A failed build the controller's watcher noticed and diagnosed (`GET /chatbot-api/failures`,
 * docs/notes/watch.md): `chat_id` is the caller's chat holding the diagnosis, `unread` until the
 * caller opens it.
 */
export interface WatchedFailure {
  job: string;
  build: number;
  result: string;
  cause: string;
  chat_id: number | null;
  unread: boolean;
  build_url: string | null;
  detected_at: string;
  diagnosed_at: string;
  /** Why no diagnosis could be made (the build vanished, the backend kept failing). */
  error?: string;
}
