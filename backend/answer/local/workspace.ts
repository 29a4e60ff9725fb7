/**
 * Answers from the workspace snippets of the context (issue 17): the failing line of the source
 * for "how do I fix it?", and "show me <file>" / "show me the Jenkinsfile".
 */
import type { CiContext, Source, WorkspaceSnippet } from '../../../protocol/types.js';
import { locationsInSpan, PIPELINE_SCRIPT } from '../../../core/log/locations.js';
import { missingSymbolOf, similarIdentifiers, symbolKindAt, typeMismatchOf, type SymbolKind } from '../../../core/log/symbols.js';
import type { Finding } from '../../../protocol/types.js';
import { SNIPPET_CLUE_MARK } from '../../../protocol/ciContext.js';
import { buildLabel, escapeRegExp } from '../facts.js';
import { MODULE_FORMAT, PACKAGE_SUBPATH, PHP_NOT_LOADED, isLoadFailure, messageHasDetail } from './exceptions.js';
import { runtimeHintApplies } from './runtimeHints.js';
import { loadAct } from './loadRemedy.js';
import { IMPORT_CYCLE } from './importCycle.js';
import { docTestOf } from './findingText.js';
import { conversionFix } from './typeConversion.js';
import { unusedMemberFix } from './unusedMembers.js';
import { languageOf } from './language.js';
import { SAME_PLACE_NOTE } from './fixToolWords.js';
import { osConditionOf, osFixLine } from './osCondition.js';
import { inlineCode, linesOf, storedLogSpan, UNSET_VARIABLE, type LogSpan } from '../logtext.js';
import { ReplyBuilder, type AnswerGroup, type Ask, type Composer, type Reply } from './reply.js';

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

/** Two paths of one file as a log, a trace and the workspace name it (one may be relative to the other's directory; `\\` read as `/`). */
export function sameFile(a: string, b: string): boolean {
  const x = a.replace(/\\/g, '/');
  const y = b.replace(/\\/g, '/');
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/** The context's snippets that have the shape the contract gives them (anything else skipped). */
export function snippetsOf(ci: CiContext): WorkspaceSnippet[] {
  const raw = ci.workspaceSnippets;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (s: unknown): s is WorkspaceSnippet =>
      isDict(s) &&
      typeof s.path === 'string' &&
      typeof s.text === 'string' &&
      posInt(s.startLine) &&
      posInt(s.endLine) &&
      s.endLine >= s.startLine,
  );
}

/** A clue snippet (a workspace line that names what failed, found by text): not a line the log names. */
export const isClue = (s: WorkspaceSnippet): boolean => s.message?.startsWith(SNIPPET_CLUE_MARK) ?? false;

const isPipeline = (s: WorkspaceSnippet): boolean =>
  s.kind === 'pipeline' || s.path === PIPELINE_SCRIPT || /(^|\/)Jenkinsfile[^/]*$/.test(s.path);

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** Where a snippet is, for a person: `src/A.java` or the inline pipeline script. */
function place(s: WorkspaceSnippet): string {
  return s.path === PIPELINE_SCRIPT && s.workspaceId === 'job-config' ? "the pipeline script (inline in the job's configuration)" : inlineCode(s.path);
}

