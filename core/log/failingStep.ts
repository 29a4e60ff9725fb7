/**
 * The command of a console log that ended the failing step: the one reader both the finding
 * (core/finding/purpose.ts: what the failing command is for) and the offline answers
 * (backend/answer/logtext.ts `failingStepOf`: the command an answer names) use, so the two never
 * name different commands for one failure (issue 31; docs/notes/house.md, "One reader of the
 * command that failed").
 *
 * The nearest command the log echoes above the failure, passed over when it did not end the
 * step: a cleanup (`kill`, `wait`), the first command of an EXIT/ERR trap declared above it (run
 * when the script stopped), one started in the background (`cmd &`, or bash -x's `+ PID=4242`
 * from `$!` just under it). A freestyle step's own wrapper (`/bin/sh -xe /tmp/jenkins1.sh`) stands
 * for the whole script: under it no command is named. An assignment is a command like another (`+
 * VERSION=2.8.0-rc.2` fails on a readonly variable).
 *
 * Its callers: the finding (core/finding/purpose.ts), the answers (backend/answer/logtext.ts) and
 * the workspace snippets (jenkins/workspace/scriptTrace.ts `commandBefore`: the script line that
 * runs the failing command).
 */

/**
 * Commands as CI logs echo them: `+ cmd` / `++ cmd` (sh -x), `[ws] $ cmd` (freestyle), `$ cmd`,
 * ` > git ...` (Jenkins' git client), `C:\ws>cmd` (a batch step), and a GitHub Actions step's own
 * command line (`##[group]Run npx eslint .`). `sh -x` puts one space between its `+` and the
 * command: `+  text` (two spaces) is an added line of a diff (`git diff --check`'s output), not a trace.
 */
const ECHOED = /^(?:\+{1,2} (\S.*)|\[[^\]\n]+\] \$ (.+)|\$ (.+)|\s?> (git .+?)(?:\s+# timeout=\d+)?|[A-Za-z]:\\[^>\n]*>(\S.*)|##\[group\]Run (\S.*))$/;
/** A freestyle shell or batch step echoes its temp script first and the script's commands after. */
const STEP_WRAPPER = /^\/bin\/(?:ba)?sh -xe \S+\.sh$|^cmd \/c call \S+\.bat$/i;
/** A cleanup that runs after the step's command, whatever failed (`kill $SERVER`, `wait`): never the failing one. */
const CLEANUP_COMMAND = /^(?:kill|pkill|wait)(?:\s|$)/;
/** A shell's EXIT/ERR trap (`trap 'kill $pid; rm -rf tmp' EXIT`): its commands run after the failure. */
const TRAP_LINE = /^\+ trap (?:'([^']*)'|"([^"]*)") (?:\w+ )*(?:EXIT|ERR)\b/;
/** How far above a command its EXIT trap is looked for. */
const TRAP_REACH = 400;
/** How many commands that did not end the step are passed over before none is named. */
const MAX_SKIPPED = 4;

/** The command a log line (its CI marks taken off) echoes, or undefined when it echoes none. */
export function echoedCommand(body: string): string | undefined {
  const m = ECHOED.exec(body);
  if (!m) return undefined;
  const text = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '').trim();
  return text === '' ? undefined : text;
}

