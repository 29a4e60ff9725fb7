/**
 * The change block's words for a stopped process that ran changed code (stoppedScript.ts; session 56 fx20, session 57
 * ux19): where the hunk stands, and the conclusion: the first suspect, not a proof.
 */
import { at, clip, inlineCode } from '../logtext.js';

/** A script of the checkout's change that a stopped step was running: the command, and the step's last output before the stop. */
export interface StoppedScript {
  path: string;
  /** Every changed file the process ran: the script, or the changed sources of the program a build line made. */
  paths: string[];
  /** Stopped by a time limit (or an abort), or by memory run out. */
  limit: 'time' | 'memory';
  command: { line: number; text: string };
  /** The build line that made the program from the checkout's sources (`cargo build`), or the command that built and ran it (`cargo run`). */
  built?: { line: number; text: string; said: string; program?: string } | undefined;
  last?: { line: number; text: string } | undefined;
}

const list = (xs: readonly string[]): string => {
  const said = xs.slice(0, 3).map((x) => inlineCode(x));
  const all = xs.length > 3 ? [...said, `${xs.length - 3} more`] : said;
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} and ${all[all.length - 1] as string}` : (all[0] ?? '');
};

const stopWords = (s: StoppedScript): string => (s.limit === 'memory' ? 'when it ran out of memory' : 'when it was stopped');

/** `the script the step was running when it was stopped (`perl bin/import.pl` [L12])`, or the built program's words. */
export function stoppedWhere(s: StoppedScript): string {
  const run = `${inlineCode(clip(s.command.text, 80))} ${at(s.command.line)}`;
  if (!s.built) return `the script the ${s.limit === 'memory' ? 'process' : 'step'} was running ${stopWords(s)} (${run})`;
  if (s.built.program === undefined) return `one of the ${s.built.said} of the checkout that ${run} built and was running ${stopWords(s)}`;
  return `one of the ${s.built.said} of ${inlineCode(s.built.program)}, which the log built from the checkout (${inlineCode(clip(s.built.text, 60))} ${at(s.built.line)}) and the step was running ${stopWords(s)} (${run})`;
}

/** The conclusion: the process ran code this change edited when it was stopped; the first suspect, not a proof, and the ways out. */
export function stoppedConclusion(s: StoppedScript, revert: string): string {
  const ran = s.built
    ? `${s.built.program !== undefined ? `${inlineCode(s.built.program)} ${at(s.command.line)}, built from the checkout ${at(s.built.line)}` : `${inlineCode(clip(s.command.text, 60))} ${at(s.command.line)}`}, whose ${s.built.said} this change edited (${list(s.paths)})`
    : `${inlineCode(s.path)} ${at(s.command.line)}, which this change edited`;
  if (s.limit === 'memory') {
    return `The process that ran out of memory was running ${ran}. That makes the changed lines above the first suspect, not a proof (a bigger input or a lower limit run out of memory the same way): if they hold more at once than before (a list that keeps growing, a whole input read at once, a copy per item), fix them; if the extra memory is meant, raise the limit; or revert the change (${revert}) to check.`;
  }
  const last = s.last ? `; the last output before the stop was ${inlineCode(clip(s.last.text, 100))} ${at(s.last.line)}, and the work after it did not finish` : '; it printed nothing after it started';
  return `The step was running ${ran}, when it was stopped${last}. That makes the changed lines above the prime suspect, not a proof (a bigger input, a busier agent or a service that did not answer stop a step the same way): if they can loop or wait without end, fix them; if the extra work is meant, raise the limit; or revert the change (${revert}) to check.`;
}
