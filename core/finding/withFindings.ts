/**
 * The findings of the excerpts the analyzer returned (core/log/analyze.ts): each excerpt's finding
 * (index.ts), for an `unknown` one the class the failing command's purpose gives (purpose.ts), and for one still `unknown` the class its words suggest when the class model is sure
 * enough (classModel.ts: `likely_class`, a guess marked as one; the rules' class is never changed), and a `high` whose
 * class the excerpt's words do not support lowered to `medium` (calibration.ts).
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { findingOf } from './index.js';
import { withLikelyClass } from './classModel.js';
import { withCommandPurpose } from './purpose.js';
import { calibrated, supported } from './calibration.js';
import { withJvmResolve, withLinkage } from './linkage.js';

/**
 * An excerpt's finding: the rules', the failing command's purpose where they say unknown (purpose.ts), the JVM's
 * linkage errors read as link errors (linkage.ts `withJvmResolve`), the class model's guess, the confidence calibrated, a linker's or loader's refusal told apart (linkage.ts), and last a medium or low
 * class the excerpt's words do not support set aside as `unknown` (calibration.ts `supported`).
 */
export function fullFindingOf(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  return supported(lines, excerpt, withLinkage(lines, calibrated(lines, excerpt, withLikelyClass(lines, excerpt, withJvmResolve(lines, withCommandPurpose(lines, findingOf(lines, excerpt)))))));
}

/** Findings for excerpts the analyzer returned (a no-failure tail gets none). */
export function withFindings<T extends LogExcerpt>(lines: readonly string[], excerpts: T[]): T[] {
  for (const e of excerpts) if (e.score > 0 || e.reason !== 'no failure found') e.finding = fullFindingOf(lines, e);
  return withSureFindingFirst(excerpts);
}

/**
 * The top excerpt's finding when its own is `unknown` and another excerpt's is sure (a class at medium or high): the
 * failure that excerpt reads (the first error of a script that went on, `ssh`'s refused key above a later `git tag -v`'s
 * `no signature found`; a linker's overflow under make's exit). The excerpts keep their rank; only the finding the
 * answers read first moves. On the tuning rounds (docs/notes/analyzer.md, t16) 5 rows of rounds 7, 10 and 15 had an
 * unknown top and a sure other, all 5 of the labelled class; the 3 whose sure excerpt was earlier also of the labelled
 * message (a later one may be the aftermath: a script's own `exit 1`).
 */
function withSureFindingFirst<T extends LogExcerpt>(excerpts: T[]): T[] {
  const top = excerpts[0];
  // A class calibration set aside (`rules_class`) is not replaced: forward, it was measured as said `unknown`.
  if (top?.finding?.class !== 'unknown' || top.finding.rules_class !== undefined) return excerpts;
  // Only an earlier failure: a later excerpt's sure class (a script's own `exit 1` read back) may be the unknown one's aftermath.
  const sure = excerpts.slice(1).find((e) => e.finding !== undefined && e.finding.class !== 'unknown' && e.finding.confidence !== 'low' && e.finding.message_line < top.finding!.message_line);
  if (sure?.finding) top.finding = sure.finding;
  return excerpts;
}
