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

/**
 * The downstream build that failed this one (`buildDetails.downstreamFailure`), with its own
 * failing step when Jenkins recorded one. Nothing when the context names none.
 */
export function recordedDownstream(out: ReplyBuilder, ci: CiContext): boolean {
  const raw: unknown = ci.buildDetails?.downstreamFailure;
  if (typeof raw !== 'object' || raw === null) return false;
  const d = raw as Record<string, unknown>;
  const job = typeof d['jobName'] === 'string' ? d['jobName'] : undefined;
  const n = typeof d['number'] === 'number' ? d['number'] : undefined;
  if (job === undefined || n === undefined) return false;
  out.fact('buildDetails.downstreamFailure');
  const result = typeof d['result'] === 'string' ? ` finished ${inlineCode(d['result'])}` : ' failed';
  const error = d['error'];
  let text = `It failed because the downstream build ${inlineCode(`${job} #${n}`)} it triggered${result}`;
  const steps = Array.isArray(d['failingSteps']) ? (d['failingSteps'] as FailingStep[]) : [];
  const first = steps.find((s) => typeof s?.step === 'string');
  if (first) text += `; there Jenkins recorded the failure in ${describeStep(first)} (${inlineCode(`${first.errorClass.replace(/^.*\./, '')}: ${first.errorMessage.split('\n')[0] ?? ''}`)})`;
  else if (typeof error === 'string') text += ` (${error})`;
  out.line(`${text}.`);
  const tailText = d['consoleLogTail'];
  const tail = typeof tailText === 'string' ? tailText.split('\n').filter((l) => l.trim() !== '') : [];
  const errorLine = [...tail].reverse().find((l) => /error|exception|failed/i.test(l) && !/^(?:Finished:|ERROR: script returned exit code)/.test(l));
  if (errorLine) out.line(`Its log ends with: ${inlineCode(errorLine.slice(0, 200))}`);
  return true;
}
