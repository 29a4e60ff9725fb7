/**
 * Fixes that name the thing the evidence names (helper fx7, session 45; issue 25 point 3): where a
 * class's general remedy says "the path", "the filesystem" or "the caller", the log often names it.
 * Each reader here takes one shape a senior engineer would cite, whatever the tool:
 *
 * - the filesystem a full disk filled, as a `df` the step ran showed it (before or after the error), and
 *   the step's variable that names that directory (`+ BUILD_OUT=/mnt/out`, or a trap's `df -k "$BUILD_OUT"`
 *   that bash -x later echoes as `df -k /mnt/out`);
 * - the frame that called the raise site (`mean` was called from `mean_by_station` at `report.py:15`): the
 *   code that gave the failing line its values, and the arguments pytest printed for the raise site;
 * - the path a refused or missing-path error names, when a step variable holds it;
 * - a refused connection's two sides: the port the client used and the ports the step's services were started on;
 * - an exception's own lines under its message, and the fields of Node's system error (`path:`, `address:`, `port:`).
 *
 * Each fact cites its lines; nothing is said when the log does not show it.
 */
import type { CiContext, Finding, WorkspaceSnippet } from '../../../protocol/types.js';
import { tracesIn } from '../../../core/finding/frames.js';
import { escapeRegExp } from '../facts.js';
import { cite, inlineCode, withoutStamp, type LogSpan } from '../logtext.js';
import { at } from './findingText.js';
import { osConditionOf } from './osCondition.js';
import { isLoadFailure } from './exceptions.js';
import { addressPorts } from '../../../core/log/values.js';
import { rule, type Caller, type RemedyRule, type RemedyStep } from './remedyShape.js';
import { TEST_FILE } from './testFrame.js';
import { numbered, sameFile, snippetsOf } from './workspace.js';

/** One row of `df` output: `tmpfs 320 320 0 100% /mnt/x` (1K blocks or `-h` sizes). */
export interface DfRow {
  line: number;
  row: string;
  size: string;
  avail: string;
  use: string;
  mount: string;
  /** The unit df's heading gives its sizes in (`1K-blocks` -> KiB), when they have no suffix of their own. */
  unit?: string;
}

const DF_HEAD = /^Filesystem\s+(?:1K-blocks|Size|1M-blocks|\d+[KM]?-blocks)\s+Used\s+Avail/;
const DF_ROW = /^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+%)\s+(\/\S*)$/;

/** A reader of the log's lines by log line number, stamps stripped and trimmed ('' outside the span). */
/** A reader of the stored log's lines by number, stamps stripped and trimmed. */
export function reader(log: LogSpan): (n: number) => string {
  const lines = log.text.split('\n');
  return (n: number): string => withoutStamp(lines[n - log.start_line] ?? '').trim();
}

/**
 * The `df` rows between two log lines: a row under df's heading, or right under the traced `df`
 * command itself (`+ df -h DIR | tail -1` prints the row alone).
 */
export function dfRows(log: LogSpan, from: number, to: number): DfRow[] {
  const text = reader(log);
  const out: DfRow[] = [];
  const first = Math.max(log.start_line, from);
  const last = Math.min(log.end_line, to);
  for (let n = first; n <= last; n++) {
    const above = text(n - 1);
    const under = DF_HEAD.test(above) || /^\+{1,2} df\b/.test(above) || (/^\+{1,2} (?:tail|head)\b/.test(above) && /^\+{1,2} df\b/.test(text(n - 2)));
    if (!under) continue;
    const m = DF_ROW.exec(text(n));
    if (!m) continue;
    const unit = DF_HEAD.test(above) ? { '1K': ' KiB', '1M': ' MiB' }[/^Filesystem\s+(1[KM])-blocks/.exec(above)?.[1] ?? ''] : undefined;
    out.push({ line: n, row: text(n).replace(/\s+/g, ' '), size: m[2] as string, avail: m[4] as string, use: m[5] as string, mount: m[6] as string, ...(unit ? { unit } : {}) });
  }
  return out;
}

const NAME = /\$\{?([A-Za-z_]\w*)\}?/g;

/** A step variable's value as the trace shows it, and the lines that show it. */
export interface StepVariable {
  name: string;
  value: string;
  /** The assignment (`+ X=v`), or the line that names `$X` and the one bash echoed it expanded on. */
  lines: number[];
  /** How it was read: `set` (an assignment) or `expanded` (a template and its expansion). */
  how: 'set' | 'expanded';
  /** The command that shows the expansion, as the trace names it before and after (`df -k "$X"`, `df -k /v`). */
  template?: string;
  expanded?: string;
}

