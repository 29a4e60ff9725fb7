/**
 * "How do I fix it?" from the workspace clues (issue 25): the lines the snippet reader found that
 * name what failed (jenkins/workspace/clues.ts: the manifest line of a dependency, the script
 * line of a host, the scripts `package.json` defines, a file named like a missing one, the other
 * file declaring a name the compiler could not see, the header defining a symbol twice). Each
 * becomes one concrete step that quotes the line and cites the file; nothing is said of a clue
 * the context does not hold.
 */
import type { Finding, WorkspaceSnippet } from '../../../protocol/types.js';
import { SNIPPET_CLUE_MARK } from '../../../protocol/ciContext.js';
import { GRADLE_TASK_DECLARATION, refusedOptionOf } from '../../../core/log/values.js';
import { cite, inlineCode, storedLogSpan, UNSET_VARIABLE } from '../logtext.js';
import { offlineLine } from './remedyWhere.js';
import { escapeRegExp } from '../facts.js';
import { lineTextOf } from './logHelpers.js';
import { ReplyBuilder, type Ask, type Reply } from './reply.js';
import { isClue, numbered, snippetsOf } from './workspace.js';
import { clip, type Clue } from './clueLine.js';
import { linkageStep } from './linkageSteps.js';
import { dataFileStep } from './dataFileSteps.js';
import { renamedStep } from './renamedSteps.js';
import { enumCaseStep } from './enumCaseSteps.js';
import { lockStep } from './lockSteps.js';
import { CASE_SENSITIVE, caseOnly, misplacedStep } from './misplacedSteps.js';
import { settingStep } from './settingSteps.js';
import { jvmLinkageStep } from './jvmLinkageSteps.js';
import { requiredMemberStep } from './requiredMemberSteps.js';
import { httpStatusOf, isNoSuchFile } from './httpStatus.js';

export type { Clue } from './clueLine.js';

export function cluesOf(snippets: readonly WorkspaceSnippet[]): Clue[] {
  return snippets.flatMap((s) => {
    if (!isClue(s) || s.line === undefined) return [];
    return [{ snippet: s, what: (s.message ?? '').slice(SNIPPET_CLUE_MARK.length), line: s.line, code: (s.text.split('\n')[s.line - s.startLine] ?? '').trim() }];
  });
}


function similarity(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return 0;
  if (x.includes(y) || y.includes(x)) return 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return 1 + (prev[y.length] as number);
}

/** The script names of the `"scripts": {...}` block a package.json snippet shows. */
export function scriptNamesIn(s: WorkspaceSnippet, from: number): string[] {
  const lines = s.text.split('\n').slice(from - s.startLine + 1);
  const out: string[] = [];
  for (const l of lines) {
    if (/^\s*}/.test(l)) break;
    const m = /^\s*"([^"]+)"\s*:/.exec(l);
    if (m) out.push(m[1] as string);
  }
  return out;
}

/** The `<module>` names of a POM's `<modules>` block that a snippet shows from line `from` on. */
function modulesIn(s: WorkspaceSnippet, from: number): string[] {
  const out: string[] = [];
  for (const l of s.text.split('\n').slice(from - s.startLine)) {
    for (const m of l.matchAll(/<module>\s*([^<\s]+)\s*<\/module>/g)) out.push(m[1] as string);
    if (/<\/modules>/.test(l)) break;
  }
  return out;
}

