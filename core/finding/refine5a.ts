/**
 * What a finding gains from the lines around it (issue 25, round 5's open cases, helper fix5a),
 * applied after refine4a.ts. General evidence, for shapes several runtimes share:
 * - a runtime's heading of a condition nothing handled, whose text is on the indented line below
 *   it (SBCL's `Unhandled UNBOUND-VARIABLE in thread #<...>:` over `  The variable X is unbound.`):
 *   that text is the message;
 * - a resource that ran out, reported again when the runtime gave up (`Heap exhausted, game
 *   over.` after `Heap exhausted during garbage collection: 0 bytes available`): the first report
 *   of the same step, which says how much was asked for, is the message.
 */
import type { Finding } from '../../protocol/types.js';

type Window = { start_line: number; end_line: number };

/** A heading whose condition's text follows on its own indented line. */
const UNHANDLED_HEADING = /^Unhandled [A-Z][\w-]*[A-Z] in thread\b/;
/** A command the CI echoed (sh -x, GitHub's group): the step's start. */
const COMMAND = /^(?:\+ |\$ |##\[group\]Run )/;
/** The words of a resource exhausted (the rules' own words, rules5a.ts and rules.ts). */
const EXHAUSTED = /\b[Hh]eap (?:space )?exhausted\b|\bexhausted (?:the )?heap\b|\bNo space left on device\b/;

export function refined5a(found: Finding, lines: readonly string[], _excerpt: Window, bodyAt: (i: number) => string): Finding {
  const msg = found.message_line - 1;
  if (found.class === 'runtime-exception' && UNHANDLED_HEADING.test(found.message)) {
    for (let k = msg + 1; k <= Math.min(lines.length - 1, msg + 4); k++) {
      const t = bodyAt(k);
      if (/^\s+[A-Z][^{}#<>]*[.!]$/.test(t)) return { ...found, message: t.trim(), message_line: k + 1, evidence: [...new Set([k + 1, ...found.evidence])].sort((a, b) => a - b) };
      if (t.trim() === '') break;
    }
  }
  if ((found.class === 'out-of-memory' || found.class === 'disk-full') && EXHAUSTED.test(found.message)) {
    const words = EXHAUSTED.exec(found.message)?.[0] ?? '';
    let first: number | undefined;
    for (let k = msg - 1; k >= Math.max(0, msg - 80); k--) {
      const t = bodyAt(k);
      if (COMMAND.test(t.trim())) break;
      if (t.includes(words)) first = k;
    }
    if (first !== undefined) return { ...found, message: bodyAt(first).trim(), message_line: first + 1, evidence: [...new Set([first + 1, ...found.evidence])].sort((a, b) => a - b) };
  }
  return found;
}
