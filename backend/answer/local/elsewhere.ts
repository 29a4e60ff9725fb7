/**
 * "It works on my machine (on my Mac), why not on CI?" (ux14): what the CI run shows of where and with
 * what it ran, each line cited, for the user to compare with their own machine, which no evidence
 * shows: the agent and its workspace path, the OS and architecture, the tool versions the log printed,
 * the locale, time zone and settings it shows. When the log and the context show none of these, it says
 * so: the evidence does not tell what differs.
 */
import type { CiContext } from '../../../protocol/types.js';
import { buildRootIn } from '../../../core/log/agentRoot.js';
import { buildLabel } from '../facts.js';
import { cite, clip, inlineCode, logReadWords, storedLogSpan, withoutStamp } from '../logtext.js';
import { citeMessage, findingFor } from './findingText.js';
import { hasLog, lineTextOf, rankedErrorExcerpts } from './logHelpers.js';
import { ReplyBuilder, type AnswerGroup, type Composer } from './reply.js';

/** How far into the log the run's set-up lines are looked for, and how many of each kind are said. */
const HEAD_LINES = 20000;
const MOST = 6;

/** GitHub Actions' lines that say which runner the build ran on. */
const RUNNER_LINE = /^(?:Runner name: '[^']+'|Current runner version: '[^']+')$/;
/** A line that says which agent and directory the build ran in: Jenkins' (core/log/agentRoot.ts, the one reader of it), GitHub's. */
const agentLine = (t: string): boolean => buildRootIn(t) !== undefined || RUNNER_LINE.test(t);
/** A tool's own version line, as `X --version` (or a crash footer) prints it. */
const VERSION_LINE =
  /^(?:Node\.js v\d+\.\d+\.\d+|Python \d+\.\d+\.\d+|go version go\d\S* \S+|(?:openjdk|java) version "[^"]+"|Apache Maven \d\S*|Gradle \d\S*|(?:gcc|g\+\+|cc|c\+\+) \([^)]*\) \d\S*|(?:Debian |Ubuntu |Apple )?clang version \d\S*|rustc \d\S*|cargo \d\S*|ruby \d\S*|PHP \d\S* \(cli\)|Elixir \d\S*|Erlang\/OTP \d+|The Glorious Glasgow Haskell Compilation System, version \d\S*|GNU Fortran \([^)]*\) \d\S*|Lua \d\.\d\S*|This is perl 5, version \d+|Docker version \d\S*|cmake version \d\S*|GNU Make \d\S*|dotnet \d\S*|\.NET SDK \d\S*|Terraform v\d\S*|Client Version: v?\d\S*|npm@?\s?v?\d+\.\d+\.\d+|pnpm \d\S*|yarn \d\S*|sbt version \S+|Scala code runner version \d\S*|Kotlin version \d\S*|swift-driver version: \S+|Swift version \d\S*)/;
/** A `--version` (or `-v`, `version`) command traced by the shell: its next line is the version it printed. */
const VERSION_COMMAND = /^\+ (\S+?)(?: -v| --version| -version| version| -V)\s*$/;
/** The OS and architecture as the log prints them. */
const OS_LINE = /^(?:Linux \S+ \d+\.\d+\S* .*(?:x86_64|aarch64|arm64|GNU\/Linux).*|Darwin \S+ \d+\.\d+.*|Operating System|Runner Image|Image: \S+|(?:Ubuntu|Debian GNU\/Linux|Alpine Linux|CentOS|Red Hat Enterprise Linux|Fedora|Rocky Linux|AlmaLinux|macOS|Microsoft Windows) \S.*|PRETTY_NAME="[^"]+")$/;
/** Settings a build's shell trace shows that a machine's own may differ in (locale, time zone, paths, modes). */
const SETTING_LINE = /^\+ (?:export )?(LANG|LC_ALL|LC_CTYPE|LANGUAGE|TZ|PATH|JAVA_HOME|GOPATH|GOFLAGS|NODE_ENV|NODE_OPTIONS|PYTHONPATH|PYTHONHASHSEED|CI|HOME|CC|CXX|MAVEN_OPTS|GRADLE_OPTS|RAILS_ENV|MIX_ENV|RUSTFLAGS|CFLAGS)=(.*)$/;
/** The locale or time zone a tool complained of. */
const LOCALE_LINE = /setlocale: LC_\w+: cannot change locale|perl: warning: Setting locale failed|Falling back to the standard locale|locale: Cannot set|UnicodeEncodeError: 'ascii' codec|unknown time ?zone|invalid time ?zone|Failed to set locale/i;
/** Variables of the build environment (`--from-env`) that say where and how it ran. */
const ENV_NAMES = ['NODE_NAME', 'NODE_LABELS', 'WORKSPACE', 'RUNNER_OS', 'RUNNER_ARCH', 'RUNNER_NAME', 'ImageOS', 'LANG', 'LC_ALL', 'TZ', 'JAVA_HOME', 'NODE_ENV', 'CI'];

