/**
 * Answers about the facts of CONTRACT section 2 that the other groups do not own: which job and
 * build this is, the job's health, queue state, upstream and downstream projects, configuration,
 * concurrency, the build environment a pipeline step saw (`ciEnvironment`), the last successful
 * build, problems the client had reading the context, and "why is it stuck / queued?", which
 * weighs every fact that bears on it.
 */
import type { CiContext } from '../../../protocol/types.js';
import { buildLabel, buildNumberOf, envOf, formatDuration, fromCiServer, jobNameOf, showValue } from '../facts.js';
import { clip, inlineCode } from '../logtext.js';
import { plainText, jobTypeName } from './job.js';
import { capitalise, formatTime } from './outcome.js';
import { type AnswerGroup, type Composer, ReplyBuilder, notSaid } from './reply.js';

const jobRefOf = (ci: CiContext): string => {
  const job = jobNameOf(ci);
  return job ? inlineCode(job) : 'the job';
};

const jobName: Composer = ({ ci }) => {
  const job = ci.jobDetails;
  const name = typeof job?.fullName === 'string' && job.fullName ? job.fullName : typeof job?.name === 'string' && job.name ? job.name : undefined;
  const out = new ReplyBuilder();
  if (name) {
    out.fact(job?.fullName ? 'jobDetails.fullName' : 'jobDetails.name');
    const type = typeof job?.jobType === 'string' ? `, a ${jobTypeName(job.jobType)}` : '';
    if (type) out.fact('jobDetails.jobType');
    out.line(`This is the job **${inlineCode(name)}**${type}.`);
    return out.reply();
  }
  const env = envOf(ci, 'JOB_NAME');
  if (env) return out.fact(env.field).line(`This is the job **${inlineCode(env.value)}** (the build environment's ${inlineCode('JOB_NAME')}).`).reply();
  return notSaid('which job this is');
};

const buildNumber: Composer = ({ ci }) => {
  const found = buildNumberOf(ci);
  if (!found) return notSaid('which build this is');
  const job = jobNameOf(ci);
  const out = new ReplyBuilder().fact(found.field);
  const via = found.field.startsWith('ciEnvironment.') ? ` (the build environment's ${inlineCode(found.field.slice('ciEnvironment.'.length))})` : '';
  out.line(`This is **build #${found.number}**${job ? ` of ${inlineCode(job)}` : ''}${via}.`);
  return out.reply();
};

const health: Composer = ({ ci }) => {
  const score = ci.jobDetails?.healthScore;
  const jobRef = jobRefOf(ci);
  if (typeof score !== 'number') return notSaid(`how healthy ${jobRef} is`);
  // Jenkins' weather icons: 80+ sunny, 60-79 partly cloudy, 40-59 cloudy, 20-39 rain, below storm.
  const weather = score >= 80 ? 'sunny' : score >= 60 ? 'partly cloudy' : score >= 40 ? 'cloudy' : score >= 20 ? 'raining' : 'stormy';
  const out = new ReplyBuilder().fact('jobDetails.healthScore');
  out.line(`${capitalise(jobRef)} has a **health score of ${score}%** (${weather} in Jenkins' weather icons).`);
  if (score < 100) out.line('By default the score is the share of the last 5 builds that did not fail, so some recent builds failed.');
  return out.reply();
};

const upstream: Composer = ({ ci }) => {
  const list = ci.jobDetails?.upstreamProjects;
  const jobRef = jobRefOf(ci);
  if (!Array.isArray(list)) return notSaid(`which projects are upstream of ${jobRef}`);
  const out = new ReplyBuilder().fact('jobDetails.upstreamProjects');
  if (list.length === 0) return out.line(`**No upstream projects**: no other job triggers ${jobRef} when it finishes.`).reply();
  out.line(`**${list.length} upstream project${list.length === 1 ? '' : 's'}** trigger${list.length === 1 ? 's' : ''} ${jobRef}: ${list.map(inlineCode).join(', ')}.`);
  return out.reply();
};

const downstream: Composer = ({ ci }) => {
  const list = ci.jobDetails?.downstreamProjects;
  const jobRef = jobRefOf(ci);
  if (!Array.isArray(list)) return notSaid(`which projects run after ${jobRef}`);
  const out = new ReplyBuilder().fact('jobDetails.downstreamProjects');
  if (list.length === 0) return out.line(`**No downstream projects**: ${jobRef} triggers no other job.`).reply();
  out.line(`${capitalise(jobRef)} triggers **${list.length} downstream project${list.length === 1 ? '' : 's'}**: ${list.map(inlineCode).join(', ')}.`);
  return out.reply();
};