/**
 * The step's variables with an absolute path for a value, read from a bash -x trace between two lines:
 * assignments (`+ X=/v`, `+ export X=/v`), and a command written with `$X` (a trap's or a function's
 * body, echoed unexpanded when it was defined) that bash later echoed with `$X` expanded.
 */
export function pathVariables(log: LogSpan, from: number, to: number): StepVariable[] {
  const text = reader(log);
  const first = Math.max(log.start_line, from);
  const last = Math.min(log.end_line, to);
  const out: StepVariable[] = [];
  const traced: { n: number; t: string }[] = [];
  for (let n = first; n <= last; n++) {
    const t = text(n);
    if (!/^\+{1,3} \S/.test(t)) continue;
    traced.push({ n, t: t.replace(/^\+{1,3} /, '') });
    const set = /^(?:export |declare -x |readonly )?([A-Za-z_]\w*)=['"]?(\/[^\s'"]*)['"]?$/.exec(t.replace(/^\+{1,3} /, ''));
    if (set) out.push({ name: set[1] as string, value: (set[2] as string).replace(/\/+$/, '') || '/', lines: [n], how: 'set' });
  }
  for (const { n, t } of traced) {
    if (!t.includes('$')) continue;
    // The commands of a trap's or a function's body, each with at least one word of its own besides the variables.
    for (const raw of t.split(/;|&&|\|\||'/)) {
      const written = raw.trim().replace(/^trap\s+/, '');
      const frag = written.replace(/"/g, '');
      const names = [...frag.matchAll(NAME)].map((m) => m[1] as string);
      if (names.length !== 1 || !/^[\w.-]+\s/.test(frag)) continue;
      const [head, tail] = frag.split(/\$\{?[A-Za-z_]\w*\}?/) as [string, string];
      if (!/\w/.test(head)) continue;
      const re = new RegExp(`^${escapeRegExp(head)}'?(/[^\\s'"]*?)'?${escapeRegExp(tail)}$`);
      const later = traced.find((x) => x.n > n && re.test(x.t));
      if (!later) continue;
      const value = (re.exec(later.t)?.[1] as string).replace(/\/+$/, '') || '/';
      if (out.some((v) => v.name === names[0] && v.value === value)) continue;
      out.push({ name: names[0] as string, value, lines: [n, later.n], how: 'expanded', template: written, expanded: later.t });
    }
  }
  return out;
}

/** The variable whose value holds `path` (equal, or a directory above it, or one below a mount point); the most specific first. */
export function variableHolding(vars: readonly StepVariable[], path: string, mount = false): StepVariable | undefined {
  const under = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir === '/' ? '' : dir}/`);
  return vars
    .filter((v) => v.value !== '/' && (under(path, v.value) || (mount && under(v.value, path))))
    .sort((a, b) => b.value.length - a.value.length)[0];
}

/** Absolute paths a message names (`/mnt/out/x.o: No space left`, `'/var/tmp/x'`). */
function absolutePaths(message: string): string[] {
  return [...message.matchAll(/(?:^|[\s'"`(=:])(\/[\w.@+-]+(?:\/[\w.@+-]+)*)/g)].map((m) => m[1] as string).filter((p) => !/^\/(?:usr\/bin|bin|dev)\//.test(p));
}

function variableSentence(v: StepVariable, what: string): RemedyStep {
  const shown =
    v.how === 'set'
      ? `${inlineCode(`$${v.name}`)} is ${inlineCode(v.value)} in this step ${at(v.lines[0] as number)}`
      : `${inlineCode(`$${v.name}`)} is ${inlineCode(v.value)} in this step (${inlineCode(v.template ?? '')} ${at(v.lines[0] as number)} ran as ${inlineCode(v.expanded ?? '')} ${at(v.lines[1] as number)})`;
  return { text: `${shown}: ${what}`, lines: v.lines };
}

