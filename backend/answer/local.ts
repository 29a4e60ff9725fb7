/**
 * The offline answer engine: no model, a build engineer's reading of the uploaded context. It
 * works out what the question asks (intents.ts), answers each part from the context's facts and
 * the log's failure excerpts, and says plainly when the context does not hold the answer.
 */
import type { AgentStats, BuildCause, CiContext, PluginInfo, Source } from '../../protocol/types.js';
import type { AnswerEngine, AnswerRequest, AnswerStream, ChatContext, HistoryTurn, LogPassage } from './engine.js';
import {
  buildLabel,
  ciVersionOf,
  findPlugins,
  formatDuration,
  escapeRegExp,
  jobNameOf,
  namesInstalledPlugin,
  pluginNamesAskedFor,
  showValue,
  systemFacts,
} from './facts.js';
import { detectIntents, normalizeQuestion, type IntentId } from './intents.js';
import {
  cite,
  clip,
  codeBlock,
  failingTestsIn,
  storedLogSpan,
  headlineOf,
  inlineCode,
  nextStepFor,
  diagnose,
  kindAskedAbout,
  labelOfKind,
  failingStepOf,
  exitCodeMeaning,
  looksLikeError,
  findLine,
  linesOf,
  type FailureKind,
  type LogSpan,
} from './logtext.js';
import { saneCiContext } from './sanitize.js';
import { typeOut } from './typing.js';

/** One part of an answer: Markdown text and what it rests on. */
interface Reply {
  text: string;
  sources: Source[];
}

/** A question being answered against a context. */
interface Ask {
  question: string;
  /** Normalised (lower case, contractions expanded) for cue matching. */
  q: string;
  ctx: ChatContext;
  ci: CiContext;
}

type Composer = (ask: Ask) => Reply | Promise<Reply>;

/** Collects an answer's lines and sources; sources are deduplicated when the reply is made. */
class ReplyBuilder {
  private readonly lines: string[] = [];
  private readonly sources: Source[] = [];

  line(text = ''): this {
    this.lines.push(text);
    return this;
  }

  fact(...fields: string[]): this {
    for (const field of fields) this.sources.push({ kind: 'context', field });
    return this;
  }

  log(span: { start_line: number; end_line: number }): this {
    this.sources.push({ kind: 'log', start_line: span.start_line, end_line: span.end_line });
    return this;
  }

  reply(): Reply {
    return { text: this.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim(), sources: this.sources };
  }
}

function notSaid(subject: string, extra?: string): Reply {
  return { text: `The uploaded context does not say ${subject}.${extra ? `\n\n${extra}` : ''}`, sources: [] };
}

const UPLOAD_HOWTO = [
  '**To upload it:**',
  '- From a pipeline or a shell: `cichat context upload <chat-id> --log build.log` (add `--job JOB --build N`, or `--from-env` inside a Jenkins build)',
  '- Or pipe a log straight into a question: `cat build.log | cichat ask "why did the build fail?"`',
  "- Or open the chat from a Jenkins page with the cichat plugin: it sends that page's context for you.",
].join('\n');

// ---------------------------------------------------------------------------------------------
// What the subject of each intent is called, for "does not say ..." and "can't tell ...".

