/**
 * Remedies read from what a runtime printed around its error (helper ux10): a Python console script
 * (the wrapper pip writes under `bin/` from an entry point) that imports a name its module lacks, Ruby's
 * `FrozenError` on a string literal, Node's `require()` of an ES module (the project's own or a package's), and Elixir's `FunctionClauseError` with the arguments given and the
 * clauses tried. Keyed on the runtimes' own words, never on a project's names; they read the log through
 * `lineText` (so the diagnosis's "Next step" gets them too), and every quote is from a line they cite.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import { at, type LineText } from './findingText.js';
import { EXCEPTION_PLACE, rule, type RemedyRule } from './remedyShape.js';

/** The lines `from`..`to` (1-based, inclusive) that `lineText` has, trimmed at the end. */
function linesFrom(lineText: LineText | undefined, from: number, to: number): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (let n = Math.max(1, from); lineText && n <= to; n++) {
    const t = lineText(n);
    if (t !== undefined) out.push({ line: n, text: t.trimEnd() });
  }
  return out;
}

/** A traceback frame in a console script pip (or setuptools) wrote: `File ".../bin/lq", line 5, in <module>`. */
const SCRIPT_FRAME = /^\s*File "((?:.*[/\\])?(?:bin|Scripts)[/\\]([\w.-]+?)(?:\.exe)?)", line (\d+), in <module>$/;
const CANNOT_IMPORT = /ImportError: cannot import name '([\w.]+)' from '([\w.]+)'/;
const NO_MODULE = /ModuleNotFoundError: No module named '([\w.]+)'/;

/** Ruby's refusal to change a frozen object (`FrozenError`; `RuntimeError` before Ruby 2.5). */
const FROZEN = /(?:FrozenError|RuntimeError): can't modify frozen (\w+)(?:: (.+))?$/;

/** Elixir's `no function clause matching in Mod.fun/2`. */
const NO_CLAUSE = /\(FunctionClauseError\) no function clause matching in ([\w.?!]+\/\d+)/;

/** Top-level commas of a clause's argument list (`a, {b, c}, d` is three). */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let k = 0; k < text.length; k++) {
    const ch = text[k];
    if (ch === '"' && text[k - 1] !== '\\') quote = !quote;
    if (quote) continue;
    if (ch === '(' || ch === '[' || ch === '{' || ch === '<') depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || ch === '>') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(start, k).trim());
      start = k + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out;
}

/** ExUnit marks the parts of a clause that did not match with `-…-` when it prints without colour. */
const unmarked = (pattern: string): string => pattern.replace(/-([^-\s][^-]*?)-/g, '$1');

