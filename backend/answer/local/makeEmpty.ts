/**
 * A make variable that expanded to nothing (helper ux9, logship): make echoes each recipe line after
 * expanding it, so the Makefile's line (`sed 's/@VERSION@/$(VERSION)/' ...`, from the workspace) and the
 * line the log shows (`sed 's/@VERSION@//' ...`) say together that `$(VERSION)` was empty, whatever the
 * command that then failed printed (`dpkg-deb: ... version string is empty`). Where the Makefile sets the
 * variable comes from the origin snippets (jenkins/workspace/origins.ts). Nothing is inferred beyond the
 * two lines' difference: a recipe line with a function call (`$(shell ...)`) is not compared.
 */
import { escapeRegExp } from '../../../core/regexp.js';
import { MAKEFILE } from '../../../core/makefile.js';
import type { Finding, WorkspaceSnippet } from '../../../protocol/types.js';
import { inlineCode, type LogSpan } from '../logtext.js';
import { isClue, sameFile } from './workspace.js';

export interface EmptyMakeVariable {
  name: string;
  /** Written `$f` (one character: make's own variable `f`, GNU make manual "Variables in Recipes"), not `$(f)`. */
  single: boolean;
  /** The Makefile's path as the workspace names it, the recipe line (1-based) and its text. */
  path: string;
  recipeLine: number;
  recipe: string;
  /** The log's line that echoes it, and its text. */
  logLine: number;
  echoed: string;
  /** The line that sets it, when the workspace snippets hold it. */
  origin?: { line: number; text: string; startLine: number; endLine: number };
}

/**
 * Make's automatic variables (`$@`, `$<`, `$^`, `$*`, `$+`, `$?`, `$%`, `$|`), a literal `$$`, a named reference, or
 * `$` and one letter, digit or `_`: make reads `$f` as the variable `f` (GNU make manual, "Reference to Variables").
 */
const TOKEN = /\$[({]([A-Za-z_][\w.-]*)[)}]|\$[@<^*+?%|]|\$\$|\$(\w)/g;

/** The names a recipe line refers to, each with whether it is written with one character (`$f`). */
function references(recipe: string): { name: string; single: boolean }[] {
  return [...recipe.matchAll(TOKEN)].flatMap((m): { name: string; single: boolean }[] => (m[1] ? [{ name: m[1], single: false }] : m[2] ? [{ name: m[2], single: true }] : []));
}

