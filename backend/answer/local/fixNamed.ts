/**
 * Fixes that name the thing the evidence names (helper fx7, session 45; issue 25 point 3): where a
 * class's general remedy says "the path", "the filesystem" or "the caller", the log often names it.
 * Each reader here takes one shape a senior engineer would cite, whatever the tool:
 *
 * - the filesystem a full disk filled, as a `df` the step ran showed it (before or after the error), and
 *   the step's variable that names that directory (`+ BUILD_OUT=/mnt/out`, or a trap's `df -k "$BUILD_OUT"`
 *   that bash -x later echoes as `df -k /mnt/out`);
 * - the frame that called the raise site (`mean` was called from `mean_by_station` at `report.py:15`): the
 *   code that gave the failing line its values, and the arguments pytest printed for the raise site.
 *
 * Each fact cites its lines; nothing is said when the log does not show it.
 */
import type { Finding } from '../../../protocol/types.js';
import { tracesIn } from '../../../core/finding/frames.js';
import { inlineCode, withoutStamp, type LogSpan } from '../logtext.js';
import { at } from './findingText.js';
import { osConditionOf } from './osCondition.js';
import { rule, type RemedyRule, type RemedyStep } from './remedyShape.js';

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

/** The log's lines from `from` to `to` (inclusive, clamped), stamps stripped and trimmed, by log line number. */
function reader(log: LogSpan): (n: number) => string {
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
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
      const re = new RegExp(`^${escape(head)}'?(/[^\\s'"]*?)'?${escape(tail)}$`);
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

/**
 * The frame that called the raise site, when the stack shows one in the project's code (not a test file,
 * another function than the raise site's), and the arguments pytest printed for the raise site's function
 * (`values = []` above its `def`).
 */
function callerSteps(f: Finding, log: LogSpan): RemedyStep[] {
  const raise = f.location?.frames?.raise ?? (f.location?.line !== undefined ? { file: f.location.file, line: f.location.line, log_line: f.location.log_line } : undefined);
  if (!raise) return [];
  const text = reader(log);
  const from = Math.max(log.start_line, Math.min(raise.log_line, f.message_line) - 80);
  const to = Math.min(log.end_line, Math.max(raise.log_line, f.message_line) + 60);
  const lines: string[] = [];
  for (let n = from; n <= to; n++) lines.push(text(n));
  const same = (a: string, b: string): boolean => a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
  for (const trace of tracesIn(lines, from)) {
    const i = trace.frames.findIndex((x) => same(x.file, raise.file) && x.line === raise.line);
    if (i < 0) continue;
    const inner = trace.frames[i];
    const caller = trace.frames.slice(i + 1).find((x) => !x.library && x.function !== undefined && !/^<\w+>$/.test(x.function) && x.function !== inner?.function && !/(?:^|\/)(?:tests?|spec|__tests__)\/|(?:^|\/)test_[^/]+\.py$|_test\.\w+$|\.(?:test|spec)\.\w+$/.test(x.file));
    if (!inner || !caller) return [];
    const out: RemedyStep[] = [];
    const py = trace.kind === 'python' ? pytestArguments(text, raise.log_line) : undefined;
    const name = inner.function && !/^<\w+>$/.test(inner.function) ? inner.function : py?.fn;
    const callee = name ? `${inlineCode(name)} (the raise site)` : 'The raise site';
    out.push({ text: `${callee} was called from ${inlineCode(caller.function as string)} at ${inlineCode(`${caller.file}:${caller.line}`)} ${at(caller.log_line)}: if the values the raise site worked on are wrong, the fix belongs in that call (what it passes), not at the raise site.`, lines: [caller.log_line] });
    if (py?.line !== undefined) {
      const empty = py.values.some((v) => /= (?:\[\]|\{\}|''|""|\(\)|set\(\))$/.test(v));
      out.push({ text: `pytest printed the arguments ${inlineCode(py.fn)} got: ${py.values.map((v) => inlineCode(v)).join(', ')} ${at(py.line)}${empty ? ' (an empty value)' : ''}.`, lines: [py.line] });
    }
    return out;
  }
  return [];
}

/**
 * pytest's `name = value` lines above the raise site's `def name(...)` in its long traceback form (the
 * section of the raise site: up to the `_ _ _` line above it), and that function's name.
 */
function pytestArguments(text: (n: number) => string, raiseLine: number): { fn: string; line?: number; values: string[] } | undefined {
  for (let n = raiseLine - 1; n >= raiseLine - 40; n--) {
    if (/^(?:_ )+_$/.test(text(n))) return undefined;
    const fn = /^(?:async )?def (\w+)\(/.exec(text(n))?.[1];
    if (!fn) continue;
    const values: string[] = [];
    let line: number | undefined;
    for (let k = n - 1; k >= n - 8; k--) {
      const t = text(k);
      if (t === '') continue;
      if (!/^[A-Za-z_]\w* = \S.{0,80}$/.test(t)) break;
      values.unshift(t);
      line = k;
    }
    return { fn, values, ...(line !== undefined ? { line } : {}) };
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
  rule('named/caller', 'fact', ({ f, stored }, out) => {
    if ((f.class === 'runtime-exception' || f.class === 'test-error') && stored) out.push(...callerSteps(f, stored));
  }),
];
