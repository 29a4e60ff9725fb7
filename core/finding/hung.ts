/**
 * A time limit's bare exit over the words of what hung (round 9 opened; docs/notes/analyzer.md, "Round 9
 * opened (helper t9)"): `timeout 30 npm test` ends with `script returned exit code 124`, and the last lines
 * the step printed before it say what did not end (`Jest did not exit one second after the test run has
 * completed.`, `... is still running`). Those words are the message; the exit status stays evidence.
 */
import type { Finding } from '../../protocol/types.js';

type BodyAt = (i: number) => string;

/** An exit status alone: the time limit's verdict, with no words of its own. */
const BARE_EXIT = /exit (?:code|status) 124\b|returned (?:exit code )?124\b|^Terminated$/;
/** What a program that did not end says about itself. */
const HUNG = /\b(?:did not|didn't|does not|has not) (?:exit|terminate|finish|shut ?down)\b|\bis still running\b|\bopen handles? (?:potentially )?keeping\b/i;
/** How many lines above the exit are read, back to the step's command. */
const REACH = 12;

/** The finding with what hung as its message, when a time limit's exit was all it had. */
export function withWhatHung(found: Finding, lines: readonly string[], bodyAt: BodyAt): Finding {
  if (found.class !== 'timeout-aborted' || !BARE_EXIT.test(found.message)) return found;
  const at = found.message_line - 1;
  for (let k = at - 1; k >= Math.max(0, at - REACH); k--) {
    const text = bodyAt(k).trim();
    if (/^(?:\+ |\$ )/.test(text)) break;
    if (!HUNG.test(text)) continue;
    return { ...found, message: text, message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((n) => n !== k + 1).sort((a, b) => a - b)] };
  }
  return found;
}