/** A full disk: the filesystem `df` showed, and the step's variable that names it. */
function diskSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const rows = dfRows(log, f.message_line - 200, f.message_line + 40);
  const out: RemedyStep[] = [];
  const before = rows.filter((r) => r.line < f.message_line).pop();
  const after = rows.find((r) => r.line > f.message_line);
  for (const r of [before, after]) {
    if (!r) continue;
    out.push({ text: `The step's \`df\` ${r.line < f.message_line ? 'before' : 'after'} the error showed ${inlineCode(r.row)} ${at(r.line)}: ${inlineCode(r.mount)} is ${r.size}${r.unit ?? ''} in all, ${r.avail}${r.unit ?? ''} free, ${r.use} used then.`, lines: [r.line] });
  }
  const vars = pathVariables(log, log.start_line, f.message_line + 40);
  const paths = [...absolutePaths(f.message), ...rows.map((r) => r.mount)];
  for (const p of paths) {
    const v = variableHolding(vars, p, rows.some((r) => r.mount === p));
    if (!v) continue;
    out.push(variableSentence(v, "the variable names the filesystem `df` showed. Point it at one with room for what the step writes, or give that one more space."));
    break;
  }
  return out;
}

/** A path the operating system refused or did not find: the step's variable that names it. */
function pathSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const os = osConditionOf(f.message);
  if (!os || os.kind === 'no-space' || os.kind === 'refused') return [];
  const vars = pathVariables(log, log.start_line, f.message_line);
  for (const p of absolutePaths(f.message)) {
    const v = variableHolding(vars, p);
    if (v) return [variableSentence(v, `the path the error names comes from that variable; check the value the step gives it.`)];
  }
  return [];
}

/** The classes whose raise site a caller's frame gave its values (a program's or a test's exception, a client's network error). */
const CALLER_CLASSES = new Set(['runtime-exception', 'test-error', 'network']);

/**
 * The frame that called the raise site, when the stack shows one in the project's code (not a test file,
 * another function than the raise site's), and the arguments pytest printed for the raise site's function
 * (`values = []` above its `def`).
 */
export function callerOf(f: Finding, log: LogSpan | undefined): Caller | undefined {
  // The place the finding gives (the project's own frame when the raise site is a library's), else the raise site.
  const raise = f.location?.line !== undefined ? { file: f.location.file, line: f.location.line, log_line: f.location.log_line } : f.location?.frames?.raise;
  if (!raise || !log || (!CALLER_CLASSES.has(f.class) && f.linkage?.stage !== 'resolve' && f.linkage?.stage !== 'missing-class')) return undefined;
  const text = reader(log);
  const from = Math.max(log.start_line, Math.min(raise.log_line, f.message_line) - 80);
  const to = Math.min(log.end_line, Math.max(raise.log_line, f.message_line) + 60);
  const lines: string[] = [];
  for (let n = from; n <= to; n++) lines.push(text(n));
  for (const trace of tracesIn(lines, from)) {
    const i = trace.frames.findIndex((x) => sameFile(x.file, raise.file) && x.line === raise.line);
    if (i < 0) continue;
    const inner = trace.frames[i];
    const caller = trace.frames.slice(i + 1).find((x) => !x.library && x.function !== undefined && !/^<\w+>$/.test(x.function) && x.function !== inner?.function && !TEST_FILE.test(x.file));
    if (!inner || !caller) return undefined;
    const args = trace.kind === 'python' ? pytestArguments(text, raise.log_line) : undefined;
    const callee = inner.function && !/^<\w+>$/.test(inner.function) ? inner.function : args?.fn;
    return { frame: caller, ...(callee ? { callee } : {}), ...(args ? { args } : {}) };
  }
  return undefined;
}


/** The caller's steps: the call, and pytest's printed arguments. */
function callerSteps(c: Caller): RemedyStep[] {
  const out: RemedyStep[] = [];
  const callee = c.callee ? `${inlineCode(c.callee)} (where the error was raised)` : 'The place the error was raised';
  out.push({ text: `${callee} was called from ${inlineCode(c.frame.function as string)} at ${inlineCode(`${c.frame.file}:${c.frame.line}`)} ${at(c.frame.log_line)}: if the values that line worked on are wrong, the fix belongs in that call (what it passes) rather than there.`, lines: [c.frame.log_line] });
  if (c.args?.line !== undefined) {
    const empty = c.args.values.some((v) => /=\s*(?:\[\]|\{\}|''|""|\(\)|set\(\))$/.test(v));
    const span = { start_line: c.args.line, end_line: c.args.last ?? c.args.line };
    out.push({ text: `pytest printed the arguments ${inlineCode(c.args.fn)} got: ${c.args.values.map((v) => inlineCode(v)).join(', ')} ${cite(span)}${empty ? ' (an empty value)' : ''}.`, lines: [span.start_line, span.end_line] });
  }
  return out;
}

