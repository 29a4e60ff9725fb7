/**
 * The offline answer engine: no model, a build engineer's reading of the uploaded context. It
 * works out what the question asks (intents.ts), answers each part from the context's facts and
 * the log's failure excerpts, and says plainly when the context does not hold the answer.
 *
 * Answers live in groups, one module each (failure, build, job, server, log lines, summary);
 * the dispatch is the list `ANSWER_GROUPS`. To add a group: a module exporting an
 * `AnswerGroup` whose composers answer its intents, and one entry in the list below.
 */
import type { AnswerEngine, AnswerRequest, AnswerStream, ChatContext, HistoryTurn } from '../engine.js';
import type { Source } from '../../../protocol/types.js';
import { namesInstalledPlugin } from '../facts.js';
import { detectIntents, normalizeQuestion, type IntentId } from '../intents.js';
import { notKeptSentence } from '../logtext.js';
import { saneCiContext } from '../sanitize.js';
import { pluginList } from '../../../protocol/schemas.js';
import { typeOut } from '../typing.js';
import { blameAnswers } from './blame.js';
import { buildAnswers } from './build.js';
import { detailAnswers } from './details.js';
import { elsewhereAnswers } from './elsewhere.js';
import { failureAnswers } from './failure.js';
import { historyAnswers } from './history.js';
import { fixAnswers } from './fix.js';
import { jobAnswers } from './job.js';
import { citeLogFacts, factsFromLog } from './logFacts.js';
import { logLineAnswers } from './logLines.js';
import { citedSpans, dedupeSources, type AnswerGroup, type Ask, type Composer, type Reply } from './reply.js';
import { serverAnswers } from './server.js';
import { noContextReply, whereFrom } from './subjects.js';
import { summaryAnswers, unknown } from './summary.js';
import { workspaceAnswers } from './workspace.js';

export type { Reply } from './reply.js';

/** Every answer group the engine dispatches to, in no particular order (each owns its intents). */
export const ANSWER_GROUPS: readonly AnswerGroup[] = [failureAnswers, fixAnswers, buildAnswers, jobAnswers, serverAnswers, logLineAnswers, summaryAnswers, detailAnswers, workspaceAnswers, historyAnswers, blameAnswers, elsewhereAnswers];

/** One composer per intent, collected from the groups; an intent claimed twice fails at load. */
function composersOf(groups: readonly AnswerGroup[]): Partial<Record<IntentId, Composer>> {
  const composers: Partial<Record<IntentId, Composer>> = {};
  const owner = new Map<IntentId, string>();
  for (const group of groups) {
    for (const [intent, composer] of Object.entries(group.composers) as [IntentId, Composer][]) {
      const previous = owner.get(intent);
      if (previous) throw new Error(`Intent ${intent} is answered by both the ${previous} and the ${group.name} answer groups.`);
      owner.set(intent, group.name);
      composers[intent] = composer;
    }
  }
  return composers;
}

const COMPOSERS = composersOf(ANSWER_GROUPS);

/**
 * Answers a question from the context without a model. Exported for tests and for tools that
 * want the whole answer at once (the engine streams the same text).
 */
/**
 * Answers a question from the context without a model. Exported for tests and for tools that
 * want the whole answer at once (the engine streams the same text).
 */
export async function composeLocalAnswer(question: string, context: ChatContext | null, history: HistoryTurn[] = []): Promise<Reply> {
  let intents = detectIntents(question);
  // A bare "why?" after a question about the build asks why it failed.
  // So does "what does it mean?" after it: the meaning of that failure's first error.
  if (intents.length === 0 && history.length > 0 && (/^\s*(and\s+)?(why|how come|what happened)\b[^a-z]*(is that|so|then)?[?.!\s]*$/i.test(question) || /^\s*(and\s+)?what does (it|this|that) mean\W*$/i.test(question))) {
    intents = ['failure'];
  }
  if (!context) return noContextReply(intents);
  const ci = saneCiContext(context.ciContext);
  // "what version is git-client?" names a plugin without saying "plugin".
  if (
    !intents.includes('plugins') &&
    /\b(version|installed|have|enabled|disabled|using)\b/i.test(question) &&
    namesInstalledPlugin(question, pluginList(ci))
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
    return withNotKept(withCitedSources(reply), context);
  }
  const replies: Reply[] = [];
  for (const intent of intents) {
    // An intent whose group is not (yet) in the list is answered like a question no intent claims.
    const composer = COMPOSERS[intent] ?? unknown;
    replies.push(withWhereFrom(citeLogFacts(await composer(ask), fromLog.lines), intent));
  }
  return withNotKept(withCitedSources({ text: withoutRepeats(replies.map((r) => r.text)).join('\n\n'), sources: replies.flatMap((r) => r.sources) }), context);
}

/**
 * Two intents of one question ("is it flaky? can I just rerun?") may each say the same verdict: a
 * paragraph a later part repeats word for word is said once. Only plain paragraphs of some length
 * (no code fence, which a blank line inside could split) are compared.
 */
export function withoutRepeats(texts: readonly string[]): string[] {
  const said = new Set<string>();
  return texts.map((text, i) => {
    const paragraphs = text.split('\n\n');
    const kept = i === 0 || text.includes('```') ? paragraphs : paragraphs.filter((p) => p.trim().length < 40 || !said.has(p.trim()));
    for (const p of paragraphs) said.add(p.trim());
    return kept.join('\n\n');
  }).filter((t) => t.trim() !== '');
}

/**
 * Every `[La-Lb]` the text shows is one of the answer's log sources: a range a composer cited whole
 * (a wrapped message, a detail printed below it) but recorded line by line is recorded whole too,
 * so a client that lists or highlights the sources shows what the text cites.
 */
function withCitedSources(reply: Reply): Reply {
  const logs = reply.sources.filter((s): s is Extract<Source, { kind: 'log' }> => s.kind === 'log');
  const missing = citedSpans(reply.text).filter((c) => !logs.some((s) => s.start_line <= c.start_line && s.end_line >= c.end_line));
  return { text: reply.text, sources: dedupeSources([...reply.sources, ...missing]) };
}

/**
 * An answer that rests on the log (it cites log lines, or speaks of the log) of a context that
 * does not hold all of it (the bounded store) says which lines it could not see.
 */
function withNotKept(reply: Reply, context: ChatContext): Reply {
  const notKept = context.logNotKept;
  if (!notKept) return reply;
  const onLog = reply.sources.some((s) => s.kind === 'log') || /\blog\b/i.test(reply.text);
  return onLog ? { ...reply, text: `${reply.text}\n\n*${notKeptSentence(notKept)}*` } : reply;
}

/**
 * A reply that says the context lacks a fact also says where the fact would come from (the
 * field, and who sends it), unless the composer said so already.
 */
function withWhereFrom(reply: Reply, intent: IntentId): Reply {
  if (!/^The uploaded context does not say\b/.test(reply.text) || /would come from/.test(reply.text)) return reply;
  const from = whereFrom(intent);
  if (!from) return reply;
  const [first, ...rest] = reply.text.split('\n\n');
  return { ...reply, text: [first, from, ...rest].join('\n\n') };
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
