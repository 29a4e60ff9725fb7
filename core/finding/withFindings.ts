/**
 * The findings of the excerpts the analyzer returned (core/log/analyze.ts): each excerpt's finding
 * (index.ts), for an `unknown` one the class the failing command's purpose gives (purpose.ts), and for one still `unknown` the class its words suggest when the class model is sure
 * enough (classModel.ts: `likely_class`, a guess marked as one; the rules' class is never changed).
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { findingOf } from './index.js';
import { withLikelyClass } from './classModel.js';
import { withCommandPurpose } from './purpose.js';

/** An excerpt's finding: the rules', the failing command's purpose where they say unknown (purpose.ts), then the class model's guess. */
export function fullFindingOf(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>): Finding {
  return withLikelyClass(lines, excerpt, withCommandPurpose(lines, findingOf(lines, excerpt)));
}

/** Findings for excerpts the analyzer returned (a no-failure tail gets none). */
export function withFindings<T extends LogExcerpt>(lines: readonly string[], excerpts: T[]): T[] {
  for (const e of excerpts) if (e.score > 0 || e.reason !== 'no failure found') e.finding = fullFindingOf(lines, e);
  return excerpts;
}