/** The snippet's lines with a line-number gutter, `>` marking `mark`; a fenced block. */
export function numbered(s: WorkspaceSnippet, mark?: number, maxLines = 40, around?: number): string {
  const lines = s.text.split('\n');
  let from = s.startLine;
  let to = Math.min(s.endLine, s.startLine + lines.length - 1);
  if (to - from + 1 > maxLines) {
    const centre = around ?? mark ?? from;
    from = Math.max(s.startLine, centre - Math.floor(maxLines / 2));
    to = Math.min(to, from + maxLines - 1);
  }
  const width = String(to).length;
  const body: string[] = [];
  for (let n = from; n <= to; n++) {
    const text = lines[n - s.startLine] ?? '';
    body.push(`${n === mark ? '>' : ' '} ${String(n).padStart(width)} | ${text}`);
  }
  const longestRun = Math.max(0, ...[...s.text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${languageOf(s.path)}\n${body.join('\n')}\n${fence}`;
}

function fileSource(s: WorkspaceSnippet, from = s.startLine, to = s.endLine): Source {
  return { kind: 'file', path: s.path, start_line: from, end_line: to };
}

/** The named line of a snippet as one trimmed line of code. */
function lineOf(s: WorkspaceSnippet, n: number): string | undefined {
  if (n < s.startLine || n > s.endLine) return undefined;
  return s.text.split('\n')[n - s.startLine];
}

/** Names in the snippets that look like `missing` (a typo, another case, a prefix), nearest first. */
export function similarNames(missing: string, snippets: readonly WorkspaceSnippet[], max = 3, kind?: SymbolKind, renamed: ReadonlySet<string> = new Set()): { name: string; snippet: WorkspaceSnippet; line: number }[] {
  const found: { name: string; snippet: WorkspaceSnippet; line: number; score: number }[] = [];
  for (const s of snippets) {
    for (const hit of similarIdentifiers(missing, s.text.split('\n'), max, kind, renamed)) {
      if (!found.some((f) => f.name === hit.name)) found.push({ name: hit.name, snippet: s, line: s.startLine + hit.index, score: hit.score });
    }
  }
  return found.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, max);
}

/** The snippet the top failure points at: its named line is among the excerpt's locations, else the first one named. */
function snippetForFailure(snippets: readonly WorkspaceSnippet[], spans: readonly LogSpan[], finding?: Finding): WorkspaceSnippet | undefined {
  // The script line that ran a failing command is not source the error names (see scriptOfCommand).
  const named = snippets.filter((s) => posInt(s.line) && s.message !== SCRIPT_OF_COMMAND && !INNER_SCRIPT_LINE.test(s.message ?? '') && !isClue(s));
  // The finding's own place first (for an exception, where it was raised in the project's code), then what the excerpts name.
  const places = [finding?.location, finding?.location?.frames?.project, finding?.location?.frames?.raise];
  for (const p of places) {
    if (!p || p.line === undefined) continue;
    const hit = named.find((s) => s.line === p.line && baseName(s.path) === baseName(p.file.replace(/\\/g, '/')));
    if (hit) return hit;
  }
  for (const span of spans) {
    const locs = locationsInSpan(span);
    for (const loc of locs) {
      const hit = named.find(
        (s) =>
          s.line === loc.line &&
          (loc.path === PIPELINE_SCRIPT ? isPipeline(s) : baseName(s.path) === baseName(loc.path.replace(/\\/g, '/'))),
      );
      if (hit) return hit;
    }
    const byLogLine = named.find((s) => posInt(s.logLine) && s.logLine >= span.start_line && s.logLine <= span.end_line);
    if (byLogLine) return byLogLine;
  }
  return named.find((s) => !isPipeline(s)) ?? named[0];
}

/** The message of a snippet the reader added for the script line that runs the failing command. */
export const SCRIPT_OF_COMMAND = 'runs the failing command';
/** The message of a snippet the reader added for the line of the script the failing command ran that runs the error's program. */
export const INNER_SCRIPT_LINE = /^runs (\S+), which printed the error$/;

/**
 * The script line that ran the failing command (a failure of how the step ran names no source
 * line), quoted with the lines around it; and, for a variable the step echoed as empty
 * (`+ TOKEN=`), where the script sets it from another one (`TOKEN=${BOT_TOKEN:-}`), which
 * therefore was empty or unset in this job.
 */
export function scriptOfCommand(ask: Ask, empty: readonly string[]): Reply | undefined {
  const s = snippetsOf(ask.ci).find((x) => x.message === SCRIPT_OF_COMMAND && posInt(x.line));
  if (!s || !posInt(s.line)) return undefined;
  const out = new ReplyBuilder();
  out.line(`**In the script:** ${inlineCode(`${s.path}:${s.line}`)} runs the command that failed:`);
  out.line(numbered(s, s.line, 15));
  out.source(fileSource(s));
  const lines = s.text.split('\n');
  for (const name of empty) {
    const k = lines.findIndex((l) => new RegExp(`^\\s*(?:export\\s+)?${name}=["']?\\$\\{?([A-Za-z_]\\w*)`).test(l));
    const from = k >= 0 ? new RegExp(`^\\s*(?:export\\s+)?${name}=["']?\\$\\{?([A-Za-z_]\\w*)`).exec(lines[k] ?? '')?.[1] : undefined;
    if (from) out.line(`${inlineCode(name)} was empty, and ${inlineCode(`${s.path}`)} line ${s.startLine + k} sets it from ${inlineCode(from)}: so ${inlineCode(from)} was not set (or empty) in this job. Provide it (a credential or environment variable of the job), or set ${inlineCode(name)} from the variable the job does have.`);
  }
  return out.reply();
}

/** `cichat ws cat` for a path of this build, with what the context knows of job and build. */
function fetchCommand(ci: CiContext, filePath: string, workspaceId?: string): string {
  const job = ci.jobDetails?.fullName ?? ci.jobDetails?.name;
  const build = ci.buildDetails?.number;
  const ws = workspaceId && workspaceId !== 'ws-default' && workspaceId !== 'local' && workspaceId !== 'job-config' ? ` --workspace ${workspaceId}` : '';
  return inlineCode(`cichat ws cat ${job ?? 'JOB'} ${build ?? 'BUILD'} ${filePath}${ws}`);
}

/**
 * The failing source for a failure answer: the named line quoted with the lines around it
 * (marked), file and line named, and the fix the error suggests (unless `fix: false`). Undefined when the context
 * holds no snippet for it (then `missingSourceHint` tells how to fetch it).
 */
export function failingSource(ask: Ask, spans: readonly LogSpan[], headline?: string, finding?: Finding, opts: { fix?: boolean; checkAt?: string; sidesSaid?: boolean; compilerName?: NamedByCompiler } = {}): Reply | undefined {
  const snippets = snippetsOf(ask.ci);
  const s = snippetForFailure(snippets, spans, finding);
  if (!s || !posInt(s.line)) return undefined;
  const out = new ReplyBuilder();
  const at = `${s.path === PIPELINE_SCRIPT ? 'WorkflowScript' : s.path}:${s.line}`;
  out.line(`**In the source:** ${inlineCode(at)}${s.workspaceId && s.workspaceId !== 'job-config' ? ` (workspace ${inlineCode(s.workspaceId)})` : ''}${s.path === PIPELINE_SCRIPT ? ', the pipeline script in the job\'s configuration' : ''}, line ${s.line} marked:`);
  out.line(numbered(s, s.line, 15));
  out.source(fileSource(s));
  // A missing link symbol's declaration (jenkins/workspace/linkDecl.ts): the line is shown because it declares what nothing defines.
  const declared = /^declares (\S+), the symbol the linker could not find; /.exec(s.message ?? '')?.[1];
  if (declared) out.line(`It declares ${inlineCode(declared)}, and no C or C++ source file of the workspace defines it.`);
  const message = [s.message ?? '', headline ?? '', ...spans.slice(0, 2).map((x) => x.text)].join('\n');
  // The lines the tool printed right above its message (the source line and its carets: OCaml, gcc, rustc), for the type conversion.
  const stored = finding ? storedLogSpan(ask.ctx) : undefined;
  const above = stored && finding ? linesOf(stored, Math.max(stored.start_line, finding.message_line - 3), finding.message_line - 1)?.text : undefined;
  // The why answer shows the line and leaves the fix to its one "Next step" (and to "how do I fix it?").
  const fix = opts.fix === false ? undefined : fixFor(message, s, snippets, out, finding, renamedIn(ask.ci), opts.checkAt, opts.sidesSaid, above, opts.compilerName);
  if (fix) out.line(`**Fix:** ${fix}`);
  return out.reply();
}

/** Names the commits since the last green build mention (`rename quantity to quantityOf`): a rename's new name ranks first. */
export function renamedIn(ci: CiContext): Set<string> {
  const out = new Set<string>();
  const green = ci.buildDetails?.lastSuccessfulBuild;
  const lists = [ci.buildDetails?.changes, isDict(green) ? green.changesSince : undefined];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const c of list as unknown[]) {
      const msg = isDict(c) && typeof c.message === 'string' ? c.message : '';
      for (const m of msg.matchAll(/[A-Za-z_$][\w$]{2,}/g)) out.add(m[0]);
    }
  }
  return out;
}

