/** Answers about why the build failed: the failure, failing tests, the failing step, flakiness. */
import { buildLabel } from '../facts.js';
import { cite, clip, storedLogSpan, headlineOf, inlineCode, diagnose, labelOfKind, failingStepOf, exitCodeMeaning, linesOf, withoutStamp, type LogSpan } from '../logtext.js';
import { type Composer, ReplyBuilder, notSaid, type AnswerGroup, type Reply } from './reply.js';
import type { CiContext } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { outcomeOf, endedAs, capitalise } from './outcome.js';
import { errorExcerpts, retrieveSafely, quote, hasLog, rankedErrorExcerpts, isConsequenceOnly, reportsOnly, lineTextOf, whereItFailed, yesNoKind } from './logHelpers.js';
import { describeChange } from './change.js';
import { failingSource, missingSourceHint, snippetsOf } from './workspace.js';
import { locationsIn, citeLocation, openAt, LOCATION_QUESTION, type CodeLocation } from './locations.js';
import { abortedBy, citeMessage, findingFor, meaningOf, at, toolShown } from './findingText.js';
import { remedyOf } from './remedies.js';
import { recordedDownstream, recordedSteps } from './steps.js';
import { addHistory, historyAnswer } from './history.js';
import { rerunOutlook, retryLead, retryVerdict, RETRY_QUESTION } from './blame.js';
import { IGNORE_QUESTION } from '../intents.js';
import { focusedAnswer, nextStep, spanWithMessage } from './focus.js';
import { failedOutputLine } from './parallelBranch.js';
import { CLASS_LABEL, classHedge, likelySentence } from './likely.js';
import type { Finding, FindingClass } from '../../../protocol/types.js';
import type { FailureKind } from '../logtext.js';
import { tests } from './failingTests.js';
import { analyzerFoundNone, lastLines, noErrorAdvice, noErrorLead, noLogHint, serverLogMissing } from './noError.js';
import { checkoutPathOf } from './checkoutPaths.js';
import { misplacedCause } from './misplacedSteps.js';
import { changedLineCause } from './changeDiff.js';
import { silentStopOf } from './silentStop.js';
import { emptyMakeVariable, emptyShellVariableWhy } from './makeEmpty.js';

/** The finding classes a yes/no question about a kind asks about ("was it a timeout?"). */
const CLASSES_OF_KIND: Partial<Record<FailureKind, FindingClass[]>> = {
  memory: ['out-of-memory'],
  disk: ['disk-full'],
  'missing-command': ['missing-tool'],
  permission: ['permission-credentials'],
  dependency: ['dependency-resolution'],
  network: ['network'],
  timeout: ['timeout-aborted'],
  compile: ['compile-error', 'link-error'],
  test: ['test-assertion', 'test-error'],
};

/**
 * A headline that only reports a failure (an exit status): what the failing command printed
 * between its echo and that line, when the excerpt shown does not hold it. It is the only
 * evidence of why the command failed, so it is quoted, never interpreted (issue 25).
 */

/**
 * A log read as its last lines (the controller's tail of a longer log, `consoleLogTruncated`): the answer's line numbers
 * count from the first line it holds, not from the top of Jenkins' console, so it says so, and gives the whole log's
 * line when the tail's start is known (`consoleLogTailStartLine`). ux13: "[L983]" of a 5,249-line console whose error
 * is its line 5,232.
 */
function tailNumbering(ci: CiContext, line: number): string | undefined {
  const b = ci.buildDetails;
  if (!b || typeof b.consoleLog === 'string' || typeof b.consoleLogTail !== 'string' || b['consoleLogTruncated'] !== true) return undefined;
  const held = b.consoleLogTail.replace(/\n$/, '').split('\n').length;
  const start = typeof b.consoleLogTailStartLine === 'number' ? b.consoleLogTailStartLine : undefined;
  const where = start !== undefined ? `: ${at(line)} is its line ${start + line - 1}` : '';
  return `*Line numbers count from the first of the log's last ${held} lines (what was read of this longer log), not from the top of Jenkins' console${where}.*`;
}

export function commandOutput(out: ReplyBuilder, ctx: ChatContext, top: LogSpan, headline: string, headlineLine: number): void {
  if (!reportsOnly(headline)) return;
  const stored = storedLogSpan(ctx);
  const ran = stored ? failingStepOf(stored, headlineLine).command : undefined;
  if (!stored || !ran || ran.line >= headlineLine - 1) return;
  const from = Math.max(ran.line + 1, headlineLine - 12);
  const printed = linesOf(stored, from, headlineLine - 1);
  if (!printed || (top.start_line <= from && top.end_line >= headlineLine - 1)) return;
  // The CI's own framing (Pipeline block ends, groups) is not the command's output.
  // Lines are quoted as the log holds them (their clock too), like every other quote.
  const body = printed.text.split('\n').filter((l) => {
    const t = withoutStamp(l);
    return t.trim() !== '' && !/^\[Pipeline\] |^##\[(?:group|endgroup)\]|^\+{1,2} /.test(t);
  });
  out.log({ start_line: printed.start_line, end_line: printed.end_line });
  out.line();
  if (body.length === 0 && from === ran.line + 1) {
    out.line(`${capitalise(inlineCode(clip(ran.command, 100)))} ${at(ran.line)} printed nothing before the step ended ${cite(printed)}: the log holds no message of its own about why.`);
    return;
  }
  if (body.length === 0) return;
  out.line(`**What the failing command printed before it ended** ${cite(printed)} (${inlineCode(clip(ran.command, 100))} ${at(ran.line)}):`);
  out.line('```text');
  for (const l of body) out.line(l);
  out.line('```');
}