interface Seen {
  line: number;
  text: string;
}

type Kinds = Record<'agent' | 'os' | 'version' | 'setting' | 'locale', Seen[]>;

/** The set-up lines of the log, by kind, first ones first, and the lines read for them (undefined: no log text held). */
function runLines(ctx: Parameters<typeof storedLogSpan>[0]): { found: Kinds; read?: { start_line: number; end_line: number } } {
  const found = { agent: [] as Seen[], os: [] as Seen[], version: [] as Seen[], setting: [] as Seen[], locale: [] as Seen[] };
  const stored = storedLogSpan(ctx);
  if (!stored) return { found };
  const lines = stored.text.split('\n');
  const seenText = new Set<string>();
  const add = (kind: keyof typeof found, i: number, text: string): void => {
    if (found[kind].length >= MOST || seenText.has(text)) return;
    seenText.add(text);
    found[kind].push({ line: stored.start_line + i, text });
  };
  for (let i = 0; i < Math.min(lines.length, HEAD_LINES); i++) {
    const t = withoutStamp(lines[i] as string).trim();
    if (t === '' || t.length > 300) continue;
    if (agentLine(t)) add('agent', i, t);
    // node --test's TAP report relays a child's lines behind `# ` (its `Node.js v20.20.2` footer).
    else if (VERSION_LINE.test(t.replace(/^# /, ''))) add('version', i, t.replace(/^# /, ''));
    else if (OS_LINE.test(t)) add('os', i, t);
    else if (SETTING_LINE.test(t)) add('setting', i, t);
    else if (LOCALE_LINE.test(t)) add('locale', i, t);
    else if (VERSION_COMMAND.test(t)) {
      const next = withoutStamp(lines[i + 1] ?? '').trim();
      // What the command printed, unless it is another command or nothing.
      if (next !== '' && !/^\+ |^\[Pipeline\]/.test(next) && /\d+\.\d+/.test(next)) add('version', i + 1, `${(VERSION_COMMAND.exec(t) as RegExpExecArray)[1] as string}: ${next}`);
    }
  }
  return { found, read: { start_line: stored.start_line, end_line: stored.start_line + Math.min(lines.length, HEAD_LINES) - 1 } };
}

/** The context's own facts of where the build ran: the node, the build environment's variables. */
function contextFacts(ci: CiContext, out: ReplyBuilder): string[] {
  const said: string[] = [];
  const node = ci.buildDetails?.builtOnNode;
  if (typeof node === 'string' && node.trim() !== '') {
    out.fact('buildDetails.builtOnNode');
    said.push(`- The build ran on node ${inlineCode(node)} (\`buildDetails.builtOnNode\`).`);
  }
  const env = ci.ciEnvironment ?? {};
  const named = ENV_NAMES.filter((n) => typeof env[n] === 'string' && (env[n] as string) !== '');
  if (named.length > 0) {
    for (const n of named) out.fact(`ciEnvironment.${n}`);
    said.push(`- The build environment had ${named.map((n) => `${inlineCode(n)} = ${inlineCode(clip(env[n] as string, 80))}`).join(', ')}.`);
  }
  return said;
}

/** "It works on my machine, why not on CI?" */
const worksLocally: Composer = ({ ci, ctx, q }) => {
  const build = buildLabel(ci);
  const out = new ReplyBuilder();
  const { found: seen, read } = hasLog(ctx) ? runLines(ctx) : { found: { agent: [], os: [], version: [], setting: [], locale: [] } as Kinds, read: undefined };
  // A claim that the log prints nothing of a kind speaks of the lines read: all of the log, or the part held.
  const readWords = read ? logReadWords(ctx, read) : undefined;
  const bullets: string[] = [];
  const cited = (s: Seen): string => {
    out.log({ start_line: s.line, end_line: s.line });
    return `${inlineCode(clip(s.text, 140))} ${cite({ start_line: s.line, end_line: s.line })}`;
  };
  if (seen.agent.length > 0) bullets.push(`- Where it ran: ${seen.agent.map(cited).join('; ')}.`);
  if (seen.os.length > 0) bullets.push(`- The system: ${seen.os.map(cited).join('; ')}.`);
  if (seen.version.length > 0) bullets.push(`- The tool versions it printed: ${seen.version.map(cited).join('; ')}.`);
  if (seen.setting.length > 0) bullets.push(`- Settings the build's shell set: ${seen.setting.map(cited).join('; ')}.`);
  if (seen.locale.length > 0) bullets.push(`- The locale or time zone: ${seen.locale.map(cited).join('; ')}.`);
  bullets.push(...contextFacts(ci, out));
  const top = hasLog(ctx) ? rankedErrorExcerpts(ctx)[0] : undefined;
  const found = top ? findingFor(ctx, top) : undefined;
  if (found && top) out.log({ start_line: found.message_line, end_line: found.message_line });
  const failed = found && top ? `${build} failed on ${citeMessage(found, lineTextOf(ctx, top))}: ${inlineCode(clip(found.message))}` : undefined;
  if (bullets.length === 0) {
    const printed = readWords ? `${readWords === 'the log' ? 'it' : readWords} prints no tool versions, system, locale or settings of the run` : 'this chat holds no log text';
    out.line(`**I can't tell from the log what differs from your machine:** ${printed}, and the context names no agent or build environment.${failed ? ` ${failed.charAt(0).toUpperCase()}${failed.slice(1)}.` : ''}`);
    out.line();
    out.line('Printing the versions of the tools the build uses (`node --version`, `java -version`...) and `uname -a` in the job, next to the same on your machine, would show it.');
    return out.reply();
  }
  out.line(`**What the CI run shows of where and with what it ran** (I see only the build's side, not your machine: compare each with yours):`);
  for (const b of bullets) out.line(b);
  const none = [seen.version.length === 0 ? 'no tool versions' : '', seen.os.length === 0 ? 'no system (OS, architecture)' : '', seen.locale.length === 0 && seen.setting.length === 0 ? 'no locale, time zone or settings' : ''].filter(Boolean);
  if (readWords && none.length > 0) out.line().line(`${readWords.charAt(0).toUpperCase()}${readWords.slice(1)} prints ${none.length === 1 ? none[0] : `${none.slice(0, -1).join(', ')} and ${none[none.length - 1] as string}`} of the run: I can't compare ${none.length === 1 ? 'it' : 'them'}.`);
  if (failed) {
    out.line();
    out.line(`${failed.charAt(0).toUpperCase()}${failed.slice(1)}; which of these differences matters depends on what that error needs.`);
  }
  // macOS and Windows file systems ignore letter case by default; a Linux agent's do not (said only for a name not found on a Unix path).
  // A macOS agent's path may be any Unix path (`/opt/ci/ws`): its system line or RUNNER_OS says what it is.
  const macOrWindows = seen.os.some((s) => /\b(?:Darwin|macOS|Microsoft Windows)\b/.test(s.text)) || /^(?:macOS|Windows)$/.test(String(ci.ciEnvironment?.RUNNER_OS ?? ''));
  const unixPath = !macOrWindows && seen.agent.some((s) => /\s\/(?!Users\/)\S/.test(s.text) || /^Building in workspace \//.test(s.text));
  if (/\b(mac|macos|macbook|windows|osx)\b/.test(q) && unixPath && found && /not found|no such file|cannot find|can't find|could not find|unable to (?:find|resolve)|no module named|cannot load/i.test(found.message)) {
    out.line();
    out.line("macOS's and Windows' file systems ignore letter case by default, the agent's path above is a Unix one, where they usually do not: if the name not found differs only in case from a file of yours, it works on your machine and not there.");
  }
  return out.reply();
};

export const elsewhereAnswers: AnswerGroup = { name: 'elsewhere', composers: { worksLocally } };
