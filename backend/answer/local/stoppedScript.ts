/**
 * The script of the checkout a stopped step was running (session 56, helper fx20; issue 25): a time limit or an abort
 * (Jenkins' `Timeout has been exceeded` / `Cancelling nested steps due to timeout`, GitHub's `has exceeded the maximum
 * execution time`, `timeout`'s exit 124) while the step ran `perl bin/import.pl`, `python tools/gen.py`, `./gen.sh`. When
 * the checkout's change edited that file, the change block shows the hunk and the last line the step printed before
 * the stop: the prime suspect, not a proof (changeDiff.ts says so).
 */
import type { CiContext, Finding } from '../../../protocol/types.js';
import { blocksOf, changesOf, type StoppedScript } from './changeDiff.js';
import { sameFile } from './workspace.js';

/** A script or source file as a command names it: a path with an extension or a slash, not an option or a variable. */
const SCRIPT_WORD = /^(?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w.-]+\.(?:sh|bash|py|pl|pm|rb|js|mjs|cjs|ts|R|r|php|tcl|lua|ps1|groovy|kts|jl|exs?|awk|sed)$|^\.{0,2}\/[\w./-]+$/;
/** A runner's own lines about the stop, not the step's output. */
const NOT_OUTPUT = /^\[Pipeline\]|^Cancelling nested steps|^Sending interrupt signal|^(?:Terminated|Killed|Aborted)$|^Timeout has been exceeded|^Build timed out|^Aborted by |^Click here to forcibly|^After \d+s process did not|^script returned exit code|^ERROR: |^Finished: |^##\[error\]|^Error: The operation was canceled|^The job running on runner|^Build step '|^\s*$/;

/** The words of the failing command that name a script of the checkout (`bin/import.pl`, `./gen.sh`). */
function scriptWords(command: string): string[] {
  return command.trim().split(/\s+/).map((w) => w.replace(/^(['"])(.*)\1$/, '$2')).filter((w) => !w.startsWith('-') && !/[=$*?`]/.test(w) && SCRIPT_WORD.test(w)).map((w) => w.replace(/^\.\//, ''));
}

/**
 * The changed script a stopped step was running, with the command's line and the step's last output before the stop;
 * undefined unless the finding is a timeout or an abort and the change's diffs hold that file.
 */
export function stoppedScript(ci: CiContext, f: Finding, command: { command: string; line: number; text: string } | undefined, lines: readonly { line: number; text: string }[]): StoppedScript | undefined {
  const w = changesOf(ci);
  if (f.class !== 'timeout-aborted' || !w || !command || command.line >= f.message_line) return undefined;
  const changed = w.diffs.flatMap(blocksOf);
  const path = scriptWords(command.command).find((p) => changed.some((b) => sameFile(b.path, p)));
  if (path === undefined) return undefined;
  const last = [...lines].reverse().find((l) => l.line > command.line && l.line < f.message_line && !NOT_OUTPUT.test(l.text.trim()) && !/^\++ /.test(l.text));
  return { path, command: { line: command.line, text: command.command }, ...(last ? { last: { line: last.line, text: last.text.trim() } } : {}) };
}
