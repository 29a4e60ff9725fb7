/**
 * Jenkins' own failure lines, as data for the analyzer (issue 26): what Jenkins core and the
 * Pipeline plugins print when a build fails, and what each line means.
 *
 * - Groovy/CPS errors of the pipeline script, credentials that do not exist, agents that went
 *   away, timeouts and aborts (who aborted), a downstream build that failed: the line itself is
 *   the cause.
 * - A fatal condition of the machine (disk full, out of memory, a killed process, the agent gone)
 *   weighs 9-11, the top of the ordinary scale, and is `fatal`: it outranks the failures it
 *   causes (a link step that cannot write, tests that die after the heap is gone), wherever it
 *   was printed before the build ended: in a command that went on or exited 0, or after the
 *   step it broke (Jenkins notices a lost agent late); the analyzer ranks it as part of the
 *   failing command.
 * - Wrappers that are never the cause: `script returned exit code N` (the step's own output above
 *   says why), `Build step '...' marked build as failure`, `Finished: FAILURE`, `Failed in branch
 *   X` (the branch's own lines say why), a plugin's bare `ERROR: ... failed.` and pointers to a
 *   log kept elsewhere (`A full log can be found at ...`).
 */
import type { FailureShape } from './shapeType.js';
import { codeAt, includes, lengthOf } from './str.js';

/** Reason of every Groovy/CPS error of the pipeline script (the finding's `ci-script` class). */
export const SCRIPT_REASON = 'Jenkins pipeline script error';
/** Reason of an agent that went away during the build (the finding's `agent-lost` class). */
export const AGENT_REASON = 'Jenkins agent lost';

