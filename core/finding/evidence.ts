/**
 * General evidence (issue 25, round 6 preparation): what a finding that no tool-family rule
 * settled gains from evidence that holds for tools no rule names. Applied to the finding read on
 * general rules alone (ablation.ts): the role of the command that ran, and the shape of what it
 * reported. A class only when the evidence settles it; else the finding stays unknown.
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';

type Window = Pick<LogExcerpt, 'start_line' | 'end_line'>;

export function generalFinding(found: Finding, _lines: readonly string[], _excerpt: Window, _bodyAt: (i: number) => string): Finding {
  return found;
}