/** The target names of Makefile lines a snippet shows (`build: src/a.o` -> `build`). */
function targetsIn(s: WorkspaceSnippet): string[] {
  const out: string[] = [];
  for (const l of s.text.split('\n')) {
    const m = /^([\w.%/-]+(?:\s+[\w.%/-]+)*)\s*::?(?!=)/.exec(l);
    if (m && !/^\./.test(m[1] as string)) for (const t of (m[1] as string).split(/\s+/)) if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** The task names a gradle build script snippet declares (`task itest(type: Test)`, `tasks.register('itest')`). */
function tasksIn(s: WorkspaceSnippet): string[] {
  const out: string[] = [];
  for (const l of s.text.split('\n')) {
    const m = GRADLE_TASK_DECLARATION.exec(l);
    const name = m?.[1] ?? m?.[2];
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** How a language imports a name another file declares, when the path says which language. */
function importHint(name: string, from: string, to: string): string | undefined {
  const dir = (p: string): string[] => p.split('/').slice(0, -1);
  if (/\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(from) && /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(to)) {
    const a = dir(from);
    const b = to.replace(/\.d\.ts$|\.[^.]+$/, '').split('/');
    let k = 0;
    while (k < a.length && k < b.length - 1 && a[k] === b[k]) k++;
    const rel = [...a.slice(k).map(() => '..'), ...b.slice(k)].join('/');
    const spec = rel.startsWith('.') ? rel : `./${rel}`;
    return /^[A-Z]/.test(name) ? `import type { ${name} } from '${spec}';` : `import { ${name} } from '${spec}';`;
  }
  if (from.endsWith('.py') && to.endsWith('.py')) return `from ${to.replace(/\.py$/, '').replace(/\/__init__$/, '').replace(/^src\//, '').replace(/\//g, '.')} import ${name}`;
  if (/\.(?:c|cc|cpp|cxx|h|hpp)$/.test(from) && /\.(?:h|hh|hpp|hxx)$/.test(to)) return `#include "${to.slice(to.lastIndexOf('/') + 1)}"`;
  return undefined;
}

/** A C or C++ source file (not a header): where a function is defined rather than declared. */
const C_SOURCE = /\.(?:c|cc|cpp|cxx)$/;

/** `int f(const char *s, size_t n) {` -> `int f(const char *s, size_t n);`: the definition's line as a prototype, when it is one whole line. */
function prototypeOf(code: string, name: string): string | undefined {
  const m = new RegExp(`^\\s*((?:static\\s+)?[A-Za-z_][\\w\\s*&:<>,]*?\\b${escapeRegExp(name)}\\s*\\([^()]*\\))\\s*\\{?\\s*$`).exec(code);
  return m && !/^\s*static\b/.test(m[1] as string) ? `${(m[1] as string).trim()};` : undefined;
}

const dirOf = (p: string): string => p.slice(0, Math.max(0, p.lastIndexOf('/')));

/** `a/b` -> `c/d`: `../../c/d`. */
function relativeDir(from: string, to: string): string {
  const a = from.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  const rel = [...a.slice(k).map(() => '..'), ...b.slice(k)].join('/');
  return rel === '' ? '.' : rel.startsWith('.') ? rel : `./${rel}`;
}

/** The import specifier that reaches `target` from `importer`, with an extension when the missing one had it (`./money.js` -> `./currency.js`). */
function specifierFor(importer: string, target: string, missing: string): string {
  const bare = relativeDir(dirOf(importer.replace(/^\.\//, '')), target.replace(/\.(?:d\.ts|[cm]?[jt]sx?)$/, ''));
  const ext = /\.([cm]?[jt]sx?)$/.exec(missing)?.[1];
  if (!ext) return bare;
  // TypeScript imports a `.ts` file as `.js`; otherwise the file's own extension.
  const own = /\.([cm]?[jt]sx?)$/.exec(target)?.[1] ?? ext;
  return `${bare}.${/^[cm]?ts/.test(own) && /^[cm]?js/.test(ext) ? ext : own}`;
}

/**
 * The importing file a resolver's message names when the finding has no place (`Could not resolve
 * "./format.js" from "src/main.js"`; an absolute `imported from /ws/scripts/x.js`, made relative
 * by the part of the missing absolute path the workspace file shares).
 */
function importerOf(message: string, clued: string, missing: string): string | undefined {
  const from = /\b(?:imported )?from ['"]?((?:\/|\.{0,2}\/?)[\w./@-]+\.[cm]?[jt]sx?)['"]?/.exec(message)?.[1];
  if (!from) return undefined;
  if (!from.startsWith('/')) return from.replace(/^\.\//, '');
  const stem = clued.replace(/\.[^./]+$/, '');
  const root = missing.startsWith('/') && missing.endsWith(`/${stem}`) ? missing.slice(0, missing.length - stem.length) : undefined;
  return root && from.startsWith(root) ? from.slice(root.length) : undefined;
}

/** A manifest line that defines the package itself (`module example.com/retry`, `"name": "x"`, `name = "x"`), not a use of it. */
const ownDefinition = (c: Clue): boolean => /^declares the dependency /.test(c.what) && /^(?:module\s|"name"\s*:|name\s*=)/.test(c.code);

/** The parameter list of `name`'s declaration on a line (`taxFor(BigDecimal amount, String region) {` -> `BigDecimal amount, String region`). */
function parametersOf(code: string, name: string): string | undefined {
  const at = code.search(new RegExp(`\\b${name.replace(/[$]/g, '\\$')}\\s*\\(`));
  if (at < 0) return undefined;
  const open = code.indexOf('(', at);
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')' && --depth === 0) return code.slice(open + 1, i).trim();
  }
  return undefined;
}

/** One sentence per clue: what to change, where, and how. */
function stepFor(c: Clue, f: Finding, failingFile: string | undefined, others: readonly Clue[], offline = false, definedIn?: string): string | undefined {
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  const what = c.what;
  // A link symbol defined where no other file can link to it (linkageSteps.ts).
  if (f.class === 'link-error') {
    const linkage = linkageStep(c, f, others);
    if (linkage) return linkage;
  }
  // A type lacking a member its interface requires (requiredMemberSteps.ts; '' for a clue worded with another).
  const required = requiredMemberStep(c, f, others);
  if (required !== undefined) return required;
  // The data file the failing line reads (dataFileSteps.ts).
  const data = dataFileStep(c) ?? renamedStep(c, f, failingFile, others) ?? enumCaseStep(c, f) ?? lockStep(c, f) ?? settingStep(c, f) ?? misplacedStep(c, f, failingFile, others);
  if (data) return data;
  let m: RegExpExecArray | null;
  if ((m = /^declares the dependency (.+)$/.exec(what))) {
    if (ownDefinition(c)) {
      const dir = dirOf(c.snippet.path);
      return `${at} is where ${inlineCode(m[1] as string)} itself is defined${code}: it lives in ${inlineCode(dir === '' ? '.' : dir)} of this workspace.`;
    }
    // A resolver run offline read only the agent's cache: the repository was never asked (ux6).
    const right = offline ? "; if it is right, it is missing from the agent's local cache, the only place an offline build looks: fill the cache (the step above)" : '; if it is right, make that repository (or a mirror that has it) reachable from the agent';
    return `${at} is where the build asks for ${inlineCode(m[1] as string)}${code}${f.dependency ? `, resolved as ${inlineCode(f.dependency)}` : ''}: if the name or version there is wrong, change it to one the repository the build uses has${others.some((o) => /, which does not exist$/.test(o.what)) ? '' : right}.`;
  }
  if ((m = /^pins the git ref (.+)$/.exec(what))) {
    // A dependency pinned to a git ref its repository does not have (ux18): the manifest's line is the one to change.
    const ref = inlineCode(m[1] as string);
    return `${at} pins ${ref}${code}, the ref the dependency's repository does not have ${cite({ start_line: f.message_line, end_line: f.message_line })}: point it at a tag, branch or commit that repository has (${inlineCode('git ls-remote --tags --heads <repository URL>')} lists them), or push ${ref} there if it was meant to exist.`;
  }
  if ((m = /^names (.+), which does not exist$/.exec(what))) {
    const home = others.find(ownDefinition);
    const rel = home ? relativeDir(dirOf(c.snippet.path), dirOf(home.snippet.path)) : undefined;
    return `${at} names ${inlineCode(m[1] as string)}${code}, which does not exist where the build ran: ${rel ? `the module is in ${inlineCode(dirOf(home?.snippet.path ?? ''))}, which is ${inlineCode(rel)} from ${inlineCode(c.snippet.path)}: point it there` : 'point it at the directory or file that holds it now, or check it out / create it before this step'}.`;
  }
  if ((m = /^names port (\d+)$/.exec(what)) || (m = /^names ((?:[\w.-]+):\d+)$/.exec(what)) || (m = /^names ([\w.-]+\.[\w.-]+)$/.exec(what))) {
    const target = m[1] as string;
    // A server that refused a credential answered: it listens there, so the address is not the suspect (fx6).
    if (f.class === 'permission-credentials') return `${at} sets ${inlineCode(target)}${code}, the server that refused the step (it answered, so the address is not the suspect): check which credentials that server expects and that the step gives them, in the way it accepts.`;
    // A server that answered it has no such file (a 404): it listens there; the URL's path is the suspect (fx20).
    const status = f.class === 'network' ? httpStatusOf(f) : undefined;
    if (status && isNoSuchFile(status)) return `${at} sets ${inlineCode(target)}${code}, the server that answered ${inlineCode(status.said)} (it listens there, so the host is not the suspect): check the file name and path of the URL it builds.`;
    if (f.class === 'network') {
      return `${at} sets ${inlineCode(target)}${code}, where the build tried to connect: check that this is the address the service really listens on (a changed port or host is a common cause), or start the service there before the step.`;
    }
  }
  if (what === 'sets the credentials the tool uses') {
    const v = /\$\{?([A-Za-z_]\w*)\}?/.exec(c.code)?.[1];
    return `${at} is where the tool takes its credentials from${code}${v ? `: it reads ${inlineCode(v)} from the environment, so make sure the job sets ${inlineCode(v)} (a credentials binding) to a valid token with access` : ': make sure the token or password there is set for this job, valid and allowed'}.`;
  }
  if ((m = /^lists the scripts package\.json defines \(no (.+)\)$/.exec(what))) {
    const missing = m[1] as string;
    const names = scriptNamesIn(c.snippet, c.line).sort((a, b) => similarity(a, missing) - similarity(b, missing));
    if (names.length === 0) return undefined;
    return `${inlineCode(c.snippet.path)} defines the scripts ${names.slice(0, 6).map((n) => inlineCode(n)).join(', ')} (line ${c.line}) and no ${inlineCode(missing)}: run ${inlineCode(`npm run ${names[0] as string}`)} in the CI script if that is the one meant (a renamed script), or add a ${inlineCode(missing)} script.`;
  }
  if ((m = /^lists the modules the reactor has \(no (.+)\)$/.exec(what))) {
    const missing = m[1] as string;
    const modules = modulesIn(c.snippet, c.line).filter((x) => x !== missing);
    if (modules.length === 0) return undefined;
    return `${at} lists the modules the reactor has, ${modules.slice(0, 6).map((n) => inlineCode(n)).join(', ')}, and no ${inlineCode(missing)}: select the module meant with ${inlineCode('-pl')} in the CI script (a renamed module; I can't tell from the log which one it became), or add ${inlineCode(missing)} back as a module.`;
  }
  if ((m = /^defines the targets make knows \(no (.+)\)$/.exec(what))) {
    const missing = m[1] as string;
    const names = targetsIn(c.snippet).sort((a, b) => similarity(a, missing) - similarity(b, missing));
    if (names.length === 0) return undefined;
    return `${inlineCode(c.snippet.path)} defines the targets ${names.slice(0, 6).map((n) => inlineCode(n)).join(', ')} and no ${inlineCode(missing)}: call the one meant (${inlineCode(`make ${names[0] as string}`)}) or add a ${inlineCode(`${missing}:`)} rule.`;
  }
  if ((m = /^defines (\S+) in a header/.exec(what))) {
    const sym = m[1] as string;
    const decl = c.code.replace(/\s*=.*$/, '').replace(/\s*;\s*$/, '').replace(/\s*\{.*$/, '');
    const isVar = /=|;\s*$/.test(c.code) && !/\)\s*(?:\{|$)/.test(c.code);
    return isVar
      ? `${at} defines ${inlineCode(sym)} in a header${code}, so every source file that includes it defines it again and the link sees it twice: declare it there as ${inlineCode(`extern ${decl.replace(/^\s*(?:static\s+)?/, '')};`)} and keep the one definition (${inlineCode(c.code)}) in a single \`.c\`/\`.cpp\` file (or make it \`static\` if each file should have its own).`
      : `${at} defines ${inlineCode(sym)} in a header${code}: mark it \`static inline\` (or \`inline\` in C++) or move the body into one source file and keep only the declaration in the header.`;
  }
  if ((m = /^declares the module (\S+), which the failing file is$/.exec(what))) {
    // Its `#[cfg(...)]`, on the line or on the attribute lines right above it: the builds that compile the file.
    const lines = c.snippet.text.split('\n');
    const at0 = c.line - c.snippet.startLine;
    let cfg: { expr: string; line: number } | undefined;
    for (let k = at0; k >= Math.max(0, at0 - 3) && !cfg; k--) {
      const t = lines[k] ?? '';
      if (k < at0 && !/^\s*#\[/.test(t)) break;
      const e = /#\[cfg\((.+?)\)\]/.exec(t)?.[1];
      if (e) cfg = { expr: e, line: c.snippet.startLine + k };
    }
    if (!cfg) return undefined;
    const feature = /^feature\s*=\s*"([^"]+)"$/.exec(cfg.expr.trim())?.[1];
    return `${at} declares the module ${inlineCode(m[1] as string)}${code} under ${inlineCode(`#[cfg(${cfg.expr})]`)} (line ${cfg.line}): ${failingFile ? inlineCode(failingFile) : 'the failing file'} is compiled only ${feature ? `with the feature ${inlineCode(feature)} (\`--features ${feature}\` or \`--all-features\`)` : 'when that condition holds'}, so a build without it does not meet this error. Build with it to reproduce the error locally.`;
  }
  if ((m = /^declares (\S+), the name the compiler could not find$/.exec(what))) {
    const name = m[1] as string;
    // C and C++ have no imports: a function defined in another source file needs a declaration (a prototype)
    // before the call, in a header the using file includes (ux8: "import it there" for gcc's implicit declaration).
    const prototype = C_SOURCE.test(c.snippet.path) && failingFile && /\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)$/.test(failingFile) ? prototypeOf(c.code, name) : undefined;
    if (prototype) return `${at} defines ${inlineCode(name)}${code}, and the compiler needs a declaration of it before the call in ${inlineCode(failingFile ?? '')}: add its prototype, ${inlineCode(prototype)}, to the header that declares the other functions of ${inlineCode(c.snippet.path)} and that ${inlineCode(failingFile ?? '')} includes (or above the call).`;
    // A member looked up on a value: the type has a field of that name, not a method, and no import changes that (ux8, rustc's E0599).
    if (/\bno method named\b/.test(f.message) && !c.code.includes('(')) return `${at} declares ${inlineCode(name)}${code} as a field, not a method, so an import will not make the call work: call the method the type has now (the compiler's help under the error may name it), or read the field where it is visible.`;
    const hint = failingFile ? importHint(name, failingFile, c.snippet.path) : undefined;
    return `${at} declares ${inlineCode(name)}${code}, but the file that uses it${failingFile ? ` (${inlineCode(failingFile)})` : ''} cannot see it: import it there${hint ? ` (${inlineCode(hint)})` : ' (or export it, if it is private to its file)'}.`;
  }
  if ((m = /^declares (\S+), the constraint (\S+) is not in$/.exec(what))) {
    // Go's type set is written `~int | ~int64`: `~T` admits T and the types defined on it.
    return `${at} declares the constraint ${inlineCode(m[1] as string)}${code}: its type set lists the types the generic accepts, and ${inlineCode(m[2] as string)} is not among them. To accept it, add ${inlineCode(`~${m[2] as string}`)} to that set (then check that the generic's code is right for ${inlineCode(m[2] as string)} too).`;
  }
  if ((m = /^declares (\S+), the callable the call does not match$/.exec(what))) {
    const name = m[1] as string;
    const params = parametersOf(c.code, name);
    const caller = f.location?.line !== undefined ? inlineCode(`${failingFile ?? f.location.file}:${f.location.line}`) : 'the failing line';
    return `${at} declares ${inlineCode(name)}${params !== undefined ? ` with the parameters ${inlineCode(`(${params})`)}` : ''}${params === undefined ? code : ''}, and the call at ${caller} does not pass what it takes: pass ${params ? 'those arguments' : 'the arguments it declares'} there${params && params.includes(',') ? ' (a parameter added by a change needs a value at every call)' : ''}, or keep an overload or a default with the old parameters.`;
  }
  if ((m = /^defines (\S+), which (the failing line calls|the failing check names as the call it checked|is called above the failing line for a value it uses)$/.exec(what))) {
    // A test's exception is no check (and its line may be the code's, not the test's): the call above computed a value it uses.
    const computed = f.class === 'test-error' ? 'which is called above the failing line, for a value that line uses' : 'which is called above the failing check, for the value it tests';
    const which = m[2] === 'the failing line calls' ? 'which the failing line calls' : m[2] === 'is called above the failing line for a value it uses' ? computed : 'the call the failing check names in its message';
    // A test error is an exception, not a check: there is no "what the check got" to compare.
    return f.class === 'test-error'
      ? `${at} defines ${inlineCode(m[1] as string)}${code}, ${which}: the exception may come from there; follow what it does with the test's input.`
      : `${at} defines ${inlineCode(m[1] as string)}${code}, ${which}: what the check got comes from there. Compare what it returns for the test's input with what the test expects, then decide which side is wrong.`;
  }
  if (what === 'sets a time limit' || what === 'sets a memory limit') {
    const kind = what === 'sets a time limit' ? 'time' : 'memory';
    return `${at} sets the ${kind} limit${code}: raise it there only if the work really needs more ${kind === 'time' ? 'time' : 'memory'}; otherwise find what ${kind === 'time' ? 'waits or loops' : 'holds so much at once'} and fix that.`;
  }
  if (what === 'asks for the version') {
    return `${at} is where the project asks for that version${code}: run the build with a tool of that version (the agent's image, a \`tools {}\` entry, a toolchain), or change it there to the version the agent has if the project does not need the newer one.`;
  }
  if ((m = /^runs (\S+)$/.exec(what))) {
    return `${at} runs ${inlineCode(m[1] as string)}${code}: the agent that ran the step does not have it (on \`PATH\`). Install it there, run the step in an image or with a tool installer that has it, or call it by the name the agent has.`;
  }
  if (what === 'defines the options the program takes') {
    const given = refusedOptionOf(f.message);
    const defined = [...c.code.matchAll(/['"](--?[\w-]{2,})['"]/g)].map((x) => x[1] as string);
    return `${at} defines ${defined.length > 0 ? defined.map((d) => inlineCode(d)).join(', ') : 'the options'}${defined.length > 0 ? '' : code}${given ? `, and the command passes ${inlineCode(given)}, which the program does not take` : ''}: pass the option it defines now (a renamed option), or add ${given ? inlineCode(given) : 'it'} back to the program.`;
  }
  if ((m = /^defines the tasks gradle knows \(no (.+)\)$/.exec(what))) {
    const missing = m[1] as string;
    const names = tasksIn(c.snippet).sort((a, b) => similarity(a, missing) - similarity(b, missing));
    if (names.length === 0) return undefined;
    return `${inlineCode(c.snippet.path)} defines the tasks ${names.slice(0, 6).map((n) => inlineCode(n)).join(', ')} and no ${inlineCode(missing)}: run ${inlineCode(names[0] as string)} in the CI script if that is the one meant (a renamed task), or define ${inlineCode(missing)} again (an alias that depends on the new one).`;
  }
  if (what === 'sets the language level the compiler checks against') {
    return `${at} sets the language level the compiler checks against${code}, and the failing line uses something newer: write it the way that level allows, or raise the level there if the project may require the newer one (its users must then have it too).`;
  }
  if (what === 'sets the output the test requires') {
    return `${at} sets the output the test requires${code}, and the program's output did not match it: if the output changed on purpose, change the expression there; if not, the program is what to fix.`;
  }
  if ((m = /^passes (\S+) to the program from its configuration$/.exec(what))) {
    // The program reads its options from this file as well as from its command line (pytest's `addopts`).
    return `${at} passes ${inlineCode(m[1] as string)}${code}: the program reads this file as well as its command line, so the option comes from here. Remove it there, or give the step what defines ${inlineCode(m[1] as string)} (the plugin or the version of the program that has it).`;
  }
  if (what === 'lists the files the build compiles and links') {
    const variable = /^\s*([A-Za-z_][\w.]*)\s*[:+?]?=/.exec(c.code)?.[1] ?? /^\s*(\w+)\s*\(/.exec(c.code)?.[1];
    const stem = (p: string): string => p.replace(/^.*\//, '').replace(/\.\w+$/, '');
    // The file the workspace shows defining the missing symbol, when this list names neither it nor its object.
    const absent = definedIn && !new RegExp(`(?:^|[\\s/(])${escapeRegExp(stem(definedIn))}\\.\\w+\\b`).test(c.code) ? definedIn : undefined;
    // Said only when the list lacks the file the workspace shows defining the symbol: else the list is not the cause.
    if (!absent) return undefined;
    return `${at} lists the files the build compiles and links${variable ? ` in ${inlineCode(variable)}` : ''}${code}, and ${inlineCode(absent)}, which defines ${f.symbol ? inlineCode(f.symbol.replace(/\(.*$/, '')) : 'the missing symbol'}, is not among them: add it there (or its object, as the others are named).`;
  }
  if ((m = /^a file named like (.+), which does not exist$/.exec(what))) {
    const missing = m[1] as string;
    const name = c.snippet.path.slice(c.snippet.path.lastIndexOf('/') + 1);
    // An import path: the specifier that reaches the file from the importing one.
    const importer = failingFile ?? importerOf(f.message, c.snippet.path, missing);
    // Only the letter case differs (`./Currency.js` for `currency.js`): why it fails on the agent alone (misplacedSteps.ts).
    const asked = missing.slice(missing.lastIndexOf('/') + 1);
    const cased = caseOnly(/\.\w+$/.test(asked) ? name : name.replace(/\.[^.]+$/, ''), asked);
    const like = cased ? `whose name differs from ${inlineCode(missing)} only in letter case,` : `named like ${inlineCode(missing)}`;
    if (/^\.\.?\//.test(missing) && importer) {
      const spec = specifierFor(importer, c.snippet.path, missing);
      return `The workspace has ${inlineCode(c.snippet.path)}, ${like} ${cased ? 'which' : '(which'} was not found from ${inlineCode(importer)}${cased ? `: ${CASE_SENSITIVE}. So` : '):'} import it as ${inlineCode(spec)}, or ${cased ? 'rename the file back if the rename was not meant' : 'move the file back if the move was not meant'}.`;
    }
    // An absolute path an ES module import resolved to (`Cannot find module '/ws/scripts/lib/slug' imported from /ws/scripts/x.js`).
    if (missing.startsWith('/') && importer && /\.[cm]?[jt]sx?$/.test(c.snippet.path)) {
      return `The workspace has ${inlineCode(c.snippet.path)}, the module ${inlineCode(missing)} names without its extension: ES modules need the full file name, so import it from ${inlineCode(importer)} as ${inlineCode(specifierFor(importer, c.snippet.path, 'x.js'))}.`;
    }
    return `The workspace has ${inlineCode(c.snippet.path)}, ${like} ${cased ? `which was not found: ${CASE_SENSITIVE}. Use` : '(which was not found): use'} that name where ${inlineCode(missing)} is referred to${/\.(?:h|hh|hpp|hxx)$/.test(name) ? ` (${inlineCode(`#include "${name}"`)})` : ''}, or rename the file back if the rename was not meant.`;
  }
  if ((m = /^exports (\S+), which the failing line imports from (\S+)$/.exec(what))) {
    const importer = failingFile ?? importerOf(f.message, c.snippet.path, m[2] as string);
    if (!importer) return undefined;
    const spec = specifierFor(importer, c.snippet.path, m[2] as string);
    return `${at} exports ${inlineCode(m[1] as string)}${code}, which ${inlineCode(importer)} imports from ${inlineCode(m[2] as string)}, a module that does not exist: import it from ${inlineCode(spec)} (a renamed or moved file), or move the file back if that was not meant.`;
  }
  if ((m = /^names (\S+), the file the check looks for as (\S+)$/.exec(what))) {
    return `${at} names ${inlineCode(m[1] as string)} too${code}, and the check looks for ${inlineCode(m[2] as string)}: make the two agree (the path the build writes and the path the check reads).`;
  }
  if ((m = /^names (.+)$/.exec(what))) {
    // A default behind an environment variable (`process.env.X || '/srv/x'`, `${X:-/srv/x}`, `os.environ.get("X", ...)`): the variable is the setting to change.
    const variable = /process\.env\.([A-Z_][A-Z0-9_]*)|process\.env\[['"]([A-Z_][A-Z0-9_]*)['"]\]|\$\{([A-Z_][A-Z0-9_]*):?-|os\.(?:environ\.get|getenv)\(\s*['"]([A-Z_][A-Z0-9_]*)['"]|os\.Getenv\("([A-Z_][A-Z0-9_]*)"\)|System\.getenv\("([A-Z_][A-Z0-9_]*)"\)|ENV\.fetch\(['"]([A-Z_][A-Z0-9_]*)['"]/.exec(c.code);
    const name = variable?.slice(1).find((x) => x !== undefined);
    if (name && c.code.includes(m[1] as string)) {
      return `${at} names ${inlineCode(m[1] as string)}${code}, as the value used when ${inlineCode(name)} is not set: set ${inlineCode(name)} in the job to a path the step may use, or change that default.`;
    }
    // A variable nothing set, on a line that only reads it: no value came from there (ux4).
    const unset = UNSET_VARIABLE.exec(f.message)?.[1];
    if (unset && c.code.includes(unset) && !new RegExp(String.raw`(?:^|[\s;])(?:export\s+|local\s+|declare\s+(?:-\w+\s+)?)?${unset}=`).test(c.code)) return undefined;
    return `${at} names ${inlineCode(m[1] as string)}${code}: that is where the value the step used comes from; check it there.`;
  }
  return undefined;
}

/** The clue steps of the context for a finding, each with its snippet quoted; undefined without clues. */
export function clueSteps(ask: Ask, f: Finding): Reply | undefined {
  const clues = cluesOf(snippetsOf(ask.ci));
  if (clues.length === 0) return undefined;
  const out = new ReplyBuilder();
  const failing = snippetsOf(ask.ci).find((s) => !isClue(s) && s.line !== undefined && s.kind !== 'pipeline')?.path ?? f.location?.file;
  const stored = storedLogSpan(ask.ctx);
  const offline = f.class === 'dependency-resolution' && offlineLine(f, stored ? lineTextOf(ask.ctx, stored) : undefined) !== undefined;
  // A link symbol the workspace defines (snippets.ts): the file a source list should name.
  const definedIn = snippetsOf(ask.ci).find((x) => / the symbol the linker could not find$/.test(x.message ?? ''))?.path;
  let shown = 0;
  for (const c of clues.slice(0, 3)) {
    const step = jvmLinkageStep(c, f, ask.ci) ?? stepFor(c, f, failing, clues, offline, definedIn);
    if (!step) continue;
    out.line(shown === 0 ? '**In the workspace:**' : '');
    out.line(step);
    for (const cite of step.matchAll(/\[L(\d+)-L(\d+)\]/g)) out.log({ start_line: Number(cite[1]), end_line: Number(cite[2]) });
    // Quoted unless another snippet the answer shows already holds that line (the code under test).
    const shownElsewhere = snippetsOf(ask.ci).some((x) => !isClue(x) && x.path === c.snippet.path && x.startLine <= c.line && x.endLine >= c.line);
    // A block right under a line that cites the log reads as the log's lines: name the file it comes from first.
    if (!shownElsewhere) {
      if (/\[L\d+-L\d+\]/.test(step)) out.line(`${inlineCode(c.snippet.path)}:`);
      out.line(numbered(c.snippet, c.line, 14));
    }
    out.source({ kind: 'file', path: c.snippet.path, start_line: c.snippet.startLine, end_line: c.snippet.endLine });
    shown++;
  }
  return shown > 0 ? out.reply() : undefined;
}
