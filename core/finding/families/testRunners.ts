/**
 * Test runners of any language: evidence rules of the tuning rounds 10 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `TEST_RUNNER_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `TEST_RUNNER_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule } from '../ruleTypes.js';

export const TEST_RUNNER_RULES: Rule[] = [
  // Any runner that found nothing to run (mocha's and vitest's `No test files found`, jest's `No tests found, exiting
  // with code 1`, jasmine's `No specs found`, phpunit's `No tests executed!`, ctest's `No tests were found!!!`): the
  // script's selection (a glob, a pattern, a directory) matches no test, the script's error (t16).
  {
    cls: 'ci-script',
    priority: 48,
    confidence: 'medium',
    re: /^(?:Error: )?No test files found\b|^No tests found(?:, exiting with code \d+|\b.*\bmatching\b)|^No specs found\b|^No tests executed!|^No tests were found!*$/,
  },
];
