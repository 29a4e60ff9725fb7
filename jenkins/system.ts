/**
 * The instance-wide part of a JENKINS_HOME: the root config.xml, the location configuration,
 * the installed plugins and the agents.
 */
import os from 'node:os';
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import type { AgentStats, MasterNode, PluginInfo } from '../protocol/types.js';
import { child, childInt, childText, childrenNamed, errorMessage, isMissing, readTextFile, readXmlFile, simpleClassName } from './xml.js';
import type { XmlElement } from './xml.js';

export interface RootConfig {
  version?: string;
  systemMessage?: string;
  numExecutors?: number;
  /** `<buildsDir>` as written (with `${ITEM_ROOTDIR}` and friends unexpanded). */
  buildsDir?: string;
  workspaceDir?: string;
  /** Agents of pre-2.x homes, kept inline under `<slaves>`. */
  inlineAgents: XmlElement[];
}

/** Reads `config.xml` (root `<hudson>`); an absent file is an empty configuration. */
export async function readRootConfig(jenkinsHome: string): Promise<RootConfig> {
  const root = await readXmlFile(path.join(jenkinsHome, 'config.xml'));
  if (!root) return { inlineAgents: [] };
  const systemMessage = child(root, 'systemMessage')?.text.trim();
  return {
    version: childText(root, 'version'),
    systemMessage: systemMessage ? systemMessage : undefined,
    numExecutors: childInt(root, 'numExecutors'),
    buildsDir: childText(root, 'buildsDir'),
    workspaceDir: childText(root, 'workspaceDir'),
    inlineAgents: child(root, 'slaves')?.children ?? [],
  };
}

/**
 * The core version that last ran on this home, from `jenkins.install.InstallUtil.lastExecVersion`
 * (written at every start-up since 2.0): the version when config.xml is absent or has none.
 */
