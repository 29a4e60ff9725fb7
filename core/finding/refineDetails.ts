/**
 * What a finding gains from the lines around it (issue 25, round 5's open cases, helper fix5a),
 * applied after refineReports.ts. General evidence, for shapes several runtimes share:
 * - a runtime's heading of a condition nothing handled, whose text is on the indented line below
 *   it (SBCL's `Unhandled UNBOUND-VARIABLE in thread #<...>:` over `  The variable X is unbound.`):
 *   that text is the message;
 * - a failed test with no name: the runner's `test name: reason` line (plunit), or the title under
 *   a failure heading naming the test's file and line (busted's `Failure -> spec/x.lua @ 9`);
 * - a resource that ran out, reported again when the runtime gave up (`Heap exhausted, game
 *   over.` after `Heap exhausted during garbage collection: 0 bytes available`): the first report
 *   of the same step, which says how much was asked for, is the message.
 */
import type { Finding } from '../../protocol/types.js';
import { STEP_START } from './generic.js';

type Window = { start_line: number; end_line: number };

/** A heading whose condition's text follows on its own indented line. */
const UNHANDLED_HEADING = /^Unhandled [A-Z][\w-]*[A-Z] in thread\b/;
/** The words of a resource exhausted (the rules' own words, families/runtimes.ts and rules.ts). */
const EXHAUSTED = /\b[Hh]eap (?:space )?exhausted\b|\bexhausted (?:the )?heap\b|\bNo space left on device\b/;

/** A runner's failure heading naming the test's file and line (`Failure -> spec/x_spec.lua @ 9`, `Error -> f @ 3`): the test's title is the next line. */
const FAILURE_HEADING = /^(?:Failure|Error|FAIL(?:ED|URE)?)\s*(?:->|:)\s*\S+\.\w{1,8}(?: @ |:)\d+$/;

export function refinedByDetails(found: Finding, lines: readonly string[], _excerpt: Window, bodyAt: (i: number) => string): Finding {
  const msg = found.message_line - 1;
  // A failed test the finding names no test of: the runner's `test name: reason` line, or the title
  // under the runner's failure heading just above the message.
  if ((found.class === 'test-assertion' || found.class === 'test-error') && !found.test) {
    const own = /^\s*test ([\w.:-]+): \S/.exec(found.message);
    if (own) return { ...found, test: { name: own[1] as string, log_line: msg + 1 } };
    const title = bodyAt(msg - 1).trim();
    if (title !== '' && FAILURE_HEADING.test(bodyAt(msg - 2).trim()) && !/:\d+/.test(title)) return { ...found, test: { name: title, log_line: msg } };
  }
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
      if (STEP_START.test(t.trim())) break;
      if (t.includes(words)) first = k;
    }
    if (first !== undefined) return { ...found, message: bodyAt(first).trim(), message_line: first + 1, evidence: [...new Set([first + 1, ...found.evidence])].sort((a, b) => a - b) };
  }
  return found;
}
