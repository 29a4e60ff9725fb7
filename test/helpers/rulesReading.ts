/**
 * The analyzer as the rule tests read it: every finding as its rules gave it. The last step of the findings
 * (core/finding/calibration.ts `supported`, docs/notes/analyzer.md "Session 50 (helper cm2): decisions below high,
 * forward") sets aside a class said below high whose excerpt's words do not support it, by the class model's counts of
 * the real cases; a made-up log of a few lines written for one rule rarely holds the words of its class's real logs.
 * The tests of a rule assert what the rule read (the class it gave, at its level), so they read the finding back:
 * `class` is `rules_class`, `confidence` the rule's level (`rules_confidence`). The step itself is tested in core/finding/calibration.test.ts and on the
 * real cases in test/findings-realfail.test.ts.
 */
import { analyze as analyzeLog } from '../../core/log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/** The finding as the rules gave it, before a class was set aside (the same object when none was). */
export function rulesReading(f: Finding): Finding;
export function rulesReading(f: Finding | undefined): Finding | undefined;
export function rulesReading(f: Finding | undefined): Finding | undefined {
  if (f === undefined || (f.rules_class === undefined && f.rules_confidence === undefined)) return f;
  // A class set aside (rules_class), or only lowered from high by the calibration (rules_confidence alone).
  const { rules_class: cls, rules_confidence: level, likely_class: _guess, ...rest } = f;
  return { ...rest, class: cls ?? f.class, confidence: level ?? (cls === undefined ? f.confidence : 'medium') };
}

/** core/log/analyze.ts's `analyze`, each excerpt's finding read as its rules gave it. */
export function analyze(...args: Parameters<typeof analyzeLog>): ReturnType<typeof analyzeLog> {
  const excerpts = analyzeLog(...args);
  for (const e of excerpts) if (e.finding) e.finding = rulesReading(e.finding);
  return excerpts;
}
