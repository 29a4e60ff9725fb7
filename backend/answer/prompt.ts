/**
 * The model's prompt: instructions, the chat's context facts, the log passages worth reading and
 * recent history, cut to fit the token budget. Pure (no I/O) so every cut is unit-tested.
 */
import { historyIn } from './local/history.js';
import type { BuildSummary, CiContext, PluginInfo } from '../../protocol/types.js';
import { pluginList } from '../../protocol/schemas.js';
import type { ChatContext, HistoryTurn } from './engine.js';
import { buildLabel, ciVersionOf, fromCiServer, formatDuration, jobNameOf, normalizePluginName, showValue, systemFacts } from './facts.js';
import { cite, clip, notKeptSentence } from './logtext.js';
import { saneCiContext } from './sanitize.js';
import { findingFor } from './local/findingText.js';
import type { FailingStep, Finding } from '../../protocol/types.js';
import { describeStep } from './local/steps.js';
import { JVM_RESOLVE_PROMPT, jvmMissingClassPrompt } from './local/jvmResolve.js';
import { stepFocus } from '../../core/log/jenkins.js';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A log passage for the prompt: the analyzer's excerpt or a retrieved chunk, best first. */
export interface PromptPassage {
  start_line: number;
  end_line: number;
  text: string;
  /** Why it is here: the analyzer's reason, or "retrieved". */
  label: string;
}

export interface PromptInput {
  question: string;
  /** Oldest first. */
  history: HistoryTurn[];
  context: ChatContext | null;
  /** Ranked, best first. */
  passages: PromptPassage[];
  /** The whole prompt's budget, in estimated tokens. */
  contextTokens: number;
}

export interface Prompt {
  messages: PromptMessage[];
  /** The passages that made it in (possibly cut to fewer lines), in prompt order. */
  passages: PromptPassage[];
  estimatedTokens: number;
  dropped: { historyTurns: number; passages: number };
}

/**
 * Tokens of `text` as BPE tokenizers count them, estimated from below-word runs: letters ~4 per
 * token, digits ~3, each symbol one, newlines one. It errs high on purpose (a log is denser in
 * symbols than prose, where chars/4 would err low) so a prompt that fits here fits the server.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(/[A-Za-z]+|\d+|[^\S\n]+|\n+|[^A-Za-z\d\s]/g)) {
    const run = m[0];
    const c = run.charCodeAt(0);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) tokens += Math.ceil(run.length / 4);
    else if (c >= 48 && c <= 57) tokens += Math.ceil(run.length / 3);
    else if (c === 10) tokens += run.length;
    else if (c === 32 || c === 9) tokens += run.length > 1 ? Math.ceil((run.length - 1) / 4) : 0;
    else tokens += 1;
  }
  return tokens;
}

/** Per-message framing tokens of the chat format (role markers), and the reply's priming. */
const MESSAGE_OVERHEAD = 4;
const REPLY_PRIMING = 3;
/** History answers are cut here: an old essay should not crowd out the log. */
const HISTORY_ANSWER_MAX_CHARS = 2_000;
/** Below this many tokens a cut passage says too little to be worth its citation. */
const MIN_PASSAGE_TOKENS = 40;

export const SYSTEM_INSTRUCTIONS = [
  'You are cichat, an assistant for people who run CI servers (Jenkins). You answer questions about their builds, jobs, plugins, nodes and agents.',
  'Rules:',
  '- Answer only from the CI context and the log excerpts below, and from general CI knowledge clearly marked as such. Never invent facts: no made-up versions, plugin names, test names, users, durations or log lines.',
  '- When the context does not hold the answer, say so plainly (for example "The uploaded context does not say who aborted build #42.") and say what would tell.',
  '- Cite the log lines you rely on as [L<start>-L<end>] with the line numbers shown, for example [L120-L131]. Quote short log lines in fenced code blocks.',
  '- The first sentence answers the question. Be brief: short Markdown, bullets, bold for the key fact, inline code for names, paths and commands.',
  '- For a failure, name the first real error (not its cascade) and suggest the likely fix.',
  '- The "Findings" section is what the log analyzer established from the log (class, message, location chain, evidence lines): start from it and do not contradict it. Say an assertion failed only for class test-assertion, and state expected/actual values only when a finding lists them. When the class is unknown, say what was found and that the cause is not established.',
].join('\n');

