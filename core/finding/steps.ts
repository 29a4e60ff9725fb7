/**
 * The ordered steps over a finding (index.ts): each takes the finding so far and the excerpt's
 * lines and may refine it. Two lists, each applied first to last:
 * - FAMILY_STEPS: the tool families' refinements of the rules' finding, before the general
 *   evidence is weighed against it (index.ts `findingOfAny`);
 * - FINDING_STEPS: the steps over whatever was found (index.ts `findingOf`): the general verdicts
 *   (verdicts.ts), the failed command's words over the step's ending (scriptWords.ts), the place in any form a tool prints when none was given (places.ts), then a
 *   program the agent lacks said on the message line whichever step chose it (verdicts.ts), Gradle's innermost
 *   cause (gradleCause.ts), then a
 *   message a tool split over a header and its payload line as one message (payload.ts), last
 *   Jenkins' timeout cause (timeoutCause.ts).
 * A new step goes where its evidence belongs in the order; the order is the behaviour.
 */
import type { Finding, LogExcerpt } from '../../protocol/types.js';
import { withWordsBelow } from './continued.js';
import { refined } from './refine.js';
import { refinedByReports } from './refineReports.js';
import { refinedByDetails } from './refineDetails.js';
import { refinedByPlace } from './refineByPlace.js';
import { refinedByStepCause } from './refineStepCause.js';
import { lackedProgram, verdictOf } from './verdicts.js';
import { withPayload } from './payload.js';
import { withTimeoutCause } from './timeoutCause.js';
import { withPlace } from './places.js';
import { withFailedSuite, withTestProgram } from './testNames.js';
import { withRejection } from './rejected.js';
import { withWhatHung } from './hung.js';
import { withChainEnd } from './chained.js';
import { withPomPlace } from './pomPlace.js';
import { withFatalWarning, withRustLint } from './fatalWarning.js';
import { withGoTestOutput } from './goFar.js';
import { withLocalDependency } from './localDep.js';
import { withCmakeStack } from './cmakeStack.js';
import { withCtestOutput } from './ctestOutput.js';
import { withCommandWords } from './scriptWords.js';
import { withGradleCause } from './gradleCause.js';
import { withUnseenAlias } from './unseenAlias.js';
import { withRefusedOperand } from './refused.js';
import { withHttpStatus } from './httpStatus.js';

/** What a step reads: the cleaned log (index 0 = line 1), the excerpt, and a line's body without CI marks. */
export interface StepInput {
  lines: readonly string[];
  excerpt: Pick<LogExcerpt, 'start_line' | 'end_line'>;
  bodyAt: (i: number) => string;
}

/** One step: the finding so far, refined or as it was. */
export type Step = (found: Finding, input: StepInput) => Finding;

/** The tool families' refinements of the rules' finding, in order. */
export const FAMILY_STEPS: readonly Step[] = [
  (f, { lines, excerpt, bodyAt }) => refined(f, lines, excerpt, bodyAt),
  // The finding's own place: in test code, in a build definition file, in a file the command was given.
  (f, { lines, excerpt, bodyAt }) => refinedByPlace(f, lines, excerpt, bodyAt),
  // A linter's or test runner's report around it: the stylish report's first place, TAP's YAML diagnostics, pytest's section.
  (f, { lines, excerpt, bodyAt }) => refinedByReports(f, lines, excerpt, bodyAt),
  // The details a tool prints apart from its heading: the condition's text below it, the test's name, the first report of a resource exhausted.
  (f, { lines, excerpt, bodyAt }) => refinedByDetails(f, lines, excerpt, bodyAt),
  // The cause the step printed next to it: an abort's reason, a full disk under a failed write, a connection's failure under a fetch's conclusion.
  (f, { lines, excerpt, bodyAt }) => refinedByStepCause(f, lines, excerpt, bodyAt),
];

/** The steps over the finding, in order. */
export const FINDING_STEPS: readonly Step[] = [
  (f, { lines, bodyAt }) => withCtestOutput(f, bodyAt, lines.length),
  (f, { lines, excerpt, bodyAt }) => withFatalWarning(f, lines, excerpt, bodyAt),
  (f, { lines, bodyAt }) => withRustLint(f, bodyAt, lines.length),
  (f, { lines, excerpt, bodyAt }) => verdictOf(f, lines, excerpt, bodyAt),
  // The failed command's words where the message is only the step's ending (the CI's exit line, a script's `exit 1`).
  (f, { bodyAt }) => withCommandWords(f, bodyAt),
  (f, { lines, bodyAt }) => withGoTestOutput(f, lines, bodyAt),
  (f, { lines, bodyAt }) => withWordsBelow(f, lines.length, bodyAt),
  (f, { lines, bodyAt }) => withRejection(f, lines, bodyAt),
  (f, { lines, bodyAt }) => withWhatHung(f, lines, bodyAt),
  (f, { lines, bodyAt }) => withChainEnd(f, lines, bodyAt),
  (f, { lines, bodyAt }) => withPomPlace(f, lines, bodyAt),
  (f, { bodyAt }) => withLocalDependency(f, bodyAt),
  (f, { lines, bodyAt }) => withCmakeStack(f, lines, bodyAt),
  (f, { lines, excerpt, bodyAt }) => withPlace(f, lines, excerpt, bodyAt),
  (f, { bodyAt }) => withFailedSuite(f, bodyAt),
  (f, { lines, bodyAt }) => withTestProgram(f, bodyAt, lines.length),
  (f) => lackedProgram(f) ?? f,
  // A `command not found` for the script's own alias, which bash does not expand in a script (unseenAlias.ts).
  withUnseenAlias,
  // Gradle's `* What went wrong:` chain: its innermost `> ` cause over an outer line.
  (f, { lines, bodyAt }) => withGradleCause(f, bodyAt, lines.length),
  (f, { lines, bodyAt }) => withPayload(f, bodyAt, lines.length),
  (f, { lines, bodyAt }) => withTimeoutCause(f, bodyAt, lines.length),
  // An operand of the step's own command a tool refused, around the message (refused.ts): read by the answers.
  (f, { lines, bodyAt }) => withRefusedOperand(f, lines.length, bodyAt),
  // The HTTP status the failing request got, and the class a download's status and URL settle (httpStatus.ts).
  (f, { lines, bodyAt }) => withHttpStatus(f, lines.length, bodyAt),
];

/** `found` through `steps`, first to last. */
export function stepped(steps: readonly Step[], found: Finding, input: StepInput): Finding {
  return steps.reduce((f, step) => step(f, input), found);
}
