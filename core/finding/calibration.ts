/**
 * A finding's confidence that means what it says (issue 25, calibration; docs/notes/analyzer.md "Calibration (helper
 * cal1, session 45)"). A rule's `high` is kept only when the excerpt's words agree with it: the class model
 * (classModel.ts, the counts of the labelled real failures) reading the excerpt without the rules' class and
 * confidence gives the rules' class a posterior of at least CALIBRATION.highAt; otherwise the finding says `medium`
 * (answers word it "likely rather than certain") and keeps the rule's own level in `rules_confidence`. The class is
 * never changed, and `medium` or `low` is never raised.
 *
 * Why this signal: on the unseen rounds 11-18, each scored with the rules of the commit that first measured it and a
 * model trained on the rounds before it only (scripts/calibration.ts, the forward protocol), the wrong findings at
 * `high` were the ones whose words read like another class (a `401` under a resolver's verdict, an HTTP client's
 * timeout raised as an exception); a rule's tool, class or family having been exercised by many tuning cases did not
 * separate them (every wrong `high` sat in a class and tool the tuning cases had exercised right 2-37 times).
 * `highAt` is chosen from those forward figures by `npm run calibration` (calibrationTable.ts, generated).
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { CALIBRATION } from './calibrationTable.js';
import { classTokens, modelTable, posteriors, type ClassModelTable } from './classModel.js';

/** The tokens that carry the rules' own verdict (`#rule:<class>`, `#conf:<level>`): left out, so the words alone are read. */
const RULES_TOKEN = /^#(?:rule|conf):/;

/** The model's posterior of class `cls` from `tokens` without the rules' class and confidence. */
export function wordsProbability(table: ClassModelTable, tokens: readonly string[], cls: Finding['class']): number {
  return posteriors(table, tokens.filter((t) => !RULES_TOKEN.test(t))).get(cls) ?? 0;
}

/** Whether a rule's `high` stands: its class's posterior from the words alone is at least `highAt`. */
export const highHolds = (p: number, highAt: number = CALIBRATION.highAt): boolean => p >= highAt;

/**
 * The finding with its confidence calibrated: a rules' `high` whose class the excerpt's words do not support is
 * `medium`, with `rules_confidence: 'high'`; any other finding is returned as it is (the table is decoded only for a
 * `high` one).
 */
export function calibrated(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, finding: Finding, table?: ClassModelTable, highAt: number = CALIBRATION.highAt): Finding {
  if (finding.confidence !== 'high' || finding.class === 'unknown') return finding;
  const p = wordsProbability(table ?? modelTable(), classTokens(lines, excerpt, finding), finding.class);
  return highHolds(p, highAt) ? finding : { ...finding, confidence: 'medium', rules_confidence: 'high' };
}
