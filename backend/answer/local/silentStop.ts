/**
 * A step that stopped on a command which printed nothing (issue 25, session 53, helper ux15): the finding is only the
 * shell's trace of the last command before the step's exit (`+ timeout 20 ./build/poll` over `Build step 'Execute
 * shell' marked build as failure`; core/finding/generic.ts `mostErrorLike`). Nothing was traced after it, so it is where
 * the script stopped; it printed no error, so the log says nothing of why. The answers say that, with the exit status
 * when the runner prints one (a freestyle step's verdict names none), never "the log's error is `+ cmd`".
 */
import { bodyOf } from '../../../core/finding/body.js';
import { echoedCommand } from '../../../core/log/failingStep.js';
import { RUNNER_MARK, stepExitStatus } from '../../../core/log/stepExit.js';
import type { Finding } from '../../../protocol/types.js';
import { at, exitCodeMeaning, inlineCode } from '../logtext.js';

type LineText = (n: number) => string | undefined;

export interface SilentStop {
  /** The traced command, as the shell echoed it (without `+ `). */
  command: string;
  /** Its log line (1-based). */
  line: number;
  /** The step's exit line under it, and the status it names (null: none, as a freestyle step's verdict). */
  exit: { line: number; status: number | null };
}

/**
 * The silent stop `f` stands for: an unknown finding that is either the shell's trace of a command (`+ cmd`, `++ cmd`)
 * with nothing but blank lines and the runner's own marks (`[Pipeline] }`, `##[endgroup]`) between it and the step's exit
 * line (core/log/stepExit.ts), or that exit line itself right under such a trace. Undefined otherwise: the command
 * printed something (its command substitutions too: `++ yq ...` and its error over `+ TAG=`), and that output is the
 * evidence.
 */
export function silentStopOf(f: Finding, lineText: LineText | undefined): SilentStop | undefined {
  if (f.class !== 'unknown' || !lineText) return undefined;
  const own = bodyOf(f.message).trim();
  if (/^\++ \S/.test(own)) {
    const exit = nextLine(f.message_line, 1, lineText);
    const status = exit === undefined ? undefined : stepExitStatus(exit.body);
    return exit === undefined || status === undefined ? undefined : traced(f.message_line, own, { line: exit.line, status }, lineText);
  }
  const status = stepExitStatus(own);
  const above = status === undefined ? undefined : nextLine(f.message_line, -1, lineText);
  return above === undefined || status === undefined || !/^\++ \S/.test(above.body) ? undefined : traced(above.line, above.body, { line: f.message_line, status }, lineText);
}

/** The first line from `from` in direction `step` (1 down, -1 up) that is neither blank nor a runner's own mark, within 8 lines. */
function nextLine(from: number, step: 1 | -1, lineText: LineText): { line: number; body: string } | undefined {
  for (let n = from + step; n >= 1 && Math.abs(n - from) <= 8; n += step) {
    const raw = lineText(n);
    if (raw === undefined) return undefined;
    const body = bodyOf(raw).trim();
    if (body !== '' && !RUNNER_MARK.test(body)) return { line: n, body };
  }
  return undefined;
}

/** The stop at the trace on `line`, unless what its command substitutions ran printed something above it. */
function traced(line: number, trace: string, exit: SilentStop['exit'], lineText: LineText): SilentStop | undefined {
  const command = echoedCommand(trace);
  if (command === undefined) return undefined;
  let output = false;
  for (let n = line - 1; n >= Math.max(1, line - 60); n--) {
    const body = bodyOf(lineText(n) ?? '');
    if (/^\+ \S/.test(body)) break;
    if (/^\+\+ \S/.test(body) && output) return undefined;
    if (body.trim() !== '' && !/^\+\+ \S/.test(body)) output = true;
  }
  return { command, line, exit };
}

/** What an exit status says of the command that returned it, when it says more than "it failed": `timeout`'s 124, the shell's and signals' numbers (logtext.ts). */
export function statusMeaning(status: number, command: string): string | undefined {
  if (status === 124) return /^(?:\S+=\S*\s+)*timeout\b/.test(command) ? '`timeout` stopped it when its time limit ran out' : 'the status `timeout` returns when its time limit runs out';
  return status > 2 ? exitCodeMeaning(status) : undefined;
}

/** The time limit of a `timeout N cmd` (`timeout 20`, `timeout -s KILL 5m`), as written. */
function timeLimitOf(command: string): string | undefined {
  return /^(?:\S+=\S*\s+)*timeout(?:\s+-[-\w]+(?:[= ][\w]+)?)*\s+(\d+(?:\.\d+)?[smhd]?)\s/.exec(command)?.[1];
}

/** The step's status in words: what it names, or that it names none, with `timeout`'s own status as a condition. */
export function exitWords(s: SilentStop): string {
  const exitAt = at(s.exit.line);
  if (s.exit.status === null) {
    const limit = timeLimitOf(s.command);
    const timed = limit ? `; it ran under ${inlineCode(`timeout ${limit}`)}: had it run past ${limit.replace(/^(\d+(?:\.\d+)?)$/, '$1 s')}, \`timeout\` stopped it with status 124, which this log does not show` : '';
    return `the step's verdict ${exitAt} names no exit status${timed}`;
  }
  const meaning = statusMeaning(s.exit.status, s.command);
  return `the step ended with exit status ${s.exit.status} ${exitAt}${meaning ? ` (${meaning})` : ''}`;
}

/** The sentence for "what it means": the command where the script stopped, its silence and its status. */
export function silentStopSentence(s: SilentStop): string {
  return `The last command the shell traced is ${inlineCode(s.command)} ${at(s.line)}: no command was traced after it, so it is where the script stopped, and it printed no error before the step ended; ${exitWords(s)}. The log holds no message of its own about why it failed.`;
}

/** The fix's step for a silent stop: run the command as the step did and read what it says. */
export function silentStopStep(s: SilentStop): string {
  return `Run ${inlineCode(s.command)} ${at(s.line)} as the step did (from the project's directory, with the job's environment) and look at its output and its exit status (\`echo $?\`): in the build it printed nothing, so what it does (its code, its input, how long it runs) is where the reason is.`;
}