const NO_CONTEXT_NOTE =
  'No CI context has been uploaded to this chat. If the question is about a build, say that and explain how to upload it: `cichat context upload <chat-id> --job JOB --build N` (the controller reads that build from its JENKINS_HOME and injects it automatically); from a pipeline or shell, `cichat context upload <chat-id> --log build.log` (`--from-env` inside a build) or `cat build.log | cichat ask "..."`.';

const KNOWN_FIELDS = new Set([
  'currentScreen',
  'ciVersion',
  'jenkinsVersion',
  'rootUrl',
  'systemMessage',
  'activePlugins',
  'plugins',
  'masterNode',
  'agentStats',
  'jobDetails',
  'buildDetails',
  'ciEnvironment',
  'contextParsingError',
]);

/** Job fields stated on their own lines (or not at all: the config is for the log passages' reader). */
const JOB_FIELDS_SHOWN = new Set([
  'name',
  'fullName',
  'jobType',
  'isBuildable',
  'nextBuildNumber',
  'description',
  'url',
  'inQueue',
  'healthScore',
  'isPipeline',
  'concurrentBuild',
  'upstreamProjects',
  'downstreamProjects',
  'configXml',
]);
const BUILD_FIELDS_SHOWN = new Set([
  'number',
  'result',
  'building',
  'duration',
  'timestamp',
  'builtOnNode',
  'causes',
  'parameters',
  'testResults',
  'changes',
  'previousBuild',
  'lastSuccessfulBuild',
  'history',
  'consoleLog',
  'consoleLogTail',
]);