/** A compiler's "wrong number of arguments" (javac, go, gcc/clang, tsc, rustc, Python, Kotlin). */
const ARITY = /argument lists differ in length|(?:not enough|too many) arguments in call to|too (?:few|many) arguments to|Expected \d+ arguments?, but got \d+|missing \d+ required (?:positional|keyword-only) argument|takes (?:from )?\d+ (?:to \d+ )?positional arguments? but|this (?:function|method) takes \d+ arguments? but|No value passed for parameter/;

/** A runtime error about a null/None/undefined receiver: no name is missing, a value is. */
const NULL_RECEIVER = /'NoneType' object has no attribute|Cannot read propert(?:y|ies) of (?:undefined|null)|undefined method [`'‘]?\w+[`'’]? for nil|Call to a member function \w+\(\) on null|attempt to (?:index|call) a nil value|Can't call method "\w+" on an undefined value|null object reference/;

/** An exception about a missing value (null, None, nil, undefined), where "make sure it is set" is the advice. */
const NULL_VALUE = /NullPointer|NoneType|\bnil\b|\bnull\b|\bundefined\b|NullReference/;

/**
 * The expression whose `.name` was read on `code`: an identifier chain (`m`, `self.repo.find(x)`)
 * that starts where no identifier, dot or closing bracket goes before it, so `int(m.group(1))`
 * gives `m`, not `int(m`.
 */
export function receiverOf(code: string, name: string): string | undefined {
  const chain = String.raw`[A-Za-z_$][\w$]*(?:(?:\?\.|\.)[A-Za-z_$][\w$]*|\[[^\[\]]*\]|\([^()]*\))*?`;
  return new RegExp(String.raw`(?<![\w$.\])\]])(${chain})(?:\?\.|\.|->)${name.replace(/[$]/g, '\\$')}\b`).exec(code)?.[1];
}

/**
 * The nearest plain assignment of a simple name above `line` in the snippet, within the same
 * function (the scan stops at a `def`/`function`/`func`/`fn` line): Python, JavaScript/TypeScript,
 * Ruby, Go (`:=`), Rust (`let`) spellings.
 */
export function assignmentAbove(s: WorkspaceSnippet, line: number, name: string): { line: number; code: string } | undefined {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
  const set = new RegExp(String.raw`^\s*(?:(?:const|let|var|val|my|local|auto)\s+(?:mut\s+)?)?${name.replace(/[$]/g, '\\$')}\s*(?::\s*[^=]+)?(?::=|=(?![=~]))\s*\S`);
  for (let n = line - 1; n >= s.startLine; n--) {
    const text = lineOf(s, n);
    if (text === undefined) break;
    if (set.test(text)) return { line: n, code: text.trim() };
    if (/^\s*(?:(?:async\s+)?def|(?:export\s+)?(?:async\s+)?function|func|fn|sub)\b/.test(text)) break;
  }
  return undefined;
}

/** A name the compiler's own help under the error proposes for the missing one (rustc: "there is a method `as_metres` with a similar name"), and its log line. */
export interface NamedByCompiler {
  name: string;
  line: number;
}

/** rustc's help that names the existing item it takes the missing name for: the name (ux8). */
export function nameTheCompilerSuggests(help: string): string | undefined {
  return /\bthere (?:is|are) (?:an? )?[\w ]+? `([A-Za-z_$][\w$]*)` with a similar name\b|\ban? [\w ]+? with a similar name exists?: `([A-Za-z_$][\w$]*)`/.exec(help)?.slice(1).find((x) => x !== undefined);
}

/** `sidesSaid`: the answer says elsewhere that the log does not tell which side of a failed check is wrong (remedyShape.ts `Unsure.sides`): not said again here. */
function fixFor(message: string, s: WorkspaceSnippet, snippets: readonly WorkspaceSnippet[], out: ReplyBuilder, finding?: Finding, renamed: ReadonlySet<string> = new Set(), checkAt?: string, sidesSaid = false, above = '', byCompiler?: NamedByCompiler): string | undefined {
  const code = lineOf(s, s.line ?? 0)?.trim();
  const where = `line ${s.line} of ${place(s)}`;
  const runtime = finding?.class === 'test-error' || finding?.class === 'runtime-exception';
  const named = finding?.symbol && finding.class === 'compile-error' ? finding.symbol : runtime && NULL_RECEIVER.test(finding?.message ?? message) ? undefined : missingSymbolOf(message);
  // A C designator names a field of an initialised struct: without that struct's members found, the line's own fix below says more (fx9).
  const missing = named && /does not refer to any field/.test(message) && !snippets.some((x) => (x.message ?? '').endsWith(` ${named}`) || (x.message ?? '').endsWith(`where ${named} is not`)) ? undefined : named;
  if (missing) {
    const suggested = /Did you mean '([\w$]+)'\?/i.exec(message)?.[1];
    // Only definitions of the kind the compiler says is missing: a method for a method.
    // The snippet reader already looked in the type that should declare it: its members of the same kind.
    const members = snippets.flatMap((x) => {
      const m = /^declares ([\w$]+), a member of ([\w$]+) like ([\w$]+)$/.exec(x.message ?? '');
      return m && m[3] === missing ? [{ name: m[1] as string, snippet: x, line: x.startLine + Math.max(0, x.text.split('\n').findIndex((l) => l.includes(m[1] as string))), owner: m[2] as string }] : [];
    });
    if (members.length > 0 && !/Did you mean/.test(message)) {
      for (const x of members) out.source(fileSource(x.snippet));
      const names = members.map((x) => `${inlineCode(x.name)} (${x.snippet.path} line ${x.line})`).join(', ');
      return `${inlineCode(missing)} is not a member of ${inlineCode(members[0]?.owner ?? '')}, where ${where} uses it. ${members.length === 1 ? 'Its member of the same kind that fits is' : 'Its members of the same kind that fit are'} ${names}: use it if that is the one you meant (a rename or a typo), or declare ${inlineCode(missing)}.`;
    }
    // No member named like it: the members the failing file does not use (unusedMembers.ts).
    const unused = /Did you mean/.test(message) ? undefined : unusedMemberFix(missing, where, code, snippets);
    if (unused) {
      for (const x of unused.sources) out.source(x);
      return unused.text;
    }
    const similar = similarNames(missing, snippets, 3, symbolKindAt(message, missing, code), renamed);
    for (const x of similar) if (x.snippet !== s) out.source(fileSource(x.snippet));
    if (suggested) return `${inlineCode(missing)} does not exist where ${where} uses it; the compiler suggests ${inlineCode(suggested)}.`;
    // The compiler's help names the item it sees (ux8: `from_metres` from the snippets was offered over rustc's `as_metres`).
    if (byCompiler) {
      out.log({ start_line: byCompiler.line, end_line: byCompiler.line });
      return `${inlineCode(missing)} does not exist where ${where} uses it; the compiler sees ${inlineCode(byCompiler.name)} with a similar name [L${byCompiler.line}-L${byCompiler.line}]: use it if that is the one meant (a rename the change did not reach here), or declare ${inlineCode(missing)}.`;
    }
    // The name is defined in another file of the workspace: it exists, it is only not visible here (ux8: "no similar name
    // is in the source" above a clue quoting its definition).
    const elsewhere = snippets.find((x) => x.message === `${SNIPPET_CLUE_MARK}declares ${missing}, the name the compiler could not find`);
    if (elsewhere && similar.length === 0) {
      out.source(fileSource(elsewhere));
      return `${inlineCode(missing)} is defined in ${inlineCode(elsewhere.path)}${elsewhere.line !== undefined ? ` (line ${elsewhere.line})` : ''}, but ${where} cannot see it: make that definition visible there (a declaration, an include or an import) rather than renaming the call.`;
    }
    // C's implicit declaration: a call with no declaration in sight, however similar a name gcc offers (ux10: `stats_merge`, defined
    // in stats.c, not declared in stats.h; gcc's "did you mean ‘stats_mean’" is only a name that looks alike).
    const suggests = /did you mean [‘'`]([\w$]+)['’`]/.exec(message)?.[1];
    if (/implicit declaration of function/.test(message)) return `C needs ${inlineCode(missing)} declared before ${where} calls it, and nothing declares it there: if the project defines it in another source file, add its prototype to the header that file's functions are declared in and that ${place(s)} includes; if it is a library function, include the library's header${suggests ? `. The compiler's ${inlineCode(`did you mean ${suggests}`)} only names a function that is declared with a similar name` : ''}.`;
    if (similar.length > 0) {
      const names = similar.map((x) => `${inlineCode(x.name)} (${x.snippet.path === s.path ? '' : `${x.snippet.path} `}line ${x.line})`).join(', ');
      return `${inlineCode(missing)} is not defined where ${where} uses it. Similar names in the source I can see: ${names}. Use the one you meant, or declare ${inlineCode(missing)} (or add its import).`;
    }
    return `${inlineCode(missing)} is not defined where ${where} uses it, and no similar name is in the source the context holds: declare it, add its import or dependency, or fix the spelling.`;
  }
  // A call with the wrong number of arguments is not a type to convert: the declaration says what it takes.
  if (ARITY.test(message)) {
    return `the call at ${where}${code ? ` (${inlineCode(code)})` : ''} does not pass the arguments the callee declares (the compiler compares the two lists): pass what the declaration takes now, or change the declaration back.`;
  }
  // The expected and the found type, and the language's own conversion between them, on the marked line (typeConversion.ts).
  const column = finding?.location && sameFile(s.path, finding.location.file) && finding.location.line === s.line ? finding.location.column : undefined;
  const converted = conversionFix(`${above}\n${message}`, s.path, lineOf(s, s.line ?? 0), column, where, s.text);
  if (converted) return converted;
  // javac's lossy conversion, and clang's `implicit conversion loses integer precision: 'size_t' (aka 'unsigned long') to 'int'`.
  const lossy = /possible lossy conversion from ([\w.]+) to ([\w.]+)|implicit conversion loses (?:integer|floating-point) precision: '([^']+)'(?: \(aka '[^']+'\))? to '([^']+)'/.exec(message);
  const types = typeMismatchOf(message) ?? (lossy ? { found: (lossy[1] ?? lossy[3]) as string, required: (lossy[2] ?? lossy[4]) as string } : undefined);
  // A declaration whose type does not fit its value: the line with the value's type, as one concrete edit.
  const declared = types && code ? new RegExp(`^((?:final\\s+|const\\s+|var\\s+)?)${escapeRegExp(types.required.split('.').pop() as string)}(\\s+[A-Za-z_$][\\w$]*\\s*=.*)$`).exec(code) : null;
  if (types && declared) {
    const found = types.found.replace(/^java\.lang\./, '');
    // A number is made text by a call, not a cast (ux4: "a cast or rounding" for an int declared String).
    const toText = /^(?:java\.lang\.)?String$/.test(types.required) && /^(?:int|long|short|byte|double|float|char|boolean|Integer|Long|Double|Float|BigDecimal|BigInteger)$/.test(found);
    const conversion = toText ? `make it text (${inlineCode('String.valueOf(...)')})` : 'convert the value explicitly (a cast or rounding)';
    const a = (t: string): string => (/^[aeiou]/i.test(t) ? 'an' : 'a');
    return `${where} (${inlineCode(code as string)}) declares ${a(types.required)} ${inlineCode(types.required)} for ${a(types.found)} ${inlineCode(types.found)} value: declare it as the value's type, ${inlineCode(`${declared[1] ?? ''}${found}${declared[2] ?? ''}`)}, or ${conversion} if ${inlineCode(types.required)} is what the code needs.`;
  }
  if (types) {
    // A literal (`'staging'`, `42`) where a named type is needed: the literal is not one of the
    // values that type allows; declaring the variable as the literal's type would only move the error.
    if (/^(?:"[^"]*"|'[^']*'|-?\d[\d.]*|true|false)$/.test(types.found) && /^[A-Z][\w$.]*$/.test(types.required)) {
      const imported = s.text.split('\n').findIndex((l) => new RegExp(`\\bimport\\b.*\\b${escapeRegExp(types.required)}\\b.*\\bfrom\\s+['"]([^'"]+)['"]`).test(l));
      const from = imported >= 0 ? /from\s+['"]([^'"]+)['"]/.exec(s.text.split('\n')[imported] as string)?.[1] : undefined;
      const defined = from ? ` (${inlineCode(types.required)} is imported from ${inlineCode(from)} on line ${s.startLine + imported} of ${place(s)})` : '';
      return `${where}${code ? ` (${inlineCode(code)})` : ''} gives ${inlineCode(types.found)}, which is not one of the values ${inlineCode(types.required)} allows: use a value ${inlineCode(types.required)} accepts, or add ${inlineCode(types.found)} to ${inlineCode(types.required)}'s definition${defined} if it is a new valid value.`;
    }
    return `${where}${code ? ` (${inlineCode(code)})` : ''} gives a ${inlineCode(types.found)} where a ${inlineCode(types.required)} is needed: convert the value, or change the declared type to ${inlineCode(types.found)}.`;
  }
  // A test's check: the values only when the log labels them (never read off `assert a == b`).
  if (finding?.class === 'test-assertion') {
    const subject = snippets.find((x) => x.message === `code under test of ${s.path}`);
    if (subject) out.source(fileSource(subject));
    const look = subject ? ` The code under test is ${inlineCode(subject.path)} (below).` : '';
    // The stack names the test's own line elsewhere (testFrame.ts): this line is the code under test's, the check is there.
    if (checkAt) return `${where} is in the code under test; the check that failed is the test's, at ${inlineCode(checkAt)}.${sidesSaid ? '' : ' Decide which is right: if the test\'s expectation is, fix the code here; if the behaviour changed on purpose, update the test.'}`;
    const values = finding.expected !== undefined && finding.actual !== undefined ? ` expects ${inlineCode(finding.expected)} but got ${inlineCode(finding.actual)}` : ' does not hold';
    return `the check at ${where}${values}.${sidesSaid ? '' : ' Decide which is right: if the expectation is, fix the code under test; if the behaviour changed on purpose, update the test.'}${look}`;
  }
  // A module that is not there, whose imported names the workspace defines elsewhere (moved or renamed).
  const moved = snippets.flatMap((x) => {
    const m = /^defines (\w+) in module ([\w.]+), imported from ([\w.]+)$/.exec(x.message ?? '');
    return m ? [{ name: m[1] as string, module: m[2] as string, from: m[3] as string, snippet: x }] : [];
  });
  if (moved.length > 0 && /ModuleNotFoundError|ImportError|No module named|cannot import name/.test(message)) {
    for (const x of moved) out.source(fileSource(x.snippet));
    const first = moved[0] as (typeof moved)[number];
    const where = moved.map((x) => `${inlineCode(x.name)} is defined in ${inlineCode(x.snippet.path)} (module ${inlineCode(x.module)})`).join(', ');
    return `${where}, but line ${s.line} of ${place(s)} imports it from ${inlineCode(first.from)}, which does not exist. Import it from where it is now (${inlineCode(`from ${first.module} import ${moved.filter((x) => x.module === first.module).map((x) => x.name).join(', ')}`)}), or restore ${inlineCode(first.from)} if the move was not meant.`;
  }
  if (finding && (finding.class === 'test-error' || finding.class === 'runtime-exception')) {
    // A null receiver: the expression before `.name` on the line is the value that was None/undefined/nil.
    const attr = /has no attribute '(\w+)'|\(reading '([\w$]+)'\)|undefined method [`'‘](\w+)['’] for nil|member function (\w+)\(\) on null/.exec(finding.message);
    const name = attr ? (attr[1] ?? attr[2] ?? attr[3] ?? attr[4]) : undefined;
    const receiver = name && code ? receiverOf(code, name) : undefined;
    if (NULL_RECEIVER.test(finding.message) && receiver) {
      const none = /NoneType/.test(finding.message) ? 'None' : /nil/.test(finding.message) ? 'nil' : /on null/.test(finding.message) ? 'null' : (/of (undefined|null)/.exec(finding.message)?.[1] ?? 'null');
      const set = assignmentAbove(s, s.line ?? 0, receiver);
      const origin = set ? ` ${inlineCode(receiver)} is set on line ${set.line} (${inlineCode(set.code)}): that expression gave ${none} for this input.` : '';
      return `on ${where} (${inlineCode(code as string)}), ${inlineCode(receiver)} was ${inlineCode(none)} when ${inlineCode(`.${name as string}`)} was read.${origin} ${set ? `Handle the ${none} case there, or make that expression give a value for this input.` : `Find why it is not set for this input (the data the test gives, a lookup or match that found nothing) and set it, or handle the ${none} case there.`}`;
    }
    // An index past the end (Go, Rust print both numbers): the indexing expression on the line that used it.
    const bounds = /index out of (?:range|bounds)(?: \[|: the len is )(\d+)(?:\] with length |\s*but the index is )(\d+)/.exec(finding.message);
    if (bounds && code) {
      const [index, length] = /the len is/.test(finding.message) ? [bounds[2], bounds[1]] : [bounds[1], bounds[2]];
      const expr = new RegExp(String.raw`([A-Za-z_][\w.]*)\[${index}\]`).exec(code)?.[1];
      if (expr) return `on ${where} (${inlineCode(code)}), ${inlineCode(`${expr}[${index}]`)} asks for element ${Number(index) + 1} of ${inlineCode(expr)}, which holds ${length}: check ${inlineCode(/the len is/.test(finding.message) ? `${expr}.len()` : `len(${expr})`)} first${/the len is/.test(finding.message) ? ` (or use ${inlineCode(`${expr}.get(${index})`)})` : ''}, or find why ${inlineCode(expr)} has fewer elements than this line expects.`;
    }
    // A doc test's panic (findingText.ts docTestOf): the marked line is the panic's line in rustdoc's program, not the file's.
    const doc = docTestOf(finding);
    if (doc) return `the failing doc test is the example that starts at line ${doc.line} of ${inlineCode(doc.file)}; line ${s.line} is where rustdoc's program from that example stopped, which need not be line ${s.line} of the file. Run the example's calls against the code: the code or the example is wrong.`;
    // A runtime's generic `error` (Lua, R) is no exception's name (ux13).
    const raised = `${where}${code ? ` (${inlineCode(code)})` : ''} is where ${finding.exception && finding.exception !== 'error' ? inlineCode(finding.exception) : 'the error'} came from`;
    // "Make sure the value is set" is advice for a missing value only; a KeyError or an IllegalStateException is about another thing.
    if (NULL_VALUE.test(`${finding.exception ?? ''} ${finding.message}`)) return `${raised}: make the code handle the value it got there, or make sure that value is set before it is used.`;
    const cycle = IMPORT_CYCLE.exec(finding.message)?.[1];
    if (cycle) return `${raised}: the import ran while ${inlineCode(cycle)} was still loading (a circular import), so break the cycle of imports rather than change this line's values or what the build installs.`;
    // A relative or absolute specifier (`require('./settings.mjs')`) is a file of the project: no package version to change (ux10).
    if (MODULE_FORMAT.test(finding.message)) return `${raised}: the line loads a module in a way its format does not allow (the module itself was found), so change how it loads it${/\b(?:require|import)\s*\(\s*['"`][./]/.test(code ?? '') ? '' : ' (or which version of the package the build installs)'} rather than its values.`;
    // Native code the loader (or JNI) refused: the library is what to fix (loadRemedy.ts).
    if (finding.linkage?.stage === 'load') return `${raised}${loadAct(finding, '').replace(/ ,/g, ',').replace(/\s+(?=,|$)/g, '')}.`;
    if (isLoadFailure(`${finding.exception ?? ''} ${finding.message}`)) return `${raised}: the line needed code the program could not load there, so fix what the build puts on the classpath or installs rather than the line.`;
    if (PACKAGE_SUBPATH.test(finding.message)) return `${raised}: the line imports a subpath the package's \`exports\` map does not list, so change the import (or the map) rather than the line's values.`;
    if (PHP_NOT_LOADED.test(finding.message)) return `${raised}: the line needed ${inlineCode(PHP_NOT_LOADED.exec(finding.message)?.[1] as string)}, and no file PHP loaded declares it, so fix the file that should (its name, its namespace) or how it is loaded rather than the line.`;
    // The operating system's answer (osCondition.ts): the line only asked; the environment is the first suspect.
    const os = osConditionOf(finding.message);
    // A message without the path (Rust's `Os { kind: NotFound }`): the one path literal the line holds.
    const literal = os && !os.what && code ? [...code.matchAll(/"([\w.-]*\/[\w./-]*\.\w+|[\w-]+\.\w{2,5})"/g)].map((x) => x[1] as string) : [];
    if (os) return `${raised}: ${osFixLine(literal.length === 1 ? { ...os, what: literal[0] as string } : os)}`;
    // A runtime's words a remedy reads (runtimeHints.ts, ux13): that step says what they ask for.
    if (runtimeHintApplies(finding)) return `${raised}; the step above says what its message asks for there.`;
    if (!messageHasDetail(finding)) return `${raised}: the message gives nothing beyond the exception's type, so read what this line does with the exception's meaning in mind, then fix the line or the code that gave it its values.`;
    return `${raised}: read what the message says about the values this line works on, then fix the line or the code that gave it those values.`;
  }
  // A variable read that nothing set: the line only reads it; the value is missing from the job (ux4: "change
  // line 7 as the error says" under a remedy that says to set it).
  const unset = UNSET_VARIABLE.exec(message);
  if (unset && !isPipeline(s)) {
    const name = unset[1] as string;
    return `${where}${code ? ` (${inlineCode(code)})` : ''} reads ${inlineCode('$' + name)}, which nothing set before it: set ${inlineCode(name)} in the job's environment or parameters (or export it earlier in the script), or give it a default there, ${inlineCode('${' + name + ':-<default>}')}.`;
  }
  if (isPipeline(s)) return `correct ${where} of the pipeline script as the error says, then replay the build (Replay on the build's page lets you try the edit without a commit).`;
  // A failure of what the step had (a tool's version, a dependency, the network, credentials,
  // memory, disk, time): the line is where it showed, not what to change; the remedy says what.
  if (finding && !['compile-error', 'lint', 'ci-script', 'unknown'].includes(finding.class)) return undefined;
  // Two declarations that disagree (gcc/clang's conflicting types, a redefinition): this line is one of
  // them, and the log does not say which side the change meant; the remedy names the other.
  if (finding?.class === 'compile-error' && /conflicting types for|conflicting declaration|redefinition of|previous declaration of/.test(finding.message)) {
    // Not two declarations when the note points to this same line: one header read twice (fixToolWords.ts `toolwords/header-read-twice` says so).
    const note = message.split('\n').map((l) => SAME_PLACE_NOTE.exec(l.trim())).find((m) => m !== null);
    if (note && finding.location && sameFile(note[1] as string, finding.location.file) && Number(note[2]) === finding.location.line) return undefined;
    return `${where}${code ? ` (${inlineCode(code)})` : ''} is one of the two declarations the compiler found disagreeing: make it and the other one agree, changing whichever the change did not mean to alter, then re-run the build.`;
  }
  // A type argument outside a generic's constraint, whose declaration the workspace shows (jenkins/workspace/clues.ts, ux8).
  const constraint = snippets.map((x) => ({ x, m: /^clue: declares (\S+), the constraint (\S+) is not in$/.exec(x.message ?? '') })).find((c) => c.m !== null);
  if (finding?.class === 'compile-error' && constraint?.m) {
    const [, name, type] = constraint.m as unknown as [string, string, string];
    out.source(fileSource(constraint.x));
    return `${where}${code ? ` (${inlineCode(code)})` : ''} uses a generic with ${inlineCode(type)}, which its constraint ${inlineCode(name)} (${constraint.x.path} line ${constraint.x.line ?? constraint.x.startLine}) does not allow: convert the values to a type ${inlineCode(name)} lists, or add ${inlineCode(type)} to ${inlineCode(name)} if the generic code is right for it.`;
  }
  return `change ${where} as the error says${code ? ` (${inlineCode(code)})` : ''}, then re-run the build.`;
}

/**
 * The context shows a workspace of the build on the CI server: the controller recorded the ids of
 * the build's workspaces it found (`buildDetails.workspaces`), or the context holds source read
 * from one (older contexts, other clients). Without either `cichat ws cat` is not offered: it would fail.
 * The listed ids are cited (`out`) when they are what says so.
 */
function workspaceOnServer(ci: CiContext, out: ReplyBuilder): boolean {
  const listed = ci.buildDetails?.workspaces;
  if (Array.isArray(listed) && listed.some((id) => typeof id === 'string' && id !== '')) {
    out.fact('buildDetails.workspaces');
    return true;
  }
  return snippetsOf(ci).some((s) => s.workspaceId !== undefined && s.workspaceId !== 'local' && s.workspaceId !== 'job-config');
}

const NO_WORKSPACE = "the context shows no workspace of this build on the CI server to read it from: open it in your checkout (`cichat ask --workspace DIR \"...\"` sends the lines the log names from a local checkout)";

/** For a failure whose log names a file:line the context holds no source of: how to fetch it. */
export function missingSourceHint(ask: Ask, spans: readonly LogSpan[]): Reply | undefined {
  for (const span of spans.slice(0, 2)) {
    // `cichat ws cat` refuses an absolute path (the agent's own, or the runtime's library): the
    // first place the log names inside the project, else none.
    const loc = locationsInSpan(span, 10).find((l) => !/^(?:\/|[A-Za-z]:[\\/])/.test(l.path));
    if (!loc) continue;
    const out = new ReplyBuilder();
    const path = loc.path === PIPELINE_SCRIPT ? 'Jenkinsfile' : loc.path;
    out.line(
      workspaceOnServer(ask.ci, out)
        ? `The log names ${inlineCode(`${loc.path}:${loc.line}`)}; the uploaded context holds no copy of that source. To see it: ${fetchCommand(ask.ci, path)}.`
        : `The log names ${inlineCode(`${loc.path}:${loc.line}`)}; the uploaded context holds no copy of that source, and ${NO_WORKSPACE}.`,
    );
    return out.reply();
  }
  return undefined;
}

const FILE_IN_QUESTION = /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?=$|[\s`'"),?!:]|\.\s|\.$)/;

/** "show me the Jenkinsfile", "show me OrderTotals.java", "open src/a.ts": from the snippets, or how to fetch it. */
const showFile: Composer = (ask) => {
  const snippets = snippetsOf(ask.ci);
  const wantsPipeline = /\b(jenkinsfile|pipeline (script|definition|code|file)|workflowscript)\b/i.test(ask.question);
  const named = FILE_IN_QUESTION.exec(ask.question)?.[1];
  const out = new ReplyBuilder();
  const build = buildLabel(ask.ci);
  let matches: WorkspaceSnippet[];
  let what: string;
  if (wantsPipeline && (!named || /jenkinsfile/i.test(named))) {
    matches = snippets.filter(isPipeline);
    what = 'the Jenkinsfile';
  } else if (named) {
    const want = named.replace(/^\.\//, '');
    matches = snippets.filter((s) => s.path === want || s.path.endsWith(`/${want}`) || baseName(s.path) === baseName(want));
    what = inlineCode(named);
  } else {
    return { text: `Which file? Name it, e.g. *show me the Jenkinsfile* or *show me src/App.java*. ${snippets.length > 0 ? `The context holds source from: ${[...new Set(snippets.map((s) => inlineCode(s.path)))].join(', ')}.` : 'The uploaded context holds no workspace files.'}`, sources: [] };
  }
  if (matches.length === 0) {
    const path = what === 'the Jenkinsfile' ? 'Jenkinsfile' : (named ?? 'PATH');
    out.line(
      workspaceOnServer(ask.ci, out)
        ? `The uploaded context holds no copy of ${what} of ${build}. To see it from the workspace: ${fetchCommand(ask.ci, path)} (${inlineCode(`cichat ws tree ${ask.ci.jobDetails?.fullName ?? 'JOB'} ${ask.ci.buildDetails?.number ?? 'BUILD'}`)} lists the files).`
        : `The uploaded context holds no copy of ${what} of ${build}, and ${NO_WORKSPACE}.`,
    );
    if (snippets.length > 0) out.line(`\nSource the context does hold: ${[...new Set(snippets.map((s) => inlineCode(s.path)))].join(', ')}.`);
    return out.reply();
  }
  matches.sort((a, b) => a.path.localeCompare(b.path) || a.startLine - b.startLine);
  const shown = matches.slice(0, 3);
  for (const [i, s] of shown.entries()) {
    if (i > 0) out.line();
    const title = s.path === PIPELINE_SCRIPT && s.workspaceId === 'job-config' ? "**The pipeline script** (inline in the job's configuration)" : `**${inlineCode(s.path)}**${s.workspaceId && s.workspaceId !== 'local' ? ` (workspace ${inlineCode(s.workspaceId)})` : ''}`;
    out.line(`${title}, lines ${s.startLine}-${s.endLine}${posInt(s.line) ? `, line ${s.line} marked (named by the log${posInt(s.logLine) ? ` [L${s.logLine}-L${s.logLine}]` : ''})` : ''}:`);
    out.line(numbered(s, s.line, 80));
    out.source(fileSource(s));
    if (posInt(s.logLine)) out.log({ start_line: s.logLine, end_line: s.logLine });
  }
  const inWorkspace = shown.find((s) => s.workspaceId !== 'job-config');
  if (inWorkspace) {
    out.line();
    out.line(`${inWorkspace.startLine > 1 ? 'The context holds only these lines; the' : 'The'} whole file from the workspace: ${fetchCommand(ask.ci, inWorkspace.path, inWorkspace.workspaceId)}.`);
  }
  return out.reply();
};

export const workspaceAnswers: AnswerGroup = { name: 'workspace', composers: { showFile } };