export async function readLastExecVersion(jenkinsHome: string): Promise<string | undefined> {
  try {
    const v = (await readTextFile(path.join(jenkinsHome, 'jenkins.install.InstallUtil.lastExecVersion'))).trim();
    return /^\d+(\.\d+)*([-.][\w.-]+)?$/.test(v) && v.length <= 64 ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The root URL from `jenkins.model.JenkinsLocationConfiguration.xml`, if configured; homes
 * last run before core 1.494 kept it as `<hudsonUrl>` in `hudson.tasks.Mailer.xml`.
 */
export async function readRootUrl(jenkinsHome: string): Promise<string | undefined> {
  const root = await readXmlFile(path.join(jenkinsHome, 'jenkins.model.JenkinsLocationConfiguration.xml'));
  const url = childText(root, 'jenkinsUrl');
  if (url || root) return url;
  try {
    return childText(await readXmlFile(path.join(jenkinsHome, 'hudson.tasks.Mailer.xml')), 'hudsonUrl');
  } catch {
    return undefined;
  }
}

/**
 * Parses a JAR manifest's main section: CRLF or LF line ends, continuation lines (a leading
 * space) joined to the previous one even when the 72-byte wrap fell mid-word.
 */
export function parseManifest(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const lines = text.split(/\r\n|\r|\n/);
  let lastKey: string | null = null;
  for (const line of lines) {
    if (line === '') {
      if (Object.keys(attrs).length > 0) break; // end of the main section
      continue;
    }
    if (line.startsWith(' ')) {
      if (lastKey !== null) attrs[lastKey] += line.slice(1);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    lastKey = line.slice(0, colon).trim();
    attrs[lastKey] = line.slice(colon + 1).replace(/^ /, '');
  }
  return attrs;
}

/**
 * The installed plugins: every `plugins/*.jpi|*.hpi` archive (a `.jpi` wins over an `.hpi` of
 * the same name, as in Jenkins), described by its exploded `META-INF/MANIFEST.MF`. A plugin
 * with a `<file>.disabled` marker is listed with `enabled: false`. `*.bak` (the version before
 * an upgrade) is ignored. Named by `Short-Name`, sorted by it.
 */
export async function readPlugins(jenkinsHome: string): Promise<PluginInfo[]> {
  const dir = path.join(jenkinsHome, 'plugins');
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const present = new Set(entries);
  const archives = new Map<string, string>(); // base name -> archive file
  for (const entry of entries) {
    const m = /^(.+)\.(jpi|hpi)$/.exec(entry);
    if (!m?.[1]) continue;
    const base = m[1];
    if (m[2] === 'hpi' && archives.has(base)) continue;
    archives.set(base, entry);
  }
  const plugins: PluginInfo[] = [];
  for (const [base, archive] of archives) {
    let manifest: Record<string, string> = {};
    try {
      manifest = parseManifest(await readTextFile(path.join(dir, base, 'META-INF', 'MANIFEST.MF')));
    } catch {
      /* not exploded yet (Jenkins explodes on start-up): describe it by its file name */
    }
    const shortName = manifest['Short-Name']?.trim() || manifest['Extension-Name']?.trim() || base;
    const info: PluginInfo = {
      shortName,
      version: manifest['Plugin-Version']?.trim() || manifest['Implementation-Version']?.trim() || 'unknown',
      enabled: !present.has(`${archive}.disabled`) && !present.has(`${base}.jpi.disabled`) && !present.has(`${base}.hpi.disabled`),
    };
    const longName = manifest['Long-Name']?.trim();
    if (longName) info.longName = longName;
    if (present.has(`${archive}.pinned`)) info.pinned = true;
    plugins.push(info);
  }
  plugins.sort((a, b) => a.shortName.localeCompare(b.shortName));
  return plugins;
}

type Agent = NonNullable<AgentStats['agents']>[number];

function agentFrom(el: XmlElement, fallbackName: string): Agent {
  const name = childText(el, 'name') ?? fallbackName;
  const offline = child(el, 'temporaryOfflineCause');
  const agent: Agent = { name, online: !offline };
  const executors = childInt(el, 'numExecutors');
  if (executors !== undefined) agent.executors = executors;
  const labels = childText(el, 'label');
  if (labels) agent.labels = labels.split(/\s+/);
  const remoteFS = childText(el, 'remoteFS');
  if (remoteFS) agent.remoteFS = remoteFS;
  const description = childText(el, 'description');
  if (description) agent.description = description;
  const launcher = child(el, 'launcher')?.attrs['class'];
  if (launcher) agent.launcher = simpleClassName(launcher);
  if (offline) agent.offlineReason = offlineReason(offline);
  return agent;
}

/** What a person would read as the reason an agent was marked offline. */
function offlineReason(cause: XmlElement): string {
  const message = childText(cause, 'message');
  const description = child(cause, 'description');
  const args = childrenNamed(child(description, 'args'), 'string').map((s) => s.text.trim());
  const key = childText(description, 'key');
  // SlaveComputer.DisconnectedBy is "Disconnected by {0}{1}", {1} being " : <the admin's note>".
  const note = args[1]?.replace(/^\s*:\s*/, '').trim();
  const by = key === 'SlaveComputer.DisconnectedBy' && args[0] ? `Disconnected by ${args[0]}${note ? `: ${note}` : ''}` : undefined;
  const parts = [by, message].filter((p): p is string => !!p);
  if (parts.length > 0) return parts.join(': ');
  const kind = cause.attrs['class'];
  return kind ? `Marked offline (${simpleClassName(kind)})` : 'Marked offline';
}

/**
 * The agents from `nodes/<name>/config.xml` (and the inline `<slaves>` of old homes). An agent
 * is reported offline when it carries a `temporaryOfflineCause`; whether a connected agent is
 * really up cannot be seen on disk.
 */
export async function readAgents(jenkinsHome: string, inline: XmlElement[] = []): Promise<AgentStats> {
  const agents: Agent[] = inline.map((el, i) => agentFrom(el, `agent-${i + 1}`));
  const dir = path.join(jenkinsHome, 'nodes');
  let entries: string[] = [];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  for (const entry of entries.sort()) {
    try {
      const el = await readXmlFile(path.join(dir, entry, 'config.xml'));
      if (el) agents.push(agentFrom(el, entry));
    } catch (err) {
      agents.push({ name: entry, online: false, offlineReason: 'configuration unreadable', error: errorMessage(err) });
    }
  }
  const online = agents.filter((a) => a.online).length;
  return { onlineAgents: online, offlineAgents: agents.length - online, agents };
}

/** The built-in node: its executors from config.xml, and this host's system information. */
export function masterNodeOf(config: RootConfig): MasterNode {
  const cpus = os.cpus();
  return {
    executors: config.numExecutors ?? 2,
    isOnline: true,
    systemInfo: {
      os: `${os.type()} ${os.release()}`,
      platform: os.platform(),
      arch: os.arch(),
      cpus: cpus.length,
      cpuModel: cpus[0]?.model,
      totalMemoryBytes: os.totalmem(),
      freeMemoryBytes: os.freemem(),
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
      uptimeSeconds: Math.round(os.uptime()),
      nodeVersion: process.version,
    },
  };
}