/** Whether the command echoed on line `at` did not end the step (see the module's comment). */
function notRunToEnd(at: number, command: string, bodyAt: (i: number) => string | undefined): boolean {
  if (CLEANUP_COMMAND.test(command) || /\s&$/.test(command)) return true;
  if (/^\+ \w+=\d{2,}$/.test((bodyAt(at + 1) ?? '').trim())) return true;
  const program = command.split(/\s+/)[0] ?? '';
  for (let i = at - 1; i >= 0 && at - i <= TRAP_REACH; i--) {
    const trap = TRAP_LINE.exec((bodyAt(i) ?? '').trim());
    if (trap) return (/^\s*(?:\w+=\S*\s+)*([^\s;'"]+)/.exec(trap[1] ?? trap[2] ?? '')?.[1] ?? '') === program;
  }
  return false;
}

/**
 * The command that ended the step failing at line `at` (0-based, as `bodyAt` counts), and its
 * line: the nearest echoed command at or above `at` (no further than `reach` lines up) that did
 * not run on past the failure. `bodyAt(i)` gives line i without the CI's marks (a timestamp, a
 * parallel branch's `[name] `), or undefined for a line that is not the step's (another branch's,
 * or one the caller does not hold).
 */
export function failingCommandAbove(at: number, bodyAt: (i: number) => string | undefined, reach = Number.POSITIVE_INFINITY): { line: number; command: string } | undefined {
  // Inside a parallel block whose branches print unprefixed and at once, the nearest command may be another branch's.
  if (interleavedParallelAt(at, bodyAt) !== undefined) return undefined;
  let skipped = 0;
  for (let i = at; i >= 0 && at - i <= reach; i--) {
    const body = bodyAt(i);
    // A command above a closed parallel block whose branches interleaved may be any branch's (ux14).
    if (body !== undefined && PARALLEL_CLOSE.test(body) && i > 0 && interleavedParallelAt(i - 1, bodyAt) !== undefined) return undefined;
    const command = body === undefined ? undefined : echoedCommand(body);
    if (command === undefined) continue;
    if (STEP_WRAPPER.test(command)) return undefined;
    // GitHub's `##[group]Run X` shows a step's script's first line; a script of several lines runs untraced (ux14).
    if (body !== undefined && body.startsWith('##[group]Run ') && scriptLinesBelow(i, bodyAt) > 1) return undefined;
    if (!notRunToEnd(i, command, bodyAt)) return { line: i, command };
    if (++skipped > MAX_SKIPPED) return undefined;
  }
  return undefined;
}

/**
 * The GitHub Actions step whose script of several lines ran at line `at` (0-based): its `##[group]Run`
 * header's line and the script's line count, when the nearest step header above `at` is one (ux14).
 */
export function untracedScriptAbove(at: number, bodyAt: (i: number) => string | undefined, reach = 5000): { line: number; lines: number } | undefined {
  for (let i = at; i >= 0 && at - i <= reach; i--) {
    const body = bodyAt(i);
    if (body === undefined || !body.startsWith('##[group]Run ')) continue;
    const lines = scriptLinesBelow(i, bodyAt);
    return lines > 1 ? { line: i, lines } : undefined;
  }
  return undefined;
}

/**
 * How many lines the script of a GitHub Actions step has, as its `##[group]Run` header at `at` lists them:
 * the lines up to its `shell:` line (or the group's end, before `with:`/`env:`).
 */
function scriptLinesBelow(at: number, bodyAt: (i: number) => string | undefined): number {
  let n = 0;
  for (let i = at + 1; i <= at + 200; i++) {
    const body = bodyAt(i);
    if (body === undefined || /^(?:shell|with|env): ?|^##\[endgroup\]/.test(body.trim())) break;
    n++;
  }
  return n;
}

/**
 * A build step's start, where a new shell begins: a Pipeline process step (`[Pipeline] sh`), a freestyle step's wrapper
 * (`[job] $ /bin/sh -xe /tmp/jenkins1.sh`, Windows' `[job] $ cmd /c call C:\Windows\TEMP\jenkins2.bat`), a GitHub
 * Actions step (`##[group]Run ...`). What an earlier step exported is not in its environment; what a later one printed
 * is not its output.
 */
export const STEP_START = /^\[Pipeline\] (?:sh|bat|powershell|pwsh)(?: \(.*\))?\s*$|^##\[group\]Run |^(?:\[[^\]]+\] )?\$ (?:(?:\/bin\/)?(?:ba)?sh -xe? \S+|cmd \/c call \S+\.bat)$/;
/**
 * Where a step's output is over, below its failure: Jenkins' next Pipeline line (`[Pipeline] }`), a freestyle step's
 * verdict (`Build step 'Execute shell' marked build as failure`), the build's end, a GitHub Actions step's exit. An
 * EXIT trap's output (`+ df -h "$DIR"` run as the script stops) comes before these: it is the step's.
 */
const STEP_OVER = /^\[Pipeline\] |^Build step '.+' marked build as |^Finished: [A-Z_]+$|^Post job cleanup\.$|^##\[error\]Process completed with exit code /;

/**
 * The lines (0-based, inclusive, as `bodyAt` counts; `length` lines in all) of the build step that line `at` belongs
 * to: from the line after the nearest step start above it (or the first line) to the line before the first line below
 * it that starts another step or ends this one (or the last line). `bodyAt(i)` gives line i without its CI marks
 * (core/finding/body.ts `bodyOf`), or undefined for a line the caller does not hold.
 */
export function stepSpan(at: number, length: number, bodyAt: (i: number) => string | undefined): { from: number; to: number } {
  const last = Math.min(at, length - 1);
  let from = last;
  while (from > 0 && !STEP_START.test((bodyAt(from - 1) ?? '').trim())) from--;
  let to = last;
  while (to + 1 < length && !STEP_OVER.test((bodyAt(to + 1) ?? '').trim()) && !STEP_START.test((bodyAt(to + 1) ?? '').trim())) to++;
  return { from: Math.max(0, from), to: Math.max(0, to) };
}

/** A Pipeline step that runs a process and echoes its commands (`[Pipeline] sh`), as the console prints its start. */
const PROCESS_STEP = /^\[Pipeline\] (?:sh|bat|powershell|pwsh)\s*$/;
/** How far above a line its parallel block's opening is looked for. */
const PARALLEL_REACH = 20000;
const PARALLEL_OPEN = /^\[Pipeline\] parallel\s*$/;
const PARALLEL_CLOSE = /^\[Pipeline\] \/\/ parallel\s*$/;
/** Jenkins' `Failed in branch X` (older versions may prefix it with the branch: `[X] Failed in branch X`). */
const BRANCH_FAILED = /^(?:\[[^\]\n]+\] )?Failed in branch \S/;

/**
 * Whether line `at` (0-based, as `bodyAt` counts) lies in a Pipeline `parallel` block whose
 * branches ran their steps at the same time and print unprefixed (workflow-job 2.26 and later:
 * `[Pipeline] parallel`, then each branch's `[Pipeline] { (Branch: X)`, then the branches' lines
 * interleaved as they come; older versions prefixed each branch's lines with `[X] `, which
 * `bodyAt` is left to handle). Then the nearest echoed command or stage above the line may be
 * another branch's, and position alone does not say which branch printed it. Returns the line
 * of `[Pipeline] parallel` when the block is still open at `at` and two or more process steps
 * (`[Pipeline] sh`, `bat`, `powershell`) started in it before `at`; else undefined.
 */
export function interleavedParallelAt(at: number, bodyAt: (i: number) => string | undefined): number | undefined {
  let steps = 0;
  let depth = 0; // parallel blocks closed between `at` and the line looked at
  for (let i = at; i >= 0 && at - i <= PARALLEL_REACH; i--) {
    const body = bodyAt(i);
    if (body === undefined || !body.startsWith('[Pipeline] ')) continue;
    if (PROCESS_STEP.test(body)) steps++;
    else if (PARALLEL_CLOSE.test(body)) depth++;
    else if (PARALLEL_OPEN.test(body)) {
      if (depth > 0) {
        depth--;
        continue;
      }
      return steps >= 2 ? i : undefined;
    }
  }
  return undefined;
}

/** Declarative Pipeline's notice for each stage after the failed one. */
const STAGE_SKIPPED = /^Stage ".+" skipped due to earlier failure/;

/** Where a failed step's own output ended, for a verdict that says only that the build failed. */
export interface FailedOutput {
  /** The step's last line of output (0-based). */
  end: number;
  /** Jenkins' `Failed in branch X` for a parallel branch that failed. */
  branchFailed?: number;
  /** Declarative Pipeline's `Stage "X" skipped due to earlier failure(s)` under the failed stage. */
  skipped?: number;
}

/**
 * The last line (0-based) a failed step printed, for a verdict at `at` that says only that the
 * build failed: `Failed in branch X`, `Stage "Package" skipped due to earlier failure(s)`, or
 * `ERROR: script returned exit code 1` at the Pipeline's end (ux14). Jenkins closes the failed
 * step's blocks (`[Pipeline] }`, `[Pipeline] // stage`) right after it ends, then prints `Failed in
 * branch X` (a parallel branch) or opens the next stage only to skip it: the line above those
 * closings is the step's own last output, where a program that stopped said why. Of several
 * failed branches the first is taken (the build's verdict is its error). Undefined when none of
 * these marks is above `at`, or a process step (`[Pipeline] sh`) ran after the block closed (its
 * output may be the cause). In a block whose branches print unprefixed and at once, the line may
 * still be another branch's: the caller says "the last line before the branch ended", not more.
 */
export function failedOutputEnd(at: number, bodyAt: (i: number) => string | undefined): FailedOutput | undefined {
  const own = BRANCH_FAILED.test(bodyAt(at) ?? '');
  let closed = own;
  let failedAt: number | undefined = own ? at : undefined;
  let skipped: number | undefined;
  for (let i = at; !own && i >= 0 && at - i <= PARALLEL_REACH; i--) {
    const body = bodyAt(i);
    if (body === undefined) continue;
    if (BRANCH_FAILED.test(body)) {
      if (closed) failedAt = i;
      continue;
    }
    if (!closed && STAGE_SKIPPED.test(body)) {
      skipped = i;
      continue;
    }
    if (!body.startsWith('[Pipeline] ')) {
      // The skipped stage's notice sits under the failed stage's closings: the first line of output above them ends it.
      if (!closed && skipped !== undefined && body.trim() !== '') return { end: i, skipped };
      continue;
    }
    if (!closed) {
      if (PROCESS_STEP.test(body)) return undefined;
      if (PARALLEL_CLOSE.test(body)) closed = true;
      continue;
    }
    if (PARALLEL_OPEN.test(body)) break;
    if (PARALLEL_CLOSE.test(body)) return undefined; // a nested block: not read
  }
  if (!closed || failedAt === undefined) return undefined;
  for (let i = failedAt - 1; i >= 0 && failedAt - i <= 40; i--) {
    const body = (bodyAt(i) ?? '').trim();
    if (body === '' || body.startsWith('[Pipeline] ')) continue;
    return BRANCH_FAILED.test(body) ? undefined : { end: i, branchFailed: failedAt, ...(skipped === undefined ? {} : { skipped }) };
  }
  return undefined;
}