function subjectOf(intent: IntentId | undefined, ci: CiContext | undefined): string {
  const build = ci ? buildLabel(ci) : 'the build';
  switch (intent) {
    case 'failure':
      return `why ${build} failed`;
    case 'tests':
      return `which tests failed in ${build}`;
    case 'ciVersion':
      return 'which Jenkins version this server runs';
    case 'plugins':
      return 'which plugins are installed';
    case 'executors':
      return 'how many executors there are';
    case 'master':
      return 'whether the built-in node is online';
    case 'agents':
      return 'which agents are online or offline';
    case 'system':
      return "the built-in node's OS and memory";
    case 'aborter':
      return `who aborted ${build}`;
    case 'causes':
      return `who or what started ${build}`;
    case 'parameters':
      return `which parameters ${build} ran with`;
    case 'duration':
      return `how long ${build} took`;
    case 'result':
      return `how ${build} ended`;
    case 'previous':
      return `how the build before ${build} ended`;
    case 'buildable':
      return 'whether the job is buildable';
    case 'jobType':
      return 'what type of job this is';
    case 'jobDescription':
      return "what the job's description is";
    case 'systemMessage':
      return 'what the system message is';
    case 'rootUrl':
      return "what the server's root URL is";
    case 'changes':
      return `which changes went into ${build}`;
    case 'builtOn':
      return `which node ran ${build}`;
    case 'startTime':
      return `when ${build} started`;
    case 'screen':
      return 'which Jenkins page you are on';
    case 'step':
      return `which step of ${build} failed`;
    case 'logLines':
      return 'what the build log says there';
    case 'flaky':
      return `whether ${build}'s failure is flaky`;
    case 'revision':
      return `which commit or branch ${build} built`;
    case 'rerun':
      return `how to re-run ${build}`;
    case 'summary':
    case 'help':
    case undefined:
      return 'anything about your build';
    default: {
      const unhandled: never = intent;
      return String(unhandled);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Build facts

type Outcome = 'passed' | 'failed' | 'unstable' | 'aborted' | 'not built' | 'running' | 'unknown';

function outcomeOf(ci: CiContext): { outcome: Outcome; raw?: string } {
  const build = ci.buildDetails;
  if (build?.building === true) return { outcome: 'running' };
  const raw = typeof build?.result === 'string' ? build.result.toUpperCase() : undefined;
  switch (raw) {
    case 'SUCCESS':
      return { outcome: 'passed', raw };
    case 'FAILURE':
      return { outcome: 'failed', raw };
    case 'UNSTABLE':
      return { outcome: 'unstable', raw };
    case 'ABORTED':
      return { outcome: 'aborted', raw };
    case 'NOT_BUILT':
      return { outcome: 'not built', raw };
    case undefined:
      return { outcome: 'unknown' };
    default:
      return { outcome: 'unknown', raw };
  }
}

const OUTCOME_PHRASE: Record<Outcome, string> = {
  passed: 'passed',
  failed: 'failed',
  unstable: 'is unstable',
  aborted: 'was aborted',
  'not built': 'was not built',
  running: 'is still running',
  unknown: 'ended',
};

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Started by user Alice" from a cause, whichever fields it has. */
function describeCause(cause: BuildCause): string {
  if (cause.userName || cause.userId) {
    const who = cause.userName ?? cause.userId ?? '';
    const id = cause.userName && cause.userId && cause.userId !== cause.userName ? ` (${inlineCode(cause.userId)})` : '';
    return `started by **${who}**${id}`;
  }
  const text = cause.shortDescription.trim();
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : 'started for an unrecorded reason';
}

function timestampOf(ci: CiContext): Date | undefined {
  const raw: unknown = ci.buildDetails?.timestamp;
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

// ---------------------------------------------------------------------------------------------
// The log

/**
 * The analyzer's excerpts that point at an error. When it recognises none it returns the end
 * of the log (score 0, "end of log"): that is no error and is not quoted as one.
 */
function errorExcerpts(ctx: ChatContext): ChatContext['failureExcerpts'] {
  return ctx.failureExcerpts.filter((e) => !isTailExcerpt(e));
}

function isTailExcerpt(e: { score: number; reason: string }): boolean {
  return e.score <= 0 || e.reason === 'end of log';
}

async function retrieveSafely(ctx: ChatContext, query: string, k: number): Promise<LogPassage[]> {
  if (ctx.logLineCount === 0) return [];
  try {
    return await ctx.retrieve(query, k);
  } catch {
    // Retrieval is a help, not a requirement: the facts still answer without it.
    return [];
  }
}

/** Quotes a span: citation and reason, then the lines. */
function quote(out: ReplyBuilder, span: LogSpan & { reason?: string }, maxLines: number): void {
  const { block, hiddenLines } = codeBlock(span.text, maxLines);
  out.line(`${cite(span)}${span.reason ? ` *${span.reason}*` : ''}`);
  out.line(block);
  if (hiddenLines > 0) out.line(`*…${hiddenLines} more line${hiddenLines === 1 ? '' : 's'} in ${cite(span)}.*`);
  out.log(span);
}

function hasLog(ctx: ChatContext): boolean {
  return ctx.logLineCount > 0 || ctx.failureExcerpts.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Composers, one per intent

/**
 * The analyzer's excerpts in the order a person reads them: those with a line that states an
 * error first (an excerpt of plain output before the failure is context, not the cause).
 */
function rankedErrorExcerpts(ctx: ChatContext): ChatContext['failureExcerpts'] {
  const excerpts = errorExcerpts(ctx);
  const stating = excerpts.filter((e) => headlineOf(e).isError);
  // "script returned exit code 1", "BUILD FAILURE", "Finished: FAILURE" say that it failed,
  // never why: the cause is in another excerpt when there is one.
  const causes = stating.filter((e) => !isConsequenceOnly(e.text));
  // The analyzer's order otherwise: it knows better than a keyword which error came first.
  return [...causes, ...stating.filter((e) => !causes.includes(e)), ...excerpts.filter((e) => !stating.includes(e))];
}

const CONSEQUENCE_LINE =
  /^(?:ERROR: )?script returned exit code \d+$|^\[INFO\] BUILD FAILURE$|^BUILD FAILED( in .*)?$|^Finished: \w+$|^Build step '.*' marked build as failure$|^\[[-=]+\]$|^\[INFO\] -+$|^ERROR: (?:Execution|Build step) failed|^FAILURE: Build failed with an exception\.?$|^\[Pipeline\] .*$|^make: \*\*\* .*Error \d+$/;

/** Every line of `text` only reports that something failed (an exit code, Jenkins' ending). */
function isConsequenceOnly(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length > 0 && lines.every((l) => CONSEQUENCE_LINE.test(l));
}

/** "It failed in stage **Deploy** [L37-L37], running `./deploy.sh` [L39-L39]." or undefined. */
function whereItFailed(out: ReplyBuilder, ctx: ChatContext, top: LogSpan): string | undefined {
  const stored = storedLogSpan(ctx);
  if (!stored) return undefined;
  const step = failingStepOf(stored, headlineOf(top).line);
  const parts: string[] = [];
  if (step.stage) {
    parts.push(`in stage **${step.stage.stage}** ${cite({ start_line: step.stage.line, end_line: step.stage.line })}`);
    out.log({ start_line: step.stage.line, end_line: step.stage.line });
  }
  if (step.command) {
    parts.push(`running ${inlineCode(clip(step.command.command, 120))} ${cite({ start_line: step.command.line, end_line: step.command.line })}`);
    out.log({ start_line: step.command.line, end_line: step.command.line });
  }
  return parts.length > 0 ? `It failed ${parts.join(', ')}.` : undefined;
}

/** The question is a yes/no about the failure's kind ("was it a timeout?"). */
function yesNoKind(q: string): FailureKind | undefined {
  if (!/^\s*(was|is|did|does|do|could|can|has|had|were|are|maybe)\b/.test(q)) return undefined;
  return kindAskedAbout(q);
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
      outcome === 'unknown' ? '' : ` It ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}.`;
    const lead = askedKind
      ? `The uploaded context holds no build log, so I can't tell whether ${build} failed from ${labelOfKind(askedKind)}.`
      : `The uploaded context holds no build log, so I can't see why ${build} failed.`;
    out.line(`${lead}${capitalise(state)}`);
    out.line();
    out.line(
      'Upload the log and ask again: `cichat context upload <chat-id> --log build.log`, or `cat build.log | cichat ask "why did it fail?"`.',
    );
    return out.reply();
  }

  const ranked = rankedErrorExcerpts(ctx);
  const spans: LogSpan[] = ranked.length > 0 ? ranked.slice(0, 3) : (await retrieveSafely(ctx, `${ask.question} error failed exception`, 3)).filter((p) => p.score > 0);
  const top = spans[0];
  if (!top) {
    const verdict =
      outcome === 'passed'
        ? `${capitalise(build)} did not fail: it finished ${inlineCode(raw ?? 'SUCCESS')}, and`
        : `${capitalise(build)} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}, but`;
    if (askedKind) out.line(`**No sign of ${labelOfKind(askedKind)}:** I found no error lines in the log.`);
    out.line(`**${verdict} I found no error lines in its ${ctx.logLineCount}-line log.**`);
    const stored = storedLogSpan(ctx);
    const analyzerTail = ctx.failureExcerpts.find(isTailExcerpt);
    let tail: LogSpan | undefined = analyzerTail;
    if (!tail && stored) {
      const shown = stored.text.split('\n').slice(-10);
      tail = { start_line: stored.end_line - shown.length + 1, end_line: stored.end_line, text: shown.join('\n') };
    }
    if (tail) {
      out.line();
      out.line('The end of the log, where Jenkins reports how the build finished:');
      quote(out, tail, 10);
    }
    if (outcome === 'aborted') out.line('\nAn aborted build often stops without an error: someone or a timeout stopped it.');
    return out.reply();
  }

  const headline = headlineOf(top);
  // Test names are often printed in a summary excerpt apart from the assertion.
  const diagnosis = diagnose(top, { related: spans.slice(1) });
  if (askedKind) {
    const shown = spans.map((span) => ({ span, d: diagnose(span) })).find((x) => x.d?.kind === askedKind);
    const label = labelOfKind(askedKind);
    if (shown?.d) {
      const line = shown.d.line ?? shown.span.start_line;
      const text = shown.d.lineText ?? headlineOf(shown.span).text;
      out.line(`**Yes — it looks like ${label}** ${cite({ start_line: line, end_line: line })}: ${inlineCode(clip(text))}`);
      out.log({ start_line: line, end_line: line });
    } else {
      const what = diagnosis ? ` (${diagnosis.label})` : '';
      out.line(`**No — nothing in the log's errors points to ${label}:** the first real error${what} is ${cite(top)}: ${inlineCode(clip(headline.text))}`);
    }
  } else if (outcome === 'passed') {
    out.line(
      `**${capitalise(build)} did not fail: it finished ${inlineCode(raw ?? 'SUCCESS')}.** The log still has error-looking lines the build survived, first ${cite(top)}: ${inlineCode(clip(headline.text))}`,
    );
  } else if (outcome === 'running') {
    out.line(
      `**${capitalise(build)} is still running; the first error so far is ${cite(top)}:** ${inlineCode(clip(headline.text))}`,
    );
  } else if (!headline.isError) {
    // The analyzer found where it stopped, but no line says "error": say so, don't dress it up.
    const why = 'reason' in top && typeof top.reason === 'string' ? ` (${top.reason})` : '';
    const how = outcome === 'unknown' ? 'The log shows no explicit error' : `${capitalise(build)} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''} without an explicit error line`;
    out.line(`**${how};** the log points at ${cite(top)}${why}: ${inlineCode(clip(headline.text))}`);
  } else {
    const how = outcome === 'unknown' ? 'The log' : `${capitalise(build)} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}:`;
    const lead = outcome === 'unknown' ? `**The log's first real error is ${cite(top)}:**` : `**${how}** the first real error is ${cite(top)}:`;
    out.line(`${lead} ${inlineCode(clip(headline.text))}`);
  }
  out.line();
  quote(out, top, 25);
  const where = whereItFailed(out, ctx, top);
  if (diagnosis || where) {
    out.line();
    if (diagnosis) out.line(`**What it means:** ${diagnosis.label} — ${diagnosis.meaning}`);
    if (where) out.line(where);
  }
  // Only the other excerpts that state an error are worth the reader's time.
  const rest = spans.slice(1).filter((span) => (headlineOf(span).isError && !isConsequenceOnly(span.text)) || ranked.length === 0);
  if (rest.length > 0) {
    out.line();
    out.line('**Also in the log**');
    for (const span of rest.slice(0, 2)) quote(out, span, 6);
  }
  const tests = ci.buildDetails?.tests;
  if (tests && typeof tests.failed === 'number' && tests.failed > 0) {
    out.line();
    out.line(`${tests.failed} test${tests.failed === 1 ? '' : 's'} failed; ask *which tests failed* for the names.`);
    out.fact('buildDetails.tests');
  }
  // The previous build passed: what changed since is the first suspect.
  const prev = ci.buildDetails?.previousBuild;
  if (prev && typeof prev.result === 'string' && prev.result.toUpperCase() === 'SUCCESS' && (outcome === 'failed' || outcome === 'unstable')) {
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
  const step = diagnosis?.nextStep ?? nextStepFor(top.text, failingTestsIn(spans, 1));
  if (step) {
    out.line();
    out.line(`**Next step:** ${step}`);
  }
  return out.reply();
};

const tests: Composer = async (ask) => {
  const { ci, ctx } = ask;
  const out = new ReplyBuilder();
  const build = buildLabel(ci);
  const counts = ci.buildDetails?.tests;
  // Names come from the whole log when the context carries it, else from what the analyzer and
  // retrieval point at.
  const stored = storedLogSpan(ctx);
  const spans: LogSpan[] = [
    ...(stored ? [stored] : []),
    ...ctx.failureExcerpts,
    // With the whole log at hand there is nothing left to retrieve.
    ...(stored?.start_line === 1 ? [] : await retrieveSafely(ctx, 'failed tests FAIL FAILED test failure assertion', 6)),
  ];
  const failing = failingTestsIn(spans);
  const reported = reportedFailingTests(counts);
  const names = reported.length > 0 ? reported.map((name) => ({ name, line: 0 })) : failing;

  if (counts && (typeof counts.total === 'number' || typeof counts.failed === 'number')) {
    out.fact('buildDetails.tests');
    const failed = counts.failed ?? 0;
    const total = typeof counts.total === 'number' ? counts.total : undefined;
    const skipped = typeof counts.skipped === 'number' && counts.skipped > 0 ? ` (${counts.skipped} skipped)` : '';
    if (failed === 0) {
      out.line(`**${total !== undefined ? `All ${total} tests passed` : 'No tests failed'}** in ${build}${skipped}.`);
    } else {
      const of = total !== undefined ? ` of ${total}` : '';
      out.line(`**${failed}${of} test${failed === 1 && !of ? '' : 's'} failed** in ${build}${skipped}.`);
    }
  } else if (names.length > 0) {
    out.line(`**The log shows ${names.length} failing test${names.length === 1 ? '' : 's'}** in ${build}:`);
    const summary = testSummaryIn(stored);
    if (summary) {
      out.line(`Its test summary ${cite(summary)}: ${inlineCode(clip(summary.text))}`);
      out.log(summary);
    }
  } else if (!hasLog(ctx)) {
    return notSaid(`which tests failed in ${build}`, 'It holds no test report and no build log.');
  } else {
    const summary = testSummaryIn(stored);
    if (summary) {
      out.line(`The uploaded context has no test report for ${build}; **the log's test summary** ${cite(summary)} reads ${inlineCode(clip(summary.text))}, and I found no failing test names in the log.`);
      out.log(summary);
      return out.reply();
    }
    out.line(`The uploaded context has no test report for ${build}, and I found no failing test names in its log.`);
    const top = errorExcerpts(ctx)[0];
    if (top) {
      out.line();
      out.line(`The first error in the log is ${cite(top)}:`);
      quote(out, top, 12);
    }
    return out.reply();
  }

  if (names.length > 0) {
    out.line();
    if (counts) out.line('Failing tests:');
    for (const t of names) {
      const where = t.line > 0 ? ` ${cite({ start_line: t.line, end_line: t.line })}` : '';
      out.line(`- ${inlineCode(t.name)}${where}`);
      if (t.line > 0) out.log({ start_line: t.line, end_line: t.line });
    }
    if (reported.length > 0) out.fact('buildDetails.tests.failedTests');
  } else if (counts && (counts.failed ?? 0) > 0) {
    out.line();
    out.line("The test report does not name them and I couldn't find their names in the log.");
  }
  // The first test-shaped failure excerpt shows how the tests failed.
  const testExcerpt = errorExcerpts(ctx).find((e) => failingTestsIn([e], 1).length > 0 || /test/i.test(e.reason));
  if (testExcerpt && (counts?.failed ?? names.length) > 0) {
    out.line();
    out.line('How the first one failed:');
    quote(out, testExcerpt, 15);
  }
  return out.reply();
};

/** Test runners' closing count lines (Maven, Jest, pytest, Gradle, dotnet, Go): the log's own test report. */
const TEST_SUMMARY =
  /^(?:\[(?:INFO|ERROR|WARNING)\] )?Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+\s*$|^Tests:\s+.*\d+ total|^=*\s*(?:\d+ failed, )?\d+ passed.* in [\d.]+s|\d+ tests? completed, \d+ failed|^(?:Passed|Failed)!\s+-\s+Failed:|^Total tests: \d+|^(?:ok|FAIL)\s+\S+\s+[\d.]+s$/;

function testSummaryIn(stored: LogSpan | undefined): LogSpan | undefined {
  const hit = findLine(stored, TEST_SUMMARY, { fromEnd: true });
  return hit ? { start_line: hit.line, end_line: hit.line, text: hit.text } : undefined;
}

/** Failing test names a test report may carry beside its counts (`failedTests: [...]`). */
function reportedFailingTests(counts: Record<string, unknown> | undefined): string[] {
  const list = counts?.['failedTests'];
  if (!Array.isArray(list)) return [];
  return list
    .map((item: unknown) => {
      if (typeof item === 'string') return item;
      if (item && typeof item === 'object' && 'name' in item && typeof item.name === 'string') return item.name;
      return undefined;
    })
    .filter((name): name is string => name !== undefined)
    .slice(0, 30);
}

const ciVersion: Composer = ({ ci }) => {
  const found = ciVersionOf(ci);
  if (!found) return notSaid('which Jenkins version this server runs');
  return new ReplyBuilder().line(`This server runs **Jenkins ${found.version}**.`).fact(found.field).reply();
};

function pluginLine(p: PluginInfo): string {
  const long = p.longName && p.longName !== p.shortName ? ` (${p.longName})` : '';
  return `${inlineCode(p.shortName)} ${p.version}${long}${p.enabled === false ? ' — **disabled**' : ''}`;
}

/**
 * "is kubectl installed?" may ask about a tool, not a plugin: the log's first line naming it
 * ("kubectl: command not found") is the nearest fact.
 */
function logMentionOf(ctx: ChatContext, names: string[]): string | undefined {
  const stored = storedLogSpan(ctx);
  for (const name of names) {
    if (name.length < 3 || name.includes(' ')) continue;
    const named = new RegExp(`(^|[^\\w-])${escapeRegExp(name)}($|[^\\w-])`, 'i');
    // An error naming it ("kubectl: command not found") says more than a commit message does.
    const hit = findLine(stored, (line) => (looksLikeError(line) ? named.exec(line) : null)) ?? findLine(stored, named);
    if (hit) return `The log mentions ${inlineCode(name)} ${cite({ start_line: hit.line, end_line: hit.line })}: ${inlineCode(clip(hit.text))}`;
  }
  return undefined;
}

const plugins: Composer = ({ question, q, ci, ctx }) => {
  const list = ci.activePlugins;
  const out = new ReplyBuilder();
  if (!Array.isArray(list)) {
    const asked = pluginNamesAskedFor(question, []);
    const what = asked.length > 0 ? `whether ${asked.map(inlineCode).join(' or ')} is installed` : 'which plugins are installed';
    const mention = logMentionOf(ctx, asked);
    const reply = notSaid(what, mention ?? 'It holds no plugin list.');
    if (mention) reply.sources.push(...citedSpans(mention));
    return reply;
  }
  const names = pluginNamesAskedFor(question, list);
  out.fact('activePlugins');
  const disabled = list.filter((p) => p.enabled === false);

  if (names.length === 0) {
    const sorted = [...list].sort((a, b) => a.shortName.localeCompare(b.shortName));
    const disabledNote = disabled.length > 0 ? ` (${disabled.length} of them disabled)` : '';
    if (list.length === 0) return out.line('**No plugins are installed.**').reply();
    if (/\bdisabled\b/.test(q)) {
      out.line(
        disabled.length === 0
          ? `**No plugin is disabled**: all ${list.length} are enabled.`
          : `**${disabled.length} plugin${disabled.length === 1 ? ' is' : 's are'} disabled:**`,
      );
      for (const p of disabled) out.line(`- ${pluginLine(p)}`);
      return out.reply();
    }
    out.line(`**${list.length} plugin${list.length === 1 ? ' is' : 's are'} installed**${disabledNote}.`);
    if (/\bhow many\b/.test(q) && list.length > 10) {
      out.line('\nAsk about one by name (*is the git plugin installed?*) for its version.');
      return out.reply();
    }
    const shown = sorted.slice(0, 40);
    out.line();
    for (const p of shown) out.line(`- ${pluginLine(p)}`);
    if (sorted.length > shown.length) {
      out.line(`- …and ${sorted.length - shown.length} more; ask about one by name for its version.`);
    }
    return out.reply();
  }

  const verdicts = names.map((name) => pluginVerdict(list, name));
  if (verdicts.length === 1) {
    out.line((verdicts[0] as string[]).join('\n'));
    const mention = (verdicts[0] as string[])[0]?.startsWith('**No') ? logMentionOf(ctx, names) : undefined;
    if (mention) {
      out.line();
      out.line(`${mention} (if you meant the tool rather than a plugin).`);
      for (const span of citedSpans(mention)) out.log(span);
    }
  } else {
    const installed = verdicts.filter((v) => (v[0] as string).startsWith('**Yes')).length;
    out.line(`**${installed} of the ${verdicts.length} plugins you named ${installed === 1 ? 'is' : 'are'} installed.**`);
    out.line();
    for (const v of verdicts) out.line(`- ${v.join(' ')}`);
  }
  return out.reply();
};

/** "Yes — `git` 5.2.1 is installed", or no with the related plugins that are. */
function pluginVerdict(list: PluginInfo[], name: string): string[] {
  const match = findPlugins(list, name);
  const exact = match.exact[0];
  if (exact) {
    if (exact.enabled === false) return [`**\`${exact.shortName}\` ${exact.version} is installed but disabled.**`];
    const long = exact.longName && exact.longName !== exact.shortName ? ` (${exact.longName})` : '';
    return [`**Yes — ${inlineCode(exact.shortName)} ${exact.version} is installed**${long}.`];
  }
  const lines = [`**No — ${inlineCode(name)} is not installed**${match.related.length === 0 ? ` (none of the ${list.length} installed plugins has that name)` : ''}.`];
  if (match.related.length > 0) {
    const shown = match.related.slice(0, 6).map(pluginLine).join(', ');
    lines.push(`Related plugins that are: ${shown}${match.related.length > 6 ? `, and ${match.related.length - 6} more` : ''}.`);
  }
  return lines;
}

function agentsList(stats: AgentStats | undefined): NonNullable<AgentStats['agents']> {
  return Array.isArray(stats?.agents) ? stats.agents : [];
}

const executors: Composer = ({ ci }) => {
  const master = ci.masterNode?.executors;
  const agents = agentsList(ci.agentStats).filter((a) => typeof a.executors === 'number');
  if (typeof master !== 'number' && agents.length === 0) return notSaid('how many executors there are');
  const out = new ReplyBuilder();
  if (typeof master === 'number') {
    out.line(`The built-in node has **${master} executor${master === 1 ? '' : 's'}**.`).fact('masterNode.executors');
    if (master === 0) out.line('So builds run only on agents.');
  } else {
    out.line("The uploaded context does not say how many executors the built-in node has.");
  }
  if (agents.length > 0) {
    out.fact('agentStats.agents');
    const onAgents = agents.reduce((sum, a) => sum + (a.executors ?? 0), 0);
    const detail = agents.map((a) => `${inlineCode(a.name)} ${a.executors}${a.online ? '' : ' (offline)'}`).join(', ');
    out.line(`Agents add **${onAgents}**: ${detail}.`);
    if (typeof master === 'number') out.line(`**${master + onAgents} executors in total.**`);
  }
  return out.reply();
};

const master: Composer = ({ ci }) => {
  const node = ci.masterNode;
  const out = new ReplyBuilder();
  if (typeof node?.isOnline !== 'boolean') {
    return notSaid('whether the built-in node is online', node && typeof node.executors === 'number' ? `It does say the built-in node has ${node.executors} executors.` : undefined);
  }
  out.fact('masterNode.isOnline');
  out.line(node.isOnline ? '**Yes — the built-in node is online.**' : '**No — the built-in node is offline.**');
  const extras: string[] = [];
  if (typeof node.executors === 'number') {
    extras.push(`${node.executors} executor${node.executors === 1 ? '' : 's'}`);
    out.fact('masterNode.executors');
  }
  for (const fact of systemFacts(node.systemInfo).slice(0, 3)) {
    extras.push(`${fact.label} ${fact.value}`);
    out.fact(fact.field);
  }
  if (extras.length > 0) out.line(`It has ${extras.join(', ')}.`);
  return out.reply();
};

const agents: Composer = ({ q, ci }) => {
  const stats = ci.agentStats;
  if (!stats) return notSaid('which agents are online or offline');
  const list = agentsList(stats);
  const online = list.filter((a) => a.online);
  const offline = list.filter((a) => !a.online);
  const onlineCount = typeof stats.onlineAgents === 'number' ? stats.onlineAgents : list.length > 0 ? online.length : undefined;
  const offlineCount = typeof stats.offlineAgents === 'number' ? stats.offlineAgents : list.length > 0 ? offline.length : undefined;
  if (onlineCount === undefined && offlineCount === undefined) return notSaid('which agents are online or offline');
  const out = new ReplyBuilder();
  if (typeof stats.onlineAgents === 'number') out.fact('agentStats.onlineAgents');
  if (typeof stats.offlineAgents === 'number') out.fact('agentStats.offlineAgents');
  if (list.length > 0) out.fact('agentStats.agents');
  const names = (agentsOf: typeof list): string =>
    agentsOf.map((a) => `${inlineCode(a.name)}${a.offlineReason ? ` (${a.offlineReason})` : ''}`).join(', ');
  const on = onlineCount ?? 0;
  const off = offlineCount ?? 0;
  const plural = (n: number): string => `${n} agent${n === 1 ? '' : 's'}`;

  // The context knows agents' names, state and executors, nothing else about them.
  const attribute = /\b(ip( address)?|addresses|address|hostnames?|host names?|labels?|os|memory|ram|disk|cpus?|java|jdk|ssh|jnlp|launch\w*|location|region|zone|specs?)\b/.exec(q)?.[0];
  if (attribute) out.line(`The uploaded context does not say the agents' ${attribute}: it holds only their names, whether they are online, and their executors.`);
  if (on + off === 0) {
    out.line('**This server has no agents**: builds run on the built-in node only.');
    return out.reply();
  }
  const asksOffline = /\b(offline|down|disconnected|dead|unavailable|broken)\b/.test(q);
  if (asksOffline) {
    if (offlineCount === undefined) {
      out.line(`The uploaded context does not say how many agents are offline; **${plural(on)} ${on === 1 ? 'is' : 'are'} online**.`);
    } else if (off === 0) {
      out.line(`**No agents are offline**${onlineCount !== undefined ? `: all ${plural(on)} ${on === 1 ? 'is' : 'are'} online` : ''}.`);
    } else {
      out.line(`**Yes — ${plural(off)} ${off === 1 ? 'is' : 'are'} offline**${offline.length > 0 ? `: ${names(offline)}` : ''}.`);
      if (onlineCount !== undefined) out.line(`${capitalise(plural(on))} ${on === 1 ? 'is' : 'are'} online${online.length > 0 ? `: ${names(online)}` : ''}.`);
    }
    return out.reply();
  }
  const parts: string[] = [];
  if (onlineCount !== undefined) parts.push(`**${plural(on)} online**`);
  if (offlineCount !== undefined) parts.push(`**${off} offline**`);
  out.line(`${parts.join(', ')}.`);
  if (online.length > 0) out.line(`- Online: ${names(online)}`);
  if (offline.length > 0) out.line(`- Offline: ${names(offline)}`);
  return out.reply();
};

const SYSTEM_STOPWORDS = new Set(
  'the what which how much many does have has version name info system node master controller built-in built main is are of on for and with'.split(' '),
);

const system: Composer = ({ q, ci }) => {
  const info = ci.masterNode?.systemInfo;
  const facts = systemFacts(info);
  // Any other systemInfo key the question names ("disk", "timezone") is worth showing too.
  const words = q.split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !SYSTEM_STOPWORDS.has(w));
  const extraKeys = info
    ? Object.keys(info).filter(
        (key) => words.some((w) => key.toLowerCase().includes(w)) && !facts.some((f) => f.keys.includes(key)),
      )
    : [];
  if (facts.length === 0 && extraKeys.length === 0) return notSaid("the built-in node's OS or memory");

  const wants: string[] = [];
  if (/\b(os|operating system|linux|windows|mac ?os|kernel|arch\w*|platform)\b/.test(q)) wants.push('OS');
  if (/\b(memory|ram|heap)\b/.test(q)) wants.push('Memory', 'Free memory', 'JVM max heap');
  if (/\b(cpus?|cores?|processors?)\b/.test(q)) wants.push('CPUs');
  if (/\b(java|jvm|jdk|jre)\b/.test(q)) wants.push('Java');
  const asksDisk = /\b(disk|storage)\b/.test(q);
  const otherWord = /\b(time ?zone|locale|encoding)\b/.exec(q)?.[1]?.replace(' ', '');
  const asked = facts.filter((f) => wants.includes(f.label));
  const specific = wants.length > 0 || asksDisk || otherWord !== undefined || extraKeys.length > 0;
  const missing = wants.filter((w) => !['Free memory', 'JVM max heap'].includes(w) && !facts.some((f) => f.label === w));
  const missingNames: Record<string, string> = {
    OS: "the built-in node's OS",
    Memory: 'how much memory the built-in node has',
    CPUs: 'how many CPUs the built-in node has',
    Java: 'which Java the built-in node runs',
  };
  const missingText = missing.map((m) => missingNames[m] ?? m);
  if (asksDisk && !extraKeys.some((k) => /disk|storage|space/i.test(k))) missingText.push('how much disk space the built-in node has');
  if (otherWord && !extraKeys.some((k) => k.toLowerCase().includes(otherWord))) missingText.push(`the built-in node's ${otherWord}`);

  const out = new ReplyBuilder();
  // A specific question gets its answer; a general one ("what hardware") gets everything.
  const shown = specific ? asked : facts;
  const parts = shown.map((f) => `${f.label} **${f.value}**`);
  for (const f of shown) out.fact(f.field);
  for (const key of extraKeys.slice(0, 8)) {
    parts.push(`${inlineCode(key)} **${clip(showValue(info?.[key]), 120)}**`);
    out.fact(`masterNode.systemInfo.${key}`);
  }
  if (parts.length > 0) out.line(`The built-in node: ${parts.join(', ')}.`);
  if (missingText.length > 0) {
    out.line(`The uploaded context does not say ${missingText.join(' or ')}.`);
    if (parts.length === 0 && facts.length > 0) {
      out.line(`It does say: ${facts.map((f) => `${f.label} ${f.value}`).join(', ')}.`);
      for (const f of facts) out.fact(f.field);
    }
  }
  return out.reply();
};

const aborter: Composer = async (ask) => {
  const { ci, ctx } = ask;
  const build = buildLabel(ci);
  const { outcome, raw } = outcomeOf(ci);
  const out = new ReplyBuilder();
  // Jenkins prints "Aborted by <user>" in the console when someone stops a build.
  const stored = storedLogSpan(ctx);
  const spans: LogSpan[] = [
    ...(stored ? [stored] : []),
    ...ctx.failureExcerpts,
    ...(stored?.start_line === 1 ? [] : await retrieveSafely(ctx, 'Aborted by', 3)),
  ];
  for (const span of spans) {
    const m = /^[^\S\n]*Aborted by[^\S\n]+(\S[^\n]*)$/m.exec(span.text);
    if (m) {
      let line = span.start_line;
      for (let i = span.text.indexOf('\n'); i >= 0 && i < m.index; i = span.text.indexOf('\n', i + 1)) line++;
      const who = (m[1] as string).trim();
      out.line(`**${who} aborted ${build}**, according to the log ${cite({ start_line: line, end_line: line })}.`);
      out.log({ start_line: line, end_line: line });
      return out.reply();
    }
  }
  if (outcome !== 'aborted' && outcome !== 'unknown') {
    out.fact('buildDetails.result');
    out.line(`${capitalise(build)} was not aborted: it ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}.`);
    return out.reply();
  }
  // A timeout step aborts a build without anyone pressing stop.
  const timedOut = rankedErrorExcerpts(ctx)
    .map((e) => diagnose(e))
    .find((d) => d?.kind === 'timeout' && d.line !== undefined);
  if (timedOut?.line !== undefined && (outcome === 'aborted' || outcome === 'unknown')) {
    const at = { start_line: timedOut.line, end_line: timedOut.line };
    out.line(`**A timeout aborted ${build}, not a person**, according to the log ${cite(at)}: ${inlineCode(clip(timedOut.lineText ?? ''))}`);
    out.log(at);
    if (outcome === 'aborted') out.fact('buildDetails.result');
    out.line(`\n**Next step:** ${timedOut.nextStep}`);
    return out.reply();
  }
  out.line(`The uploaded context does not say who aborted ${build}.`);
  const known: string[] = [];
  if (outcome === 'aborted') {
    known.push(`its result is ${inlineCode('ABORTED')}`);
    out.fact('buildDetails.result');
  }
  const causes = ci.buildDetails?.causes;
  if (Array.isArray(causes) && causes.length > 0) {
    known.push(`it was ${causes.map(describeCause).join('; ')}`);
    out.fact('buildDetails.causes');
  }
  if (known.length > 0) out.line(`It does say ${known.join(', and ')}.`);
  if (!hasLog(ctx)) out.line('The console log would show an "Aborted by" line: upload it to know more.');
  return out.reply();
};

const causes: Composer = ({ ci }) => {
  const list = ci.buildDetails?.causes;
  const build = buildLabel(ci);
  if (!Array.isArray(list) || list.length === 0) return notSaid(`who or what started ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.causes');
  const [first, ...rest] = list.map(describeCause);
  out.line(`${capitalise(build)} was ${first}.`);
  for (const other of rest) out.line(`- also ${other}`);
  return out.reply();
};

const parameters: Composer = ({ ci }) => {
  const list = ci.buildDetails?.parameters;
  const build = buildLabel(ci);
  if (!Array.isArray(list)) return notSaid(`which parameters ${build} ran with`);
  const out = new ReplyBuilder().fact('buildDetails.parameters');
  if (list.length === 0) return out.line(`${capitalise(build)} ran **without parameters**.`).reply();
  out.line(`${capitalise(build)} ran with **${list.length} parameter${list.length === 1 ? '' : 's'}**:`);
  for (const p of list) out.line(`- ${inlineCode(p.name)} = ${inlineCode(clip(showValue(p.value), 200))}`);
  return out.reply();
};

const duration: Composer = ({ ci, ctx }) => {
  const details = ci.buildDetails;
  const build = buildLabel(ci);
  const out = new ReplyBuilder();
  const started = timestampOf(ci);
  if (details?.building === true) {
    out.fact('buildDetails.building');
    out.line(`**${capitalise(build)} is still running**${started ? `: it started at ${formatTime(started)}` : ''}.`);
    if (started) out.fact('buildDetails.timestamp');
    return out.reply();
  }
  if (typeof details?.durationMs !== 'number') {
    const stored = storedLogSpan(ctx);
    const tool = findLine(stored, TOOL_DURATION, { fromEnd: true });
    if (!tool) return notSaid(`how long ${build} took`);
    const took = tool.match.slice(1).find(Boolean) as string;
    out.line(`The uploaded context does not record how long ${build} took; **the build tool reports ${took.trim()}** ${cite({ start_line: tool.line, end_line: tool.line })}: ${inlineCode(clip(tool.text))}`);
    out.log({ start_line: tool.line, end_line: tool.line });
    return out.reply();
  }
  out.fact('buildDetails.durationMs');
  out.line(`**${capitalise(build)} took ${formatDuration(details.durationMs)}.**`);
  const previous = details.previousBuild;
  const previousMs = previous?.['durationMs'];
  if (previous && typeof previousMs === 'number') {
    out.fact('buildDetails.previousBuild');
    out.line(`The previous build, #${previous.number}, took ${formatDuration(previousMs)}.`);
  }
  return out.reply();
};

const result: Composer = ({ q, ci, ctx }) => {
  const build = buildLabel(ci, true);
  const { outcome, raw } = outcomeOf(ci);
  if (outcome === 'unknown' && !raw) return notSaid(`how ${buildLabel(ci)} ended`);
  const out = new ReplyBuilder().fact(outcome === 'running' ? 'buildDetails.building' : 'buildDetails.result');
  const stated = `${build} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}`;
  // A yes/no question gets its yes or no first.
  const asksPass = /\b(pass\w*|succe\w*|green|work\w*|ok)\b/.test(q);
  const asksFail = /\b(fail\w*|red|broken|break)\b/.test(q);
  const asksRunning = /\b(running|building|in progress|finished|done)\b/.test(q);
  const good = outcome === 'passed';
  let yesNo = '';
  if (asksRunning) yesNo = outcome === 'running' ? (/\b(finished|done)\b/.test(q) ? 'No — ' : 'Yes — ') : /\b(finished|done)\b/.test(q) ? 'Yes — ' : 'No — ';
  else if (asksPass && outcome !== 'running') yesNo = good ? 'Yes — ' : 'No — ';
  else if (asksFail && outcome !== 'running') yesNo = good ? 'No — ' : 'Yes — ';
  out.line(`**${yesNo}${yesNo ? stated : capitalise(stated)}.**`);
  const details = ci.buildDetails;
  if (typeof details?.durationMs === 'number' && outcome !== 'running') {
    out.line(`It took ${formatDuration(details.durationMs)}.`);
    out.fact('buildDetails.durationMs');
  }
  const tests = details?.tests;
  if (tests && typeof tests.failed === 'number' && tests.failed > 0) {
    out.line(`${tests.failed}${typeof tests.total === 'number' ? ` of ${tests.total}` : ''} tests failed.`);
    out.fact('buildDetails.tests');
  }
  const top = errorExcerpts(ctx)[0];
  if (top && !good && outcome !== 'not built') {
    out.line(`The first error in the log is ${cite(top)}: ${inlineCode(clip(headlineOf(top).text))} — ask *why did it fail* for the details.`);
    out.log(top);
  }
  return out.reply();
};

const previous: Composer = ({ ci }) => {
  const details = ci.buildDetails;
  const build = buildLabel(ci);
  const prev = details?.previousBuild;
  if (prev === null) {
    return new ReplyBuilder()
      .fact('buildDetails.previousBuild')
      .line(`${capitalise(build)} is the first build${jobNameOf(ci) ? ` of ${inlineCode(jobNameOf(ci) as string)}` : ''}: there is no previous build.`)
      .reply();
  }
  if (!prev) return notSaid(`anything about the build before ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.previousBuild');
  const prevResult = typeof prev.result === 'string' ? prev.result.toUpperCase() : undefined;
  if (!prevResult) {
    out.line(`The previous build was **#${prev.number}**; the uploaded context does not say how it ended.`);
    return out.reply();
  }
  out.line(`The previous build, **#${prev.number}**, finished ${inlineCode(prevResult)}.`);
  const { outcome } = outcomeOf(ci);
  if (outcome === 'failed' || outcome === 'unstable') {
    out.fact('buildDetails.result');
    if (prevResult === 'SUCCESS') {
      out.line(`So ${build} is a **new failure**: what changed since #${prev.number} is the first suspect.`);
      const changes = details?.changes;
      if (Array.isArray(changes) && changes.length > 0) {
        out.fact('buildDetails.changes');
        for (const c of changes.slice(0, 5)) out.line(`- ${describeChange(c)}`);
      }
    } else if (prevResult === 'FAILURE' || prevResult === 'UNSTABLE') {
      out.line(`So it was **already failing** before ${build}.`);
    }
  } else if (outcome === 'passed' && prevResult !== 'SUCCESS') {
    out.fact('buildDetails.result');
    out.line(`${capitalise(build)} passed, so it **fixed** the build.`);
  }
  return out.reply();
};

const JOB_TYPES: [RegExp, string][] = [
  [/WorkflowMultiBranchProject|multi-?branch/i, 'Multibranch Pipeline'],
  [/OrganizationFolder/i, 'Organization Folder'],
  [/WorkflowJob|^pipeline$/i, 'Pipeline'],
  [/FreeStyleProject|free-?style/i, 'Freestyle project'],
  [/MavenModuleSet|maven/i, 'Maven project'],
  [/MatrixProject|matrix/i, 'Multi-configuration (matrix) project'],
  [/Folder/i, 'Folder'],
];

function jobTypeName(type: string): string {
  for (const [pattern, name] of JOB_TYPES) if (pattern.test(type)) return name;
  return type;
}

const jobType: Composer = ({ q, ci }) => {
  const type = ci.jobDetails?.type;
  const job = jobNameOf(ci);
  const jobRef = job ? inlineCode(job) : 'The job';
  if (typeof type !== 'string' || !type) return notSaid('what type of job this is');
  const name = jobTypeName(type);
  const out = new ReplyBuilder().fact('jobDetails.type');
  const technical = name !== type ? ` (${inlineCode(type)})` : '';
  const asked = /\b(?:is|was) (?:this|it|the job) an? (pipeline|freestyle|free-style|multibranch|multi-branch|maven|matrix)\b/.exec(q);
  if (asked?.[1]) {
    const wanted = jobTypeName(asked[1]);
    out.line(wanted === name ? `**Yes — ${jobRef} is a ${name}**${technical}.` : `**No — ${jobRef} is a ${name}**${technical}, not a ${wanted}.`);
  } else {
    out.line(`${jobRef} is a **${name}**${technical}.`);
  }
  return out.reply();
};

function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function blockquote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`.trimEnd())
    .join('\n');
}

const jobDescription: Composer = ({ ci }) => {
  const description = ci.jobDetails?.description;
  const job = jobNameOf(ci);
  const jobRef = job ? inlineCode(job) : 'The job';
  if (typeof description !== 'string') {
    // No description: the job's name and type are the nearest thing to "what is this job".
    const type = typeof ci.jobDetails?.type === 'string' ? jobTypeName(ci.jobDetails.type) : undefined;
    if (!job) return notSaid("what the job's description is");
    const reply = notSaid(`what ${inlineCode(job)} is for (it holds no job description)`, `It is the job ${inlineCode(job)}${type ? `, a ${type}` : ''}.`);
    reply.sources.push({ kind: 'context', field: 'jobDetails.fullName' });
    if (type) reply.sources.push({ kind: 'context', field: 'jobDetails.type' });
    return reply;
  }
  const out = new ReplyBuilder().fact('jobDetails.description');
  const text = plainText(description);
  if (!text) return out.line(`${jobRef} has **no description**.`).reply();
  out.line(`${jobRef} is described as:`);
  out.line();
  out.line(blockquote(text));
  return out.reply();
};

const systemMessage: Composer = ({ ci }) => {
  const message = ci.systemMessage;
  if (typeof message !== 'string') return notSaid('what the system message is');
  const out = new ReplyBuilder().fact('systemMessage');
  const text = plainText(message);
  if (!text) return out.line('**No system message is set** on this server.').reply();
  out.line('The system message reads:');
  out.line();
  out.line(blockquote(text));
  return out.reply();
};

const rootUrl: Composer = ({ ci, q }) => {
  if (typeof ci.rootUrl !== 'string' || !ci.rootUrl) return notSaid("what the server's root URL is");
  const out = new ReplyBuilder().fact('rootUrl').line(`The Jenkins root URL is **${ci.rootUrl}**.`);
  const job = jobNameOf(ci);
  const number = ci.buildDetails?.number;
  // Jenkins' URL scheme is fixed: root + job/<folder>/job/<name>/ + build number.
  if (job && /\b(build|job|run|console|page|link)\b/.test(q)) {
    const path = job.split('/').map((part) => `job/${encodeURIComponent(part)}/`).join('');
    const base = ci.rootUrl.endsWith('/') ? ci.rootUrl : `${ci.rootUrl}/`;
    const build = typeof number === 'number' ? `${number}/` : '';
    out.fact(...(typeof number === 'number' ? ['jobDetails.fullName', 'buildDetails.number'] : ['jobDetails.fullName']));
    out.line(`So ${typeof number === 'number' ? `build #${number}'s page` : "the job's page"} is ${base}${path}${build} (built from the root URL and the job's name).`);
  }
  return out.reply();
};

function describeChange(change: { commitId?: string; author?: string; message?: string }): string {
  const id = change.commitId ? `${inlineCode(change.commitId.slice(0, 10))} ` : '';
  const message = change.message ? clip(change.message.split('\n')[0] ?? '', 100) : '(no message)';
  return `${id}${message}${change.author ? ` — ${change.author}` : ''}`;
}

const changes: Composer = ({ ci, q }) => {
  const list = ci.buildDetails?.changes;
  const build = buildLabel(ci);
  if (!Array.isArray(list)) return notSaid(`which changes went into ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.changes');
  if (list.length === 0) out.line(`**${capitalise(build)} has no recorded changes** (same revision as before, or started by hand).`);
  else {
    out.line(`**${capitalise(build)} has ${list.length} change${list.length === 1 ? '' : 's'}:**`);
    for (const c of list.slice(0, 15)) out.line(`- ${describeChange(c)}`);
    if (list.length > 15) out.line(`- …and ${list.length - 15} more.`);
  }
  // "since the last green build", "who broke it": what the previous build says about that.
  const prev = ci.buildDetails?.previousBuild;
  const prevResult = typeof prev?.result === 'string' ? prev.result.toUpperCase() : undefined;
  const blames = /\bwho\b.*\b(broke|break\w*|caused|responsible|blame)\b|\bwhose\b/.test(q);
  if (prev && prevResult) {
    out.fact('buildDetails.previousBuild');
    out.line();
    if (prevResult === 'SUCCESS') {
      out.line(`The previous build, #${prev.number}, passed: these are the changes since the last green build${list.length > 0 && blames ? ', so they are the suspects (the context cannot prove which one broke it)' : ''}.`);
    } else {
      out.line(`The previous build, #${prev.number}, ended ${inlineCode(prevResult)} too. The uploaded context does not say which build last passed, so these are only the changes since #${prev.number}.`);
    }
  } else if (blames || /\bsince\b/.test(q)) {
    out.line();
    out.line('The uploaded context does not say how the previous build ended, so I cannot tell which change broke it.');
  }
  return out.reply();
};

const builtOn: Composer = ({ ci }) => {
  const node = ci.buildDetails?.builtOn;
  const build = buildLabel(ci);
  if (typeof node !== 'string') return notSaid(`which node ran ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.builtOn');
  // Jenkins records the built-in node as an empty name.
  const where = node === '' || /^(master|built-in)$/i.test(node) ? 'the **built-in node**' : `**${inlineCode(node)}**`;
  return out.line(`${capitalise(build)} ran on ${where}.`).reply();
};

const startTime: Composer = ({ ci }) => {
  const started = timestampOf(ci);
  const build = buildLabel(ci);
  if (!started) return notSaid(`when ${build} started`);
  const out = new ReplyBuilder().fact('buildDetails.timestamp');
  out.line(`${capitalise(build)} started at **${formatTime(started)}**.`);
  const ms = ci.buildDetails?.durationMs;
  if (typeof ms === 'number' && ci.buildDetails?.building !== true && ms > 0) {
    out.line(`It ran for ${formatDuration(ms)} and finished at ${formatTime(new Date(started.getTime() + ms))}.`);
    out.fact('buildDetails.durationMs');
  }
  return out.reply();
};

const screen: Composer = ({ ci }) => {
  if (typeof ci.currentScreen !== 'string' || !ci.currentScreen) return notSaid('which Jenkins page you are on');
  return new ReplyBuilder().fact('currentScreen').line(`You were on **${ci.currentScreen}** when the context was uploaded.`).reply();
};

const summary: Composer = ({ ci, ctx }) => {
  const out = new ReplyBuilder();
  const job = jobNameOf(ci);
  const { outcome, raw } = outcomeOf(ci);
  const details = ci.buildDetails;
  if (outcome !== 'unknown' || raw) {
    const took = typeof details?.durationMs === 'number' && outcome !== 'running' ? ` in ${formatDuration(details.durationMs)}` : '';
    out.line(`**${capitalise(buildLabel(ci, true))} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}${took}.**`);
    out.fact(outcome === 'running' ? 'buildDetails.building' : 'buildDetails.result');
    if (took) out.fact('buildDetails.durationMs');
  } else if (job) {
    out.line(`**Job ${inlineCode(job)}**${typeof details?.number === 'number' ? `, build #${details.number}` : ''}.`);
  } else {
    out.line('**What the uploaded context says about this server:**');
  }
  const bullets: string[] = [];
  const top = errorExcerpts(ctx)[0];
  if (top && outcome !== 'passed') {
    bullets.push(`First error ${cite(top)}: ${inlineCode(clip(headlineOf(top).text, 120))}`);
    out.log(top);
  }
  const tests = details?.tests;
  if (tests && typeof tests.total === 'number') {
    bullets.push(`Tests: ${tests.total} run, ${tests.failed ?? 0} failed${tests.skipped ? `, ${tests.skipped} skipped` : ''}`);
    out.fact('buildDetails.tests');
  }
  if (Array.isArray(details?.causes) && details.causes.length > 0) {
    bullets.push(`Cause: ${details.causes.map(describeCause).join('; ')}`);
    out.fact('buildDetails.causes');
  }
  if (details?.previousBuild) {
    const p = details.previousBuild;
    bullets.push(`Previous build: #${p.number}${p.result ? ` ${inlineCode(p.result)}` : ''}`);
    out.fact('buildDetails.previousBuild');
  }
  if (Array.isArray(details?.changes) && details.changes.length > 0) {
    bullets.push(`Changes: ${details.changes.length}`);
    out.fact('buildDetails.changes');
  }
  if (job && typeof ci.jobDetails?.type === 'string') {
    bullets.push(`Job: ${inlineCode(job)}, ${jobTypeName(ci.jobDetails.type)}${ci.jobDetails.buildable === false ? ', not buildable' : ''}`);
    out.fact('jobDetails.type');
  }
  const version = ciVersionOf(ci);
  if (version) {
    bullets.push(`Jenkins ${version.version}`);
    out.fact(version.field);
  }
  if (Array.isArray(ci.activePlugins)) {
    bullets.push(`${ci.activePlugins.length} plugins installed`);
    out.fact('activePlugins');
  }
  const node = ci.masterNode;
  if (node && (typeof node.isOnline === 'boolean' || typeof node.executors === 'number')) {
    const state = typeof node.isOnline === 'boolean' ? (node.isOnline ? 'online' : '**offline**') : '';
    const execs = typeof node.executors === 'number' ? `${node.executors} executors` : '';
    bullets.push(`Built-in node: ${[state, execs].filter(Boolean).join(', ')}`);
    out.fact('masterNode');
  }
  const stats = ci.agentStats;
  if (stats && (typeof stats.onlineAgents === 'number' || typeof stats.offlineAgents === 'number')) {
    bullets.push(`Agents: ${stats.onlineAgents ?? '?'} online, ${stats.offlineAgents ?? '?'} offline`);
    out.fact('agentStats');
  }
  if (ctx.logLineCount > 0) bullets.push(`Log: ${ctx.logLineCount} lines`);
  out.line();
  for (const b of bullets) out.line(`- ${b}`);
  if (bullets.length === 0) out.line('It holds little beyond that: ask me what you need and I will say whether it is there.');
  return out.reply();
};

/** Questions the context can answer, as suggestions. */
function suggestionsFor(ci: CiContext, ctx: ChatContext): string[] {
  const out: string[] = [];
  const { outcome } = outcomeOf(ci);
  if (hasLog(ctx) && outcome !== 'passed') out.push(`*Why did ${buildLabel(ci)} fail?*`);
  if (ci.buildDetails?.tests) out.push('*Which tests failed?*');
  if (Array.isArray(ci.activePlugins) && ci.activePlugins.length > 0) {
    out.push(`*Is the ${ci.activePlugins[0]?.shortName ?? 'git'} plugin installed?*`);
  }
  if (ciVersionOf(ci)) out.push('*What version of Jenkins is this?*');
  if (ci.agentStats) out.push('*Are any agents offline?*');
  if (typeof ci.buildDetails?.durationMs === 'number') out.push('*How long did the build take?*');
  if (ci.buildDetails?.causes) out.push('*Who started the build?*');
  out.push('*Summarize the context*');
  return out.slice(0, 5);
}

const help: Composer = ({ q, ci, ctx }) => {
  const out = new ReplyBuilder();
  if (/^\s*(thanks|thank you|thx|ty|cheers|merci|danke)\b/.test(q)) {
    out.line("You're welcome. Ask me anything else about this build: " + suggestionsFor(ci, ctx).slice(0, 3).join(' · '));
    return out.reply();
  }
  out.line("I'm cichat's offline assistant: I answer from the CI context uploaded to this chat — the build log, the build and job facts, plugins, nodes and agents.");
  out.line();
  out.line(`Try: ${suggestionsFor(ci, ctx).join(' · ')}`);
  return out.reply();
};

const STOPWORDS = new Set(
  'the a an is are was were be been to of in on at for with and or but not what which who whom whose why how when where does did do this that these those it its my our your their there here can could would should will shall may might about from into than then them they you we i me us please tell show give find any some all'.split(' '),
);

/** A question no intent matched: quote the log when it mentions the question's words, else say what can be answered. */
async function unknown(ask: Ask): Promise<Reply> {
  const { ctx, ci, q } = ask;
  const words = [...new Set(q.split(/[^a-z0-9_.\-/]+/).filter((w) => w.length >= 3 && !STOPWORDS.has(w)))];
  if (words.length > 0 && hasLog(ctx)) {
    const passages = await retrieveSafely(ctx, ask.question, 3);
    const mentions = (text: string, word: string): boolean =>
      new RegExp(`(^|[^a-z0-9_])${escapeRegExp(word)}($|[^a-z0-9_])`, 'i').test(text);
    const mentioning = passages.filter((p) => words.some((w) => mentions(p.text, w)));
    if (mentioning.length > 0) {
      const term = words.find((w) => mentioning.some((p) => mentions(p.text, w))) as string;
      const out = new ReplyBuilder();
      out.line(`I can't answer that from the build facts, but the log mentions ${inlineCode(term)} here:`);
      out.line();
      for (const p of mentioning) quote(out, p, 12);
      return out.reply();
    }
  }
  const out = new ReplyBuilder();
  out.line("I can't answer that from the uploaded context.");
  out.line();
  out.line(`I can answer questions like: ${suggestionsFor(ci, ctx).join(' · ')}`);
  return out.reply();
}

const NO_LOG_HINT = 'Upload the log and ask again: `cichat context upload <chat-id> --log build.log`, or `cat build.log | cichat ask "..."`.';

/** Which command, stage and exit code the failure came from, led by what was asked. */
const step: Composer = (ask) => {
  const { ci, ctx, q } = ask;
  const build = buildLabel(ci);
  if (!hasLog(ctx)) return { text: `The uploaded context holds no build log, so I can't tell which step of ${build} failed.\n\n${NO_LOG_HINT}`, sources: [] };
  const stored = storedLogSpan(ctx);
  const top = rankedErrorExcerpts(ctx)[0];
  const out = new ReplyBuilder();
  if (!stored) {
    if (!top) return notSaid(`which step of ${build} failed`, 'The part of the log this chat keeps shows no error.');
    out.line(`The uploaded log does not show which command ran; the first error is ${cite(top)}: ${inlineCode(clip(headlineOf(top).text))}`);
    out.log(top);
    return out.reply();
  }
  const errorLine = top ? headlineOf(top).line : stored.end_line;
  const found = failingStepOf(stored, errorLine);
  const at = (line: number): string => {
    out.log({ start_line: line, end_line: line });
    return cite({ start_line: line, end_line: line });
  };
  const sentences: { key: 'command' | 'stage' | 'exit'; text: string }[] = [];
  if (found.command) sentences.push({ key: 'command', text: `The failing command was ${inlineCode(clip(found.command.command, 160))} ${at(found.command.line)}` });
  if (found.stage) sentences.push({ key: 'stage', text: `It failed in stage ${inlineCode(found.stage.stage)} ${at(found.stage.line)}` });
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
  if (!sentences.some((x) => x.key === wants)) out.line(`The uploaded log does not say ${missing[wants]}.`);
  for (const [i, x] of sentences.entries()) out.line(i === 0 && x.key === wants ? `**${x.text}.**` : `${x.text}.`);
  if (top) {
    out.line();
    out.line(`The error ${cite(top)}: ${inlineCode(clip(headlineOf(top).text))}`);
    out.log(top);
    const d = diagnose(top);
    if (d) out.line(`\n**Next step:** ${d.nextStep}`);
  }
  return out.reply();
};

const MAX_QUOTED_LINES = 60;

/** "what does line 120 say", "show lines 40-50", "last 20 lines", "tail of the log". */
const logLines: Composer = (ask) => {
  const { ctx, q } = ask;
  if (!hasLog(ctx)) return { text: `The uploaded context holds no build log, so there are no lines to show.\n\n${NO_LOG_HINT}`, sources: [] };
  const total = ctx.logLineCount;
  const stored = storedLogSpan(ctx);
  let from: number;
  let to: number;
  const range = /\b(?:lines?|l)\s*#?(\d+)\s*(?:-|–|to|through|and|until|\.\.)\s*(?:lines?\s*|l)?(\d+)/.exec(q);
  const single = /\b(?:lines?|l)\s*#?(\d+)/.exec(q);
  const count = Number(/\b(\d+)\s+lines?\b|\blines?\s+(\d+)/.exec(q)?.slice(1).find(Boolean) ?? 10);
  const n = Math.min(Math.max(1, count), MAX_QUOTED_LINES);
  if (range) {
    from = Number(range[1]);
    to = Number(range[2]);
    if (to < from) [from, to] = [to, from];
  } else if (/\b(last|final|tail|end|bottom)\b/.test(q)) {
    from = total - n + 1;
    to = total;
  } else if (/\b(first|head|start|beginning|top)\b/.test(q)) {
    from = 1;
    to = n;
  } else if (single) {
    from = Number(single[1]);
    to = from;
  } else {
    from = total - 9;
    to = total;
  }
  from = Math.max(1, from);
  if (from > total) return { text: `The log has only **${total} lines**, so there is no line ${from}.`, sources: [] };
  to = Math.min(total, to, from + MAX_QUOTED_LINES - 1);
  const span = stored ? linesOf(stored, from, to) : undefined;
  if (!span) {
    const kept = stored ? `: it keeps lines ${stored.start_line}-${stored.end_line} of ${total}` : '';
    return { text: `Lines ${from}-${to} are not in the part of the log this chat can quote${kept}.`, sources: [] };
  }
  const out = new ReplyBuilder();
  if (from === to) {
    const text = span.text.trim();
    out.line(text ? `Line ${from} ${cite(span)} reads: ${inlineCode(clip(text, 300))}` : `Line ${from} ${cite(span)} is empty.`);
    out.log(span);
    // A line alone rarely makes sense: a few lines around it.
    const around = linesOf(stored as LogSpan, Math.max(stored?.start_line ?? 1, from - 2), Math.min(stored?.end_line ?? to, to + 2));
    if (around && around.end_line > around.start_line) {
      out.line();
      quote(out, around, 5);
    }
  } else {
    out.line(to === total && !range ? `The end of the log (lines ${from}-${to} of ${total}):` : `Lines ${from}-${to} of ${total}:`);
    out.line();
    quote(out, span, MAX_QUOTED_LINES);
  }
  return out.reply();
};

/** Whether a failure is flaky: what one earlier build and the failure's kind can and cannot show. */
const flaky: Composer = ({ ci, ctx }) => {
  const details = ci.buildDetails;
  const build = buildLabel(ci);
  const prev = details?.previousBuild;
  const top = rankedErrorExcerpts(ctx)[0];
  const diagnosis = top ? diagnose(top) : undefined;
  const prevResult = typeof prev?.result === 'string' ? prev.result.toUpperCase() : undefined;
  if (!prev || !prevResult) {
    if (!diagnosis) return notSaid(`how earlier builds ended, so I can't tell whether ${build}'s failure is flaky`, 'Re-run the build without changes: if it passes, the failure is intermittent.');
  }
  const out = new ReplyBuilder();
  out.line(`**One build's context can't prove flakiness**; here is what it does show.`);
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
  if (top && diagnosis) {
    out.log(top);
    const transient = ['network', 'timeout', 'memory', 'disk'].includes(diagnosis.kind);
    out.line(
      `- The failure is ${diagnosis.label} ${cite(top)}${transient ? ': that kind is often intermittent (load, network, a busy agent).' : ': that kind usually fails the same way every time.'}`,
    );
  }
  out.line();
  out.line('**Next step:** re-run the build without changes; if it passes, treat the failure as flaky and track it.');
  return out.reply();
};

/** Which commit, branch or revision was built: the log's checkout line, a branch parameter, the job name. */
const revision: Composer = async (ask) => {
  const { ci, ctx, q } = ask;
  const build = buildLabel(ci);
  const out = new ReplyBuilder();
  const asksBranch = /\bbranch\b/.test(q);
  const checkout = await findInLog(ctx, /Checking out Revision ([0-9a-f]{7,40})(?: \(([^)]+)\))?/, 'Checking out Revision');
  if (checkout) {
    const sha = checkout.match[1] as string;
    const ref = checkout.match[2]?.replace(/^(refs\/remotes\/origin\/|refs\/heads\/|origin\/|detached)/, '').trim();
    const lead = asksBranch && ref ? `**${capitalise(build)} built branch ${inlineCode(ref)}** at ${inlineCode(sha.slice(0, 12))}` : `**${capitalise(build)} built commit ${inlineCode(sha.slice(0, 12))}**${ref ? ` (branch ${inlineCode(ref)})` : ''}`;
    out.line(`${lead}, according to the log ${cite({ start_line: checkout.line, end_line: checkout.line })}.`);
    out.log({ start_line: checkout.line, end_line: checkout.line });
    return out.reply();
  }
  const params = Array.isArray(ci.buildDetails?.parameters) ? ci.buildDetails.parameters : [];
  const branchParam = params.find((p) => /branch|ref$|^git_?ref|revision|commit|sha/i.test(p.name) && typeof p.value === 'string' && p.value);
  if (branchParam) {
    out.fact('buildDetails.parameters');
    out.line(`${capitalise(build)} ran with ${inlineCode(branchParam.name)} = ${inlineCode(String(branchParam.value))}; the uploaded context records no checked-out commit.`);
    return out.reply();
  }
  return notSaid(asksBranch ? `which branch ${build} built` : `which commit ${build} built`, 'Neither the build facts nor the log record a checkout.');
};

