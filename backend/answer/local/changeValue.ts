/**
 * A value the checkout's change set, read by the failing line (session 57, helper fx21; issue 25, ux18 item 3 and fx20
 * item 3). A shell variable, a make variable or an env file's entry that a changed line assigns (or a removed line
 * assigned), and the failing command that read it: the command names it (`$REGION`, `${PORT}`, `$(PORT)`), the error
 * names it (`REGION: parameter null or not set`, `unbound variable`), or the value the change wrote is the one the
 * command ran with (`++ PORT=80801` traced under `+ . ./deploy.env`, the port in curl's error; an empty `++ REGION=`
 * and the command's empty word `''`, `[: =: unary operator expected`). Only what the log and the diff show: a variable
 * assigned in a file the change did not touch gives nothing here, nor one the trace shows set by another file than
 * the changed one.
 */
import type { CiContext, Finding } from '../../../protocol/types.js';
import { blocksOf, changesOf, type ValueRead } from './changeDiff.js';
import { sameFile } from './workspace.js';

/** A changed line's assignment: shell (`export NAME=v`), make (`NAME := v`, `NAME ?= v`), an env file, GitHub's `echo "NAME=v" >> $GITHUB_ENV`, a YAML `env:` entry (`NAME: v`). */
const ASSIGN = [
  /^\s*(?:export\s+|readonly\s+|declare\s+(?:-\w+\s+)?|local\s+)?([A-Za-z_]\w*)\s*(?:=|:=|::=|\?=|\+=)\s*(.*?)\s*$/,
  /^\s*echo\s+["']?([A-Za-z_]\w*)=([^"'>]*?)["']?\s*>>\s*"?\$\{?GITHUB_ENV\b/,
  /^\s*([A-Z_][A-Z0-9_]*):\s*(.*?)\s*$/,
];
/** A traced source of a file (`+ . ./deploy.env`, `+ source ci/vars.sh`, at any depth). */
const SOURCED = /^\++ (?:\.|source) ["']?([^\s"']+)["']?\s*$/;
/** An error's or a command's sign that a word it needed was empty. */
const EMPTY_SIGN = /unary operator expected|parameter null or not set|unbound variable|(?:^|\s)''(?:\s|$)|""|\bNo URL specified\b|\bURL using bad\/illegal format or missing URL\b|\bmissing (?:operand|argument)\b|: No such file or directory$|\bempty (?:string|value|name)\b/;


/** A file that holds settings rather than code: a value in it matched by the command's words is the setting's (not `x = 30` in a program). */
const SETTINGS_FILE = /(?:^|\/)(?:[^/]*\.(?:env|sh|bash|mk|ya?ml|properties|conf|cfg|ini|toml|vars)|\.env[\w.-]*|Makefile|GNUmakefile|[\w-]*env|[\w-]*vars)$/i;

const unquote = (s: string): string => s.replace(/\s+#.*$/, '').replace(/^(['"])(.*)\1$/, '$2');

function assignmentOf(line: string): { name: string; value: string } | undefined {
  for (const re of ASSIGN) {
    const m = re.exec(line);
    if (m?.[1]) return { name: m[1], value: unquote(m[2] ?? '') };
  }
  return undefined;
}

const namesVar = (text: string, name: string): boolean => new RegExp(`\\$\\{?${name}(?![A-Za-z0-9_])|\\$\\(${name}\\)|(?:^|[\\s:])${name}: (?:parameter null or not set|unbound variable)`).test(text);
const holdsValue = (text: string, value: string): boolean => value.length >= 3 && !/^(?:true|false|yes|no|on|off)$/i.test(value) && new RegExp(`(?<![\\w.-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);

/**
 * The changed block that set (or removed) a value the failing command read, or undefined. `command`: the failing
 * command and its log line; `lines`: the log from up to 200 lines above the command to the error.
 */
export function valueRead(ci: CiContext, f: Finding, command: { command: string; line: number } | undefined, lines: readonly { line: number; text: string }[], source?: { text: string; place: string }): ValueRead | undefined {
  const w = changesOf(ci);
  if (!w || f.class === 'compile-error' || f.class === 'test-assertion' || f.class === 'lint') return undefined;
  // The failing command, what it printed up to the error (make's echoed recipe), the error, and the error's own line as
  // the checkout holds it (`[ $TARGET = prod ]` at `deploy.sh:3`), which names what the trace shows expanded.
  const printed = command ? lines.filter((l) => l.line > command.line && l.line < f.message_line).slice(-20) : [];
  const readers: { line: number; text: string; place?: string }[] = [...(command ? [{ line: command.line, text: command.command }] : []), ...printed, { line: f.message_line, text: f.message }, ...(source ? [{ line: f.message_line, text: source.text, place: source.place }] : [])];
  // The trace: which file each traced assignment came from (the last `+ . file` above it at a shallower depth).
  const traced = new Map<string, { line: number; text: string; value: string; from?: string | undefined }>();
  const sources: { depth: number; path: string }[] = [];
  for (const l of lines) {
    if (command && l.line >= command.line) break;
    const t = l.text.trim();
    const depth = /^\++/.exec(t)?.[0].length ?? 0;
    if (depth === 0) continue;
    const s = SOURCED.exec(t);
    if (s?.[1]) {
      sources.push({ depth, path: s[1].replace(/^\.\//, '') });
      continue;
    }
    const a = assignmentOf(t.slice(depth).trim());
    if (!a) continue;
    // dash traces a sourced file's lines at the same depth; bash one deeper: either way the latest source above.
    const from = [...sources].reverse().find((x) => x.depth <= depth)?.path;
    traced.set(a.name, { line: l.line, text: t, value: a.value, from });
  }
  for (const b of w.diffs.flatMap(blocksOf)) {
    const added = new Map(b.added.flatMap((l) => (assignmentOf(l) ? [[assignmentOf(l)?.name as string, assignmentOf(l)?.value as string] as const] : [])));
    const removed = new Map(b.removed.flatMap((l) => (assignmentOf(l) ? [[assignmentOf(l)?.name as string, assignmentOf(l)?.value as string] as const] : [])));
    const removedLine = (name: string): string | undefined => b.removed.find((l) => assignmentOf(l)?.name === name)?.trim();
    for (const name of new Set([...added.keys(), ...removed.keys()])) {
      const how = added.has(name) ? 'set' : 'removed';
      const value = added.get(name);
      const was = removed.get(name);
      if (how === 'set' && was === value) continue;
      const trace = traced.get(name);
      // The trace says another file set it: not this change's line.
      if (trace?.from !== undefined && !sameFile(b.path, trace.from)) continue;
      const shown = trace?.value ?? value;
      const byName = readers.find((r) => namesVar(r.text, name));
      const byValue = shown !== undefined && shown !== '' && (trace !== undefined || SETTINGS_FILE.test(b.path)) ? readers.find((r) => holdsValue(r.text, shown)) : undefined;
      const empty = (shown === '' || how === 'removed') && (trace !== undefined || byName !== undefined) ? readers.find((r) => EMPTY_SIGN.test(r.text)) : undefined;
      // Read by name on the checkout's line of the error: the error's log line says the empty word (`unary operator expected`).
      if (byName?.place !== undefined && (shown === '' || how === 'removed') && !readers.some((r) => r.place === undefined && EMPTY_SIGN.test(r.text))) continue;
      const read = byName ?? byValue ?? empty;
      if (!read) continue;
      return { b, name, how, value, was: removedLine(name), traced: trace ? { line: trace.line, text: trace.text } : undefined, read, by: byName ? 'name' : byValue ? 'value' : 'empty' };
    }
  }
  return undefined;
}