/** The arguments and clauses ExUnit (or `mix run`) printed under a FunctionClauseError, each with its line. */
function clauseReport(lineText: LineText | undefined, from: number): { args: { n: number; value: string; line: number }[]; clauses: { args: string[]; line: number }[]; marked: boolean } {
  const lines = linesFrom(lineText, from + 1, from + 80);
  const args: { n: number; value: string; line: number }[] = [];
  const clauses: { args: string[]; line: number }[] = [];
  let marked = false;
  let mode: 'none' | 'args' | 'clauses' = 'none';
  for (let k = 0; k < lines.length; k++) {
    const { text, line } = lines[k] as { line: number; text: string };
    const t = text.trim();
    if (/^The following arguments were given to /.test(t)) mode = 'args';
    else if (/^Attempted function clauses/.test(t)) mode = 'clauses';
    else if (/^(?:code:|stacktrace:|\*\* \()/.test(t)) break;
    else if (mode === 'args') {
      const n = /^# (\d+)$/.exec(t);
      if (!n) continue;
      const value = lines.slice(k + 1).find((l) => l.text.trim() !== '');
      if (value) args.push({ n: Number(n[1]), value: value.text.trim(), line: value.line });
    } else if (mode === 'clauses') {
      const c = /^defp? [\w?!]+\((.*)\)(?:\s+when\s.*)?$/.exec(t);
      if (!c) continue;
      if (/-[^-\s][^-]*?-/.test(c[1] as string)) marked = true;
      clauses.push({ args: splitArgs(c[1] as string).map(unmarked), line });
    }
  }
  return { args, clauses, marked };
}

/** Node's refusal to `require()` an ES module (22+/20.19+: `ERR_REQUIRE_ASYNC_MODULE` over `From X` / `Requiring Y`; older: the paths in the message). */
const REQUIRE_ESM = /ERR_REQUIRE_ASYNC_MODULE|ERR_REQUIRE_ESM|require\(\) of ES Module (\S+) from (\S+) not supported|require\(\) cannot be used on an ESM graph with top-level await/;

/** A path as the project names it (`/var/jenkins_home/workspace/job/lib/x.mjs` -> `lib/x.mjs`). */
const inProject = (file: string): string => file.replace(/^.*\/workspace\/[^/]+\//, '');

/** The package a path is in (`.../node_modules/@scope/name/x.js` -> `@scope/name`, a vendored `vendor/name/`), none for the project's own file. */
function packageOf(file: string): string | undefined {
  const m = /.*\/(node_modules|vendor|third[_-]party)\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  // A vendored copy is named by its folder, which need not be the package's name.
  return m ? (m[1] === 'node_modules' ? (m[2] as string) : `${m[1] as string}/${m[2] as string}/`) : undefined;
}

/** The module `require()` refused and the file that required it, with their lines, when the log names both. */
export function requiredEsm(f: Finding, lineText: LineText | undefined): { from: { file: string; line: number }; loaded: { file: string; line: number }; package?: string } | undefined {
  const m = REQUIRE_ESM.exec(f.message);
  if (!m) return undefined;
  let from = m[2] ? { file: m[2], line: f.message_line } : undefined;
  let loaded = m[1] ? { file: m[1], line: f.message_line } : undefined;
  for (const l of linesFrom(lineText, f.message_line + 1, f.message_line + 3)) {
    const named = /^[#\s]*(From|Requiring) (\S+)\s*$/.exec(l.text);
    if (named?.[1] === 'From') from = { file: named[2] as string, line: l.line };
    else if (named) loaded = { file: named[2] as string, line: l.line };
  }
  if (!loaded || !from) return undefined;
  const pkg = packageOf(loaded.file);
  return { from, loaded, ...(pkg ? { package: pkg } : {}) };
}

const STRING = /^"((?:[^"\\]|\\.)*)"$/;
const ATOM = /^:(?:"((?:[^"\\]|\\.)*)"|([\w?!@]+))$/;

