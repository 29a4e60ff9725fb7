/**
 * What crosses the wire between the backend, the controller and the CLI
 * (../shared/CONTRACT.md section 2). Field names follow the contract exactly. The shapes that
 * have a schema (protocol/ciContext.ts, protocol/api.ts) take their types from it (`z.output`:
 * what the schema hands on, canonical names, no nulls), so a type cannot drift from what is
 * checked and from the OpenAPI document generated from the same schemas.
 */
import type { z } from 'zod';
import type {
  agentSchema,
  agentStatsSchema,
  buildDetailsSchema,
  buildHistorySchema,
  buildSummarySchema,
  causeSchema,
  changeSchema,
  ciContextObjectSchema,
  failingStepSchema,
  historyVerdictSchema,
  jobDetailsSchema,
  lastSuccessfulBuildSchema,
  masterNodeSchema,
  pluginSchema,
  testHistorySchema,
  testResultsSchema,
  workspaceChangesNotReadSchema,
  workspaceChangesSchema,
  workspaceSnippetSchema,
} from './ciContext.js';
import type { ERROR_CODES, answerSchema, answerStatusSchema, chatSchema, qaPairSchema, questionSchema, sourceSchema, streamEventSchema } from './api.js';

/** `Omit` that keeps the other fields of a type with an index signature (`Omit` keeps only the signature). */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

export type AnswerStatus = z.output<typeof answerStatusSchema>;

/** What an answer rests on: log lines, a context field, a workspace file, a tool the engine called. */
export type Source = z.output<typeof sourceSchema>;

/**
 * A chat. `job_name` / `build_number`: the job and build of its uploaded context
 * (jobDetails.fullName, else ciEnvironment JOB_NAME; buildDetails.number, else BUILD_NUMBER);
 * null when there is none; absent from older backends.
 */
export type Chat = z.output<typeof chatSchema>;
export type Question = z.output<typeof questionSchema>;
export type Answer = z.output<typeof answerSchema>;
export type QaPair = z.output<typeof qaPairSchema>;

export interface Page<T> {
  items: T[];
  total_items: number;
  limit: number;
  offset: number;
}

export interface ErrorBody {
  detail: string;
  /** A machine-readable name of the error, where a client acts on which error it is (ERROR_CODES); `detail` stays the sentence. */
  code?: ErrorCode;
}

/** A machine-readable name of an error (protocol/api.ts ERROR_CODES). */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One Server-Sent Event of an answer stream. */
export type StreamEvent = z.output<typeof streamEventSchema>;

/** One plugin as the fuller `plugins` list (or the older array form of `activePlugins`) describes it. */
export type PluginInfo = z.output<typeof pluginSchema>;
export type MasterNode = z.output<typeof masterNodeSchema>;
export type AgentInfo = z.output<typeof agentSchema>;
export type AgentStats = z.output<typeof agentStatsSchema>;
/** Stored as an object; the original plugin sends plain strings (read as `{shortDescription}`). */
export type BuildCause = NonNullable<z.output<typeof causeSchema>>;
/** Canonical names of CONTRACT section 2 (the aliases are accepted on upload). */
export type JobDetails = z.output<typeof jobDetailsSchema>;
export type TestResults = z.output<typeof testResultsSchema>;
export type BuildChange = z.output<typeof changeSchema>;
/** A build's facts without its log: `previousBuild` has this shape. */
export type BuildSummary = z.output<typeof buildSummarySchema>;
export type FailingStep = z.output<typeof failingStepSchema>;
/**
 * A build with its log. The controller writes `null` for "there is none" in `previousBuild`,
 * `lastSuccessfulBuild` (then `noSuccessfulBuild` says why) and `history` (no fingerprint); on the
 * wire null is "unknown" and the codec drops it, so stored contexts never hold it.
 */
export type BuildDetails = Without<z.output<typeof buildDetailsSchema>, 'previousBuild' | 'lastSuccessfulBuild' | 'history'> & {
  previousBuild?: BuildSummary | null;
  lastSuccessfulBuild?: z.output<typeof lastSuccessfulBuildSchema> | null;
  history?: BuildHistory | null;
};
export type HistoryVerdict = z.output<typeof historyVerdictSchema>;
/** One failed test of a build against the job's recent builds. */
export type TestHistory = z.output<typeof testHistorySchema>;
export type BuildHistory = z.output<typeof buildHistorySchema>;
/**
 * The CI server's context in the canonical names of CONTRACT section 2 (what the backend stores
 * and echoes, and what the controller emits). Every field is optional and unknown fields are kept.
 */
export type CiContext = Without<z.output<typeof ciContextObjectSchema>, 'buildDetails'> & { buildDetails?: BuildDetails };
export type WorkspaceSnippet = z.output<typeof workspaceSnippetSchema>;
/** The checkout's change from git (`workspaceChanges`, session 52). */
export type WorkspaceChanges = z.output<typeof workspaceChangesSchema>;
/** Why the build's workspace was not read as its checkout (`workspaceChangesNotRead`, session 53). */
export type WorkspaceChangesNotRead = z.output<typeof workspaceChangesNotReadSchema>;

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
 * A guess at the class of a finding the rules left `unknown`, from the words of its excerpt
 * (core/finding/classModel.ts): never established, never stated as the cause.
 */
