/**
 * Gradle's `* What went wrong:` block (session 50, helper msg1; docs/notes/analyzer.md "Session 50 (helper msg1):
 * messages by mechanism"): a head line (`Execution failed for task ':x'.`, `Could not resolve all files for
 * configuration ':c'.`) over its causes, each on a `> ` line, a deeper cause indented further under it (with
 * `Required by:` rows between). Gradle prints the chain outermost first; the last `> ` line is the innermost cause,
 * what went wrong (`> Process 'command '.../java'' finished with non-zero exit value 2`, `> No cached version
 * listing for g:a:3.+ available for offline mode.`). A finding whose message is an outer line of the block takes
 * that last cause, its `> ` taken off, as its message (class, place and confidence stay). Gradle's pointers
 * elsewhere (`> Compilation failed; see the compiler error output for details.`, `> There were failing tests. See
 * the report at: ...`) are no cause: a block ending in one is left as it is.
 */
import type { Finding } from '../../protocol/types.js';
import { messageText } from './body.js';

type BodyAt = (i: number) => string;

const HEADING = /^\* What went wrong:$/;
/** A line that ends the block: Gradle's next section (`* Try:`, `* Exception is:`) or the build's verdict. */
const BLOCK_END = /^\* \w|^BUILD FAILED\b|^FAILURE: /;
const CAUSE = /^\s*> (\S.*)$/;
/** A `> ` line that points elsewhere: the compiler's output, the test report. */
const POINTER = /\bsee the compiler error output\b|^There were failing tests\b|\bSee the report at\b/i;
/** How many lines a block is read over. */
const REACH = 40;

export function withGradleCause(found: Finding, bodyAt: BodyAt, lineCount: number): Finding {
  const at = found.message_line - 1;
  if (at < 0 || messageText(bodyAt(at).trim()) !== found.message) return found;
  // The block's heading above the message, every line between part of the block.
  let head: number | undefined;
  for (let k = at - 1; k >= Math.max(0, at - REACH); k--) {
    const t = bodyAt(k).trim();
    if (HEADING.test(t)) {
      head = k;
      break;
    }
    if (t === '' || BLOCK_END.test(t)) return found;
  }
  if (head === undefined) return found;
  let last: number | undefined;
  for (let k = head + 1; k < Math.min(lineCount, head + REACH); k++) {
    const t = bodyAt(k).trim();
    if (BLOCK_END.test(t)) break;
    if (CAUSE.test(bodyAt(k))) last = k;
  }
  if (last === undefined || last <= at) return found;
  const cause = (CAUSE.exec(bodyAt(last)) as RegExpExecArray)[1] as string;
  if (POINTER.test(cause)) return found;
  return { ...found, message: messageText(cause), message_line: last + 1, evidence: [last + 1, ...found.evidence.filter((n) => n !== last + 1).sort((a, b) => a - b)] };
}
