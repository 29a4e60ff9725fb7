/**
 * Answers for a log that shows no error (a build still running, a log cut before any failure)
 * and for a build whose context holds no log: what the context can tell, and nothing more
 * (session 42, fx3; docs/notes/answer.md "Answers without an error").
 */
import type { CiContext } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { cite, inlineCode, storedLogSpan, type LogSpan } from '../logtext.js';
import { isTailExcerpt, NO_LOG_HINT } from './logHelpers.js';
import type { Source } from '../../../protocol/types.js';
import { outcomeOf } from './outcome.js';

/**
 * Why the context of a finished build holds no log, when it can tell: the controller read the
 * build from JENKINS_HOME (it always records the build's `kind` then) and either could not read
 * its log (`consoleLogError`) or found none (it records `consoleLogBytes` for every log it reads).
 * Undefined for a context that cannot tell (a hand-made one, a running build).
 */
export function serverLogMissing(ci: CiContext, build: string): { text: string; field?: string } | undefined {
  const b = ci.buildDetails;
  if (!b || typeof b['kind'] !== 'string' || outcomeOf(ci).outcome === 'running') return undefined;
  const error: unknown = b['consoleLogError'];
  if (typeof error === 'string' && error.trim()) {
    return { text: `The CI server's log of ${build} could not be read: ${error.replace(/\.$/, '')}. Ask the CI server's administrator to check the log file in the build's folder.`, field: 'buildDetails.consoleLogError' };
  }
  if (b['consoleLogBytes'] !== undefined || typeof b.consoleLogTail === 'string' || typeof b.consoleLog === 'string') return undefined;
  return {
    text: `The CI server has no log file for ${build}: the controller read the build from JENKINS_HOME and its folder holds no log (deleted, or never written). If you have a copy of the log, upload it: \`cichat context upload <chat-id> --log build.log\`.`,
  };
}

/** What to say after "the uploaded context holds no build log": the CI server's lack when the context shows it, else how to upload one. */
export function noLogHint(ci: CiContext, build: string): { text: string; sources: Source[] } {
  const missing = serverLogMissing(ci, build);
  return { text: missing?.text ?? NO_LOG_HINT, sources: missing?.field ? [{ kind: 'context', field: missing.field }] : [] };
}

/**
 * The analyzer read the log and recognised no failure in it (its only excerpt is the plain tail
 * it returns then), as `cichat analyze` reports "no failure found".
 */
export function analyzerFoundNone(ctx: ChatContext): boolean {
  return ctx.failureExcerpts.length > 0 && ctx.failureExcerpts.every(isTailExcerpt);
}

/** The last lines the log holds (the analyzer's tail, else the stored log's last ten). */
export function lastLines(ctx: ChatContext): LogSpan | undefined {
  const analyzerTail = ctx.failureExcerpts.find(isTailExcerpt);
  if (analyzerTail) return analyzerTail;
  const stored = storedLogSpan(ctx);
  if (!stored) return undefined;
  const shown = stored.text.split('\n').slice(-10);
  return { start_line: stored.end_line - shown.length + 1, end_line: stored.end_line, text: shown.join('\n') };
}

/**
 * The lead of a failure answer when the log shows no error and the build did not finish as a
 * failure the context records: still running, or its outcome unknown (a piped log, maybe cut).
 * Undefined for other outcomes (they keep their own wording).
 */
export function noErrorLead(ci: CiContext, ctx: ChatContext, build: string): string | undefined {
  const { outcome } = outcomeOf(ci);
  const lines = `${ctx.logLineCount}-line log`;
  if (outcome === 'running') return `**${build} is still running, and its log shows no error so far:** I found no error lines in its ${lines}.`;
  if (outcome === 'unknown') return `**The log shows no error:** I found no error lines in its ${lines}, and the context does not say how the build ended (it may still be running, or the log may have been cut before a failure).`;
  return undefined;
}

/** What to do about a log with no error yet, by what the context says of the build. */
export function noErrorAdvice(ci: CiContext, build: string): string | undefined {
  const { outcome } = outcomeOf(ci);
  if (outcome === 'running') return `Wait for ${build} to finish, then ask again.`;
  if (outcome === 'unknown') return 'If the build failed, the failure is not in these lines: upload its full log (`cat build.log | cichat ask "why did it fail?"`, or `cichat context upload <chat-id> --log build.log`) and ask again.';
  return undefined;
}

/** "How do I fix it?" on a log with no error: nothing to fix yet, and what to do; undefined for other outcomes. */
export function nothingToFix(ci: CiContext, ctx: ChatContext, build: string): string | undefined {
  const advice = noErrorAdvice(ci, build);
  if (!advice) return undefined;
  const tail = lastLines(ctx);
  const read = tail ? ` (it ends ${cite(tail)}${tail.text.trim() ? ` with ${inlineCode(tail.text.trim().split('\n').pop() as string)}` : ''})` : '';
  return `There is nothing in the log of ${build} to fix yet: it shows no error${read}. ${advice}`;
}