export interface LikelyClass {
  /** The class the excerpt's words most resemble (never `unknown`). */
  class: Exclude<FindingClass, 'unknown'>;
  /** The model's tempered posterior for it (0-1), at least 0.9: the temperature is fitted on held-out rounds; forward on unseen rounds 11-15 (docs/notes/analyzer.md, "The class model on unseen breaks") the guesses at 0.9 were right 7 of 7 times on the rules' unknowns (an estimate from few cases). */
  probability: number;
  /** The excerpt's words (as the log spells them) that weigh most for it, at most 6 (3 or more when the excerpt has them). */
  words: string[];
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
  /**
   * How sure the class is: high (a specific rule on the message line, and the excerpt's words agree with its class:
   * core/finding/calibration.ts), medium, low (unknown or weak).
   */
  confidence: 'high' | 'medium' | 'low';
  /**
   * Only when calibration changed the rules' finding (core/finding/calibration.ts): the rule's own level. `high` with a
   * `medium` confidence: a rule's high whose class the excerpt's words did not support, lowered. `medium` or `low` with
   * `rules_class`: a rule's medium or low class the words did not support, so the class is `unknown`.
   */
  rules_confidence?: 'high' | 'medium' | 'low';
  /**
   * Only with `class: unknown`, when calibration set it aside: the class a rule gave at medium or low confidence, which
   * the excerpt's words did not support (forward, such classes were wrong about three times in four). Not established.
   */
  rules_class?: Exclude<FindingClass, 'unknown'>;
  /** The 1-based log lines the finding rests on, message line first. */
  evidence: number[];
  /** Only with `class: unknown`: the class the excerpt's words suggest, a guess (no rule's evidence holds it). */
  likely_class?: LikelyClass;
  /** Only for native code refused by a linker or a loader (core/finding/linkage.ts): which of the two, and what it was linking or loading. */
  linkage?: Linkage;
  /**
   * Only when a tool refused an operand of the failed step's own command (core/finding/refused.ts), on a line the
   * command printed up to the message (30 at most) or 3 below it, whatever the class: what the command named that
   * the tool could not take.
   */
  refused?: RefusedOperand;
  /**
   * Only when the finding is about a request a server answered with a 4xx or 5xx status, read on its message line or
   * another evidence line (core/finding/httpStatus.ts): which status, as the client printed it, and the request's URL
   * when the line or the download command above it names it.
   */
  http_status?: HttpStatus;
}

/** The HTTP status a server answered the failing request with (`curl: (22) The requested URL returned error: 404`). */
export interface HttpStatus {
  /** The status code (400-599). */
  code: number;
  /** The status as the client printed it (`404`, `404 Not Found`, `403: Forbidden`). */
  said: string;
  /** The request's URL, when the status line or the download command above it (`+ curl ... URL`, wget's request line, PowerShell's `-Uri`) names it. */
  url?: string;
  /** 1-based log line carrying the status. */
  log_line: number;
  /** 1-based log line naming `url` when another line than the status's does (the download command). */
  url_line?: number;
}

/** An operand of the failed step's command that a tool refused (`cp: cannot stat 'config/app.json'`, ruff's `E902` over `--> src:1:1`). */
export interface RefusedOperand {
  /** The operand as the command gives it (`./internal/labels/...`). */
  operand: string;
  /** The operand as a path: `./`, a trailing `/` and go's `/...` trimmed (`internal/labels`). */
  path: string;
  /** The tool says it is not there (no such file, cannot stat, not found, no files matching), not that it exists already, is ambiguous or is not a directory. */
  absent: boolean;
  /** The 1-based log lines that refuse it: the refusal's, and the pointer's under it when only that names the operand. */
  log_line: number;
  end_line: number;
  /** The 1-based log line of the command. */
  command_line: number;
}

/**
 * Which of the two refused native code. `link`: the static linker, while the build put a program or library together
 * (`tool` names it: `ld`, `ld.gold`, `ld.lld`, `rust-lld`, `go`); `object` the object file it names. `load`: the dynamic
 * loader, when a program or a runtime loaded a shared object already built (`tool` is what reported it: `ld.so` for the
 * loader's own words, `python`, `node`, `java`, `erlang`); `object` the shared object or module it was loading; the
 * finding's `symbol` is the symbol it did not find or the library file it could not open. `resolve`: the JVM, at run
 * time, resolving a reference of code it loaded against the class it found, whose shape differs from the one that code
 * was compiled against (NoSuchMethodError, NoSuchFieldError, AbstractMethodError, IllegalAccessError, InstantiationError,
 * IncompatibleClassChangeError: LinkageErrors; `tool` is `java`); no linker or loader refused anything. `missing-class`:
 * the JVM's NoClassDefFoundError of a class it could not find at run time (JVMS 5.4.3.1; the class the code was compiled
 * against is not on the run-time classpath); `object` the class in dotted form (`dev.notes.common.Slugs`).
 */
export interface Linkage {
  stage: 'link' | 'load' | 'resolve' | 'missing-class';
  object?: string;
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
