/** Reading the log for answers: error excerpts in reading order, quoting, finding lines. */
import type { ChatContext, LogPassage } from '../engine.js';
import { cite, clip, codeBlock, storedLogSpan, headlineOf, inlineCode, kindAskedAbout, failingStepOf, findLine, type FailureKind, type LogSpan } from '../logtext.js';
import type { ReplyBuilder } from './reply.js';

/**
 * The analyzer's excerpts that point at an error. When it recognises none it returns the end
 * of the log (score 0, "end of log"): that is no error and is not quoted as one.
 */
export function errorExcerpts(ctx: ChatContext): ChatContext['failureExcerpts'] {
  return ctx.failureExcerpts.filter((e) => !isTailExcerpt(e));
}

export function isTailExcerpt(e: { score: number; reason: string }): boolean {
  return e.score <= 0 || e.reason === 'end of log' || e.reason === 'no failure found';
}

export async function retrieveSafely(ctx: ChatContext, query: string, k: number): Promise<LogPassage[]> {
  if (ctx.logLineCount === 0) return [];
  try {
    return await ctx.retrieve(query, k);
  } catch {
    // Retrieval is a help, not a requirement: the facts still answer without it.
    return [];
  }
}

/**
 * Quotes a span: citation and reason, then the lines. With `error`, the span quoted as the
 * cause: the analyzer's "output before the failure" (before the failure's summary or exit line)
 * of a span printed after that error would read as if it came first, so it says where it is (ux4).
 */
export function quote(out: ReplyBuilder, span: LogSpan & { reason?: string }, maxLines: number, error?: LogSpan): void {
  const { block, hiddenLines } = codeBlock(span.text, maxLines);
  const reason = error && span.reason === 'output before the failure' && span.start_line > error.end_line ? 'output after the error' : span.reason;
  out.line(`${cite(span)}${reason ? ` *${reason}*` : ''}`);
  out.line(block);
  if (hiddenLines > 0) out.line(`*…${hiddenLines} more line${hiddenLines === 1 ? '' : 's'} in ${cite(span)}.*`);
  out.log(span);
}

export function hasLog(ctx: ChatContext): boolean {
  return ctx.logLineCount > 0 || ctx.failureExcerpts.length > 0;
}

/**
 * The analyzer's excerpts in the order a person reads them: those with a line that states an
 * error first (an excerpt of plain output before the failure is context, not the cause).
 */
export function rankedErrorExcerpts(ctx: ChatContext): ChatContext['failureExcerpts'] {
  const excerpts = errorExcerpts(ctx);
  // An excerpt states an error when a line of it looks like one, or when the analyzer's finding
  // for it is sure of a class on its message line (pytest's `[XPASS(strict)] ...` reads like
  // no error to a keyword, yet it is the failure; the count line below it only reports it).
  const stating = excerpts.filter((e) => headlineOf(e).isError || statesByFinding(e));
  // "script returned exit code 1", "BUILD FAILURE", "Finished: FAILURE" say that it failed,
  // never why: the cause is in another excerpt when there is one.
  const causes = stating.filter((e) => !isConsequenceOnly(e.text));
  // The analyzer's order otherwise: it knows better than a keyword which error came first.
  // Compared with the last green build: within each group, what it printed too comes after
  // what is new (an exit-code line is new in every failure, so it never leads over an error).
  const newFirst = (group: typeof excerpts): typeof excerpts => [...group.filter((e) => e.new_since_baseline !== false), ...group.filter((e) => e.new_since_baseline === false)];
  return [...newFirst(causes), ...newFirst(stating.filter((e) => !causes.includes(e))), ...newFirst(excerpts.filter((e) => !stating.includes(e)))];
}

/** The excerpt's finding is sure (not low, not unknown) of a message that is not a mere report of failure. */
function statesByFinding(e: ChatContext['failureExcerpts'][number]): boolean {
  const f = e.finding;
  return f !== undefined && f.class !== 'unknown' && f.confidence !== 'low' && !reportsOnly(f.message);
}

const CONSEQUENCE_LINE =
  /^(?:ERROR: )?script returned exit code \d+$|^\[INFO\] BUILD FAILURE$|^BUILD FAILED( in .*)?$|^Finished: \w+$|^Build step '.*' marked build as failure$|^\[[-=]+\]$|^\[INFO\] -+$|^ERROR: (?:Execution|Build step) failed|^FAILURE: Build failed with an exception\.?$|^\[Pipeline\] .*$|^make: \*\*\* .*Error \d+$/;

/** Every line of `text` only reports that something failed (an exit code, Jenkins' ending). */
export function isConsequenceOnly(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length > 0 && lines.every((l) => CONSEQUENCE_LINE.test(l));
}