/** How to run the build again: cichat reads Jenkins, it does not drive it. */
const rerun: Composer = ({ ci }) => {
  const out = new ReplyBuilder();
  const build = buildLabel(ci);
  out.line(`**I can't start builds** — cichat only reads the uploaded context. To run ${build} again in Jenkins:`);
  const type = typeof ci.jobDetails?.type === 'string' ? jobTypeName(ci.jobDetails.type) : undefined;
  const params = Array.isArray(ci.buildDetails?.parameters) ? ci.buildDetails.parameters : [];
  if (params.length > 0) {
    out.fact('buildDetails.parameters');
    out.line(`- **Build with Parameters** with the same values: ${params.map((p) => `${inlineCode(p.name)} = ${inlineCode(clip(showValue(p.value), 60))}`).join(', ')}`);
  } else {
    out.line('- **Build Now** on the job page');
  }
  if (type && /Pipeline/.test(type)) {
    out.fact('jobDetails.type');
    out.line("- or **Replay** on the build's page (a Pipeline), to re-run it with an edited Jenkinsfile, or **Restart from Stage** (declarative pipelines)");
  }
  out.line('\nIf it then passes with no change, the failure was intermittent: ask *is it flaky?*');
  return out.reply();
};

/** The first line matching `pattern` in the stored log, else in what retrieval finds for `query`. */
async function findInLog(ctx: ChatContext, pattern: RegExp, query: string, fromEnd = false): Promise<(LogSpan & { line: number; match: RegExpExecArray }) | undefined> {
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

/** Facts Jenkins prints in every console log, used when the upload lacks the field itself. */
const LOG_FACTS: { field: 'result' | 'causes' | 'builtOn'; pattern: RegExp; query: string; fromEnd?: boolean }[] = [
  { field: 'result', pattern: /^Finished: (SUCCESS|FAILURE|UNSTABLE|ABORTED|NOT_BUILT)\s*$/, query: 'Finished:', fromEnd: true },
  { field: 'causes', pattern: /^(Started by .+|Triggered by .+|Branch indexing|Push event to branch .+)$/, query: 'Started by' },
  {
    field: 'builtOn',
    pattern: /^(?:Running on (\S+) in \S|Building remotely on (\S+)|Building on (?:the )?(built-in node|master|controller)\b|Running on (Jenkins|the built-in node)\b)/,
    query: 'Running on Building remotely on',
  },
];

/**
 * Fills the result, causes and node from the log when the upload holds only a log: the nearest
 * fact to the one asked. Returns the lines they were read from, to cite.
 */
async function factsFromLog(ci: CiContext, ctx: ChatContext): Promise<{ ci: CiContext; lines: Map<string, LogSpan> }> {
  const lines = new Map<string, LogSpan>();
  const details = { ...(ci.buildDetails ?? {}) };
  if (!hasLog(ctx)) return { ci, lines };
  for (const fact of LOG_FACTS) {
    if (details[fact.field] !== undefined) continue;
    const hit = await findInLog(ctx, fact.pattern, fact.query, fact.fromEnd);
    if (!hit) continue;
    if (fact.field === 'result') details.result = hit.match[1] as string;
    else if (fact.field === 'causes') details.causes = [{ shortDescription: hit.match[1] as string }];
    else {
      const node = hit.match[1] ?? hit.match[2] ?? hit.match[3] ?? hit.match[4] ?? '';
      details.builtOn = /^(built-in node|master|controller|Jenkins|the built-in node)$/.test(node) ? '' : node;
    }
    lines.set(`buildDetails.${fact.field}`, hit);
  }
  return lines.size > 0 ? { ci: { ...ci, buildDetails: details }, lines } : { ci, lines };
}

/** Tool-reported durations ("BUILD FAILED in 14s", "Total time: 01:02 min") for when the build's own is missing. */
const TOOL_DURATION = /^(?:BUILD (?:FAILED|SUCCESSFUL) in (.+)|\[INFO\] Total time:\s+(.+)|Done in (\S+)\.?|Finished in (.+)|Ran \d+ tests? in (\S+))\s*$/;

const COMPOSERS: Record<IntentId, Composer> = {
  failure,
  tests,
  ciVersion,
  plugins,
  executors,
  master,
  agents,
  system,
  aborter,
  causes,
  parameters,
  duration,
  result,
  previous,
  buildable: ({ ci }) => {
    const buildable = ci.jobDetails?.buildable;
    const job = jobNameOf(ci);
    const jobRef = job ? inlineCode(job) : 'the job';
    if (typeof buildable !== 'boolean') return notSaid(`whether ${jobRef} is buildable`);
    return new ReplyBuilder()
      .fact('jobDetails.buildable')
      .line(buildable ? `**Yes — ${jobRef} is buildable.**` : `**No — ${jobRef} is not buildable** (it is disabled, or its type cannot be built directly).`)
      .reply();
  },
  jobType,
  jobDescription,
  systemMessage,
  rootUrl,
  changes,
  builtOn,
  startTime,
  screen,
  summary,
  help,
  step,
  logLines,
  flaky,
  revision,
  rerun,
};

function noContextReply(intents: IntentId[]): Reply {
  const intent = intents[0];
  const greeting = intent === 'help' || intent === undefined;
  const lead = greeting
    ? "No CI context has been uploaded to this chat yet, so I have nothing to answer from: I answer from a build's log and its Jenkins facts."
    : `No CI context has been uploaded to this chat yet, so I can't tell ${subjectOf(intent, undefined)}.`;
  return { text: `${lead}\n\n${UPLOAD_HOWTO}`, sources: [] };
}

/** A reply that states a fact read from the log cites the log line instead of a context field. */
function citeLogFacts(reply: Reply, lines: Map<string, LogSpan>): Reply {
  const used = [...lines.entries()].filter(([field]) => reply.sources.some((s) => s.kind === 'context' && s.field === field));
  if (used.length === 0) return reply;
  const notes = used.map(([, span]) => `${cite(span)} ${inlineCode(clip(span.text, 120))}`);
  return {
    text: `${reply.text}\n\n*Read from the log (the upload holds no build facts for it):* ${notes.join(' · ')}`,
    sources: [
      ...reply.sources.filter((s) => !(s.kind === 'context' && lines.has(s.field))),
      ...used.map(([, span]) => ({ kind: 'log' as const, start_line: span.start_line, end_line: span.end_line })),
    ],
  };
}

/** The log sources of the citations in `text`. */
function citedSpans(text: string): { kind: 'log'; start_line: number; end_line: number }[] {
  return [...text.matchAll(/\[L(\d+)-L(\d+)\]/g)].map((m) => ({ kind: 'log' as const, start_line: Number(m[1]), end_line: Number(m[2]) }));
}

function dedupeSources(sources: Source[]): Source[] {
  const seen = new Set<string>();
  return sources.filter((s) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Answers a question from the context without a model. Exported for tests and for tools that
 * want the whole answer at once (the engine streams the same text).
 */
export async function composeLocalAnswer(question: string, context: ChatContext | null, history: HistoryTurn[] = []): Promise<Reply> {
  let intents = detectIntents(question);
  // A bare "why?" after a question about the build asks why it failed.
  if (intents.length === 0 && history.length > 0 && /^\s*(and\s+)?(why|how come|what happened)\b[^a-z]*(is that|so|then)?[?.!\s]*$/i.test(question)) {
    intents = ['failure'];
  }
  if (!context) return noContextReply(intents);
  const ci = saneCiContext(context.ciContext);
  // "what version is git-client?" names a plugin without saying "plugin".
  if (
    !intents.includes('plugins') &&
    /\b(version|installed|have|enabled|disabled|using)\b/i.test(question) &&
    namesInstalledPlugin(question, ci.activePlugins)
  ) {
    intents = ['plugins', ...intents.filter((id) => id !== 'ciVersion')];
  }
  const sane: ChatContext = { ...context, ciContext: ci };
  // A log-only upload still says how the build ended, who started it and where it ran.
  const fromLog = await factsFromLog(ci, sane);
  const ctx: ChatContext = { ...sane, ciContext: fromLog.ci };
  const ask: Ask = { question, q: normalizeQuestion(question), ctx, ci: fromLog.ci };
  if (intents.length === 0) {
    const reply = await unknown(ask);
    return { text: reply.text, sources: dedupeSources(reply.sources) };
  }
  const replies: Reply[] = [];
  for (const intent of intents) replies.push(citeLogFacts(await COMPOSERS[intent](ask), fromLog.lines));
  return {
    text: replies.map((r) => r.text).join('\n\n'),
    sources: dedupeSources(replies.flatMap((r) => r.sources)),
  };
}

/** The offline engine: answers from the context, typed out with `typingDelayMs` between pieces. */
export function createLocalEngine(opts: { typingDelayMs: number }): AnswerEngine {
  return {
    name: 'local',
    async answer(request: AnswerRequest): Promise<AnswerStream> {
      const reply = await composeLocalAnswer(request.question, request.context, request.history);
      return { sources: reply.sources, pieces: typeOut(reply.text, opts.typingDelayMs, request.signal) };
    },
  };
}
