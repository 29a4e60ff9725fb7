/**
 * The words of the command that failed, where the finding's message says only how the step ended
 * (session 50, helper msg1; docs/notes/analyzer.md "Session 50 (helper msg1): messages by mechanism").
 * Across the tuned rounds the CI's exit line (`ERROR: script returned exit code 1`) or a script's own
 * `+ exit 1` was the headline of 19 first-measured misses in 11 rounds, although the step printed why.
 * Two shapes of a `sh -x` / `bash -x` trace, read by the trace's grammar, never by a tool's wording:
 *
 * 1. The CI's exit line under a traced command (`+ cmd`, `$ cmd`) that printed exactly one line of
 *    words: that line is the command's own word on its failure (mix's `** (Mix) You're trying to run
 *    ...`, `go run`'s `exit status 3`, a check script's sentence). npm's echo of the script it runs
 *    (`> pkg@1.0.0 check`, `> node check.mjs`) is npm's, not the script's output. Not under a status a
 *    signal or a time limit set (124, 137, 143, 141, 130): there the last line is whatever the program
 *    was doing when it was stopped (`waiting for 127.0.0.1:5432`). A bare number (`grep -c`'s `0`), a
 *    tally (`rsync: 3 files`) or a table's row (`app.js     64.5 kB`) is data, not a message.
 * 2. A script's own `+ exit N` after it reported (`+ echo '...'` or `+ printf ...` and what they
 *    printed, right above the exit): the shell's own diagnostic among the report and the check before it
 *    (bash's `ci.sh: line 2: [: too many arguments`, the check itself failing), else the report's first
 *    printed line (`warm-cache: page:55: OOM command not allowed ...`). A script that exits after
 *    another command's output (no report) keeps its exit: that output is data.
 *
 * Only the message moves (message, message_line, the exit line kept in the evidence); the class stays
 * what the rules and the evidence made of the step.
 */
import type { Finding } from '../../protocol/types.js';
import { RUNNER_MARK, stepExitStatus } from '../log/stepExit.js';
import { messageText } from './body.js';
import { commandOf } from './generic.js';

type BodyAt = (i: number) => string;

/** Statuses a signal or a time limit set: the program did not choose to stop. */
const STOPPED = new Set([124, 130, 137, 141, 143]);
/** A trace of a command: `bash -x` (`+ cmd`, `++ cmd` in a substitution) or a CI's `$ cmd`. */
const TRACED = /^(?:\++ (?=\S)|\$ )(.+)$/;
/** A line of words: two words at least, one of letters (not a count, a size, a path alone). */
const WORDS = /[A-Za-z]{2}\S*\s+\S|\S\s+\S*[A-Za-z]{2}/;
/** Data, not a message: a tally (`rsync: 3 files`, a name and a colon over a count) or a table's row (columns apart). */
const DATA = /^[\w./@-]+:\s+\d[\d.,]*(?:\s+\w+)?$|\S {3,}\S/;
/** A level that says the line is not the error (`npm warn ...`, `WARNING: ...`). */
const WARNING = /^(?:\[?(?:WARNING|WARN|warning|warn)\]?[:\s]|npm (?:WARN|warn) )/;
/** How far above the exit line the step's command is looked for. */
const REACH = 30;

const moved = (found: Finding, to: number, text: string): Finding => ({
  ...found,
  message: messageText(text),
  message_line: to + 1,
  evidence: [to + 1, ...found.evidence.filter((n) => n !== to + 1).sort((a, b) => a - b)],
});

/** Shape 1: the one line of words the failed command printed above the CI's exit line at `exit` (0-based). */
function onlyLine(exit: number, bodyAt: BodyAt): number | undefined {
  const out: number[] = [];
  let at = exit - 1;
  for (; at >= 0 && exit - at <= REACH; at--) {
    const t = bodyAt(at).trim();
    if (TRACED.test(t) && !/^\+\+\+ /.test(t)) break;
    if (t !== '' && !RUNNER_MARK.test(t)) out.push(at);
  }
  const echoed = at >= 0 && exit - at <= REACH ? TRACED.exec(bodyAt(at).trim())?.[1] : undefined;
  if (echoed === undefined) return undefined;
  // npm, pnpm and yarn echo the script they run (`> pkg@1.0.0 check` over `> node check.mjs`).
  const own = /^(?:npm|pnpm|yarn)$/.test(commandOf(echoed).program) ? out.filter((i) => !/^> /.test(bodyAt(i).trim())) : out;
  if (own.length !== 1) return undefined;
  const t = bodyAt(own[0] as number).trim();
  return WORDS.test(t) && !DATA.test(t) && !WARNING.test(t) && stepExitStatus(t) === undefined ? own[0] : undefined;
}

/** A shell's own diagnostic: `ci.sh: line 2: ...` (bash), `./x.sh: 3: ...` (dash), `bash: line 1: ...`. */
const SHELL_SAID = /^\S+: (?:line )?\d+: \S/;

/** Shape 2: what the script reported above its own `+ exit N` at `exit` (0-based). */
function reported(exit: number, bodyAt: BodyAt): number | undefined {
  // The traced commands above the exit, each with what it printed, up to the first that is not a report.
  const said: number[] = [];
  let first: number | undefined;
  let checked = false;
  let printed: number[] = [];
  for (let k = exit - 1; k >= Math.max(0, exit - 20); k--) {
    const t = bodyAt(k).trim();
    if (t === '' || RUNNER_MARK.test(t)) continue;
    if (!TRACED.test(t)) {
      printed.unshift(k);
      continue;
    }
    if (/^\+ (?:echo|printf)\b/.test(t)) {
      if (printed.length > 0) first = printed[0];
      said.unshift(...printed);
      printed = [];
      continue;
    }
    // The check the report is about: its own output (a shell's diagnostic) counts too.
    said.unshift(...printed);
    checked = true;
    break;
  }
  if (first === undefined || (!checked && printed.length > 0)) return undefined;
  return said.find((i) => SHELL_SAID.test(bodyAt(i).trim())) ?? first;
}

/** The finding with the failed command's words as its message, where the message was only the step's ending. */
export function withCommandWords(found: Finding, bodyAt: BodyAt): Finding {
  const at = found.message_line - 1;
  const text = bodyAt(at).trim();
  // A silent check's message is its command without the trace's `+ ` (generic.ts silentCheck).
  if (messageText(text) !== found.message && text.replace(/^\++ /, '') !== found.message) return found;
  const status = stepExitStatus(text);
  if (status !== undefined) {
    if (status !== null && STOPPED.has(status)) return found;
    const line = onlyLine(at, bodyAt);
    return line === undefined ? found : moved(found, line, bodyAt(line).trim());
  }
  if (/^\+ exit [1-9]\d*$/.test(text)) {
    const line = reported(at, bodyAt);
    return line === undefined ? found : moved(found, line, bodyAt(line).trim());
  }
  return found;
}
