/** Answers about the CI server: version, plugins, executors, nodes, agents, system, message, URL, page. */
import type { AgentStats, PluginInfo } from '../../../protocol/types.js';
import { pluginList } from '../../../protocol/schemas.js';
import type { ChatContext } from '../engine.js';
import { ciVersionOf, fromCiServer, findPlugins, escapeRegExp, jobNameOf, pluginNamesAskedFor, showValue, systemFacts } from '../facts.js';
import { cite, clip, storedLogSpan, inlineCode, looksLikeError, findLine } from '../logtext.js';
import { type Composer, ReplyBuilder, notSaid, citedSpans, type AnswerGroup } from './reply.js';
import { capitalise } from './outcome.js';
import { plainText, blockquote } from './job.js';

const ciVersion: Composer = ({ ci, q }) => {
  const found = ciVersionOf(ci);
  if (!found) return notSaid('which Jenkins version this server runs');
  const out = new ReplyBuilder().line(`This server runs **Jenkins ${found.version}**.`).fact(found.field);
  if (/\b(up to date|outdated|upgrad\w*|latest|too old|old)\b/.test(q)) {
    out.line("Whether that is the latest release the context cannot say: compare it with the Jenkins changelog (jenkins.io/changelog for weekly, jenkins.io/changelog-stable for LTS, where versions look like 2.440.3).");
  }
  return out.reply();
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
  const list = pluginList(ci);
  const out = new ReplyBuilder();
  if (!Array.isArray(list)) {
    const asked = pluginNamesAskedFor(question, []);
    const what = asked.length > 0 ? `whether ${asked.map(inlineCode).join(' or ')} is installed` : 'which plugins are installed';
    const mention = logMentionOf(ctx, asked);
    const reply = notSaid(what, mention ?? 'It holds no plugin list.');
    if (mention) reply.sources.push(...citedSpans(mention));
    return reply;
  }
  if (/\bpinned\b/.test(q)) {
    out.fact(ci.plugins ? 'plugins' : 'activePlugins');
    const pinned = list.filter((p) => p.pinned === true);
    if (!list.some((p) => typeof p.pinned === 'boolean')) return notSaid('which plugins are pinned', 'It lists the plugins without their pinned state.');
    out.line(pinned.length === 0 ? '**No plugin is pinned.**' : `**${pinned.length} plugin${pinned.length === 1 ? ' is' : 's are'} pinned:** ${pinned.map(pluginLine).join(', ')}.`);
    return out.reply();
  }
  const names = pluginNamesAskedFor(question, list);
  out.fact(...(ci.activePlugins ? ['activePlugins'] : []), ...(ci.plugins ? ['plugins'] : []));
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
    agentsOf.map((a) => `${inlineCode(a.name)}${a.labels?.length ? ` [${a.labels.join(' ')}]` : ''}${a.offlineReason ? ` (${a.offlineReason})` : ''}`).join(', ');
  const on = onlineCount ?? 0;
  const off = offlineCount ?? 0;
  const plural = (n: number): string => `${n} agent${n === 1 ? '' : 's'}`;

  // The context knows agents' names, state and executors, nothing else about them.
  const labelled = list.filter((a) => Array.isArray(a.labels) && a.labels.length > 0);
  if (/\blabels?\b/.test(q) && labelled.length > 0) {
    out.line(`**Agent labels:** ${labelled.map((a) => `${inlineCode(a.name)}: ${(a.labels ?? []).map(inlineCode).join(' ')}`).join('; ')}.`);
  }
  const attribute = /\b(ip( address)?|addresses|address|hostnames?|host names?|labels?|os|memory|ram|disk|cpus?|java|jdk|ssh|jnlp|launch\w*|location|region|zone|specs?)\b/.exec(q)?.[0];
  if (attribute && !(/^labels?$/.test(attribute) && labelled.length > 0)) {
    out.line(`The uploaded context does not say the agents' ${attribute}: it holds only their names, whether they are online, their executors${labelled.length > 0 ? ' and labels' : ''}.`);
  }
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
  if (/\b(free|available|left|unused)\b/.test(q) && /\b(memory|ram|heap)\b/.test(q) && !facts.some((f) => f.label === 'Free memory')) {
    missingText.push('how much memory is free on the built-in node');
  }
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

const systemMessage: Composer = ({ ci }) => {
  const message = ci.systemMessage;
  if (typeof message !== 'string') {
    // The original plugin (and the controller) leave the field out when none is set.
    if (fromCiServer(ci)) return new ReplyBuilder().fact('systemMessage').line('**No system message is set** on this server (the uploaded server facts carry none).').reply();
    return notSaid('what the system message is');
  }
  const out = new ReplyBuilder().fact('systemMessage');
  const text = plainText(message);
  if (!text) return out.line('**No system message is set** on this server.').reply();
  out.line('The system message reads:');
  out.line();
  out.line(blockquote(text));
  return out.reply();
};

const rootUrl: Composer = ({ ci, q }) => {
  const jobUrl = ci.jobDetails?.url;
  const asksJob = /\b(job|project|pipeline|build|run|console|page|link|open)\b/.test(q);
  if (typeof jobUrl === 'string' && jobUrl && (asksJob || typeof ci.rootUrl !== 'string' || !ci.rootUrl)) {
    const out = new ReplyBuilder().fact('jobDetails.url');
    const number = ci.buildDetails?.number;
    out.line(`The job's page is **${jobUrl}**.`);
    if (typeof number === 'number' && /\b(build|run|console)\b/.test(q)) {
      out.fact('buildDetails.number');
      out.line(`Build #${number} is at ${jobUrl.endsWith('/') ? jobUrl : `${jobUrl}/`}${number}/.`);
    }
    return out.reply();
  }
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

const screen: Composer = ({ ci }) => {
  if (typeof ci.currentScreen !== 'string' || !ci.currentScreen) return notSaid('which Jenkins page you are on');
  return new ReplyBuilder().fact('currentScreen').line(`You were on **${ci.currentScreen}** when the context was uploaded.`).reply();
};

export const serverAnswers: AnswerGroup = {
  name: 'server',
  composers: { ciVersion, plugins, executors, master, agents, system, systemMessage, rootUrl, screen },
};