/** The recipe line as a pattern of what make echoes: each named reference a group (lazy or greedy), the rest literal. */
function echoPattern(recipe: string, greedy: boolean): { re: RegExp; names: { name: string; single: boolean }[] } | undefined {
  // A function call or a computed name (`$(shell ...)`, `$(VAR:.c=.o)`) is not compared.
  if (/\$[({][^)}]*[\s:,(]/.test(recipe)) return undefined;
  const names: { name: string; single: boolean }[] = [];
  let source = '';
  let last = 0;
  for (const m of recipe.matchAll(TOKEN)) {
    source += escapeRegExp(recipe.slice(last, m.index));
    if (m[0] === '$$') source += '\\$';
    else if (m[1] || m[2]) {
      names.push({ name: (m[1] ?? m[2]) as string, single: m[2] !== undefined });
      source += greedy ? '(.*)' : '(.*?)';
    } else source += '.*?';
    last = (m.index ?? 0) + m[0].length;
  }
  if (names.length === 0) return undefined;
  source += escapeRegExp(recipe.slice(last));
  return { re: new RegExp(`^${source}$`), names };
}

/** The names whose group is empty in both readings of the echoed line (so no other split of it would fill them). */
function emptyIn(recipe: string, echoed: string): { name: string; single: boolean }[] {
  const lazy = echoPattern(recipe, false);
  const greedy = echoPattern(recipe, true);
  const a = lazy?.re.exec(echoed);
  const b = greedy?.re.exec(echoed);
  if (!lazy || !a || !b) return [];
  return lazy.names.filter((_, i) => a[i + 1] === '' && b[i + 1] === '');
}

/**
 * The first variable of the failing rule's recipe (up to the failing line) that make expanded to nothing,
 * from the Makefile snippet the finding names and the lines the log echoed before the error (at most 200
 * back). Undefined when the finding is not in a Makefile, the snippet or the log lines are missing, or
 * every compared line has its values.
 */
export function emptyMakeVariable(stored: LogSpan | undefined, f: Finding, snippets: readonly WorkspaceSnippet[]): EmptyMakeVariable | undefined {
  const loc = f.location;
  if (!stored || !loc || loc.line === undefined || !MAKEFILE.test(loc.file)) return undefined;
  const file = snippets.find((s) => s.kind !== 'pipeline' && !isClue(s) && sameFile(s.path, loc.file) && s.startLine <= loc.line! && s.endLine >= loc.line!);
  if (!file) return undefined;
  const lines = file.text.split('\n');
  const lineAt = (n: number): string => lines[n - file.startLine] ?? '';
  let first = loc.line;
  while (first > file.startLine && lineAt(first - 1).startsWith('\t')) first--;
  const log = stored.text.split('\n');
  const end = Math.min(loc.log_line ?? f.message_line, stored.end_line) - stored.start_line;
  const from = Math.max(0, end - 200);
  for (let n = first; n <= loc.line; n++) {
    // Make echoes the recipe without its tab and without a leading `@` (silent), `-` or `+`; an `@` line is not echoed.
    const raw = lineAt(n).replace(/^\t/, '');
    if (raw.startsWith('@') || references(raw).length === 0) continue;
    const recipe = raw.replace(/^[-+]+/, '').trimEnd();
    for (let i = end; i >= from; i--) {
      const echoed = (log[i] ?? '').trimEnd();
      const empty = emptyIn(recipe, echoed);
      if (empty.length === 0) continue;
      const { name, single } = empty[0] as { name: string; single: boolean };
      const origin = snippets.find((s) => s.path === file.path && s.message === `assigns ${name}, which line ${loc.line} uses`);
      return {
        name,
        single,
        path: file.path,
        recipeLine: n,
        recipe,
        logLine: stored.start_line + i,
        echoed,
        ...(origin ? { origin: { line: origin.startLine, text: origin.text.trim(), startLine: origin.startLine, endLine: origin.endLine } } : {}),
      };
    }
  }
  return undefined;
}

/** The step for the fix answer: what make ran, which variable was empty, where it is set, and what to do. */
export function emptyMakeVariableStep(v: EmptyMakeVariable, stored: LogSpan, at: (line: number) => string): string {
  if (v.single) return shellVariableStep(v, at);
  const ref = inlineCode(`$(${v.name})`);
  const parts = [`make ran line ${v.recipeLine} of ${inlineCode(v.path)}, ${inlineCode(v.recipe)}, as ${inlineCode(v.echoed)} ${at(v.logLine)}, so ${ref} expanded to nothing.`];
  // `VERSION := $(RELEASE_VERSION)`: set from another variable, which the job's environment or make's command line gives.
  const from = v.origin ? /^(?:override\s+|export\s+)*[\w.-]+\s*(?::{1,3}=|\?=|=)\s*\$[({]([A-Za-z_]\w*)[)}]\s*$/.exec(v.origin.text)?.[1] : undefined;
  if (v.origin && from) {
    const setInLog = new RegExp(`(?:^|[\\s'"])${escapeRegExp(from)}=`, 'm').test(stored.text);
    parts.push(`Line ${v.origin.line} sets it from ${inlineCode(`$(${from})`)} (${inlineCode(v.origin.text)})${setInLog ? '' : `, and nothing in the log sets ${inlineCode(from)}`}.`);
    parts.push(`Give ${inlineCode(from)} a value where the job runs make (the job's environment, or ${inlineCode(`make <target> ${from}=<value>`)}), and let the Makefile stop on an empty one: ${inlineCode(`$(if $(${v.name}),,$(error ${v.name} is empty))`)}.`);
  } else if (v.origin) {
    parts.push(`Line ${v.origin.line} sets it (${inlineCode(v.origin.text)}): find why that gave nothing on the agent, and let the Makefile stop on an empty value: ${inlineCode(`$(if $(${v.name}),,$(error ${v.name} is empty))`)}.`);
  } else {
    parts.push(`Give ${inlineCode(v.name)} a value where the job runs make (the job's environment, or ${inlineCode(`make <target> ${v.name}=<value>`)}), or where the Makefile sets it.`);
  }
  return `**An empty make variable:** ${parts.join(' ')}`;
}

/** The shell's ways of setting a variable on a recipe line: `for f in`, `f=...`, `read [-r] f`. */
function setByShell(recipe: string, name: string): string | undefined {
  const n = escapeRegExp(name);
  return new RegExp(`(?:^|[;&|({]\\s*|\\b(?:do|then)\\s+)(?:for\\s+${n}\\s+in\\b|${n}=|read(?:\\s+-\\w+)*(?:\\s+\\w+)*?\\s+${n}\\b)`).exec(recipe)?.[0].replace(/^[;&|({\s]+|^(?:do|then)\s+/, '');
}

/**
 * `$f` in a recipe (a shell variable written as the shell writes it): make expanded it as its own variable `f`,
 * empty, before the shell saw the line (GNU make manual, "Variables in Recipes": a `$` the shell should see is
 * written `$$`). Said with the recipe line and the line make echoed, which shows the spot empty.
 */
function shellVariableStep(v: EmptyMakeVariable, at: (line: number) => string): string {
  const ref = inlineCode(`$${v.name}`);
  const doubled = v.recipe.replace(TOKEN, (t, _named, single) => (single === v.name ? `$${t}` : t));
  const lead = `make ran line ${v.recipeLine} of ${inlineCode(v.path)}, ${inlineCode(v.recipe)}, as ${inlineCode(v.echoed)} ${at(v.logLine)}, so ${ref} expanded to nothing before the shell saw the line.`;
  const why = `In a recipe, make reads \`$\` and one character as its own variable (${ref} is the make variable ${inlineCode(v.name)}, empty here), and a \`$\` meant for the shell is written \`$$\` (GNU make manual, "Variables in Recipes").`;
  const bound = setByShell(v.recipe, v.name);
  const fix = bound
    ? `The line sets the shell's variable ${inlineCode(v.name)} itself (${inlineCode(bound.trim())}), so write ${inlineCode(`$$${v.name}`)}: ${inlineCode(doubled)}.`
    : `For the shell's variable ${inlineCode(v.name)} write ${inlineCode(`$$${v.name}`)} (${inlineCode(doubled)}); for a make variable, set ${inlineCode(v.name)} and write ${inlineCode(`$(${v.name})`)}.`;
  return `**make took ${ref} for its own variable:** ${lead} ${why} ${fix}`;
}

/** A loop as make echoes it on one line (`for f in conf/*.conf; do cp  out/etc/; done`). */
const ECHOED_LOOP = /^for ([A-Za-z_]\w*) in [^;]*; do (.+); done\b/;

/**
 * Without the Makefile: a loop make echoed (after the step's `+ make` and before the finding's line, at most 30
 * back) whose body never uses its own variable, above a failure make's verdict names in a Makefile. Its sign is
 * the line itself: a shell loop that does not use its variable is what make leaves of `$f` it expanded first.
 */
export function unusedLoopVariable(stored: LogSpan | undefined, f: Finding): { name: string; logLine: number; echoed: string } | undefined {
  if (!stored || !f.location || !MAKEFILE.test(f.location.file)) return undefined;
  const log = stored.text.split('\n');
  const end = f.message_line - stored.start_line;
  for (let i = end - 1; i >= Math.max(0, end - 30); i--) {
    const echoed = (log[i] ?? '').trim();
    if (/^\+ /.test(echoed)) break;
    const loop = ECHOED_LOOP.exec(echoed);
    if (!loop) continue;
    const name = loop[1] as string;
    if (new RegExp(`\\$(?:${name}\\b|\\{${name}\\})`).test(loop[2] as string)) return undefined;
    return { name, logLine: stored.start_line + i, echoed };
  }
  return undefined;
}

/** What the echoed loop says, and what to look for in the Makefile (not in the upload). */
export function unusedLoopVariableStep(v: { name: string; logLine: number; echoed: string }, at: (line: number) => string): string {
  const ref = inlineCode(`$${v.name}`);
  return (
    `**The loop's variable is not in its body:** make echoed the recipe line as ${inlineCode(v.echoed)} ${at(v.logLine)}; the loop sets ${inlineCode(v.name)} and nothing in it uses it. ` +
    `That is what make leaves of ${ref} in a recipe: it expands \`$\` and one character as its own variable (empty) before the shell sees the line. ` +
    `I do not have the Makefile's line to confirm it: if it has ${ref}, write ${inlineCode(`$$${v.name}`)} there (GNU make manual, "Variables in Recipes").`
  );
}

/** For the why: make took the recipe's `$f` for its own variable, as the echoed line shows. */
export function emptyShellVariableWhy(v: EmptyMakeVariable, at: (line: number) => string): string {
  return `Line ${v.recipeLine} of ${inlineCode(v.path)} has ${inlineCode(`$${v.name}`)} (${inlineCode(v.recipe)}), and make echoed it as ${inlineCode(v.echoed)} ${at(v.logLine)}, so make expanded ${inlineCode(`$${v.name}`)} as its own variable ${inlineCode(v.name)} (empty) before the shell ran the line; the shell's variable is written ${inlineCode(`$$${v.name}`)} in a recipe.`;
}