export const JENKINS_SHAPES: readonly FailureShape[] = [
  // Fatal conditions of the machine: they explain whatever failed after them.
  { re: /no space left on device|\bENOSPC\b|[Dd]isk quota exceeded|There is not enough space on the disk/i, role: 'anchor', weight: 11, reason: 'disk full', fatal: true },
  { re: /OutOfMemoryError|JavaScript heap out of memory|[Oo]ut of memory|Cannot allocate memory|std::bad_alloc|\bOOMKilled\b/, role: 'anchor', weight: 11, reason: 'out of memory', fatal: true },
  { re: /^Killed$|Killed signal terminated program|\bsignal: killed\b/, role: 'anchor', weight: 10, reason: 'process killed', fatal: true },

  // The pipeline script (Groovy, CPS, script security).
  { re: /^WorkflowScript: \d+: /, role: 'anchor', weight: 9, reason: SCRIPT_REASON },
  { re: /MultipleCompilationErrorsException: startup failed/, role: 'anchor', weight: 9, reason: SCRIPT_REASON },
  { re: /MissingPropertyException: No such property: |MissingMethodException: No signature of method: |No such DSL method '|NotSerializableException: |RejectedAccessException: |^Scripts not permitted to use /, role: 'anchor', weight: 9, reason: SCRIPT_REASON },

  // Shared libraries (workflow-cps-global-lib): the library or the version the Jenkinsfile asks for
  // cannot be loaded; Jenkins throws it as an AbortException (a wrapper elsewhere) before any step.
  { re: /No version \S+ found for library \S|^(?:ERROR: )?Could not find any definition of librar(?:y|ies) |^(?:ERROR: )?Library \S+ expected to contain at least one of src or vars/, role: 'anchor', weight: 9, reason: 'Jenkins shared library error', needs: ['No version', 'Could not find any definition', 'expected to contain'] },

  // Credentials.
  { re: /Could not find credentials (?:entry with ID|matching)|CredentialNotFoundException|^(?:ERROR: )?Credentials '.*' is of type|^(?!Warning: )(?:.*)CredentialId "[^"]*" could not be found/, role: 'anchor', weight: 9, reason: 'Jenkins credentials not found' },
  // The Git plugin's warning: it goes on without credentials (a public repository checks out); when they were needed, git's
  // own refusal follows and says so.
  { re: /^Warning: CredentialId "[^"]*" could not be found/, role: 'anchor', weight: 4, reason: 'Jenkins credentials not found' },

  // Agents.
  // Jenkins' own statement first; the remoting exception it throws (and its trace) weighs less.
  { re: /^Cannot contact \S+: |^Agent went offline during the build|^(?:ERROR: )?Connection was broken|was deleted; cancelling node body|^(?:ERROR: )?Issue with creating launcher for agent|wrapper script does not seem to be touching the log file/, role: 'anchor', weight: 10, reason: AGENT_REASON, fatal: true },
  { re: /hudson\.remoting\.ChannelClosedException|Backing channel '.*' is disconnected/, role: 'anchor', weight: 9, reason: AGENT_REASON, fatal: true },
  // A `sh`/`bat` step whose wrapper script never ran on the agent (durable-task; exit code -2).
  { re: /^process apparently never started in \S/, role: 'anchor', weight: 9, reason: 'Jenkins: shell step never started' },
  // No agent can take the build (a label nobody has, all its agents offline): it waits until
  // aborted or timed out, and the line that says why no agent came outranks the timeout or the
  // abort that ends the wait (weight 10 against 9 and 8).
  { re: /^There are no nodes with the label [‘'"]|^All nodes of label [‘'"].*[’'"] are offline|^[‘'"].*[’'"] doesn[’']t have label [‘'"]|^Jenkins doesn[’']t have label [‘'"]/, role: 'anchor', weight: 10, reason: 'Jenkins: no agent for the label', needs: ['label'] },
  // The Kubernetes plugin prints its agent pod's events as `[Type][namespace/pod][Reason] message`:
  // a Warning that keeps the pod from running (no node can hold it, its image cannot be pulled,
  // a volume cannot be mounted, the pod evicted) is why the agent never came. Not fatal: a pod
  // that waits for the cluster to grow and then runs leaves the same event above a later failure.
  { re: /^\[Warning\]\[[^\]\s]+\/[^\]\s]+\]\[(?:FailedScheduling|Failed|FailedMount|FailedAttachVolume|FailedCreatePodSandBox|BackOff|Evicted|ErrImagePull|ImagePullBackOff|ErrImageNeverPull|InspectFailed)\] \S/, role: 'anchor', weight: 10, reason: 'Jenkins: agent pod cannot run' },
  // A cloud that could not create the agent (the Kubernetes plugin's `ERROR: Unable to create pod
  // ns/pod.` over the API's refusal, EC2's or Docker's `Failed to provision`): why no agent came,
  // so it outranks the `All nodes of label ... are offline` the build then waits on (weight 11).
  { re: /^(?:ERROR: )?(?:Unable to create pod \S|Failed to (?:provision|launch|create) (?:agent|node|pod|instance|container)\b|Unable to provision (?:agent|node)\b)/, role: 'anchor', weight: 11, reason: 'Jenkins: agent could not be created', needs: ['Unable to create pod', 'Failed to ', 'Unable to provision'] },
  { re: /^Could not connect to \S+ to send interrupt signal/, role: 'summary', weight: 2, reason: AGENT_REASON },

  // Timeouts and aborts.
  // (`ERROR: Timeout after 10 minutes`: the Git plugin's own limit on a git command.)
  { re: /^Cancelling nested steps due to timeout|^Timeout has been exceeded|^Build timed out \(after \d+ \w+\)|^ERROR: Timeout after \d+ (?:minutes?|seconds?)/, role: 'anchor', weight: 9, reason: 'Jenkins timeout', needs: ['Cancelling nested', 'Timeout has', 'Build timed out', 'Timeout after'] },
  // (`Superseded by <build>`: the milestone step, a newer build passed the milestone this one had not.)
  { re: /^Aborted by \S|^Rejected by \S|^Superseded by \S|^Build was aborted$/, role: 'anchor', weight: 8, reason: 'Jenkins build aborted' },

  // A downstream build (the `build` step) that failed this one.
  { re: /^Build \S.* #\d+ completed: (?:FAILURE|UNSTABLE|ABORTED|NOT_BUILT)|^ERROR: \S.* #\d+ completed with status (?:FAILURE|UNSTABLE|ABORTED|NOT_BUILT)/, role: 'anchor', weight: 8, reason: 'Jenkins downstream build failed' },

  // A server's refusal, as a plugin or a tool reports it.
  { re: /\b(?:[Rr]eturn|[Ss]tatus|[Rr]esponse) code(?: is)?:? [45]\d\d\b|\bHTTP\/\d(?:\.\d)? [45]\d\d\b|\b40[13]:? (?:Unauthorized|Forbidden)\b|\bis not permitted to (?:deploy|read|write|access)\b/, role: 'anchor', weight: 6, reason: 'server refused the request' },

  // Wrappers: never the cause.
  { re: /^Failed in branch \S/, role: 'summary', weight: 2, reason: 'Jenkins: failed in branch' },
  { re: /^(?:ERROR: )?script returned exit code -?\d+/, role: 'summary', weight: 3, reason: 'Jenkins: script returned exit code' },
  // Jenkins' own statement of why a step or a publisher stopped (`hudson.AbortException: No tool named Maven 3 found`,
  // `None of the test reports contained any result`, `Couldn't find any revision to build`) is the cause, under whatever
  // wraps it (a shared library's `Found error during execution of the module`, `ERROR: Publisher ... aborted due to
  // exception`); one that only says a step failed (`script returned exit code 1`, `... execution failed`) or lost its
  // workspace (`Unable to create live FilePath`) is a wrapper (session 57, helper jt10).
  { re: /hudson\.AbortException: (?!script returned exit code|Unable to create live FilePath|.*\b(?:failed|aborted)\.?$)\S/, role: 'anchor', weight: 8, reason: 'Jenkins step aborted' },
  { re: /hudson\.AbortException: /, role: 'summary', weight: 3, reason: 'Jenkins step aborted' },
  // (`Build step '...' marked build as failure` is a failing step's exit: stepExit.ts STEP_EXIT.)
  { re: /^Build step '.*' (?:marked build as failure|changed build result to)/, role: 'summary', weight: 2, reason: 'Jenkins build step failed' },
  { re: /^Finished: (?:FAILURE|ABORTED|UNSTABLE|NOT_BUILT)/, role: 'summary', weight: 1, reason: 'Jenkins build failed' },
  { re: /^Stage ".*" skipped due to (?:earlier failure|when conditional)/, role: 'summary', weight: 1, reason: 'Jenkins stage skipped' },
  { re: /^ERROR: Error (?:fetching|cloning) remote repo '/, role: 'summary', weight: 3, reason: 'git checkout failed' },
  { re: /^(?:ERROR|FATAL): (?:(?!\bfailed: ).){0,160}\b(?:failed|aborted)\.?$/, role: 'summary', weight: 3, reason: 'Jenkins step failed' },
  { re: /\b[Aa] (?:full|complete) log (?:of this run )?can be found (?:at|in)\b/, role: 'summary', weight: 1, reason: 'pointer to another log' },
];

/** Lines that may match a Jenkins shape but hold none of the analyzer's usual failure words. */
export const JENKINS_WORDS = /went offline|was deleted; cancelling|not permitted|ENOSPC|Unauthorized|Forbidden|[Rr]eturn code|[Ss]tatus code|log can be found|CredentialId|Connection was broken|touching the log file|skipped due to/;
/**
 * For the analyzer's prefilter (shapes.ts `failureHints`): three characters, case aside, that
 * every match of JENKINS_WORDS contains one of (`0` any digit; `;` stands for any character
 * that is not a letter, a digit, a space, `(`, `,` or `*`). A line with none skips the pattern.
 */
export const JENKINS_WORD_KEYS: readonly string[] = ['ffl', 'd; ', 'rmi', 'osp', 'tho', 'bid', 'n c', 'tus', 'fou', 'lid', 'rok', 'uch', 'd d'];

/**
 * Prefixes that Jenkins and its plugins put before a line's text: the Timestamper's
 * `[2026-11-20T10:15:30.123Z] `, the clock of a copied HTML console (`10:15:30  `, also with
 * milliseconds or as the elapsed time, `00:00:21.944  `), fastlane's `[10:12:31]: `, and the Git
 * plugin's `stderr: ` before the first line of git's own message. A clock with nothing after it
 * is an empty line that was stamped: the whole line is the prefix, so it counts as blank.
 */
export const JENKINS_LINE_PREFIX = /^(?:\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\] |\d\d:\d\d:\d\d(?:\.\d{1,3})?(?: {1,2}(?=\S)| *$)|\[\d\d:\d\d:\d\d\]: (?:▸ )?|stderr: (?=\S))/;

/**
 * `[Pipeline] { (Branch: linux)` opens a parallel branch (older Pipeline versions print
 * `[Pipeline] [linux] { (Branch: linux)`); `Failed in branch linux` names the one that failed.
 */
const BRANCH_OPEN = /^(?:\[[\d\-T:.Z]+\] |\d\d:\d\d:\d\d(?:\.\d{1,3})? {1,2})?\[Pipeline\] (?:\[[^\]]+\] )?\{ \(Branch: (.+)\)\s*$/;
const BRANCH_FAILED = /^(?:\[[\d\-T:.Z]+\] |\d\d:\d\d:\d\d(?:\.\d{1,3})? {1,2})?Failed in branch (.+?)\s*$/;

export interface Branches {
  /** Every parallel branch the log names. */
  all: Set<string>;
  /** The branches Jenkins says failed (`Failed in branch X`), in log order. */
  failed: string[];
}

/** The parallel branches of a log of cleaned lines. Cheap: two prefix tests per line. */
export function branchesOf(lines: readonly string[]): Branches {
  const branches: Branches = { all: new Set<string>(), failed: [] };
  for (const line of lines) noteBranch(line, branches);
  return branches;
}

/** Adds what one line says about the parallel branches (an opening, a failure) to `branches`. */
export function noteBranch(line: string, branches: Branches): void {
  // Both marks hold `ranch`: one scan of most lines instead of two.
  if (lengthOf(line) > 300 || !includes(line, 'ranch')) return;
  if (includes(line, '(Branch: ')) {
    const m = BRANCH_OPEN.exec(line);
    if (m?.[1] !== undefined) branches.all.add(m[1]);
  } else if (includes(line, 'Failed in branch ')) {
    const m = BRANCH_FAILED.exec(line);
    if (m?.[1] !== undefined) {
      branches.all.add(m[1]);
      if (!branches.failed.includes(m[1])) branches.failed.push(m[1]);
    }
  }
}

/** The branch whose `[name] ` prefix a line carries (older Pipeline versions prefix every line of a branch). */
export function branchPrefix(body: string, branches: Branches): string | undefined {
  if (branches.all.size === 0 || codeAt(body, 0) !== 91) return undefined;
  const close = body.indexOf('] ');
  if (close < 2) return undefined;
  const name = body.slice(1, close);
  return branches.all.has(name) ? name : undefined;
}

/** What `stepFocus` needs of `buildDetails.failingSteps`. */
export interface StepLines {
  logLines?: readonly [number, number] | readonly number[];
}

/**
 * The `focus` of `analyze` from the failing steps' lines of the whole log: as they are for a
 * whole log, shifted for a log tail that starts at line `tailStart` (lines before it dropped).
 * Without `tailStart`, a tail cannot be placed: no focus.
 */
export function stepFocus(steps: readonly StepLines[] | undefined, field: 'consoleLog' | 'consoleLogTail', tailStart?: number): [number, number][] {
  const out: [number, number][] = [];
  for (const s of steps ?? []) {
    const [a, b] = s.logLines ?? [];
    if (typeof a !== 'number' || typeof b !== 'number' || b < a) continue;
    if (field === 'consoleLog') out.push([a, b]);
    else if (typeof tailStart === 'number' && tailStart >= 1 && b >= tailStart) out.push([Math.max(1, a - tailStart + 1), b - tailStart + 1]);
  }
  return out;
}