export { CLASS_LABEL };

/** Whether a span's finding is of the kind a yes/no question names; the Docker kind has no class and is read by its words. */
function showsKind(ctx: ChatContext, span: LogSpan, kind: FailureKind): { line: number; text: string } | undefined {
  const classes = CLASSES_OF_KIND[kind];
  if (!classes) {
    const d = diagnose(span);
    return d?.kind === kind ? { line: d.line ?? span.start_line, text: d.lineText ?? headlineOf(span).text } : undefined;
  }
  const f = findingFor(ctx, span);
  return classes.includes(f.class) ? { line: f.message_line, text: f.message } : undefined;
}

/** Whether a span is new since the last green build (undefined: not compared, or a retrieved passage). */
function newness(span: LogSpan): boolean | undefined {
  const flag = (span as { new_since_baseline?: unknown }).new_since_baseline;
  return typeof flag === 'boolean' ? flag : undefined;
}

/** The last green build the excerpts were compared with, as the answers name it. */
export function greenBuildOf(ci: CiContext): { label: string; number?: number; compared: boolean; changes?: GreenChange[] } | undefined {
  const green = ci.buildDetails?.lastSuccessfulBuild;
  if (typeof green !== 'object' || green === null) return undefined;
  const number = typeof green.number === 'number' ? green.number : undefined;
  return {
    label: number !== undefined ? `#${number}` : 'the last green build',
    ...(number !== undefined ? { number } : {}),
    compared: typeof green.comparedLogLines === 'number',
    ...(Array.isArray(green.changesSince) ? { changes: green.changesSince as GreenChange[] } : {}),
  };
}

type GreenChange = { commitId?: string; author?: string; message?: string; build?: number };

/** `#41, which passed` / `the last green build`: what a reader needs to know about it, once. */
function whichPassed(green: { label: string; number?: number }): string {
  return green.number !== undefined ? `${green.label}, which passed` : 'the last green build';
}

/**
 * "What changed since the last green build?": the error blocks that are new since it, and the
 * commits of the builds in between. Undefined when the context names no green build.
 */
