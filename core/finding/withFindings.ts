/**
 * The findings of the excerpts the analyzer returned (core/log/analyze.ts): each excerpt's finding
 * (index.ts), and for an `unknown` one the class its words suggest when the class model is sure
 * enough (classModel.ts: `likely_class`, a guess marked as one; the rules' class is never changed).
 */
import type { LogExcerpt } from '../../protocol/types.js';
import { findingOf } from './index.js';
import { withLikelyClass } from './classModel.js';

/** Findings for excerpts the analyzer returned (a no-failure tail gets none). */
export function withFindings<T extends LogExcerpt>(lines: readonly string[], excerpts: T[]): T[] {
  for (const e of excerpts) if (e.score > 0 || e.reason !== 'no failure found') e.finding = withLikelyClass(lines, e, findingOf(lines, e));
  return excerpts;
}