/**
 * The caller's lines from the workspace, when a snippet of the context holds them and the failing source
 * shown above does not (another file, or more than a few lines away): the call to change is there.
 */
export function callerSource(ci: CiContext, c: Caller | undefined, shown: { path: string; line: number } | undefined): { text: string; log_line: number; snippet?: WorkspaceSnippet } | undefined {
  if (!c) return undefined;
  const line = c.frame.line;
  // The source block above already marks the call's very line (its place was the caller's): said, not shown twice (fx19).
  if (shown && sameFile(shown.path, c.frame.file) && shown.line === line) {
    return { text: `**The call it came from:** ${inlineCode(`${shown.path}:${line}`)} (in ${inlineCode(c.frame.function as string)}) ${at(c.frame.log_line)} called ${c.callee ? inlineCode(c.callee) : 'the place it failed'}: it is the line marked in the source above.`, log_line: c.frame.log_line };
  }
  if (shown && sameFile(shown.path, c.frame.file) && Math.abs(shown.line - line) <= 6) return undefined;
  const snippet = snippetsOf(ci).find((s) => s.kind !== 'pipeline' && sameFile(s.path, c.frame.file) && s.startLine <= line && line <= s.endLine);
  if (!snippet) return undefined;
  return {
    text: `**The call it came from:** ${inlineCode(`${snippet.path}:${line}`)} (in ${inlineCode(c.frame.function as string)}) ${at(c.frame.log_line)} called ${c.callee ? inlineCode(c.callee) : 'the place it failed'}:\n${numbered(snippet, line, 9)}`,
    log_line: c.frame.log_line,
    snippet,
  };
}

/**
 * pytest's `name = value` lines above the raise site's `def name(...)` in its long traceback form (the
 * section of the raise site: up to the `_ _ _` line above it), and that function's name.
 */