/** The few facts of a job's config.xml people ask about, found by element name. */
function configFacts(xml: string): string[] {
  const facts: string[] = [];
  const text = (name: string): string | undefined => new RegExp(`<${name}>([^<]{1,300})</${name}>`).exec(xml)?.[1]?.trim();
  const repo = text('url');
  if (repo) facts.push(`repository ${inlineCode(repo)}`);
  const branch = text('name');
  if (branch && /\*|\/|main|master|develop|release/.test(branch)) facts.push(`branch spec ${inlineCode(branch)}`);
  const script = text('scriptPath');
  if (script) facts.push(`pipeline script from SCM: ${inlineCode(script)}`);
  else if (/<definition[^>]*CpsFlowDefinition/.test(xml)) facts.push('an inline pipeline script');
  const spec = text('spec');
  if (spec) facts.push(`schedule ${inlineCode(spec.replace(/\s+/g, ' '))}`);
  const node = text('assignedNode');
  if (node) facts.push(`restricted to ${inlineCode(node)}`);
  const command = text('command');
  if (command) facts.push(`shell step ${inlineCode(clip(command.replace(/\s+/g, ' '), 100))}`);
  if (/<disabled>true<\/disabled>/.test(xml)) facts.push('**disabled**');
  return facts;
}

const config: Composer = ({ ci, q }) => {
  const xml = ci.jobDetails?.configXml;
  const jobRef = jobRefOf(ci);
  if (typeof xml !== 'string' || !xml.trim()) return notSaid(`how ${jobRef} is configured`);
  const out = new ReplyBuilder().fact('jobDetails.configXml');
  const facts = configFacts(xml);
  out.line(facts.length > 0 ? `${capitalise(jobRef)}'s configuration (config.xml, secrets masked): ${facts.join(', ')}.` : `${capitalise(jobRef)}'s config.xml is in the context (secrets masked).`);
  if (/\b(show|print|display|dump|paste|see|view|open|what does|full|whole|entire)\b/.test(q) || facts.length === 0) {
    const lines = xml.split('\n');
    const shown = lines.slice(0, 40).join('\n');
    out.line();
    out.line('```xml');
    out.line(shown);
    out.line('```');
    if (lines.length > 40) out.line(`(${lines.length - 40} more lines)`);
  }
  return out.reply();
};

const concurrency: Composer = ({ ci }) => {
  const value = ci.jobDetails?.concurrentBuild;
  const jobRef = jobRefOf(ci);
  if (typeof value !== 'boolean') return notSaid(`whether ${jobRef} allows concurrent builds`);
  return new ReplyBuilder()
    .fact('jobDetails.concurrentBuild')
    .line(
      value
        ? `**Yes — ${jobRef} allows concurrent builds**: a new build starts even while another is running, given a free executor.`
        : `**No — ${jobRef} does not allow concurrent builds**: a new build waits in the queue until the running one ends.`,
    )
    .reply();
};

