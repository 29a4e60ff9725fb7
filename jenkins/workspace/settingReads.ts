/**
 * The settings a failure depends on, read from the workspace (issue 25, "how do I fix it?"; session 51, helper fx13):
 * - the environment variables the failing file, or the script the failing command ran, reads (`process.env.FORGE_TOKEN`,
 *   `os.environ.get("METRICS_GATEWAY", ...)`, `-pass env:SECRETS_PASS`), and the variables that script sets for its own
 *   commands (`PROTOS_REMOTE=http://...` over `git clone "$PROTOS_REMOTE"`); with the step's traced assignments of a
 *   variable named like one it reads (`+ export RELEASE_TOKEN=...` where the file reads `FORGE_TOKEN`);
 * - for a full disk, where the directory written to is set: a project line that assigns it (`OBJDIR = /tmp/b/obj`),
 *   or the variable a traced command shows holding it (`+ mkdir -p /tmp/b/covfs/units` run from
 *   `mkdir -p "$COVERAGE_DIR"`), and the project files that read that variable.
 * Each hit is a workspace line and a message (the clue's words, backend/answer/local/settingSteps.ts words them).
 */
import { bodyOf } from '../../core/finding/body.js';
import { echoedCommand, stepSpan } from '../../core/log/failingStep.js';
import { escapeRegExp } from '../../core/regexp.js';
import { scriptRunBy } from './scriptTrace.js';

export interface SettingHit {
  rel: string;
  /** 0-based line. */
  index: number;
  message: string;
}

export interface SettingFile {
  rel: string;
  lines: readonly string[];
}

/** Variables a shell sets for itself or that say nothing of a job's settings. */
const NOT_A_SETTING = new Set(['HOME', 'PATH', 'PWD', 'OLDPWD', 'USER', 'SHELL', 'IFS', 'RANDOM', 'LINENO', 'HOSTNAME', 'UID', 'EUID', 'PPID', 'SECONDS', 'BASH_SOURCE', 'BASH_VERSION', 'FUNCNAME', 'PIPESTATUS', 'TERM', 'LANG', 'LC_ALL', 'OPTARG', 'OPTIND', 'REPLY', 'NODE_ENV']);