/**
 * A finding's message that only reports that a step failed, not why: an exit status, Jenkins'
 * or make's ending, a test runner's count or "see above" line. An answer quoting it must not
 * call it the error (issue 25).
 */
export function reportsOnly(message: string): boolean {
  const m = message.trim();
  return CONSEQUENCE_LINE.test(m) || REPORT_ONLY.test(m);
}

const REPORT_ONLY =
  /^(?:\[(?:ERROR|INFO)\] )?Tests run: \d+, Failures: \d+, Errors: \d+(?:, Skipped: \d+)?\s*$|^npm ERR! Test failed\.|^(?:ERROR|FAILED|FAIL|FAILURE)!?$|^##\[error\]Process completed with exit code \d+\.?$|^Process completed with exit code \d+\.?$|^The command ".*" exited with \d+\.?$|^(?:ERROR: )?script returned exit code \d+$|^=*\s*\d+ (?:failed|errors?)(?:, \d+ \w+)* in [\d.]+s(?: \([\d:]+\))?\s*=*$/;

/** The text of a log line by number: from the stored log (split once, when first asked), else the excerpt. */
export function lineTextOf(ctx: ChatContext, span: LogSpan): (n: number) => string | undefined {
  let lines: string[] | undefined;
  const source = storedLogSpan(ctx) ?? span;
  return (n) => {
    lines ??= source.text.split('\n');
    return lines[n - source.start_line];
  };
}

/**
 * "The error came in stage **Deploy** [L37-L37], parallel branch **linux** [L52-L52], while running `./deploy.sh` [L39-L39]." or undefined.
 * A build that was stopped (`stopped`: aborted) did not fail there: "It was stopped in ..., while running `sleep 600` [L5-L5]."
 */
export function whereItFailed(out: ReplyBuilder, ctx: ChatContext, top: LogSpan, stopped = false): string | undefined {
  const stored = storedLogSpan(ctx);
  if (!stored) return undefined;
  const step = failingStepOf(stored, headlineOf(top).line);
  const parts: string[] = [];
  if (step.stage) {
    parts.push(`in stage **${step.stage.stage}** ${cite({ start_line: step.stage.line, end_line: step.stage.line })}`);
    out.log({ start_line: step.stage.line, end_line: step.stage.line });
  }
  if (step.branch) {
    parts.push(`${step.stage ? '' : 'in '}parallel branch **${step.branch.branch}** ${cite({ start_line: step.branch.line, end_line: step.branch.line })}`);
    out.log({ start_line: step.branch.line, end_line: step.branch.line });
  }
  if (step.command) {
    parts.push(`while running ${inlineCode(clip(step.command.command, 120))} ${cite({ start_line: step.command.line, end_line: step.command.line })}`);
    out.log({ start_line: step.command.line, end_line: step.command.line });
  }
  const after = !step.stage && step.lastStage
    ? `The error was printed after the pipeline's stages had closed, so the log does not say which stage failed; the last stage it shows starting is **${step.lastStage.stage}** ${cite({ start_line: step.lastStage.line, end_line: step.lastStage.line })}.`
    : undefined;
  if (after) out.log({ start_line: step.lastStage!.line, end_line: step.lastStage!.line });
  // "The error came", not "It failed": the step is placed by where its error was printed, and "failed" is also a
  // tool's verdict (pytest's `FAILED`) that a build whose tests passed before a later command broke never had.
  const failed = parts.length > 0 ? `${stopped ? 'It was stopped' : 'The error came'} ${parts.join(', ')}.` : undefined;
  return failed && after ? `${failed} ${after}` : (failed ?? after);
}

/** The question is a yes/no about the failure's kind ("was it a timeout?"). */
export function yesNoKind(q: string): FailureKind | undefined {
  if (!/^\s*(was|is|did|does|do|could|can|has|had|were|are|maybe)\b/.test(q)) return undefined;
  return kindAskedAbout(q);
}

export const NO_LOG_HINT = 'Upload the log and ask again: `cichat context upload <chat-id> --log build.log`, or `cat build.log | cichat ask "..."`.';

/** The first line matching `pattern` in the stored log, else in what retrieval finds for `query`. */
export async function findInLog(ctx: ChatContext, pattern: RegExp, query: string, fromEnd = false): Promise<(LogSpan & { line: number; match: RegExpExecArray }) | undefined> {
  if (!hasLog(ctx)) return undefined;
  const stored = storedLogSpan(ctx);
  const spans: LogSpan[] = stored ? [stored] : [];
  if (stored?.start_line !== 1) spans.push(...(await retrieveSafely(ctx, query, 3)));
  for (const span of spans) {
    const hit = findLine(span, pattern, { fromEnd });
    if (hit) return { start_line: hit.line, end_line: hit.line, text: hit.text, line: hit.line, match: hit.match };
  }
  return undefined;
}