export function sinceLastGreen(ci: CiContext, ctx: ChatContext): Reply | undefined {
  const green = greenBuildOf(ci);
  const build = buildLabel(ci);
  if (!green) {
    const none = ci.buildDetails?.noSuccessfulBuild;
    if (typeof none === 'string' && !ci.buildDetails?.lastSuccessfulBuild) {
      return new ReplyBuilder().fact('buildDetails.lastSuccessfulBuild').line(`**There is no green build to compare with:** ${none}.`).reply();
    }
    return undefined;
  }
  const out = new ReplyBuilder().fact('buildDetails.lastSuccessfulBuild');
  out.line(`**Since ${whichPassed(green)}:**`);
  if (green.compared && hasLog(ctx)) {
    // "script returned exit code 2" is new in every failure and says nothing about why.
    const fresh = rankedErrorExcerpts(ctx).filter((e) => e.new_since_baseline === true && headlineOf(e).isError && !isConsequenceOnly(e.text));
    const old = errorExcerpts(ctx).filter((e) => e.new_since_baseline === false);
    out.line();
    if (fresh.length === 0) {
      out.line(`No error block in the log of ${build} is new: every error it shows also appears in ${green.label}.`);
    } else {
      out.line(`**${fresh.length} error block${fresh.length === 1 ? ' is' : 's are'} new** in ${build}:`);
      for (const e of fresh.slice(0, 3)) quote(out, e, 8);
    }
    if (old.length > 0) out.line(`${old.length} other error block${old.length === 1 ? '' : 's'} also appear${old.length === 1 ? 's' : ''} in ${green.label}, so ${old.length === 1 ? 'it is' : 'they are'} probably not the cause.`);
  } else {
    out.line();
    out.line(`The context holds no log of ${green.label} to compare the errors with.`);
  }
  out.line();
  if (green.changes === undefined) {
    out.line(`The context does not list the commits since ${green.label}.`);
  } else if (green.changes.length === 0) {
    out.line(`**No commits** were recorded since ${green.label}: the same code passed before, so look at the environment (agents, tools, network) or a flaky test.`);
  } else {
    out.line(`**${green.changes.length} commit${green.changes.length === 1 ? '' : 's'}** since ${green.label}:`);
    for (const c of green.changes.slice(0, 10)) out.line(`- ${describeChange(c)}${typeof c.build === 'number' ? ` (in #${c.build})` : ''}`);
    if (green.changes.length > 10) out.line(`- …and ${green.changes.length - 10} more.`);
  }
  return out.reply();
}

const failure: Composer = async (ask) => {
  const { ci, ctx } = ask;
  const out = new ReplyBuilder();
  const build = buildLabel(ci, true);
  const { outcome, raw } = outcomeOf(ci);
  if (raw) out.fact('buildDetails.result');
  if (outcome === 'running') out.fact('buildDetails.building');
  const askedKind = yesNoKind(ask.q);

  if (!hasLog(ctx)) {
    const state =
      outcome === 'unknown' ? '' : ` It ${endedAs(outcome, raw)}.`;
    // A build that passed did not fail: not "I can't see why it failed. It passed".
    const lead =
      outcome === 'passed'
        ? `${capitalise(build)} did not fail: it finished ${inlineCode(raw ?? 'SUCCESS')}. The uploaded context holds no build log to look for errors in.`
        : askedKind
          ? `The uploaded context holds no build log, so I can't tell whether ${build} failed from ${labelOfKind(askedKind)}.${capitalise(state)}`
          : `The uploaded context holds no build log, so I can't see why ${build} failed.${capitalise(state)}`;
    out.line(lead);
    out.line();
    // A finished build the controller found no log for: the CI server's, not the user's, to fix.
    const missing = outcome === 'passed' ? undefined : serverLogMissing(ci, build);
    if (missing?.field) out.fact(missing.field);
    out.line(missing?.text ?? 'Upload the log and ask again: `cichat context upload <chat-id> --log build.log`, or `cat build.log | cichat ask "why did it fail?"`.');
    return out.reply();
  }

  const ranked = rankedErrorExcerpts(ctx);
  // A build that passed with no error excerpt has nothing to explain: lines retrieval finds for
  // "error failed exception" are not errors ("Building in workspace" was called error-looking).
  const spans: LogSpan[] =
    ranked.length > 0
      ? ranked.slice(0, 3)
      : outcome === 'passed'
        ? []
        // When the analyzer recognised no failure, a passage retrieval finds is no error unless a line of it says so ("Started by user alice" is not).
        : (await retrieveSafely(ctx, `${ask.question} error failed exception`, 3)).filter((p) => p.score > 0 && (!analyzerFoundNone(ctx) || headlineOf(p).isError));
  const top = spans[0];
  if (!top) {
    const verdict =
      outcome === 'passed'
        ? `${capitalise(build)} did not fail: it finished ${inlineCode(raw ?? 'SUCCESS')}, and`
        : `${capitalise(build)} ${endedAs(outcome, raw)}, but`;
    if (askedKind) out.line(`**No sign of ${labelOfKind(askedKind)}:** I found no error lines in the log.`);
    // Still running, or no outcome recorded (a piped log, maybe cut): no "it ended", no error named.
    const unfinished = noErrorLead(ci, ctx, capitalise(build));
    out.line(unfinished ?? `**${verdict} I found no error lines in its ${ctx.logLineCount}-line log.**`);
    const tail = lastLines(ctx);
    if (tail && unfinished) {
      out.line();
      out.line(tail.text.trim() === '' ? `Its lines are empty once colour codes and Jenkins' console notes are removed ${cite(tail)}.` : 'The last lines it holds:');
      if (tail.text.trim() !== '') quote(out, tail, 10);
      else out.log(tail);
      out.line();
      out.line(`${outcome === 'running' ? 'Nothing has failed so far. ' : ''}${noErrorAdvice(ci, build) as string}`);
    } else if (tail && tail.text.trim() === '') {
      // A log of colour codes or console notes only: nothing to quote, not an empty block.
      out.line();
      out.line(`Its lines are empty once colour codes and Jenkins' console notes are removed ${cite(tail)}.`);
    } else if (tail) {
      out.line();
      out.line('The end of the log, where Jenkins reports how the build finished:');
      quote(out, tail, 10);
    }
    if (outcome === 'aborted') out.line('\nAn aborted build often stops without an error: someone or a timeout stopped it.');
    return out.reply();
  }

  if (LOCATION_QUESTION.test(ask.question)) {
    const where = whereInTheCode(out, ctx, spans.map((span) => unfolded(ctx, span)), top);
    // "Which line?": the line itself, from the workspace snippets when uploaded (issue 17); the
    // finding picks the snippet of the raise site over the test line that called it.
    const found = findingFor(ctx, top);
    const source = failingSource(ask, spans, found.message, found);
    return source ? { text: `${where.text}\n\n${source.text}`, sources: [...where.sources, ...source.sources] } : where;
  }

  const found: Finding = findingFor(ctx, top);
  // "Show me the stack trace", "what does this error mean?": that part first, not the whole diagnosis.
  const focused = askedKind ? undefined : focusedAnswer(ask.question, ctx, top, found);
  if (focused) return focused;
  // The headline is the line that carries the finding's message, never a framing line.
  const headline = { line: found.message_line, text: found.message, isError: found.class !== 'unknown' || headlineOf(top).isError };
  out.log({ start_line: found.message_line, end_line: found.message_line });
  const headlineCite = citeMessage(found, lineTextOf(ctx, top));
  const lastOutput = found.class === 'unknown' && isConsequenceOnly(top.text) ? failedOutputLine(storedLogSpan(ctx), top, found.message_line) : undefined;
  const stopped = outcome === 'aborted' || (found.class === 'timeout-aborted' && abortedBy(found.message) !== undefined);
  const silent = silentStopOf(found, lineTextOf(ctx, top));
  if (askedKind) {
    const shown = spans.map((span) => showsKind(ctx, span, askedKind)).find((x) => x !== undefined);
    const label = labelOfKind(askedKind);
    if (shown) {
      out.line(`**Yes — it looks like ${label}** ${at(shown.line)}: ${inlineCode(clip(shown.text))}`);
      out.log({ start_line: shown.line, end_line: shown.line });
    } else if (found.class === 'unknown' && found.likely_class && CLASSES_OF_KIND[askedKind]?.includes(found.likely_class.class) && likelySentence(found, lineTextOf(ctx, top))) {
      // The class model's guess (likely.ts) is of the kind asked: neither yes nor no.
      out.line(`**Maybe — no rule establishes it:** the first line that looks like an error is ${at(headline.line)}: ${inlineCode(clip(headline.text))}. ${likelySentence(found, lineTextOf(ctx, top)) as string}`);
    } else {
      const what = found.class !== 'unknown' ? ` (${CLASS_LABEL[found.class]})` : '';
      out.line(`**No — nothing in the log's errors points to ${label}:** the ${found.class === 'unknown' ? 'first line that looks like an error' : 'first real error'}${what} is ${at(headline.line)}: ${inlineCode(clip(headline.text))}`);
    }
  } else if (outcome === 'passed') {
    out.line(
      `**${capitalise(build)} did not fail: it finished ${inlineCode(raw ?? 'SUCCESS')}.** The log still has error-looking lines the build survived, first ${at(headline.line)}: ${inlineCode(clip(headline.text))}`,
    );
  } else if (outcome === 'running') {
    out.line(
      `**${capitalise(build)} is still running; the first error so far is ${at(headline.line)}:** ${inlineCode(clip(headline.text))}`,
    );
  } else if (lastOutput) {
    // No line says why: the failed step's last output is what there is (ux14), said as that, not as "the error".
    const how = outcome === 'unknown' ? 'The log' : `${capitalise(build)} ${endedAs(outcome, raw)}:`;
    const marks = [lastOutput.branch, lastOutput.skipped].filter((m): m is { name: string; line: number } => m !== undefined);
    for (const m of marks) out.log({ start_line: m.line, end_line: m.line });
    const says = [
      lastOutput.branch ? `parallel branch ${inlineCode(lastOutput.branch.name)} failed ${cite({ start_line: lastOutput.branch.line, end_line: lastOutput.branch.line })}` : undefined,
      lastOutput.skipped ? `stage ${inlineCode(lastOutput.skipped.name)} was skipped after an earlier failure ${cite({ start_line: lastOutput.skipped.line, end_line: lastOutput.skipped.line })}` : undefined,
    ].filter(Boolean).join(' and ');
    const maybe = lastOutput.interleaved ? ' (the parallel branches printed at once, unprefixed, so it may be another branch\'s line)' : '';
    out.line(`**${how}** Jenkins' own lines say only that ${says}; the last line printed before the failed ${lastOutput.branch ? 'branch' : 'stage'} ended is ${headlineCite}${maybe}: ${inlineCode(clip(headline.text))}`);
  } else if (silent) {
    // Only the trace of the command the script stopped on, which printed nothing (ux15): not "the error".
    const how = outcome === 'unknown' ? 'The log shows no error message;' : `${capitalise(build)} ${endedAs(outcome, raw)} without an error message:`;
    out.log({ start_line: silent.line, end_line: silent.line });
    out.line(`**${how}** the step stopped after the last command the shell traced, ${inlineCode(clip(silent.command))} ${at(silent.line)}, which printed nothing before the step ended ${at(silent.exit.line)}.`);
  } else if (!headline.isError) {
    // The analyzer found where it stopped, but no line says "error": say so, don't dress it up.
    const why = 'reason' in top && typeof top.reason === 'string' ? ` (${top.reason})` : '';
    const how = outcome === 'unknown' ? 'The log shows no explicit error' : `${capitalise(build)} ${endedAs(outcome, raw)} without an explicit error line`;
    out.line(`**${how};** the log points at ${at(headline.line)}${why}: ${inlineCode(clip(headline.text))}`);
  } else if (reportsOnly(headline.text)) {
    // An exit status or a count is where the log says it failed, not why: never "the real error".
    const how = outcome === 'unknown' ? 'The log' : `${capitalise(build)} ${endedAs(outcome, raw)}:`;
    out.line(`**${how}** its first error line ${headlineCite} only reports that a step failed, not why: ${inlineCode(clip(headline.text))}`);
  } else {
    const how = outcome === 'unknown' ? 'The log' : `${capitalise(build)} ${endedAs(outcome, raw)}:`;
    // Without a class the line is what looks like an error, not an established one (issue 25).
    const first = found.class === 'unknown' ? 'first line that looks like an error' : stopped && found.class === 'timeout-aborted' ? 'line that says what stopped it' : 'first real error';
    const lead = outcome === 'unknown' ? `**The log's ${first} is ${headlineCite}:**` : `**${how}** the ${first} is ${headlineCite}:`;
    out.line(`${lead} ${inlineCode(clip(headline.text))}`);
  }
  const numbering = tailNumbering(ci, headline.line);
  if (numbering) {
    out.fact('buildDetails.consoleLogTruncated');
    out.line(numbering);
  }
  const green = greenBuildOf(ci);
  if (green?.compared && !askedKind) {
    out.fact('buildDetails.lastSuccessfulBuild');
    if (newness(top) === true) out.line(`This ${silent ? 'failure' : 'error'} is **new since ${whichPassed(green)}**.`);
    else if (newness(top) === false) {
      out.line(`No error here is new: this one also appears in ${whichPassed(green)}, so it may not be the cause; the build may have failed on something that printed no error (look at the end of the log and at the changes since).`);
    }
  }
  // What Jenkins recorded (issue 26): the failing stage, branch and step.
  if (!askedKind) {
    recordedSteps(out, ci);
    recordedDownstream(out, ci);
    // Against the job's history (issue 29): new here, failing since, flaky or back.
    addHistory(out, ci);
  }
  // "Show me the stack trace" of an error printed without one: say so, not quote it as a trace.
  if (/\b(stack ?traces?|tracebacks?|backtraces?|call stack)\b/i.test(ask.question) && !found.location?.frames && !FRAME_LINE.test(top.text)) {
    out.line();
    out.line('The log shows no stack trace for this error: the tool printed it without one. What it printed:');
  }
  out.line();
  const shown = spanWithMessage(ctx, top, found);
  quote(out, shown, 25);
  commandOutput(out, ctx, top, headline.text, headline.line);
  // The workspace's source around the line the failure names (issue 17), when uploaded.
  const source = failingSource(ask, spans, headline.text, found, { fix: false }) ?? missingSourceHint(ask, spans);
  if (source) {
    out.line();
    out.line(source.text);
    for (const s of source.sources) out.source(s);
  }
  // An aborted build was stopped, it did not fail: never "it failed running `sleep 600`".
  const where = whereItFailed(out, ctx, top, stopped);
  out.line();
  out.line(`**What it means:** ${meaningOf(toolShown(found, ctx), lineTextOf(ctx, top))}${classHedge(found) ? ` ${classHedge(found) as string}` : ''}`);
  for (const n of found.evidence) out.log({ start_line: n, end_line: n });
  // make's `$f` in the recipe, read against the line make echoed (makeEmpty.ts): why the command lacked its word.
  const shellVariable = emptyMakeVariable(storedLogSpan(ctx), found, snippetsOf(ci));
  if (shellVariable?.single) {
    out.line(emptyShellVariableWhy(shellVariable, (n) => cite({ start_line: n, end_line: n })));
    out.log({ start_line: shellVariable.logLine, end_line: shellVariable.logLine });
    out.source({ kind: 'file', path: shellVariable.path, start_line: shellVariable.recipeLine, end_line: shellVariable.recipeLine });
  }
  // A command that printed nothing came with no error: the step stopped there, as the sentence above says (ux15).
  if (where && !(silent && where.startsWith('The error came while running'))) out.line(silent ? where.replace(/^The error came /, 'The step stopped ') : where);
  // Only the other excerpts that state an error are worth the reader's time.
  // An excerpt whose lines the quote above already showed in full is not quoted twice.
  const shownInFull = (span: LogSpan): boolean => shown.end_line - shown.start_line < 25 && span.start_line >= shown.start_line && span.end_line <= shown.end_line;
  const rest = spans.slice(1).filter((span) => ((headlineOf(span).isError && !isConsequenceOnly(span.text)) || ranked.length === 0) && !shownInFull(span));
  if (rest.length > 0) {
    out.line();
    out.line('**Also in the log**');
    for (const span of rest.slice(0, 2)) {
      quote(out, span, 6, top);
      if (green?.compared && newness(span) === false) {
        out.line(`This error also appears in ${whichPassed(green)}, so it is probably not the cause.`);
      }
    }
  }
  // Errors the green build printed as well, left out above: say so rather than leave them unexplained.
  // (The trace of a command that printed nothing is no error: ux15.)
  const oldOnes = green?.compared ? spans.slice(1).filter((s) => newness(s) === false && !rest.slice(0, 2).includes(s) && !silentStopOf(findingFor(ctx, s), lineTextOf(ctx, s))) : [];
  if (green && oldOnes.length > 0 && newness(top) === true) {
    out.line();
    out.line(`${oldOnes.length === 1 ? 'One more error' : `${oldOnes.length} more errors`} (${oldOnes.map((s) => cite(s)).join(', ')}) also appear${oldOnes.length === 1 ? 's' : ''} in ${whichPassed(green)}, so ${oldOnes.length === 1 ? 'it is' : 'they are'} probably not the cause.`);
  }
  const tests = ci.buildDetails?.testResults;
  if (tests && typeof tests.failed === 'number' && tests.failed > 0) {
    out.line();
    out.line(`${tests.failed} test${tests.failed === 1 ? '' : 's'} failed; ask *which tests failed* for the names.`);
    out.fact('buildDetails.testResults');
  }
  // The previous build passed: what changed since is the first suspect.
  const prev = ci.buildDetails?.previousBuild;
  if (green?.changes && green.changes.length > 0 && (outcome === 'failed' || outcome === 'unstable')) {
    out.line();
    out.line(`**Commits since ${whichPassed(green)}:**`);
    for (const c of green.changes.slice(0, 5)) out.line(`- ${describeChange(c)}${typeof c.build === 'number' ? ` (in #${c.build})` : ''}`);
    if (green.changes.length > 5) out.line(`- …and ${green.changes.length - 5} more; ask *what changed since the last green build?*`);
  } else if (prev && typeof prev.result === 'string' && prev.result.toUpperCase() === 'SUCCESS' && (outcome === 'failed' || outcome === 'unstable')) {
    const changes = ci.buildDetails?.changes;
    out.line();
    out.fact('buildDetails.previousBuild');
    if (Array.isArray(changes) && changes.length > 0) {
      out.fact('buildDetails.changes');
      out.line(`**New since #${prev.number}**, which passed:`);
      for (const c of changes.slice(0, 5)) out.line(`- ${describeChange(c)}`);
    } else {
      out.line(`The previous build, #${prev.number}, passed.`);
    }
  }
  // The first step only: "how do I fix it?" has its own, longer answer.
  const remedy = remedyOf(toolShown(found, ctx), lineTextOf(ctx, top));
  const step = nextStep(found, remedy.steps);
  if (step) {
    out.line();
    out.line(`**Next step:** ${step} Ask *how do I fix it?* for the remedy${found.location ? ', the source line' : ''} and a command to reproduce it.`);
  }
  // A file the log does not name that the workspace shows is the cause (misplacedSteps.ts): a class's file in another case.
  const cause = misplacedCause(ask, found);
  if (cause) {
    out.line();
    out.line(cause.text);
    for (const s of cause.sources) out.source(s);
  }
  // The checkout's change wrote the line the finding locates (changeDiff.ts): one sentence, the commit named.
  const wrote = changedLineCause(ci, found.location ? { path: found.location.file, line: found.location.line } : undefined);
  if (wrote) {
    out.fact('workspaceChanges');
    out.line();
    out.line(wrote);
  }
  return out.reply();
};

/**
 * "Which file and line has the compile error?", "show me the error": the places the top
 * excerpts name, with their messages, the excerpt itself, and a next step at that place.
 */
/**
 * The excerpt's own lines from the stored log: the excerpt text folds runs of similar lines
 * (`[... 2 similar lines folded ...]`), and each of them may name another place.
 */
function unfolded(ctx: Parameters<typeof storedLogSpan>[0], span: LogSpan): LogSpan {
  const stored = storedLogSpan(ctx);
  if (!stored || span.start_line < stored.start_line || span.end_line > stored.end_line) return span;
  const lines = stored.text.split('\n').slice(span.start_line - stored.start_line, span.end_line - stored.start_line + 1);
  return { ...span, text: lines.join('\n') };
}

function whereInTheCode(out: ReplyBuilder, ctx: ChatContext, spans: LogSpan[], top: LogSpan): ReturnType<ReplyBuilder['reply']> {
  // The same place named again (Maven repeats the compiler's error under `Failed to execute goal`) is one place.
  const found = findingFor(ctx, top);
  // The finding's own place (an exception's raise site, not the test line that called the code
  // under test, which pytest prints first) leads; the others follow in the log's order.
  const own = found.location?.line !== undefined ? found.location : undefined;
  const isOwn = (p: CodeLocation): boolean => own !== undefined && p.line === own.line && (p.path === own.file || own.file.endsWith(`/${p.path}`) || p.path.endsWith(`/${own.file}`));
  const places = spans
    .flatMap((span) => locationsIn(span))
    // Where the user looks: the checkout's path for the agent's (checkoutPaths.ts), as the finding's own place is.
    .map((p) => ({ ...p, path: checkoutPathOf(ctx, p.path) }))
    .filter((p, i, all) => all.findIndex((q) => q.path === p.path && q.line === p.line && q.column === p.column) === i)
    .sort((a, b) => Number(isOwn(b)) - Number(isOwn(a)));
  // A place only the finding reads (a Go panic's frame, rustc's panic line, g++'s `required from here` above a header's error) leads too.
  if (!places.some(isOwn) && own?.line !== undefined && found.class !== 'unknown' && !reportsOnly(found.message)) places.unshift({ path: own.file, line: own.line, ...(own.column !== undefined ? { column: own.column } : {}), message: found.message, logLine: own.log_line });
  const first = places[0];
  if (first === undefined) {
    out.line(
      reportsOnly(found.message)
        ? `**The log names no file and line;** its first error line ${citeMessage(found, lineTextOf(ctx, top))} only reports that a step failed, not why: ${inlineCode(clip(found.message))}`
        : `**The error names no file and line;** the ${found.class === 'unknown' ? 'first line that looks like an error' : 'first real error'} is ${citeMessage(found, lineTextOf(ctx, top))}: ${inlineCode(clip(found.message))}`,
    );
    out.log({ start_line: found.message_line, end_line: found.message_line });
    out.line();
    quote(out, spanWithMessage(ctx, top, found), 25);
    const step = nextStep(found, remedyOf(toolShown(found, ctx), lineTextOf(ctx, top)).steps);
    if (step) out.line(`\n**Next step:** ${step}`);
    return out.reply();
  }
  // A place is often named on another line than its message (a frame under the exception, rustc's
  // `-->` under `error[E0308]`): the message is cited where it is (issue 25).
  const texts = spans.flatMap((span) => span.text.split('\n').map((text, i) => ({ line: span.start_line + i, text: text.replace(/\s+/g, ' ') })));
  const lineText = lineTextOf(ctx, top);
  const saidAt = (p: { message: string; logLine: number }): string => {
    const said = (p.message.split(' (')[0] ?? '').replace(/\s+/g, ' ').trim();
    const own = texts.find((t) => t.line === p.logLine)?.text ?? '';
    const near = (): number | undefined => {
      // Not in the excerpts: the stored log around the place (pytest prints the source line above `file:line:`).
      for (let n = Math.max(1, p.logLine - 40); n <= p.logLine + 40; n++) if (said !== '' && lineText(n)?.replace(/\s+/g, ' ').includes(said)) return n;
      return undefined;
    };
    const where = own.includes(said) ? p.logLine : (texts.find((t) => said !== '' && t.text.includes(said))?.line ?? near());
    // javac's `symbol:` line and the like, joined to the message in parentheses, are cited too.
    const details = /\((.*)\)$/.exec(p.message.replace(/\s+/g, ' '))?.[1]?.split('; ') ?? [];
    const lines = [where ?? p.logLine, ...details.map((d) => texts.find((t) => t.line >= (where ?? p.logLine) && t.text.includes(d))?.line ?? where ?? p.logLine)];
    const span = { start_line: Math.min(...lines), end_line: Math.max(...lines) };
    if (where === p.logLine && span.end_line === span.start_line) return inlineCode(clip(p.message));
    out.log(span);
    return `${inlineCode(clip(p.message))} ${cite(span)}`;
  };
  const what = found.class !== 'unknown' && (isOwn(first) || (!own && first.logLine >= top.start_line && first.logLine <= top.end_line)) ? `The ${CLASS_LABEL[found.class].replace(/^an? /, '')}` : 'The first error';
  out.line(
    `**${what} is in ${inlineCode(first.path)}, line ${first.line}${first.column !== undefined ? `, column ${first.column}` : ''}** (${inlineCode(citeLocation(first))}) ${at(first.logLine)}: ${isOwn(first) ? `${inlineCode(clip(found.message))} ${citeMessage(found, lineText)}` : saidAt(first)}`,
  );
  out.log({ start_line: first.logLine, end_line: first.logLine });
  if (isOwn(first)) out.log({ start_line: found.message_line, end_line: found.message_line });
  if (places.length > 1) {
    out.line();
    out.line('Other places the errors name:');
    for (const p of places.slice(1, 6)) {
      out.line(`- ${inlineCode(citeLocation(p))} ${at(p.logLine)}: ${saidAt(p)}`);
      out.log({ start_line: p.logLine, end_line: p.logLine });
    }
  }
  out.line();
  quote(out, spanWithMessage(ctx, top, found), 25);
  out.line();
  // A failing check or an exception is not fixed at the line that reports it: the class's remedy says where to look.
  const remedy = found.class !== 'unknown' ? nextStep(found, remedyOf(toolShown(found, ctx), lineTextOf(ctx, top)).steps) : undefined;
  out.line(remedy ? `**Next step:** ${remedy}` : `**Next step:** ${openAt(first)} (${inlineCode(citeLocation(first))}) and see what ${inlineCode(clip(first.message))} says about it; then build again the same way.`);
  return out.reply();
}

/** A line of a stack trace: JVM/.NET `at`, Python `File "x", line N`, Go `file.go:N +0x`, gdb/sanitizer `#N 0x`, Rust `N: ` frames. */
const FRAME_LINE = /^\s+at \S|^\s*File "[^"]+", line \d+|\.go:\d+ \+0x|^\s*#\d+ 0x[0-9a-f]+|^\s+\d+: \S+::/m;

/** Which command, stage and exit code the failure came from, led by what was asked. */
const step: Composer = (ask) => {
  const { ci, ctx, q } = ask;
  const build = buildLabel(ci);
  if (!hasLog(ctx)) {
    const hint = noLogHint(ci, build);
    return { text: `The uploaded context holds no build log, so I can't tell which step of ${build} failed.\n\n${hint.text}`, sources: hint.sources };
  }
  const stored = storedLogSpan(ctx);
  const top = rankedErrorExcerpts(ctx)[0];
  const out = new ReplyBuilder();
  if (!stored) {
    if (!top) return notSaid(`which step of ${build} failed`, 'The part of the log this chat keeps shows no error.');
    out.line(`The uploaded log does not show which command ran; the first error is ${cite(top)}: ${inlineCode(clip(headlineOf(top).text))}`);
    out.log(top);
    return out.reply();
  }
  // A verdict alone (`script returned exit code 1`) whose finding was read further up (a failed parallel branch's last
  // output, ux14): the step is placed, and the error quoted, at the finding's line.
  const read = top ? findingFor(ctx, top) : undefined;
  const farRead = top && read && isConsequenceOnly(top.text) && (read.message_line < top.start_line || read.message_line > top.end_line) ? read : undefined;
  const errorLine = farRead ? farRead.message_line : top ? headlineOf(top).line : stored.end_line;
  const found = failingStepOf(stored, errorLine);
  const at = (line: number): string => {
    out.log({ start_line: line, end_line: line });
    return cite({ start_line: line, end_line: line });
  };
  const sentences: { key: 'command' | 'stage' | 'exit'; text: string }[] = [];
  if (found.command) sentences.push({ key: 'command', text: `The failing command was ${inlineCode(clip(found.command.command, 160))} ${at(found.command.line)}` });
  if (found.stage || found.branch) {
    const stage = found.stage ? `in stage ${inlineCode(found.stage.stage)} ${at(found.stage.line)}` : '';
    const branch = found.branch ? `${stage ? ', ' : 'in '}parallel branch ${inlineCode(found.branch.branch)} ${at(found.branch.line)}` : '';
    sentences.push({ key: 'stage', text: `It failed ${stage}${branch}` });
  }
  if (found.exitCode) {
    const meaning = exitCodeMeaning(found.exitCode.code);
    sentences.push({ key: 'exit', text: `It exited with code ${found.exitCode.code} ${at(found.exitCode.line)}${meaning ? ` (${meaning})` : ''}` });
  }
  const wants: 'command' | 'stage' | 'exit' = /\bexit|return code\b/.test(q) ? 'exit' : /\bstage\b/.test(q) ? 'stage' : 'command';
  sentences.sort((x, y) => Number(y.key === wants) - Number(x.key === wants));
  const missing: Record<typeof wants, string> = {
    command: 'which command failed (the log echoes no command before the error)',
    stage: 'which stage failed (the log shows no pipeline stages)',
    exit: 'which exit code the step returned',
  };
  // Jenkins' own record of the failing step (stage, branch, step) answers it first (issue 26).
  if (recordedSteps(out, ci)) {
    // The record names the stage; the log's nearest `{ (Stage)` may be another branch's.
    for (let i = sentences.length - 1; i >= 0; i--) if (sentences[i]?.key === 'stage') sentences.splice(i, 1);
  } else if (wants === 'command' && !found.command && found.interleaved !== undefined) {
    out.line(`The log does not say which command failed: the error was printed inside a parallel block ${at(found.interleaved)} whose branches ran at once and print their lines unprefixed, so the commands echoed above it may be another branch's.`);
  } else if (wants === 'command' && !found.command && found.untracedScript !== undefined) {
    out.log(found.untracedScript);
    out.line(`The log does not say which command failed: the step's script has several lines ${cite(found.untracedScript)}, and GitHub Actions runs them with \`bash -e\` without echoing each command, so its output does not show which one stopped it.`);
  } else if (!sentences.some((x) => x.key === wants)) out.line(`The uploaded log does not say ${missing[wants]}.`);
  for (const [i, x] of sentences.entries()) out.line(i === 0 && x.key === wants ? `**${x.text}.**` : `${x.text}.`);
  if (top) {
    out.line();
    if (farRead) out.line(`The error ${at(farRead.message_line)}: ${inlineCode(clip(farRead.message))}`);
    else out.line(`The error ${cite(top)}: ${inlineCode(clip(headlineOf(top).text))}`);
    out.log(top);
    const first = nextStep(findingFor(ctx, top), remedyOf(toolShown(findingFor(ctx, top), ctx), lineTextOf(ctx, top)).steps);
    if (first) out.line(`\n**Next step:** ${first}`);
  }
  return out.reply();
};

/** Whether a failure is flaky: what one earlier build and the failure's kind can and cannot show. */
const flaky: Composer = ({ ci, ctx, question }) => {
  // The job's history (issue 29) settles it with builds as evidence; one build's context cannot.
  const fromHistory = new ReplyBuilder();
  const top = rankedErrorExcerpts(ctx)[0];
  const found = top ? findingFor(ctx, top) : undefined;
  const diagnosis = found && found.class !== 'unknown' ? { kind: found.class, label: CLASS_LABEL[found.class] } : undefined;
  const lasting = found && diagnosis && /^Not /.test(retryLead(found)) ? `${IGNORE_QUESTION.test(question) ? 'Ignoring it is safe only when the failure is noise that a re-run clears. ' : ''}${retryVerdict(found, diagnosis.label)}` : undefined;
  if (lasting && found) fromHistory.log({ start_line: found.message_line, end_line: found.message_line });
  if (historyAnswer(fromHistory, ci, 'flaky', lasting)) return fromHistory.reply();
  const details = ci.buildDetails;
  const build = buildLabel(ci);
  const prev = details?.previousBuild;
  const prevResult = typeof prev?.result === 'string' ? prev.result.toUpperCase() : undefined;
  if (!prev || !prevResult) {
    if (!diagnosis) return notSaid(`how earlier builds ended, so I can't tell whether ${build}'s failure is flaky`, 'Re-run the build without changes: if it passes, the failure is intermittent.');
  }
  const out = new ReplyBuilder();
  // "Can I just retry?" asks for a yes or no before the reasons; "can I ignore it?" too: only noise may be ignored (ux7).
  const ignore = IGNORE_QUESTION.test(question);
  const yesNo = RETRY_QUESTION.test(question) || ignore;
  if (found && diagnosis && yesNo) out.line(`${ignore ? 'Ignoring it is safe only when the failure is noise that a re-run clears. ' : ''}${retryVerdict(found, diagnosis.label)}`).log({ start_line: found.message_line, end_line: found.message_line });
  else out.line(`**One build's context can't prove flakiness**; here is what it does show.`);
  out.line();
  if (prev && prevResult) {
    out.fact('buildDetails.previousBuild');
    const changes = details?.changes;
    const changeCount = Array.isArray(changes) ? changes.length : undefined;
    if (changeCount !== undefined) out.fact('buildDetails.changes');
    if (prevResult === 'SUCCESS') {
      const between =
        changeCount === undefined
          ? ''
          : changeCount === 0
            ? ' with **no changes** in between, which points to flakiness or the environment'
            : ` with ${changeCount} change${changeCount === 1 ? '' : 's'} in between, so a real regression is as likely as a flake`;
      out.line(`- The previous build, #${prev.number}, passed (${inlineCode(prevResult)}): the failure is new${between}.`);
    } else {
      out.line(`- The previous build, #${prev.number}, also ended ${inlineCode(prevResult)}: it has failed at least twice in a row, which points to a lasting problem rather than a fluke.`);
    }
  } else {
    out.line('- The uploaded context does not say how earlier builds ended.');
  }
  let rerunFirst = true;
  if (top && found && diagnosis) {
    out.log(top);
    // What the class says about a re-run, not a claim about this build's history (issue 25).
    const outlook = rerunOutlook(found);
    rerunFirst = outlook.rerunFirst;
    // After a yes/no lead the outlook was said already.
    out.line(`- The failure is ${diagnosis.label} ${cite(top)}.${yesNo ? '' : ` ${outlook.text}`}`);
  }
  out.line();
  out.line(
    rerunFirst
      ? '**Next step:** re-run the build without changes; if it passes, treat the failure as flaky and track it.'
      : '**Next step:** fix the error first (ask *how do I fix it?*); re-run without changes only to check that the failure repeats.',
  );
  return out.reply();
};

export const failureAnswers: AnswerGroup = { name: 'failure', composers: { failure, tests, step, flaky } };
