/** The summary, help, and questions no intent claims. */
import type { CiContext } from '../../../protocol/types.js';
import { pluginList } from '../../../protocol/schemas.js';
import type { ChatContext } from '../engine.js';
import { buildLabel, ciVersionOf, formatDuration, escapeRegExp, jobNameOf } from '../facts.js';
import { cite, clip, headlineOf, inlineCode } from '../logtext.js';
import { type Reply, type Ask, type Composer, ReplyBuilder, type AnswerGroup } from './reply.js';
import { outcomeOf, OUTCOME_PHRASE, capitalise, describeCause } from './outcome.js';
import { jobTypeName } from './job.js';
import { errorExcerpts, retrieveSafely, quote, hasLog } from './logHelpers.js';
import type { LogPassage } from '../engine.js';

const summary: Composer = ({ ci, ctx }) => {
  const out = new ReplyBuilder();
  const job = jobNameOf(ci);
  const { outcome, raw } = outcomeOf(ci);
  const details = ci.buildDetails;
  if (outcome !== 'unknown' || raw) {
    const took = typeof details?.duration === 'number' && outcome !== 'running' ? ` in ${formatDuration(details.duration)}` : '';
    out.line(`**${capitalise(buildLabel(ci, true))} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}${took}.**`);
    out.fact(outcome === 'running' ? 'buildDetails.building' : 'buildDetails.result');
    if (took) out.fact('buildDetails.duration');
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
  const tests = details?.testResults;
  if (tests && typeof tests.total === 'number') {
    bullets.push(`Tests: ${tests.total} run, ${tests.failed ?? 0} failed${tests.skipped ? `, ${tests.skipped} skipped` : ''}`);
    out.fact('buildDetails.testResults');
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
  if (job && typeof ci.jobDetails?.jobType === 'string') {
    bullets.push(`Job: ${inlineCode(job)}, ${jobTypeName(ci.jobDetails.jobType)}${ci.jobDetails.isBuildable === false ? ', not buildable' : ''}`);
    out.fact('jobDetails.jobType');
  }
  const version = ciVersionOf(ci);
  if (version) {
    bullets.push(`Jenkins ${version.version}`);
    out.fact(version.field);
  }
  const plugins = pluginList(ci);
  if (plugins) {
    bullets.push(`${plugins.length} plugins installed`);
    out.fact(ci.activePlugins ? 'activePlugins' : 'plugins');
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
  const job2 = ci.jobDetails;
  if (typeof job2?.healthScore === 'number') {
    bullets.push(`Job health: ${job2.healthScore}%`);
    out.fact('jobDetails.healthScore');
  }
  if (job2?.inQueue === true) {
    bullets.push('A build of the job is **waiting in the queue**');
    out.fact('jobDetails.inQueue');
  }
  if (typeof details?.builtOnNode === 'string') {
    bullets.push(`Ran on: ${details.builtOnNode === '' ? 'the built-in node' : inlineCode(details.builtOnNode)}`);
    out.fact('buildDetails.builtOnNode');
  }
  const env = ci.ciEnvironment;
  if (env) {
    const shown = ['GIT_COMMIT', 'GIT_BRANCH', 'NODE_NAME'].filter((k) => env[k]).map((k) => `${k}=${inlineCode(clip(env[k] as string, 40))}`);
    bullets.push(`Build environment: ${Object.keys(env).length} variables${shown.length ? ` (${shown.join(', ')})` : ''}`);
    out.fact('ciEnvironment');
  }
  if (typeof ci.currentScreen === 'string' && ci.currentScreen) {
    bullets.push(`Uploaded from: ${ci.currentScreen}`);
    out.fact('currentScreen');
  }
  if (typeof ci.contextParsingError === 'string') {
    bullets.push(`Context problem: ${clip(ci.contextParsingError, 120)}`);
    out.fact('contextParsingError');
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
  if (ci.buildDetails?.testResults) out.push('*Which tests failed?*');
  const plugins = pluginList(ci);
  if (plugins && plugins.length > 0) out.push(`*Is the ${plugins[0]?.shortName ?? 'git'} plugin installed?*`);
  if (ciVersionOf(ci)) out.push('*What version of Jenkins is this?*');
  if (ci.agentStats) out.push('*Are any agents offline?*');
  if (typeof ci.buildDetails?.duration === 'number') out.push('*How long did the build take?*');
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

/** `size` lines of `p` around its line that `score`s highest (none when no line scores), starting a few lines above it. */
function mentionWindow(p: LogPassage, score: (line: string) => number, size: number): LogPassage | undefined {
  const lines = p.text.split('\n');
  let best = -1;
  let top = 0;
  lines.forEach((line, k) => {
    const s = score(line);
    if (s > top) [best, top] = [k, s];
  });
  if (best < 0) return undefined;
  if (lines.length <= size) return p;
  const from = Math.max(0, Math.min(best - 3, lines.length - size));
  return { ...p, start_line: p.start_line + from, end_line: p.start_line + from + size - 1, text: lines.slice(from, from + size).join('\n') };
}

/** A question no intent matched: quote the log when it mentions the question's words, else say what can be answered. */
export async function unknown(ask: Ask): Promise<Reply> {
  const { ctx, ci, q } = ask;
  const words = [...new Set(q.split(/[^a-z0-9_.\-/]+/).filter((w) => w.length >= 3 && !STOPWORDS.has(w)))];
  if (words.length > 0 && hasLog(ctx)) {
    const passages = await retrieveSafely(ctx, ask.question, 3);
    const mentions = (text: string, word: string): boolean =>
      new RegExp(`(^|[^a-z0-9_])${escapeRegExp(word)}($|[^a-z0-9_])`, 'i').test(text);
    // Each passage narrowed to the lines around its line that mentions most of the words: a passage is
    // 40 lines and a quote shows 12, so the lines shown must be the ones that mention it (ux10).
    const mentioning = passages
      .map((p) => mentionWindow(p, (line) => words.filter((w) => mentions(line, w)).length, 12))
      .filter((p): p is LogPassage => p !== undefined)
      .filter((p, n, all) => all.findIndex((o) => o.start_line <= p.end_line && p.start_line <= o.end_line) === n);
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

export const summaryAnswers: AnswerGroup = { name: 'summary', composers: { summary, help } };
