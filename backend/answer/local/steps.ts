/**
 * What Jenkins itself recorded about the failure (issue 26): the failing pipeline steps from
 * the flow nodes (`buildDetails.failingSteps`): stage, parallel branch, step, exception.
 */
import type { CiContext, FailingStep } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import type { ReplyBuilder } from './reply.js';

function stepsOf(ci: CiContext): FailingStep[] {
  const list = ci.buildDetails?.failingSteps;
  if (!Array.isArray(list)) return [];
  return list.filter((s): s is FailingStep => typeof s === 'object' && s !== null && typeof s.step === 'string');
}

/** `bat` in stage `Test` (inside `CI`), parallel branch `windows`. */
export function describeStep(s: FailingStep): string {
  const what = s.step === '(pipeline script)' ? 'the pipeline script itself' : `step ${inlineCode(s.step)}`;
  const path = Array.isArray(s.stagePath) && s.stagePath.length > 1 ? ` (${s.stagePath.map((x) => inlineCode(x)).join(' › ')})` : '';
  const stage = typeof s.stage === 'string' ? ` in stage ${inlineCode(s.stage)}${path}` : '';
  const branch = typeof s.branch === 'string' ? `, parallel branch ${inlineCode(s.branch)}` : '';
  return `${what}${stage}${branch}`;
}

/**
 * One line naming the failing step(s) as Jenkins recorded them, with the exception; for
 * `script returned exit code N` it says the step's own output holds the cause. Nothing when
 * the context carries no failing step.
 */
export function recordedSteps(out: ReplyBuilder, ci: CiContext): boolean {
  const steps = stepsOf(ci);
  const first = steps[0];
  if (!first) return false;
  out.fact('buildDetails.failingSteps');
  const error = first.errorClass ? `${first.errorClass.replace(/^.*\./, '')}${first.errorMessage ? `: ${first.errorMessage.split('\n')[0]?.slice(0, 200)}` : ''}` : first.errorMessage;
  const lines = Array.isArray(first.logLines) ? ` (its output: lines ${first.logLines[0]}-${first.logLines[1]})` : '';
  let text = `Jenkins recorded the failure in ${describeStep(first)}${lines}, with ${inlineCode(error)}`;
  if (first.wrapper === true) text += `: that is the step's exit status, the cause is in the step's own output`;
  const others = steps.slice(1);
  if (others.length > 0) text += `. Also failed: ${others.slice(0, 3).map(describeStep).join('; ')}`;
  out.line(`${text}.`);
  return true;
}