export const RUNTIME_WORD_REMEDIES: RemedyRule[] = [
  // Python: the wrapper script an entry point became imports a name (or a module) that is not there.
  rule(
    'runtime/python-console-script',
    'wording',
    (i, out) => {
      const { f, lineText } = i;
      const name = CANNOT_IMPORT.exec(f.message);
      const missing = name ? undefined : NO_MODULE.exec(f.message);
      if (!name && !missing) return;
      const frame = linesFrom(lineText, f.message_line - 4, f.message_line - 1)
        .map((l) => ({ ...l, m: SCRIPT_FRAME.exec(l.text) }))
        .reverse()
        .find((l) => l.m);
      if (!frame?.m) return;
      const code = lineText?.(frame.line + 1)?.trim() ?? '';
      const imported = /^from ([\w.]+) import ([\w.]+)$/.exec(code);
      if (!imported) return;
      const [, script, command, scriptLine] = frame.m as unknown as [string, string, string, string];
      const [, mod, fn] = imported as unknown as [string, string, string];
      const shown = inlineCode(script.replace(/^.*\/workspace\/[^/]+\//, ''));
      const declared = `${command} = "${mod}:${fn}"`;
      const what = name
        ? `${inlineCode(mod)} has no ${inlineCode(fn)} ${at(f.message_line)}: the entry point names a function the module does not define (a typo, or a function renamed since)`
        : `there is no module ${inlineCode((missing as RegExpExecArray)[1] as string)} ${at(f.message_line)}: the entry point names a module path the installed package does not have (a typo, a module moved, or the package's modules left out of the install)`;
      out.push({
        text: `${shown} ${at(frame.line)} is a console script that pip wrote when it installed the project: its line ${scriptLine} imports ${inlineCode(fn)} from ${inlineCode(mod)} ${at(frame.line + 1)}, and ${what}. The script is made from an entry point, ${inlineCode(declared)} (\`[project.scripts]\` in \`pyproject.toml\`, or \`console_scripts\` in \`setup.cfg\` / \`setup.py\`): make it name ${name ? `a function ${inlineCode(mod)} defines` : 'the module the function is in'}, then install the project again, because the script is written at install time, not read from the source when it runs.`,
        lines: [frame.line, frame.line + 1, f.message_line],
      });
    },
    { group: 'exception', supersedes: [EXCEPTION_PLACE] },
  ),
  // Ruby: `<<` (or another in-place change) on a frozen object, most often a literal under `# frozen_string_literal: true`.
  rule(
    'runtime/ruby-frozen',
    'wording',
    (i, out) => {
      const { f } = i;
      const m = FROZEN.exec(f.message);
      if (!m) return;
      const [, type, value] = m as unknown as [string, string, string | undefined];
      const shown = value !== undefined && value.length <= 60 ? ` ${inlineCode(value)}` : '';
      out.push({
        text:
          type === 'String'
            ? `The String${shown} is frozen ${at(f.message_line)}, and the line changed it in place (\`<<\`, \`concat\`, \`[]=\` or a bang method such as \`gsub!\`). A plain string literal is frozen when its file starts with \`# frozen_string_literal: true\` (or when Ruby runs with \`--enable-frozen-string-literal\`). Make the string mutable where it is made, ${inlineCode(`+${value ?? '"..."'}`)} or ${inlineCode(`String.new(${value ?? '"..."'})`)} (or \`.dup\`), or build the text without changing it (interpolation, \`+\`); if the magic comment is new, the file's other in-place changes of literals fail the same way.`
            : `The ${inlineCode(type)}${shown} was frozen (\`.freeze\`, often on a constant) ${at(f.message_line)}, and the line changed it in place: change a copy (\`.dup\`) instead, or stop freezing it if it is meant to change.`,
        lines: [f.message_line],
      });
    },
    { group: 'exception' },
  ),
  // Node: an ES module loaded with `require()`: the project's own module calls for a change in it or its caller, a package's for its version.
  rule(
    'runtime/node-require-esm',
    'wording',
    (i, out) => {
      const { f, lineText } = i;
      const m = REQUIRE_ESM.exec(f.message);
      const named = m ? requiredEsm(f, lineText) : undefined;
      if (!m || !named) return;
      const { from, loaded } = named;
      const tla = /ASYNC|top-level await/.test(f.message);
      const pkg = named.package;
      const loader = inlineCode(inProject(from.file));
      if (pkg) {
        out.push({
          text: `${loader} ${at(from.line)} loads the package ${pkg.endsWith('/') ? `in ${inlineCode(pkg)}` : inlineCode(pkg)} with \`require()\`, and the version the build has is an ES module${tla ? ' that awaits at its top level, which `require()` can never load' : ''} ${at(loaded.line)}: load it with \`await import('...')\` (in an async function, or make ${loader} an ES module: \`.mjs\` or \`"type": "module"\`), or pin ${pkg.endsWith('/') ? 'it' : inlineCode(pkg)} to the last version that still loads with \`require()\` (its changelog says which).`,
          lines: [from.line, loaded.line],
        });
        return;
      }
      const own = inlineCode(inProject(loaded.file));
      out.push({
        text: tla
          ? `${own} ${at(loaded.line)} is the project's own ES module, and ${loader} ${at(from.line)} loads it with \`require()\`, which loads an ES module only when nothing in it awaits at its top level. Either take the top-level \`await\` out of ${own} (read what it needs synchronously, or export a function or a promise that the callers await), or load it with \`await import()\` from an async function (or make ${loader} an ES module: \`.mjs\` or \`"type": "module"\`); \`node --experimental-print-required-tla\` shows where the \`await\` is.`
          : `${own} ${at(loaded.line)} is the project's own ES module, and ${loader} ${at(from.line)} loads it with \`require()\`, which this Node cannot do: load it with \`await import()\` from an async function, make ${loader} an ES module too (\`.mjs\` or \`"type": "module"\`), or make ${own} CommonJS.`,
        lines: [from.line, loaded.line],
      });
    },
    { group: 'exception' },
  ),
  // Elixir: the arguments given against the clauses tried (`-…-` marks what did not match).
  rule(
    'runtime/elixir-function-clause',
    'wording',
    (i, out) => {
      const { f, lineText } = i;
      const fn = NO_CLAUSE.exec(f.message)?.[1];
      if (!fn) return;
      const report = clauseReport(lineText, f.message_line);
      if (report.args.length === 0 || report.clauses.length === 0) return;
      const first = report.clauses[0]?.line as number;
      const last = report.clauses[report.clauses.length - 1]?.line as number;
      const clausesAt = at(first).replace(/\[L(\d+)-L\d+\]/, `[L$1-L${last}]`);
      const marks = report.marked ? ' ExUnit marks with `-…-` the parts of each clause that did not match.' : '';
      // A string given where every clause matches an atom (or the reverse): the two never match, whatever their text.
      for (const arg of report.args) {
        const patterns = report.clauses.map((c) => c.args[arg.n - 1] ?? '');
        const str = STRING.exec(arg.value);
        const atom = ATOM.exec(arg.value);
        const atoms = patterns.filter((p) => ATOM.test(p));
        const strings = patterns.filter((p) => STRING.test(p));
        const mismatch = str && atoms.length > 0 && strings.length === 0 ? { given: 'the string', want: 'atoms', fix: `pass the atom (fix what made the string: a map, a config or a parse that gives strings; or convert it once with \`String.to_existing_atom/1\`), or add clauses for the strings` } : atom && strings.length > 0 && atoms.length === 0 ? { given: 'the atom', want: 'strings', fix: 'pass the string (`Atom.to_string/1`), or add clauses for the atoms' } : undefined;
        if (!mismatch) continue;
        const same = patterns.find((p) => (str ? ATOM.exec(p)?.slice(1).find((x) => x !== undefined) === str[1] : STRING.exec(p)?.[1] === (atom?.[1] ?? atom?.[2])));
        out.push({
          text: `No clause of ${inlineCode(fn)} takes these arguments ${at(f.message_line)}: argument ${arg.n} was ${mismatch.given} ${inlineCode(arg.value)} ${at(arg.line)}, and the clauses match ${mismatch.want} there (${patterns.slice(0, 4).map((p) => inlineCode(p)).join(', ')} ${clausesAt}); a string never matches an atom${same ? `, not even ${inlineCode(same)}` : ''}. The clauses are not wrong for the values they were written for: ${mismatch.fix}.${marks}`,
          lines: [f.message_line, arg.line, first, last],
        });
        return;
      }
      out.push({
        text: `No clause of ${inlineCode(fn)} takes the arguments it was given ${at(f.message_line)}: compare each argument (from ${at(report.args[0]?.line as number)}) with the clauses' patterns ${clausesAt}.${marks} Fix the caller that passed them (the frame under the raise site), or add a clause for them.`,
        lines: [f.message_line, report.args[0]?.line as number, first, last],
      });
    },
    { group: 'exception', supersedes: [EXCEPTION_PLACE] },
  ),
];