/** An environment variable read, by the usual form of each language (the name is the first group). */
const ENV_READS: readonly RegExp[] = [
  /\bprocess\.env\.([A-Za-z_]\w*)/g,
  /\bprocess\.env\[\s*['"`]([A-Za-z_]\w*)['"`]\s*\]/g,
  /\bos\.environ(?:\.get)?\s*[([]\s*['"]([A-Za-z_]\w*)['"]/g,
  /\bos\.getenv\(\s*['"]([A-Za-z_]\w*)['"]/g,
  /\bENV(?:\.fetch)?\s*[([]\s*['"]([A-Za-z_]\w*)['"]/g,
  /\bSystem\.getenv\(\s*"([A-Za-z_]\w*)"/g,
  /\bos\.(?:Getenv|LookupEnv)\(\s*"([A-Za-z_]\w*)"/g,
  /\benv::var(?:_os)?\(\s*"([A-Za-z_]\w*)"/g,
  /\b(?:getenv|Sys\.getenv|Deno\.env\.get)\(\s*['"]([A-Za-z_]\w*)['"]/g,
  /\$ENV\{\s*['"]?([A-Za-z_]\w*)['"]?\s*\}/g,
  /\$\{env\.([A-Za-z_]\w*)\}/g,
  /\benv:([A-Z_][A-Z0-9_]{2,})\b/g,
];

const SHELL_FILE = /(?:^|\/)(?:[^/]+\.(?:sh|bash|ksh|zsh)|Jenkinsfile|Dockerfile)$|^[^.]+$/;
const MAKE_FILE = /(?:^|\/)(?:GNU)?[Mm]akefile$|\.mk$/;

/** Whether a line is a comment in the usual languages. */
const COMMENT = /^\s*(?:#(?!!)|\/\/|\/\*|\*|--\s|;)/;

/**
 * The environment variables a file reads, first read of each, in file order. A shell script's `$NAME`, `${NAME:-x}`
 * counts for an upper-case name the script never assigns itself.
 */
export function environmentReads(rel: string, lines: readonly string[]): { name: string; index: number }[] {
  const out: { name: string; index: number }[] = [];
  const add = (name: string, index: number): void => {
    if (!NOT_A_SETTING.has(name) && !out.some((x) => x.name === name)) out.push({ name, index });
  };
  const shell = SHELL_FILE.test(rel) && (rel.includes('.') || /^#!.*\b(?:ba|da|z|k)?sh\b/.test(lines[0] ?? ''));
  const assigned = shell ? new Set(lines.flatMap((l) => [...l.matchAll(/(?:^|[\s;(])(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?([A-Z_][A-Z0-9_]*)=|\bread\s+(?:-\w+\s+)*([A-Z_][A-Z0-9_]*)|\bfor\s+([A-Z_][A-Z0-9_]*)\s+in\b/g)].map((m) => (m[1] ?? m[2] ?? m[3]) as string))) : new Set<string>();
  lines.forEach((line, index) => {
    if (COMMENT.test(line)) return;
    for (const re of ENV_READS) for (const m of line.matchAll(re)) add(m[1] as string, index);
    if (shell) for (const m of line.matchAll(/\$\{?([A-Z_][A-Z0-9_]{2,})(?![\w])/g)) if (!assigned.has(m[1] as string)) add(m[1] as string, index);
  });
  return out;
}

/** The upper-case variables a shell script or Makefile assigns itself and uses on a later line (`NAME=value` ... `"$NAME"`). */
export function ownSettings(rel: string, lines: readonly string[]): { name: string; index: number; value: string; usedAt: number }[] {
  const make = MAKE_FILE.test(rel);
  if (!make && !SHELL_FILE.test(rel)) return [];
  const out: { name: string; index: number; value: string; usedAt: number }[] = [];
  lines.forEach((line, index) => {
    const m = make ? /^([A-Z][A-Z0-9_]{2,})\s*[:?+!]?=\s*(\S.*)$/.exec(line) : /^(?:export\s+|readonly\s+)?([A-Z][A-Z0-9_]{2,})=(\S.*)$/.exec(line);
    if (!m || out.some((x) => x.name === m[1])) return;
    // A default the environment overrides (`NAME=${NAME:-x}`, `${OTHER-x}`, make's `?=`): the job's value wins there.
    if (/\$\{\w+:?[-=]/.test(m[2] as string) || (make && /^\s*\S+\s*\?=/.test(line))) return;
    const name = m[1] as string;
    const use = new RegExp(make ? `\\$[({]${name}[)}]` : `\\$\\{?${name}(?![\\w])`);
    const usedAt = lines.findIndex((l, k) => k > index && !COMMENT.test(l) && use.test(l));
    if (usedAt >= 0) out.push({ name, index, value: (m[2] as string).trim(), usedAt });
  });
  return out;
}

/** The words of a variable's name (`RELEASE_NOTES_TOKEN` -> release, notes, token). */
const wordsOf = (name: string): string[] => name.toLowerCase().split('_').filter((w) => w.length >= 2);

/** The first line (0-based) of the build step that log line `upTo` (1-based) belongs to (core/log/failingStep.ts `stepSpan`). */
const stepFrom = (log: readonly string[], upTo: number): number => stepSpan(upTo - 1, log.length, (i) => bodyOf(log[i] ?? '')).from;

/** The variables the failing step's `sh -x` trace assigned before log line `upTo` (1-based), with their lines; not an earlier step's. */
export function tracedAssignments(log: readonly string[], upTo: number): { name: string; line: number }[] {
  const out: { name: string; line: number }[] = [];
  for (let i = stepFrom(log, upTo); i < Math.min(log.length, upTo); i++) {
    const m = /^\+{1,2} (?:export )?([A-Za-z_]\w*)=/.exec(bodyOf(log[i] ?? '').trim());
    if (m) out.push({ name: m[1] as string, line: i + 1 });
  }
  return out;
}

/** How much a variable's name says it is the setting a failure of this class is about (higher first). */
function relevance(name: string, cls: string): number {
  const by: Record<string, RegExp> = {
    'permission-credentials': /TOKEN|PASS|SECRET|KEY|AUTH|USER|CRED|LOGIN/,
    network: /URL|URI|HOST|ADDR|GATEWAY|REMOTE|ENDPOINT|PORT|SERVER|API|PROXY|MIRROR|REGISTRY/,
    'disk-full': /DIR|PATH|OUT|CACHE|TMP|DEST|ROOT/,
    'timeout-aborted': /TIMEOUT|REMOTE|URL|HOST|PORT|WAIT|RETR/,
  };
  return by[cls]?.test(name) ? 1 : 0;
}

/**
 * The settings of one file the failure ran through (the failing source, or the script the failing command ran): the
 * environment variables it reads and, for a script, the variables it sets for its own commands; at most two, the
 * names that fit the failure's class first. `log` and `errorLine` (1-based) give the step's traced assignments.
 */
export function fileSettings(file: SettingFile, cls: string, log: readonly string[], errorLine: number): SettingHit[] {
  const traced = tracedAssignments(log, errorLine);
  const reads = environmentReads(file.rel, file.lines).map((r, k) => ({ ...r, k, score: relevance(r.name, cls) }));
  const hits: (SettingHit & { score: number; k: number })[] = reads.map((r) => {
    const set = traced.filter((t) => t.name === r.name);
    // A variable the trace assigned under another name that shares the read one's last word (`RELEASE_TOKEN`, `FORGE_TOKEN`).
    const last = wordsOf(r.name).pop();
    // Not a variable the file assigns itself (`OUT=${ARTIFACT_OUT:-x}` is traced as `+ OUT=x`).
    const own = (name: string): boolean => file.lines.some((l) => new RegExp(`(?:^|[\\s;(])(?:export\\s+|local\\s+)?${name}=`).test(l));
    const alike = set.length === 0 && last ? traced.filter((t) => t.name !== r.name && wordsOf(t.name).pop() === last && !reads.some((x) => x.name === t.name) && !own(t.name)) : [];
    const said = set.length > 0 ? `, which the step's trace sets at log line ${(set[set.length - 1] as { line: number }).line}` : alike.length > 0 ? `, and the step's trace sets ${(alike[alike.length - 1] as { name: string }).name} at log line ${(alike[alike.length - 1] as { line: number }).line}, not ${r.name}` : '';
    return { rel: file.rel, index: r.index, message: `reads the environment variable ${r.name}${said}`, score: r.score + (alike.length > 0 ? 2 : 0), k: r.k };
  });
  for (const s of ownSettings(file.rel, file.lines)) {
    hits.push({ rel: file.rel, index: s.index, message: `sets ${s.name} for its own commands, which line ${s.usedAt + 1} uses`, score: relevance(s.name, cls), k: hits.length });
  }
  // Only a name that fits the class, or that the trace ties to the failure, is said: `FORGE_API` is no credential.
  return hits
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || a.k - b.k)
    .slice(0, 2)
    .map(({ rel, index, message }) => ({ rel, index, message }));
}

/** Absolute paths a text names (`/tmp/b/obj/x.o`), two segments at least. */
const ABSOLUTE = /(?:^|[\s'"`(=:])(\/(?:[\w.@+-]+\/)+[\w.@+-]+)/g;

/** A `df` output row: its use and its mount point. */
const DF_ROW = /^\S+\s+\S+\s+\S+\s+(\S+)\s+(\d+)%\s+(\/\S*)$/;

/**
 * The directories a full disk's failure is about, each with the log line that names it and how: the path of the
 * failed write (`write`), a filesystem the step's `df` shows full (`full`), a directory the step's `df` measured
 * (`measured`).
 */
export function fullDiskPlaces(log: readonly string[], message: string, errorLine: number): { path: string; line: number; how: 'write' | 'full' | 'measured' }[] {
  const out: { path: string; line: number; how: 'write' | 'full' | 'measured' }[] = [];
  for (const m of message.matchAll(ABSOLUTE)) {
    // Not the source of a copy (`copying /opt/x.csv to /mnt/b/x.csv`, `/opt/x.csv -> /mnt/b/x.csv`): it was read.
    if (/^\/(?:dev|proc|sys)\//.test(m[1] as string) || /^\s*(?:->|to)\s+['"`]?\//.test(message.slice((m.index ?? 0) + m[0].length))) continue;
    out.push({ path: m[1] as string, line: errorLine, how: 'write' });
  }
  const found: typeof out = [];
  // The failing step's `df` only, its EXIT trap's included: another step's (a post step's, an earlier stage's) measured
  // another moment, maybe another node.
  const { from, to } = stepSpan(errorLine - 1, log.length, (i) => bodyOf(log[i] ?? ''));
  for (let i = from; i <= to && i < log.length; i++) {
    const body = bodyOf(log[i] ?? '').trim();
    const row = DF_ROW.exec(body);
    if (row && ((row[2] as string) === '100' || /^0(?:\.0)?[KMGB]?$/.test(row[1] as string)) && (row[3] as string).length > 1) found.push({ path: row[3] as string, line: i + 1, how: 'full' });
    const df = /^df(?:\s+-\w+)*\s+(\/\S+)$/.exec(echoedCommand(body) ?? '');
    if (df) found.push({ path: df[1] as string, line: i + 1, how: 'measured' });
  }
  // The most telling first: the write's own path, a filesystem shown full, then a directory only measured.
  return [...out, ...found.filter((p) => p.how === 'full'), ...found.filter((p) => p.how === 'measured')];
}

/** `a` is `b` or lies under it. */
const under = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);

/** A script line's command as a pattern of its traced form: each `$VAR` / `"${VAR}"` a group, other quotes dropped. */
function tracePattern(segment: string): { re: RegExp; names: string[] } | undefined {
  const names: string[] = [];
  let src = '';
  const parts = segment.trim().split(/("?\$\{?[A-Za-z_]\w*\}?"?)/);
  for (const part of parts) {
    const v = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(part);
    if (v) {
      names.push(v[1] as string);
      src += '(\\S+?)';
    } else src += escapeRegExp(part.replace(/["']/g, '')).replace(/\s+/g, '\\s+');
  }
  return names.length > 0 ? { re: new RegExp(`^${src}$`), names } : undefined;
}

/** The files a build tool reads when the step runs it without naming one (`make` reads the Makefile). */
const TOOL_FILES: readonly (readonly [RegExp, RegExp])[] = [
  [/^g?make$/, /^(?:GNU)?[Mm]akefile$/],
  [/^mvnw?$/, /^pom\.xml$/],
  [/^gradlew?$/, /^(?:build|settings)\.gradle(?:\.kts)?$|^gradle\.properties$/],
  [/^(?:npm|npx|yarn|pnpm)$/, /^package\.json$/],
  [/^docker$/, /^Dockerfile$/],
];

/**
 * Whether the failing step ran a project file, as its traced commands show: a command names it (`./ci/build.sh`,
 * `make -f mk/build.mk`), or runs the tool that reads it by default (`make` and the Makefile, at the root or in a
 * directory the command names); a Pipeline's steps are the Jenkinsfile's.
 */
function ranByStep(rel: string, commands: readonly string[], pipeline: boolean): boolean {
  if (pipeline && /(?:^|\/)Jenkinsfile$/.test(rel)) return true;
  const dir = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  return commands.some((command) => {
    const words = command.split(/[\s=]+/).map((w) => w.replace(/^['"]|['"]$/g, '').replace(/^\.\//, '').replace(/\/$/, ''));
    if (words.includes(rel)) return true;
    const program = (command.split(/\s+/).find((w) => !/^[A-Za-z_]\w*=/.test(w)) ?? '').split('/').pop() ?? '';
    return TOOL_FILES.some(([tool, file]) => tool.test(program) && file.test(base)) && (dir === '' || words.includes(dir));
  });
}

/**
 * For a full disk: the project lines that set the directory the failure is about. A line that assigns it as a literal
 * (`OBJDIR = /tmp/b/obj`), or a script line whose traced run shows a variable holding it (`mkdir -p "$COVERAGE_DIR"`
 * traced as `+ mkdir -p /tmp/b/covfs/units`), then the files that read that variable (`process.env.COVERAGE_DIR`,
 * `${env.TEST_REPORTS_DIR}`). At most three lines.
 */
export function fullDiskSettings(files: readonly SettingFile[], log: readonly string[], message: string, errorLine: number): SettingHit[] {
  const places = fullDiskPlaces(log, message, errorLine);
  // A write to `/dev/full` fails whatever the space (backend/answer/local/remedyClass.ts says so): no directory to move.
  if (places.length === 0 || log.slice(0, errorLine).some((l) => l.includes('/dev/full'))) return [];
  const out: SettingHit[] = [];
  // A directory set holds the failed write's path; it lies on the filesystem a `df` shows or measures.
  const placeFor = (value: string): (typeof places)[number] | undefined => places.find((p) => (p.how === 'write' ? under(p.path, value) : under(value, p.path)));
  // A literal assignment of the directory: in a file the step ran first; another project file may be one the build
  // never read, and is said to be only that (review rv1, session 51).
  const body = (i: number): string => bodyOf(log[i] ?? '');
  const ranCommands: string[] = [];
  // From the step's start (`[job] $ /bin/bash -xe ci.sh`, `##[group]Run bash -xe ci.sh` name the script) to the error.
  for (let i = Math.max(0, stepFrom(log, errorLine) - 1); i < Math.min(log.length, errorLine); i++) ranCommands.push(echoedCommand(body(i).trim()) ?? '');
  const pipeline = log.some((l) => bodyOf(l).startsWith('[Pipeline] '));
  const ran = (rel: string): boolean => ranByStep(rel, ranCommands, pipeline);
  for (const file of [...files.filter((f) => ran(f.rel)), ...files.filter((f) => !ran(f.rel))]) {
    file.lines.forEach((line, index) => {
      if (out.length >= 1 || COMMENT.test(line)) return;
      const m = /^\s*(?:export\s+)?([A-Za-z_][\w.]*)\s*[:?+]?=\s*['"]?(\/[\w.@+/-]+?)\/?['"]?\s*$/.exec(line) ?? /^\s*<([\w.]+)>\s*(\/[\w.@+/-]+?)\/?\s*<\/\1>\s*$/.exec(line);
      const place = m && (m[2] as string).split('/').length >= 3 ? placeFor(m[2] as string) : undefined;
      // The step's trace of the assignment itself (`+ export BUILD=/tmp/b/x`) shows the line ran, whatever ran it.
      const traced = m !== null && ranCommands.some((c) => c.replace(/^export\s+/, '').replace(/["']/g, '') === `${m[1] as string}=${m[2] as string}`);
      const unran = traced || ran(file.rel) ? '' : ', in a file the log does not show the step running';
      if (m && place) out.push({ rel: file.rel, index, message: `sets ${m[1] as string} to ${m[2] as string}, the directory of ${place.path}, which log line ${place.line} names (${place.how})${unran}` });
    });
  }
  if (out.length > 0) return out;
  // A variable a traced command shows holding it.
  // The failing step's own trace, up to the error: what another step or a later one ran is not "the step's trace".
  for (let i = stepFrom(log, errorLine); i < Math.min(log.length, errorLine) && out.length === 0; i++) {
    const traced = echoedCommand(bodyOf(log[i] ?? '').trim());
    if (!traced || !/^\+/.test(bodyOf(log[i] ?? '').trim())) continue;
    const paths = [...` ${traced}`.matchAll(ABSOLUTE)].map((m) => m[1] as string);
    if (!paths.some((p) => placeFor(p))) continue;
    for (const file of files.filter((f) => SHELL_FILE.test(f.rel) || MAKE_FILE.test(f.rel))) {
      const at = file.lines.findIndex((line) => !COMMENT.test(line) && line.split(/\s*(?:\||&&|;)\s*/).some((seg) => {
        const p = tracePattern(seg);
        const m = p?.re.exec(traced);
        if (!p || !m) return false;
        const k = p.names.findIndex((_, j) => placeFor(m[j + 1] as string) !== undefined);
        if (k < 0) return false;
        const value = m[k + 1] as string;
        const place = placeFor(value) as (typeof places)[number];
        const name = p.names[k] as string;
        out.push({ rel: file.rel, index: -1, message: `runs with ${name} as ${value}, traced at log line ${i + 1}, the directory of ${place.path}, which log line ${place.line} names (${place.how})` });
        return true;
      }));
      if (at >= 0) {
        (out[0] as SettingHit).index = at;
        break;
      }
      out.length = 0;
    }
  }
  const variable = /^runs with (\S+) as /.exec(out[0]?.message ?? '')?.[1];
  if (!variable) return out;
  for (const file of files) {
    if (file.rel === out[0]?.rel || out.length >= 3) continue;
    const read = environmentReads(file.rel, file.lines).find((r) => r.name === variable);
    if (read) out.push({ rel: file.rel, index: read.index, message: `reads ${variable}, the variable that holds that directory` });
  }
  return out;
}

/** Classes whose failing file's environment reads are the settings to check (an address, a credential, a directory, a wait). */
const READS_MATTER = new Set(['network', 'permission-credentials', 'disk-full', 'timeout-aborted']);
/** Files a setting may live in: scripts, configuration, manifests, sources; not documents or data. */
const NOT_SETTINGS = /\.(?:md|markdown|rst|adoc|txt|html?|svg|csv|tsv|log|out|golden|snap|lock|map|min\.js)$|(?:^|\/)(?:node_modules|vendor|third_party|\.[\w-]+)\//;

/**
 * The setting lines of the workspace for a failure of a step (see the module's comment): at most three, each a line
 * of a project file. `command` is the traced command that failed, when the log shows it.
 */
export async function settingHits(
  io: { files: readonly string[]; read: (rel: string) => Promise<readonly string[] | undefined> },
  log: readonly string[],
  top: { class: string; message: string; message_line: number },
  failingRel: string | undefined,
  command: string | undefined,
): Promise<SettingHit[]> {
  const out: SettingHit[] = [];
  // One line per variable: the first, most telling, says it.
  const variableOf = (h: SettingHit): string | undefined => /^(?:reads the environment variable|sets|runs with|reads) (\w+)/.exec(h.message)?.[1];
  const add = (hits: readonly SettingHit[]): void => {
    for (const h of hits) if (out.length < 3 && !out.some((x) => (x.rel === h.rel && x.index === h.index) || (variableOf(x) === variableOf(h) && !/^reads \w+, the variable that holds/.test(h.message)))) out.push(h);
  };
  const fileOf = async (rel: string): Promise<SettingFile | undefined> => ((lines) => (lines ? { rel, lines } : undefined))(await io.read(rel));
  if (top.class === 'disk-full') {
    const files: SettingFile[] = [];
    for (const rel of io.files.filter((f) => !NOT_SETTINGS.test(f)).slice(0, 300)) {
      const f = await fileOf(rel);
      if (f && f.lines.length <= 5000) files.push(f);
    }
    add(fullDiskSettings(files, log, top.message, top.message_line));
  }
  const failing = failingRel && READS_MATTER.has(top.class) && io.files.includes(failingRel) ? await fileOf(failingRel) : undefined;
  if (failing) add(fileSettings(failing, top.class, log, top.message_line));
  // The workspace script the failing command ran (`./scripts/sync-protos.sh`): its own settings and the ones it reads.
  const path = command ? scriptRunBy(command, io.files) : undefined;
  const script = path && path !== failingRel ? await fileOf(path) : undefined;
  if (script && SHELL_FILE.test(script.rel)) add(fileSettings(script, top.class, log, top.message_line));
  return out;
}
