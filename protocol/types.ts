/**
 * What crosses the wire between the backend, the controller and the CLI
 * (../shared/CONTRACT.md section 2). Field names follow the contract exactly.
 */

export type AnswerStatus = 'streaming' | 'complete' | 'interrupted' | 'failed';

/** What an answer rests on. */
export type Source =
  | { kind: 'log'; start_line: number; end_line: number }
  | { kind: 'context'; field: string }
  | { kind: 'file'; path: string };

export interface Chat {
  id: number;
  user_id: string;
  title: string;
  created_at: string;
  updated_at: string;
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

export interface PluginInfo {
  shortName: string;
  longName?: string;
  version: string;
  enabled: boolean;
  [key: string]: unknown;
}

export interface MasterNode {
  executors?: number;
  isOnline?: boolean;
  systemInfo?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface AgentStats {
  onlineAgents?: number;
  offlineAgents?: number;
  agents?: { name: string; online: boolean; executors?: number; offlineReason?: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

export interface BuildCause {
  shortDescription: string;
  userId?: string;
  userName?: string;
  [key: string]: unknown;
}

export interface JobDetails {
  name?: string;
  fullName?: string;
  type?: string;
  buildable?: boolean;
  description?: string;
  nextBuildNumber?: number;
  config?: string;
  [key: string]: unknown;
}

export interface BuildDetails {
  number?: number;
  result?: string;
  building?: boolean;
  durationMs?: number;
  timestamp?: string;
  causes?: BuildCause[];
  parameters?: { name: string; value: unknown }[];
  builtOn?: string;
  changes?: { commitId?: string; author?: string; message?: string; [key: string]: unknown }[];
  previousBuild?: { number: number; result?: string; [key: string]: unknown } | null;
  /**
   * The job's last green build before this one (the baseline a failure is compared with): its
   * number, result, time and log end (`consoleLogTail`, or `consoleLog` sent by the caller), and
   * the commits of the builds after it (`changesSince`). `null` when no earlier build passed.
   */
  lastSuccessfulBuild?: {
    number?: number;
    result?: string;
    consoleLogTail?: string;
    consoleLog?: string;
    changesSince?: { commitId?: string; author?: string; message?: string; build?: number; [key: string]: unknown }[];
    [key: string]: unknown;
  } | null;
  tests?: { total?: number; failed?: number; skipped?: number; passed?: number; [key: string]: unknown };
  consoleLog?: string;
  consoleLogTail?: string;
  [key: string]: unknown;
}

/**
 * The CI server's context, as the interface specification names it. Every field is optional
 * and unknown fields are kept. `jenkinsVersion` (the original plugin's name) is read as
 * `ciVersion` by the backend.
 */
export interface CiContext {
  currentScreen?: string;
  ciVersion?: string;
  rootUrl?: string;
  systemMessage?: string;
  activePlugins?: PluginInfo[];
  masterNode?: MasterNode;
  agentStats?: AgentStats;
  jobDetails?: JobDetails;
  buildDetails?: BuildDetails;
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
