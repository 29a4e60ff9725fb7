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
 *
 * Below high (docs/notes/analyzer.md "Session 50 (helper cm2): decisions below high, forward"): a rule's class at
 * `medium` or `low` whose posterior from the excerpt's words alone is under CALIBRATION.keepAt is not said at all: the
 * finding becomes `unknown` and keeps the rule's reading in `rules_class` and `rules_confidence`, with the class the
 * words alone suggest as its `likely_class` when the model is sure enough (classModel.ts). On the same forward rounds
 * such classes were wrong about two times in three, and a wrong class said costs two right ones. A `high` lowered above
 * keeps its hedged medium.
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { CALIBRATION } from './calibrationTable.js';
import { classTokens, likelyClassOf, modelTable, posteriors, type ClassModelTable } from './classModel.js';

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

/** Whether a rule's medium or low class is said: its class's posterior from the words alone is at least `keepAt`. */
export const belowHighHolds = (p: number, keepAt: number = CALIBRATION.keepAt): boolean => p >= keepAt;

/**
 * A rule's class below high that the excerpt's words do not support, set aside: the finding says `unknown` at `low`, with
 * the rule's class in `rules_class` and the rule's own level in `rules_confidence` (`medium` or `low`), and a
 * `likely_class` when the words alone make another class sure enough (classModel.ts likelyClassOf); the message, place
 * and evidence stay the rule's. A `high` (and a `high` lowered to medium), an `unknown` and a supported class are
 * returned as they are.
 */
export function supported(lines: readonly string[], excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>, finding: Finding, given?: ClassModelTable, keepAt: number = CALIBRATION.keepAt): Finding {
  // A rule's `high` that calibration lowered (rules_confidence) is not read again: its medium is already the hedge.
  if (finding.class === 'unknown' || finding.confidence === 'high' || finding.rules_confidence !== undefined || keepAt <= 0) return finding;
  const table = given ?? modelTable();
  const p = wordsProbability(table, classTokens(lines, excerpt, finding), finding.class);
  if (belowHighHolds(p, keepAt)) return finding;
  const aside: Finding = { ...finding, class: 'unknown', confidence: 'low', rules_class: finding.class, rules_confidence: finding.rules_confidence ?? finding.confidence };
  const likely = likelyClassOf(lines, excerpt, aside, table);
  return likely ? { ...aside, likely_class: likely } : aside;
}