function pytestArguments(text: (n: number) => string, raiseLine: number): { fn: string; line?: number; last?: number; values: string[] } | undefined {
  for (let n = raiseLine - 1; n >= raiseLine - 40; n--) {
    if (/^(?:_ )+_$/.test(text(n))) return undefined;
    const fn = /^(?:async )?def (\w+)\(/.exec(text(n))?.[1];
    if (!fn) continue;
    // The argument lines right above the `def` (a blank line between them and it), one argument a line, each whole.
    const values: string[] = [];
    let line: number | undefined;
    let last: number | undefined;
    for (let k = n - 1; k >= n - 8; k--) {
      const t = text(k);
      if (t === '' && values.length === 0) continue;
      if (!/^[A-Za-z_]\w*\s+= \S.{0,80}$/.test(t)) break;
      values.unshift(t);
      line = k;
      last ??= k;
    }
    return { fn, values, ...(line !== undefined && last !== undefined ? { line, last } : {}) };
  }
  return undefined;
}

export const NAMED_REMEDIES: RemedyRule[] = [
  rule('named/disk-filesystem', 'fact', ({ f, stored }, out) => {
    if (f.class === 'disk-full' && stored) out.push(...diskSteps(f, stored));
  }),
  rule('named/path-variable', 'fact', ({ f, stored }, out) => {
    if (f.class !== 'disk-full' && stored) out.push(...pathSteps(f, stored));
  }),
  // The caller comes with the input (fix.ts computes it once for this step and its source block).
  // Not for code that did not load (a linkage error, a missing module): no value the call passed is at fault (fx19).
  rule('named/caller', 'fact', ({ caller, f }, out) => {
    if (caller && !isLoadFailure(`${f.exception ?? ''} ${f.message}`)) out.push(...callerSteps(caller));
  }),
];

/** A command that starts a service (a server, a stub, a daemon), as bash -x echoed it. */
const SERVICE_COMMAND = /(?:^|[\s/])(?:[\w-]*server[\w-]*(?:\.\w+)?|serve|stub[\w-]*(?:\.\w+)?|mock[\w-]*(?:\.\w+)?|fake[\w-]*(?:\.\w+)?|[\w-]*daemon|httpd|http\.server|mysqld|postgres|nc\s+-\w*l\w*|socat)(?=\s|$)/i;
/** A port among a command's arguments: `--port 8080`, `--port=8080`, `-p 8080`, `:8080`, `host:8080`, a bare 4-5 digit number. */
const PORT_ARG = /(?:--port[= ]|(?:^|\s)-p\s*|(?:^|\s)(?:[\w.-]+)?:|(?:^|\s))(\d{4,5})(?=\s|$|&)/g;
/** A service's own line about where it listens. */
const LISTENING = /\blistening on (?:port )?(?:\S*:)?(\d{2,5})\b|\bServing HTTP on \S+ port (\d{2,5})\b/i;

/** The ports services the step started listen on, by their command's arguments or their own `listening on` line, before `to`. */
export function servicePorts(log: LogSpan, to: number): { port: string; line: number; text: string }[] {
  const text = reader(log);
  const out: { port: string; line: number; text: string }[] = [];
  for (let n = Math.max(log.start_line, to - 300); n < Math.min(log.end_line + 1, to); n++) {
    const t = text(n);
    const cmd = /^\+{1,3} (.+)$/.exec(t)?.[1];
    if (cmd && !/^(?:trap|echo|printf|kill|sleep|wait|curl|wget|nc -z|nc -vz)\b/.test(cmd) && SERVICE_COMMAND.test(cmd)) {
      for (const m of cmd.matchAll(PORT_ARG)) out.push({ port: m[1] as string, line: n, text: cmd });
    } else if (!cmd) {
      const l = LISTENING.exec(t);
      if (l) out.push({ port: (l[1] ?? l[2]) as string, line: n, text: t });
    }
  }
  return out;
}

/** Host-and-port or URL literals of a source snippet: the port the code connects to, with its line. */
export function addressesIn(snippet: WorkspaceSnippet): { port: string; line: number; text: string }[] {
  const out: { port: string; line: number; text: string }[] = [];
  snippet.text.split('\n').forEach((t, i) => {
    for (const m of t.matchAll(/["'`](?:[a-z][\w+.-]*:\/\/)?(?:localhost|(?:\d{1,3}\.){3}\d{1,3}|\[[\d:a-f]+\]|[a-z][\w-]*(?:\.[\w-]+)*):(\d{2,5})(?=[/"'`])/gi)) out.push({ port: m[1] as string, line: snippet.startLine + i, text: t.trim() });
  });
  return out;
}

/**
 * A connection refused where the client's port (in the message, or a literal of the failing source)
 * is none of the ports the services the step started listen on: both sides named.
 */
export function portMismatch(f: Finding, log: LogSpan | undefined, source: WorkspaceSnippet | undefined): { text: string; lines: number[]; snippet?: WorkspaceSnippet } | undefined {
  if (!log || !/refused|ECONNREFUSED|ConnectException|Failed to connect|Couldn't connect/i.test(f.message)) return undefined;
  const services = servicePorts(log, f.message_line);
  if (services.length === 0) return undefined;
  const inMessage = addressPorts(f.message).map((a) => a.port);
  const literal = inMessage.length === 0 && source ? addressesIn(source) : [];
  const client = inMessage.length > 0 ? [...new Set(inMessage)] : [...new Set(literal.map((x) => x.port))];
  if (client.length !== 1 || services.some((s) => s.port === client[0])) return undefined;
  const started = services.slice(0, 2).map((s) => `${inlineCode(s.text)} ${at(s.line)} (port ${s.port})`).join(' and ');
  const from = literal[0] && source ? ` (${inlineCode(`${source.path}:${literal[0].line}`)}: ${inlineCode(literal[0].text)})` : ` ${at(f.message_line)}`;
  return {
    text: `The step started ${started}, and the client connects to port ${client[0] as string}${from}: no service the log shows started listens there. Use one port on both sides: the client's setting or the service's argument.`,
    lines: [...services.slice(0, 2).map((s) => s.line), ...(literal[0] ? [] : [f.message_line])],
    ...(literal[0] && source ? { snippet: source } : {}),
  };
}

/** Lines that end an exception's own detail lines: a frame, a traceback's heading, a command, a CI mark, a blank line. */
const DETAIL_END = /^\s*$|^\s*at\s|^\s*File "|^Traceback|^\+{1,3} |^\[Pipeline\]|^##\[|^\s*Caused by: |^\s*\.\.\. \d+ more/;
/** The fields of Node's system error (printed after its stack) that name the thing: the path, the address, the port. */
const NODE_FIELDS = /^\s+(path|dest|address|port|hostname|syscall|code): (.+?),?$/;

/**
 * An exception's own lines that the message's first line leaves out: the lines under it before its
 * stack (Node's `--- property 'parent' closes the circle`), and the fields of Node's system error after
 * the stack (`path: '/run/secrets/db.pass'`, `syscall: 'open'`). At most four of each, each cited.
 */
function detailSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const text = reader(log);
  // The line as printed (stamp stripped, not trimmed): its indentation tells a detail line from the next message.
  const lines = log.text.split('\n');
  const raw = (n: number): string => withoutStamp(lines[n - log.start_line] ?? '');
  const out: RemedyStep[] = [];
  const under: number[] = [];
  for (let n = f.message_line + 1; n <= Math.min(log.end_line, f.message_line + 6); n++) {
    const t = text(n);
    if (DETAIL_END.test(raw(n)) || !/^\s+\S|^\s*(?:-->|---|\|)/.test(raw(n)) || t.length > 160) break;
    under.push(n);
  }
  if (under.length > 0 && under.length <= 4) out.push({ text: `The error's own lines under its message: ${under.map((n) => `${inlineCode(text(n))} ${at(n)}`).join('; ')}.`, lines: under });
  // Node's `{ errno: -2, code: 'ENOENT', syscall: 'open', path: '...' }` after the stack: the block a line ending in `{` opens.
  const fields: { n: number; t: string }[] = [];
  for (let n = f.message_line; n <= Math.min(log.end_line, f.message_line + 40) && fields.length === 0; n++) {
    if (/^\+{1,3} |^\[Pipeline\]|^##\[/.test(raw(n))) break;
    if (!/\{\s*$/.test(raw(n))) continue;
    for (let k = n + 1; k <= Math.min(log.end_line, n + 12) && !/^\s*\}/.test(raw(k)); k++) {
      const m = NODE_FIELDS.exec(raw(k));
      if (m && ['path', 'dest', 'address', 'port', 'hostname'].includes(m[1] as string)) fields.push({ n: k, t: text(k).replace(/,$/, '') });
    }
  }
  if (fields.length > 0 && !fields.every((x) => f.message.includes(x.t.replace(/^\w+: /, '').replace(/^'|'$/g, '')))) {
    out.push({ text: `Node's error names ${fields.slice(0, 4).map((x) => `${inlineCode(x.t)} ${at(x.n)}`).join(', ')}: that is what the call failed on.`, lines: fields.slice(0, 4).map((x) => x.n) });
  }
  return out;
}

/** make's and tar's warnings of a file dated in the future: `make: Warning: File 'x' has modification time 3598 s in the future`. */
const FUTURE_FILE = /^(?:g?make(?:\[\d+\])?: [Ww]arning: File ['`‘]([^'’]+)['’] has modification time [\d.]+ s in the future|tar: ([^:]+): time stamp .* is [\d.]+ s in the future)\s*$/;

/**
 * A file the log says is dated in the future (make, tar): make compares times, so a target newer than the
 * source it is built from is not rebuilt, and the step may have used it stale. Said for any class: the
 * warnings come before the error and name the file.
 */
function futureFileSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const text = reader(log);
  const seen = new Map<string, number>();
  for (let n = Math.max(log.start_line, f.message_line - 300); n < f.message_line; n++) {
    const m = FUTURE_FILE.exec(text(n));
    const file = m ? (m[1] ?? m[2]) : undefined;
    if (file && !seen.has(file)) seen.set(file, n);
  }
  if (seen.size === 0) return [];
  const named = [...seen].slice(0, 3);
  return [
    {
      text: `The log warns that ${named.map(([file, n]) => `${inlineCode(file)} ${at(n)}`).join(', ')} ${named.length > 1 ? 'have' : 'has'} a modification time in the future: a build tool that compares times (make) does not rebuild a target newer than its sources, so the step may have used a stale copy. Delete it so it is built again (or \`make -B\`), do not restore it from a cache or archive with its old times, and check the agent's clock.`,
      lines: named.map(([, n]) => n),
    },
  ];
}

export const DETAIL_REMEDIES: RemedyRule[] = [
  rule('named/future-file', 'fact', ({ f, stored }, out) => {
    if (stored) out.push(...futureFileSteps(f, stored));
  }),
  rule('named/details', 'fact', ({ f, stored }, out) => {
    if (stored && ['runtime-exception', 'test-error', 'network', 'permission-credentials', 'ci-script'].includes(f.class)) out.push(...detailSteps(f, stored));
  }),
];
