/**
 * Jenkins' `timeout` step prints two lines when its time runs out: `Cancelling nested steps due to
 * timeout` when it acts, and, when the build ends, `Timeout has been exceeded`: the cause of the
 * interruption it records for the build (its short description). The second is the error's message;
 * the first is the action that followed from it and joins the evidence. Which one the finding held
 * depended on which excerpt ranked first (tuning rows of rounds 11-17: ten, each the other line).
 */
import type { Finding } from '../../protocol/types.js';

const ACTION = /Cancelling nested steps due to timeout$/;
const CAUSE = /^Timeout has been exceeded$/;
/** Lines the build's end may follow the action by (the steps' closing `[Pipeline]` lines, post actions). */
const REACH = 400;

export function withTimeoutCause(found: Finding, bodyAt: (i: number) => string, lineCount: number): Finding {
  if (found.class !== 'timeout-aborted' || !ACTION.test(found.message.trim())) return found;
  for (let k = found.message_line; k < Math.min(lineCount, found.message_line + REACH); k++) {
    if (!CAUSE.test(bodyAt(k).trim())) continue;
    return { ...found, message: bodyAt(k).trim(), message_line: k + 1, evidence: [k + 1, ...found.evidence.filter((n) => n !== k + 1).sort((a, b) => a - b)] };
  }
  return found;
}