function plain(html: string, max: number): string {
  return clip(html.replace(/<[^>]+>/g, '').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&'), max);
}

/** Scalar fields not named above ("kind", "url", "displayName"...), compactly. */
function otherScalars(o: Record<string, unknown>, shown: Set<string>): string {
  return Object.entries(o)
    .filter(([k, v]) => !shown.has(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    .slice(0, 12)
    .map(([k, v]) => `${k}=${clip(String(v), 120)}`)
    .join(', ');
}

function summaryBits(b: BuildSummary): string[] {
  const bits: string[] = [];
  if (b.building === true) bits.push('still running');
  if (typeof b.result === 'string') bits.push(`result ${b.result}`);
  if (typeof b.duration === 'number') bits.push(`took ${formatDuration(b.duration)}`);
  if (typeof b.timestamp === 'string') bits.push(`started ${b.timestamp}`);
  if (typeof b.builtOnNode === 'string') bits.push(`built on ${b.builtOnNode === '' ? 'the built-in node' : b.builtOnNode}`);
  return bits;
}

/**
 * The context's facts, one compact line each, the plugin list last (it is the longest and the
 * first to be cut). No log text: the log reaches the model only as cited passages. Every field
 * of CONTRACT section 2 that the context holds has a line; an absent `systemMessage` is stated
 * as none set when the context comes from a CI server (the original plugin omits it then).
 */
export function contextFactLines(ci: CiContext, pluginChars: number, question = ''): string[] {
  const lines: string[] = [];
  const job = ci.jobDetails;
  const jobName = jobNameOf(ci);
  if (jobName || job) {
    const bits = [
      typeof job?.jobType === 'string' ? job.jobType : undefined,
      typeof job?.isPipeline === 'boolean' ? (job.isPipeline ? 'a pipeline' : 'not a pipeline') : undefined,
      typeof job?.isBuildable === 'boolean' ? (job.isBuildable ? 'buildable' : 'not buildable') : undefined,
      typeof job?.inQueue === 'boolean' ? (job.inQueue ? 'IN THE QUEUE (waiting to run)' : 'not queued') : undefined,
      typeof job?.healthScore === 'number' ? `health ${job.healthScore}%` : undefined,
      typeof job?.concurrentBuild === 'boolean' ? (job.concurrentBuild ? 'concurrent builds allowed' : 'no concurrent builds') : undefined,
      typeof job?.nextBuildNumber === 'number' ? `next build #${job.nextBuildNumber}` : undefined,
    ].filter(Boolean);
    lines.push(`Job: ${jobName ?? '(unnamed)'}${bits.length ? ` (${bits.join(', ')})` : ''}`);
    if (typeof job?.url === 'string') lines.push(`Job URL: ${job.url}`);
    if (typeof job?.description === 'string' && job.description.trim()) {
      lines.push(`Job description: ${plain(job.description, 300)}`);
    }
    if (job?.upstreamProjects) lines.push(`Upstream projects: ${job.upstreamProjects.join(', ') || 'none'}`);
    if (job?.downstreamProjects) lines.push(`Downstream projects: ${job.downstreamProjects.join(', ') || 'none'}`);
    if (typeof job?.configXml === 'string') lines.push(`Job config.xml (${job.configXml.length} chars, secrets masked): ${clip(job.configXml.replace(/\s+/g, ' '), 600)}`);
    const other = job ? otherScalars(job, JOB_FIELDS_SHOWN) : '';
    if (other) lines.push(`Job, more: ${other}`);
  }
  const build = ci.buildDetails;
  if (build) {
    const bits = summaryBits(build);
    lines.push(`Build: ${buildLabel(ci)}${bits.length ? `, ${bits.join(', ')}` : ''}`);
    if (Array.isArray(build.causes) && build.causes.length > 0) {
      lines.push(`Causes: ${build.causes.map((c) => c.shortDescription + (c.userId ? ` (user id ${c.userId})` : '')).join('; ')}`);
    }
    if (build.parameters) {
      const params = Object.entries(build.parameters).map(([name, value]) => `${name}=${clip(showValue(value), 80)}`).join(', ');
      lines.push(`Parameters: ${params || 'none'}`);
    }
    const tests = build.testResults;
    if (tests) {
      const parts = (['total', 'passed', 'failed', 'skipped'] as const)
        .filter((k) => typeof tests[k] === 'number')
        .map((k) => `${tests[k]} ${k}`);
      if (parts.length) lines.push(`Tests: ${parts.join(', ')}`);
    }
    lines.push(...recordedFailureLines(build));
    if (Array.isArray(build.changes)) {
      const changes = build.changes
        .slice(0, 10)
        .map((c) => `${c.commitId ? c.commitId.slice(0, 10) + ' ' : ''}"${clip((c.message ?? '').split('\n')[0] ?? '', 80)}"${c.author ? ` by ${c.author}` : ''}`);
      lines.push(`Changes: ${changes.length ? changes.join('; ') : 'none'}${build.changes.length > 10 ? `; and ${build.changes.length - 10} more` : ''}`);
    }
    const green = build.lastSuccessfulBuild;
    // The backend drops nulls ("unknown"): no green build arrives as `noSuccessfulBuild` alone.
    if (green === null || (green === undefined && typeof build.noSuccessfulBuild === 'string')) {
      lines.push(`Last green build: none${typeof build.noSuccessfulBuild === 'string' ? ` (${plain(build.noSuccessfulBuild, 200)})` : ''}`);
    } else if (green) {
      const compared = typeof green.comparedLogLines === 'number' ? '; the excerpts below are marked NEW when its log did not print them' : '';
      lines.push(`Last green build: ${typeof green.number === 'number' ? `#${green.number}` : '(number unknown)'} SUCCESS${compared}`);
      if (Array.isArray(green.changesSince)) {
        const since = green.changesSince
          .slice(0, 10)
          .map((c) => `${c.commitId ? c.commitId.slice(0, 10) + ' ' : ''}"${clip((c.message ?? '').split('\n')[0] ?? '', 80)}"${c.author ? ` by ${c.author}` : ''}${typeof c.build === 'number' ? ` (#${c.build})` : ''}`);
        lines.push(`Commits since the last green build: ${since.length ? since.join('; ') : 'none'}${green.changesSince.length > 10 ? `; and ${green.changesSince.length - 10} more` : ''}`);
      }
    }
    if (build.previousBuild === null) lines.push('Previous build: none (this is the first build)');
    else if (build.previousBuild) {
      const p = build.previousBuild;
      const bits = summaryBits(p);
      lines.push(`Previous build: #${p.number ?? '?'}${bits.length ? `, ${bits.join(', ')}` : ''}`);
    }
    if (build.lastSuccessfulBuild === null) lines.push('Last successful build: none (the job never passed)');
    else if (build.lastSuccessfulBuild) {
      const p = build.lastSuccessfulBuild;
      const bits = summaryBits(p);
      lines.push(`Last successful build: #${p.number ?? '?'}${bits.length ? `, ${bits.join(', ')}` : ''}`);
    }
    // The failure against the job's history (issue 29), with the builds that show it.
    const history = historyIn(ci);
    if (history) {
      const tests = (history.tests ?? []).slice(0, 5).map((t) => `${t.name} ${t.verdict} (failed in ${t.failedIn.map((n) => `#${n}`).join(' ')})`);
      const others = (history.otherJobs ?? []).slice(0, 5).map((o) => `${o.job} ${o.builds.map((n) => `#${n}`).join(' ')}`);
      lines.push(
        `Failure history (last ${history.window} builds): verdict ${history.verdict}; fingerprint ${history.fingerprint}; first seen #${history.firstSeen}; failing since #${history.failingSince} (${history.streak} in a row); seen in ${history.seenInLast}; evidence builds ${history.evidenceBuilds.map((n) => `#${n}`).join(' ')}; ${clip(history.reason, 300)}` +
          (tests.length ? `; tests: ${tests.join('; ')}` : '') +
          (others.length ? `; same failure in other jobs: ${others.join('; ')}` : ''),
      );
    }
    const other = otherScalars(build, BUILD_FIELDS_SHOWN);
    if (other) lines.push(`Build, more: ${other}`);
  }
  const env = ci.ciEnvironment;
  if (env && Object.keys(env).length > 0) {
    const entries = Object.entries(env).map(([k, v]) => `${k}=${clip(v, 120)}`);
    lines.push(`Build environment (as a pipeline step saw it): ${clip(entries.join(', '), 1500)}`);
  }
  if (typeof ci.contextParsingError === 'string') lines.push(`Context problem reported by the client: ${clip(ci.contextParsingError, 300)}`);
  const version = ciVersionOf(ci);
  if (version) lines.push(`Jenkins version: ${version.version}`);
  if (typeof ci.rootUrl === 'string' && ci.rootUrl) lines.push(`Root URL: ${ci.rootUrl}`);
  if (typeof ci.currentScreen === 'string' && ci.currentScreen) lines.push(`User's current page: ${ci.currentScreen}`);
  if (typeof ci.systemMessage === 'string') lines.push(`System message: ${plain(ci.systemMessage, 300) || '(none)'}`);
  else if (fromCiServer(ci)) lines.push('System message: none set');
  const node = ci.masterNode;
  if (node) {
    const bits: string[] = [];
    if (typeof node.isOnline === 'boolean') bits.push(node.isOnline ? 'online' : 'OFFLINE');
    if (typeof node.executors === 'number') bits.push(`${node.executors} executors`);
    for (const f of systemFacts(node.systemInfo)) bits.push(`${f.label} ${f.value}`);
    if (bits.length) lines.push(`Built-in node: ${bits.join(', ')}`);
  }
  const stats = ci.agentStats;
  if (stats) {
    const agents = Array.isArray(stats.agents) ? stats.agents : [];
    const names = (online: boolean): string => {
      const list = agents.filter((a) => a.online === online);
      return list.length
        ? ` (${list.slice(0, 20).map((a) => `${a.name}${a.executors !== undefined ? ` ${a.executors} executors` : ''}${a.labels?.length ? ` [${a.labels.slice(0, 6).join(' ')}]` : ''}${a.offlineReason ? `: ${a.offlineReason}` : ''}`).join(', ')}${list.length > 20 ? ', ...' : ''})`
        : '';
    };
    lines.push(`Agents: ${stats.onlineAgents ?? '?'} online${names(true)}, ${stats.offlineAgents ?? '?'} offline${names(false)}`);
  }
  for (const [key, value] of Object.entries(ci)) {
    if (KNOWN_FIELDS.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      lines.push(`${key}: ${clip(String(value), 200)}`);
    }
  }
  const plugins = pluginList(ci);
  if (plugins) lines.push(pluginLine(plugins, pluginChars, question));
  return lines;
}

/**
 * What Jenkins itself recorded about the failure (issue 26): the failing pipeline steps (stage,
 * parallel branch, step, exception; the step's own lines in the sent log's numbering), the
 * failed tests of the JUnit report, and a failed downstream build with its failing step.
 */
function recordedFailureLines(build: NonNullable<CiContext['buildDetails']>): string[] {
  const lines: string[] = [];
  const steps = (Array.isArray(build.failingSteps) ? build.failingSteps : []).filter((s): s is FailingStep => typeof s?.step === 'string');
  const field = typeof build.consoleLog === 'string' ? 'consoleLog' : 'consoleLogTail';
  const start = typeof build.consoleLogTailStartLine === 'number' ? build.consoleLogTailStartLine : undefined;
  steps.slice(0, 3).forEach((s, k) => {
    const error = `${s.errorClass}: ${clip((s.errorMessage ?? '').split('\n')[0] ?? '', 300)}`;
    const [range] = stepFocus([s], field, start);
    const own = range ? `, its own output [L${range[0]}-L${range[1]}]` : '';
    const wrapper = s.wrapper === true ? ' (the step\'s exit status: the cause is in its own output)' : '';
    lines.push(`${k === 0 ? 'Failing step (recorded by Jenkins)' : 'Also failed (recorded by Jenkins)'}: ${describeStep(s)}: ${error}${wrapper}${own}`);
  });
  const failed = Array.isArray(build.testResults?.['failedTests']) ? (build.testResults['failedTests'] as Record<string, unknown>[]) : [];
  const tests = failed.slice(0, 5).map((t) => {
    const name = [t['className'], t['name']].filter((x) => typeof x === 'string').join('.');
    return `${name}${typeof t['message'] === 'string' ? ` (${clip(t['message'].split('\n')[0] ?? '', 160)})` : ''}`;
  });
  if (tests.length > 0) lines.push(`Failed tests (JUnit report): ${tests.join('; ')}${failed.length > 5 ? `; and ${failed.length - 5} more` : ''}`);
  const down = build['downstreamFailure'];
  if (typeof down === 'object' && down !== null) {
    const d = down as Record<string, unknown>;
    if (typeof d['jobName'] === 'string' && typeof d['number'] === 'number') {
      const first = (Array.isArray(d['failingSteps']) ? (d['failingSteps'] as FailingStep[]) : []).find((s) => typeof s?.step === 'string');
      const why = first ? `; its failing step: ${describeStep(first)}: ${first.errorClass}: ${clip((first.errorMessage ?? '').split('\n')[0] ?? '', 200)}` : typeof d['error'] === 'string' ? ` (${clip(d['error'], 200)})` : '';
      lines.push(`Downstream build that failed this one: ${d['jobName']} #${d['number']}${typeof d['result'] === 'string' ? ` ${d['result']}` : ''}${why}`);
    }
  }
  return lines;
}

/** "Plugins (N installed): a 1.0, b 2.0, ... (and M more)", the ones the question names first. */
function pluginLine(plugins: PluginInfo[], maxChars: number, question: string): string {
  const words = new Set(question.toLowerCase().split(/[^a-z0-9-]+/).filter((w) => w.length >= 3).map(normalizePluginName));
  const named = (shortName: string): boolean => words.has(normalizePluginName(shortName));
  const sorted = [...plugins].sort(
    (a, b) => Number(named(b.shortName)) - Number(named(a.shortName)) || a.shortName.localeCompare(b.shortName),
  );
  const head = `Plugins (${plugins.length} installed, name version): `;
  let body = '';
  let shown = 0;
  for (const p of sorted) {
    const item = `${p.shortName} ${p.version}${p.enabled === false ? ' (disabled)' : ''}`;
    if (head.length + body.length + item.length + 2 > maxChars && shown > 0) break;
    body += (shown ? ', ' : '') + item;
    shown++;
  }
  const rest = plugins.length - shown;
  return `${head}${body || 'none'}${rest > 0 ? `, and ${rest} more not listed here (do not guess about them)` : ''}`;
}

function formatPassage(p: PromptPassage): string {
  const lines = p.text.replace(/\n+$/, '').split('\n');
  const gutter = lines.map((line, i) => `${p.start_line + i}| ${line}`).join('\n');
  return `${cite(p)} ${p.label}\n\`\`\`\n${gutter}\n\`\`\``;
}

/** The passage cut to its first lines so that it fits `maxTokens`, or undefined when too little fits. */
function cutPassage(p: PromptPassage, maxTokens: number): PromptPassage | undefined {
  const lines = p.text.replace(/\n+$/, '').split('\n');
  let keep = lines.length;
  while (keep > 0) {
    const candidate = { ...p, text: lines.slice(0, keep).join('\n'), end_line: p.start_line + keep - 1 };
    const cost = estimateTokens(formatPassage(candidate)) + 2;
    if (cost <= maxTokens) return cost >= MIN_PASSAGE_TOKENS || keep === lines.length ? candidate : undefined;
    // Shrink proportionally first, then line by line near the fit.
    keep = Math.min(keep - 1, Math.floor((keep * maxTokens) / cost));
  }
  return undefined;
}

function capAnswer(answer: string): string {
  return answer.length <= HISTORY_ANSWER_MAX_CHARS ? answer : `${answer.slice(0, HISTORY_ANSWER_MAX_CHARS)}\n[... earlier answer cut]`;
}

/**
 * Builds the messages for the model within `contextTokens`: the instructions and the question
 * are kept whole; the context facts next (the plugin list shortened first); then log passages
 * in rank order (a lower-ranked one is dropped before a higher one, the top one is cut to fewer
 * lines rather than dropped); then history, newest first, so the oldest turns go first.
 */
export function buildPrompt(input: PromptInput): Prompt {
  const budget = input.contextTokens;
  const question: PromptMessage = { role: 'user', content: input.question };
  const fixed = estimateTokens(SYSTEM_INSTRUCTIONS) + estimateTokens(question.content) + 2 * MESSAGE_OVERHEAD + REPLY_PRIMING;
  let remaining = budget - fixed;

  // Facts: the plugin list gets at most a quarter of the budget, half when the question is about plugins.
  let factsText: string;
  if (input.context) {
    const aboutPlugins = /\bplug-?ins?\b|\binstalled\b/i.test(input.question);
    const pluginChars = Math.max(200, Math.floor(budget * 4 * (aboutPlugins ? 0.5 : 0.25)));
    const lines = contextFactLines(saneCiContext(input.context.ciContext), pluginChars, input.question);
    const header = `## CI context (uploaded ${input.context.uploadedAt}; the build log has ${input.context.logLineCount} lines)`;
    // A big log's context does not hold all of it: the model must know which lines it cannot see.
    const notKept = input.context.logNotKept ? [notKeptSentence(input.context.logNotKept)] : [];
    const all = [header, ...notKept, ...lines];
    while (all.length > 1 && estimateTokens(all.join('\n')) + 2 > remaining) all.pop();
    factsText = all.length > 1 || lines.length === 0 ? all.join('\n') : '';
  } else {
    factsText = `## CI context\n${NO_CONTEXT_NOTE}`;
  }
  if (factsText) remaining -= estimateTokens(factsText) + 2;

  // The findings, as structured facts ahead of the passages (issue 25): what was established.
  let findingsText = findingsSection(input.context);
  if (findingsText && estimateTokens(findingsText) + 2 > remaining / 2) findingsText = findingsSection(input.context, 1);
  if (findingsText && estimateTokens(findingsText) + 2 > remaining / 2) findingsText = '';
  if (findingsText) remaining -= estimateTokens(findingsText) + 2;

  // Passages, best first.
  const included: PromptPassage[] = [];
  let droppedPassages = 0;
  const passageHeader = '## Build log excerpts (line numbers are the log\'s own; cite them as [L<start>-L<end>])';
  const headerCost = estimateTokens(passageHeader) + 2;
  for (const passage of input.passages) {
    const room = remaining - (included.length === 0 ? headerCost : 0);
    const whole = estimateTokens(formatPassage(passage)) + 2;
    if (whole <= room) {
      included.push(passage);
      remaining = room - whole;
      continue;
    }
    const cut = included.length === 0 ? cutPassage(passage, room) : undefined;
    if (cut) {
      included.push(cut);
      remaining = room - (estimateTokens(formatPassage(cut)) + 2);
    } else {
      droppedPassages++;
    }
  }

  // History, newest first until the budget is spent.
  const kept: PromptMessage[][] = [];
  let droppedTurns = 0;
  for (let i = input.history.length - 1; i >= 0; i--) {
    const turn = input.history[i] as HistoryTurn;
    const pair: PromptMessage[] = [
      { role: 'user', content: turn.question },
      { role: 'assistant', content: capAnswer(turn.answer) },
    ];
    const cost = pair.reduce((sum, m) => sum + estimateTokens(m.content) + MESSAGE_OVERHEAD, 0);
    if (cost > remaining || droppedTurns > 0) {
      droppedTurns++;
      continue;
    }
    kept.unshift(pair);
    remaining -= cost;
  }

  const system = [SYSTEM_INSTRUCTIONS, factsText, findingsText, included.length ? [passageHeader, ...included.map(formatPassage)].join('\n\n') : '']
    .filter(Boolean)
    .join('\n\n');
  const messages: PromptMessage[] = [{ role: 'system', content: system }, ...kept.flat(), question];
  const estimatedTokens = messages.reduce((sum, m) => sum + estimateTokens(m.content) + MESSAGE_OVERHEAD, REPLY_PRIMING);
  return { messages, passages: included, estimatedTokens, dropped: { historyTurns: droppedTurns, passages: droppedPassages } };
}

/** One finding as structured facts: `key: value` pairs, each line cited. */
export function findingFacts(f: Finding, n: number, excerpt: { start_line: number; end_line: number; new_since_baseline?: boolean }): string {
  const L = (line: number): string => `[L${line}-L${line}]`;
  const place = (p: { file: string; line?: number; column?: number }): string => `${p.file}${p.line !== undefined ? `:${p.line}` : ''}${p.line !== undefined && p.column !== undefined ? `:${p.column}` : ''}`;
  const since = excerpt.new_since_baseline === true ? '; NEW since the last green build' : excerpt.new_since_baseline === false ? '; also in the last green build, probably not the cause' : '';
  const lines = [`Finding ${n} (excerpt ${cite(excerpt)}${since}):`, `- class: ${f.class} (${f.confidence} confidence${f.rules_class ? `: a rule read it as ${f.rules_class} at ${f.rules_confidence ?? 'medium'} confidence, but the excerpt's other words do not support that, so the cause is not established: do not state that class` : f.rules_confidence ? `: a rule read it as ${f.class}, but the excerpt's other words read more like another class, so say it as likely, not certain` : ''})`, `- message: ${clip(f.message, 400)} ${L(f.message_line)}`];
  if (f.tool) lines.push(`- tool: ${f.tool}`);
  for (const key of ['code', 'exception', 'symbol', 'expected', 'actual', 'dependency', 'host'] as const) {
    const v = f[key];
    if (v !== undefined) lines.push(`- ${key}: ${clip(v, 200)}`);
  }
  if (f.location) {
    lines.push(`- location: ${place(f.location)} ${L(f.location.log_line)}`);
    const { raise, project } = f.location.frames ?? {};
    if (raise) lines.push(`- raise site: ${place(raise)}${raise.function ? ` in ${raise.function}` : ''} ${L(raise.log_line)}`);
    if (project) lines.push(`- deepest project frame: ${place(project)}${project.function ? ` in ${project.function}` : ''} ${L(project.log_line)}`);
  }
  if (f.test) lines.push(`- failing test: ${f.test.name} ${L(f.test.log_line)}`);
  // Which of the two refused native code (core/finding/linkage.ts): a loader's refusal is never the linker's.
  if (f.linkage?.stage === 'resolve') lines.push(JVM_RESOLVE_PROMPT);
  else if (f.linkage?.stage === 'missing-class') lines.push(jvmMissingClassPrompt(f));
  else if (f.linkage) lines.push(f.linkage.stage === 'load' ? `- linkage: load time: the dynamic loader refused ${f.linkage.object ?? 'a shared object'} when it was loaded, after the build; do not call it the linker's (ld's) error` : `- linkage: link time: the static linker refused it while the build linked${f.linkage.object ? ` (object ${f.linkage.object})` : ''}`);
  // A guess from the excerpt's words (core/finding/classModel.ts), marked as one: never the cause.
  if (f.class === 'unknown' && f.likely_class) lines.push(`- likely class (a GUESS from the excerpt's words ${f.likely_class.words.join(', ')}; no rule's evidence establishes it, never state it as the cause): ${f.likely_class.class}`);
  lines.push(`- evidence lines: ${f.evidence.map((e) => `L${e}`).join(', ')}`);
  return lines.join('\n');
}

/** The findings of the top excerpts (new ones first), for the prompt; empty without a log. */
export function findingsSection(context: ChatContext | null, max = 3): string {
  if (!context) return '';
  const excerpts = context.failureExcerpts.filter((e) => e.score > 0 && e.reason !== 'no failure found');
  const ordered = [...excerpts.filter((e) => e.new_since_baseline !== false), ...excerpts.filter((e) => e.new_since_baseline === false)].slice(0, max);
  if (ordered.length === 0) return '';
  const blocks = ordered.map((e, i) => findingFacts(findingFor(context, e), i + 1, e));
  return ['## Findings (established from the log by the analyzer, best first)', ...blocks].join('\n\n');
}

/**
 * The passages for a question: the analyzer's failure excerpts and the retrieved chunks, merged
 * in one ranked list (excerpts first for questions about a failure, retrieved first otherwise),
 * a chunk already covered by an excerpt left out.
 */
export function rankPassages(
  excerpts: { start_line: number; end_line: number; text: string; reason: string; new_since_baseline?: boolean }[],
  retrieved: { start_line: number; end_line: number; text: string }[],
  failureFirst: boolean,
): PromptPassage[] {
  // Compared with the last green build: the new excerpts first, each marked, the old ones marked too.
  const since = (e: { new_since_baseline?: boolean }): string =>
    e.new_since_baseline === true ? '; NEW since the last green build' : e.new_since_baseline === false ? '; also in the last green build, probably not the cause' : '';
  const ordered = [...excerpts.filter((e) => e.new_since_baseline !== false), ...excerpts.filter((e) => e.new_since_baseline === false)];
  const fromExcerpts = ordered.map((e) => ({ start_line: e.start_line, end_line: e.end_line, text: e.text, label: `(analyzer: ${e.reason}${since(e)})` }));
  const covered = (r: { start_line: number; end_line: number }): boolean =>
    excerpts.some((e) => e.start_line <= r.start_line && r.end_line <= e.end_line);
  const fromRetrieval = retrieved
    .filter((r) => !covered(r))
    .map((r) => ({ start_line: r.start_line, end_line: r.end_line, text: r.text, label: '(retrieved for the question)' }));
  return failureFirst ? [...fromExcerpts, ...fromRetrieval] : [...fromRetrieval, ...fromExcerpts];
}
