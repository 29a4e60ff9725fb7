/**
 * The ablation switch of the finding (issue 25, round 6 preparation; docs/notes/analyzer.md,
 * "Generic evidence, round 6 preparation"). For measuring only, never a user's setting: with it
 * on, the tool-family evidence is left out and only general evidence decides, which estimates
 * how the analyzer does on a tool it has never seen.
 *
 * Left out when on ("tool-specific": each was written for one tool family's output, or fitted
 * to one data round's cases):
 * - every rule of rules.ts except GENERAL_RULES (the native tools' rules, the per-family rules of
 *   compilers, linters, resolvers, test runners and CI systems, their infrastructure lines);
 * - the rules of rounds 4 and 5, now in families/ by what they concern (qualityGates, testVerdicts, compilers,
 *   toolchains, downloads, timeouts, runtimes, systemPackages, and the tools' own families);
 * - the refinements fitted to the tuning rounds' cases: refine.ts, refineByPlace.ts, refineReports.ts, refineDetails.ts,
 *   refineStepCause.ts (steps.ts FAMILY_STEPS; they were refine4a/4b/5a/5b.ts, named by round).
 * Kept: GENERAL_RULES and words.ts's WORD_RULES (words any tool uses), the language-level shape readers (frames.ts,
 * tests.ts), generic.ts (command roles, place forms), index.ts's own reading, and evidence.ts
 * (the general evidence this switch was built to measure).
 *
 * Read in one place: the environment variable CICHAT_FINDING_GENERIC_ONLY=1 when this module
 * loads, or `setGenericOnly` (tests, the bench's `--generic-only`).
 */
import type { Rule } from './ruleTypes.js';
import { GENERAL_RULES, RULES } from './rules.js';
import { WORD_RULES } from './words.js';

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
let genericOnly = env?.CICHAT_FINDING_GENERIC_ONLY === '1';

/** True when only general evidence decides (the tool-family rules and refinements are off). */
export function isGenericOnly(): boolean {
  return genericOnly;
}

/** Turns the ablation on or off (tests and the bench only). */
export function setGenericOnly(on: boolean): void {
  genericOnly = on;
}

/** The general rules: the words any tool uses (rules.ts's GENERAL_RULES first, then words.ts's). */
export const GENERIC_RULES: readonly Rule[] = [...GENERAL_RULES, ...WORD_RULES];

/** The rules a line is tried against now. */
export function activeRules(): readonly Rule[] {
  return genericOnly ? GENERIC_RULES : RULES;
}

/** `read()` on general evidence only (the family rules' unknown is read again so). */
export function onGeneralEvidence<T>(read: () => T): T {
  const was = genericOnly;
  genericOnly = true;
  try {
    return read();
  } finally {
    genericOnly = was;
  }
}