/** Variables people name by what they hold: the commit, the branch, the node... */
const ENV_TOPICS: [RegExp, string[]][] = [
  [/\b(commit|sha|revision|hash)\b/, ['GIT_COMMIT', 'GITHUB_SHA', 'CI_COMMIT_SHA', 'SVN_REVISION']],
  [/\bbranch\b/, ['GIT_BRANCH', 'BRANCH_NAME', 'GIT_LOCAL_BRANCH', 'CHANGE_BRANCH', 'GITHUB_REF_NAME']],
  [/\b(node|agent|machine|host)\b/, ['NODE_NAME', 'NODE_LABELS']],
  [/\bbuild\s*(number|no|#|id)\b/, ['BUILD_NUMBER', 'BUILD_ID']],
  [/\b(job|project)\b/, ['JOB_NAME', 'JOB_BASE_NAME']],
  [/\b(url|link)\b/, ['BUILD_URL', 'JOB_URL', 'JENKINS_URL', 'GIT_URL']],
  [/\bworkspace\b/, ['WORKSPACE']],
  [/\b(repo|repository|remote)\b/, ['GIT_URL', 'GITHUB_REPOSITORY']],
];

const environment: Composer = ({ ci, q, question }) => {
  const env = ci.ciEnvironment;
  // Variables named outright ("what is GIT_URL?"), in the question's own spelling.
  const named = [...question.matchAll(/\b([A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)\b/g)].map((m) => (m[1] as string).toUpperCase());
  const params = ci.buildDetails?.parameters ?? {};
  const out = new ReplyBuilder();
  // A build parameter is an environment variable of the build too (TARGET_ENV, DEPLOY_PASSWORD).
  const paramNamed = named.filter((n) => Object.keys(params).some((p) => p.toUpperCase() === n));
  if (paramNamed.length > 0 && paramNamed.length === named.length) {
    out.fact('buildDetails.parameters');
    for (const name of paramNamed) {
      const key = Object.keys(params).find((p) => p.toUpperCase() === name) as string;
      out.line(`${inlineCode(key)} = **${inlineCode(clip(showValue(params[key]), 300))}** (a build parameter).`);
    }
    return out.reply();
  }
  if (!env || Object.keys(env).length === 0) {
    return notSaid(named.length > 0 ? `what ${named.map(inlineCode).join(' or ')} was` : "the build's environment variables");
  }
  if (named.length > 0) {
    for (const name of named) {
      const value = env[name];
      const param = Object.keys(params).find((p) => p.toUpperCase() === name);
      if (value === undefined && param !== undefined) {
        out.fact('buildDetails.parameters');
        out.line(`${inlineCode(param)} = **${inlineCode(clip(showValue(params[param]), 300))}** (a build parameter).`);
      } else if (value === undefined) out.line(`The build environment has no ${inlineCode(name)}.`);
      else {
        out.fact(`ciEnvironment.${name}`);
        out.line(`${inlineCode(name)} = **${inlineCode(clip(value, 300))}**`);
      }
    }
    return out.reply();
  }
  const topic = ENV_TOPICS.find(([pattern]) => pattern.test(q));
  const topical = topic ? topic[1].filter((n) => env[n] !== undefined) : [];
  const names = topical.length > 0 ? topical : Object.keys(env).sort();
  out.line(`The build environment (as a pipeline step saw it) holds **${Object.keys(env).length} variable${Object.keys(env).length === 1 ? '' : 's'}**${topical.length > 0 ? '; the ones you asked about' : ''}:`);
  for (const name of names.slice(0, 30)) {
    out.fact(`ciEnvironment.${name}`);
    out.line(`- ${inlineCode(name)} = ${inlineCode(clip(env[name] as string, 160))}`);
  }
  if (names.length > 30) out.line(`- …and ${names.length - 30} more`);
  return out.reply();
};

const contextProblem: Composer = ({ ci }) => {
  const problems: string[] = [];
  const out = new ReplyBuilder();
  if (typeof ci.contextParsingError === 'string' && ci.contextParsingError.trim()) {
    out.fact('contextParsingError');
    problems.push(`the client reported: ${inlineCode(clip(ci.contextParsingError, 300))}`);
  }
  // What the controller notes when part of JENKINS_HOME could not be read.
  for (const [field, value] of [
    ['jenkinsHomeError', ci['jenkinsHomeError']],
    ['jobDetails.error', ci.jobDetails?.['error']],
    ['buildDetails.error', ci.buildDetails?.['error']],
    ['buildDetails.consoleLogError', ci.buildDetails?.['consoleLogError']],
  ] as const) {
    if (typeof value === 'string' && value) {
      out.fact(field);
      problems.push(`${inlineCode(field)}: ${clip(value, 200)}`);
    }
  }
  if (problems.length === 0) {
    return out
      .line('**No problem was reported** reading the uploaded context: it carries no `contextParsingError` and no read errors.')
      .reply();
  }
  out.line(`**Yes — part of the context could not be read:**`);
  for (const p of problems) out.line(`- ${p}`);
  out.line('\nAnswers that need the missing part will say the context does not hold it.');
  return out.reply();
};

const lastSuccess: Composer = ({ ci }) => {
  const last = ci.buildDetails?.lastSuccessfulBuild;
  const jobRef = jobRefOf(ci);
  const out = new ReplyBuilder();
  if (last === null) return out.fact('buildDetails.lastSuccessfulBuild').line(`**${capitalise(jobRef)} has never passed**: there is no successful build before ${buildLabel(ci)}.`).reply();
  if (last && typeof last.number === 'number') {
    out.fact('buildDetails.lastSuccessfulBuild');
    const when = typeof last.timestamp === 'string' && !Number.isNaN(Date.parse(last.timestamp)) ? `, started ${formatTime(new Date(last.timestamp))}` : '';
    const took = typeof last.duration === 'number' ? `, took ${formatDuration(last.duration)}` : '';
    out.line(`The last successful build of ${jobRef} is **#${last.number}**${last.result ? ` (${inlineCode(last.result)})` : ''}${when}${took}.`);
    const current = buildNumberOf(ci)?.number;
    if (typeof current === 'number' && current > last.number + 1) out.line(`So ${current - last.number - 1} build${current - last.number - 1 === 1 ? '' : 's'} between it and #${current} did not pass.`);
    return out.reply();
  }
  // The previous build is the nearest fact: when it passed, it is the last success.
  const prev = ci.buildDetails?.previousBuild;
  if (prev && typeof prev.result === 'string' && prev.result.toUpperCase() === 'SUCCESS') {
    return out.fact('buildDetails.previousBuild').line(`The previous build, **#${prev.number}**, passed, so it is the last successful build before ${buildLabel(ci)}.`).reply();
  }
  const reply = notSaid(`when ${jobRef} last passed`);
  if (prev && typeof prev.result === 'string') {
    reply.text += `\n\nIt does say the previous build, #${prev.number}, ended ${inlineCode(prev.result)}.`;
    reply.sources.push({ kind: 'context', field: 'buildDetails.previousBuild' });
  }
  return reply;
};

/**
 * "Why is it queued?", "is my build stuck because the built-in node is offline?": every fact
 * that bears on a build waiting: queue state, the build's own state, the built-in node (online,
 * executors), the agents, the job's concurrency and the system message (a shutdown or
 * maintenance notice stops builds from starting).
 */
const queue: Composer = ({ ci, q }) => {
  const out = new ReplyBuilder();
  const jobRef = jobRefOf(ci);
  const build = ci.buildDetails;
  const inQueue = ci.jobDetails?.inQueue;
  const node = ci.masterNode;
  const stats = ci.agentStats;
  const agents = Array.isArray(stats?.agents) ? stats.agents : [];
  const onlineAgents = typeof stats?.onlineAgents === 'number' ? stats.onlineAgents : agents.length > 0 ? agents.filter((a) => a.online).length : undefined;
  const offlineAgents = typeof stats?.offlineAgents === 'number' ? stats.offlineAgents : agents.length > 0 ? agents.filter((a) => !a.online).length : undefined;
  const unknown: string[] = [];
  const bears: string[] = [];

  // The lead: is anything waiting at all?
  const running = build?.building === true || (typeof build?.result === 'string' && build.result.toUpperCase() === 'IN_PROGRESS');
  if (inQueue === true) {
    out.fact('jobDetails.inQueue');
    out.line(`**Yes — a build of ${jobRef} is waiting in the queue** (when the context was uploaded).`);
  } else if (inQueue === false) {
    out.fact('jobDetails.inQueue');
    out.line(`**No — ${jobRef} is not in the queue** (when the context was uploaded).`);
  } else {
    unknown.push('whether the job is in the queue (`jobDetails.inQueue`)');
  }
  if (running) {
    out.fact('buildDetails.building');
    const started = typeof build?.timestamp === 'string' && !Number.isNaN(Date.parse(build.timestamp)) ? ` since ${formatTime(new Date(build.timestamp))}` : '';
    const so = typeof build?.duration === 'number' ? `, ${formatDuration(build.duration)} so far` : '';
    bears.push(`${capitalise(buildLabel(ci))} **is running**${started}${so}: it got an executor, so it is not waiting for one; if it makes no progress, its log's last lines show the step it hangs in.`);
  } else if (typeof build?.result === 'string') {
    out.fact('buildDetails.result');
    bears.push(`${capitalise(buildLabel(ci))} already **finished** (${inlineCode(build.result.toUpperCase())}), so it is neither queued nor stuck.`);
  }

  // The built-in node.
  const asksNode = /\b(built-?in|master|controller|main node)\b/.test(q);
  if (typeof node?.isOnline === 'boolean') {
    out.fact('masterNode.isOnline');
    const execs = typeof node.executors === 'number' ? node.executors : undefined;
    if (execs !== undefined) out.fact('masterNode.executors');
    const execText = execs === undefined ? '' : ` with ${execs} executor${execs === 1 ? '' : 's'}`;
    if (!node.isOnline) bears.push(`The built-in node is **offline**${execText}: builds tied to it cannot start until it is back.`);
    else if (execs === 0) bears.push('The built-in node is online but has **0 executors**: builds run only on agents.');
    else bears.push(`The built-in node is **online**${execText}${asksNode ? ', so it is not the cause' : ''}.`);
  } else {
    unknown.push('whether the built-in node is online (`masterNode.isOnline`)');
    if (typeof node?.executors === 'number') {
      out.fact('masterNode.executors');
      bears.push(`The built-in node has ${node.executors} executor${node.executors === 1 ? '' : 's'}.`);
    }
  }

  // Agents.
  if (onlineAgents !== undefined || offlineAgents !== undefined) {
    if (typeof stats?.onlineAgents === 'number') out.fact('agentStats.onlineAgents');
    if (typeof stats?.offlineAgents === 'number') out.fact('agentStats.offlineAgents');
    if (agents.length > 0) out.fact('agentStats.agents');
    const offlineNames = agents.filter((a) => !a.online).map((a) => `${inlineCode(a.name)}${a.offlineReason ? ` (${a.offlineReason})` : ''}`);
    const parts = [`${onlineAgents ?? '?'} agent${onlineAgents === 1 ? '' : 's'} online`, `${offlineAgents ?? '?'} offline${offlineNames.length ? `: ${offlineNames.join(', ')}` : ''}`];
    bears.push(`Agents: ${parts.join(', ')}.`);
    const masterUsable = node?.isOnline !== false && node?.executors !== 0;
    if (onlineAgents === 0 && !masterUsable) {
      bears.push('**No executor is available anywhere** (the built-in node cannot build and no agent is online): that alone keeps builds waiting.');
    } else if (onlineAgents === 0 && (offlineAgents ?? 0) > 0) {
      bears.push('**No agent is online**: a build whose label needs an agent waits until one connects.');
    }
  } else {
    unknown.push('which agents are online (`agentStats`)');
  }

  // The job allows one build at a time?
  if (ci.jobDetails?.concurrentBuild === false) {
    out.fact('jobDetails.concurrentBuild');
    bears.push(`${capitalise(jobRef)} does not allow concurrent builds: a new build waits while another of it runs.`);
  }

  // System message: a shutdown or maintenance notice.
  if (typeof ci.systemMessage === 'string' && plainText(ci.systemMessage)) {
    out.fact('systemMessage');
    const text = clip(plainText(ci.systemMessage).replace(/\s+/g, ' '), 200);
    const shutdown = /\b(shut ?down|quiet|maintenance|restart|upgrade|freeze|paused?|outage)\b/i.test(text);
    bears.push(`System message: ${inlineCode(text)}${shutdown ? ' — it announces maintenance or a shutdown, during which Jenkins starts no new builds' : ''}.`);
  } else if (fromCiServer(ci)) {
    if (typeof ci.systemMessage === 'string' || ci.systemMessage === undefined) out.fact('systemMessage');
    bears.push('No system message is set, so no maintenance or shutdown is announced.');
  } else {
    unknown.push('the system message (`systemMessage`)');
  }

  if (inQueue === undefined && !running && bears.length > 0) {
    out.line(`The uploaded context does not say whether ${jobRef} is in the queue; what bears on a build waiting:`);
  } else if (bears.length > 0) {
    out.line();
    out.line('What bears on it:');
  }
  for (const b of bears) out.line(`- ${b}`);
  if (unknown.length > 0) {
    out.line();
    out.line(`The uploaded context does not say ${unknown.join(', ')}: the controller injects them from JENKINS_HOME when the upload names the job and build (\`cichat context upload <chat-id> --job JOB --build N\`).`);
  }
  if (inQueue === undefined && bears.length === 0) {
    return notSaid(`whether ${jobRef} is queued or stuck`, 'It holds no queue state, node or agent facts.');
  }
  return out.reply();
};

export const detailAnswers: AnswerGroup = {
  name: 'details',
  composers: { jobName, buildNumber, health, queue, upstream, downstream, config, concurrency, environment, contextProblem, lastSuccess },
};
