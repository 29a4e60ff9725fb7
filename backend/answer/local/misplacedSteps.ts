/**
 * "How do I fix it?" for a file the log does not name (issue 25 item 4, session 51, helper ws1; the lines come from
 * jenkins/workspace/misplacedFiles.ts and goWork.ts as clue snippets): the file a class, module, package or header
 * maps to, which the workspace has under another letter case or in another folder, and a module of the repository
 * that go.work does not use. Each sentence names the workspace path the user can open and cites it; which side of a
 * case difference to change is said as the language's convention has it, the other side offered too.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';
import { SNIPPET_CLUE_MARK } from '../../../protocol/ciContext.js';
import { clip, type Clue } from './clueLine.js';
import { ReplyBuilder, type Ask, type Reply } from './reply.js';
import { isClue, snippetsOf } from './workspace.js';

const dirOf = (p: string): string => p.slice(0, Math.max(0, p.lastIndexOf('/')));
const segments = (p: string): string[] => p.split('/').filter(Boolean);

/** Whether two file names (or paths) differ only in letter case. */
export function caseOnly(a: string, b: string): boolean {
  return a !== b && a.toLowerCase() === b.toLowerCase();
}

/** Why a case difference fails on the agent and not on a laptop: one sentence's clause. */
export const CASE_SENSITIVE = "a Linux agent's file system tells the two apart, while macOS and Windows by default do not, so it may work there";

/** `rel` with its last segments (as many as `looked` has) spelled as `looked`: the path to rename it to. */
function renamedTo(rel: string, looked: string): string {
  const keep = segments(rel);
  const want = segments(looked);
  return [...keep.slice(0, Math.max(0, keep.length - want.length)), ...want].join('/');
}

/** Who looks for the name, and how, for a sentence: `a PSR-4 autoloader looks for the class X in`. */
function looker(kind: string, name: string, file: string): string {
  if (kind === 'class' && file.endsWith('.php')) return `PHP's autoloader (PSR-4, composer's or the project's own) looks for the class ${inlineCode(name)} in a file named after it, in the folder of its namespace`;
  if (kind === 'class') return `javac looks for the class ${inlineCode(name)} in a file named after it, in the folder of its package`;
  if (kind === 'module' && file.endsWith('.py')) return `Python looks for the module ${inlineCode(name)} as a file (or a package folder) of that name`;
  if (kind === 'module' && file.endsWith('.pm')) return `Perl looks for ${inlineCode(name)} as a file of that path in \`@INC\``;
  if (kind === 'module') return `${inlineCode(`require '${name}'`)} looks for a file of that path in the load path`;
  if (kind === 'header') return `the compiler looks for ${inlineCode(name)} beside the including file and in the include path`;
  return `go looks for the package ${inlineCode(name)} in the directory of its module that the import path names`;
}

/** The step for a case difference (`named X in another letter case`). */
function caseStep(c: Clue, kind: string, name: string, looked: string, f: Finding, failingFile: string | undefined): string {
  const path = c.snippet.path;
  const at = inlineCode(`${path}:${c.line}`);
  if (kind === 'package') {
    // The directory's spelling into the import path: `example.com/inventory/Store` -> `example.com/inventory/store`.
    const dir = dirOf(path);
    const want = segments(looked);
    const have = segments(dir).slice(-want.length);
    const fixed = [...segments(name).slice(0, -want.length), ...have].join('/');
    const importer = failingFile ? ` in ${inlineCode(failingFile)}${f.location?.line !== undefined ? ` (line ${f.location.line})` : ''}` : '';
    return `The workspace has the directory ${inlineCode(dir)} (${at}${c.code ? `: ${inlineCode(clip(c.code))}` : ''}), whose name differs from ${inlineCode(looked)} in the import path ${inlineCode(name)} only in letter case: ${looker(kind, name, path)}, and ${CASE_SENSITIVE}. Import it as ${inlineCode(fixed)}${importer}, or rename the directory; ${inlineCode('go get')} would not help, the package is the module's own.`;
  }
  // A Python package is its folder: the folder is what is named and renamed.
  const subject = path.endsWith('/__init__.py') ? dirOf(path) : path;
  const wanted = looked.replace(/\/__init__\.py$/, '');
  const rename = inlineCode(`git mv ${subject} ${renamedTo(subject, wanted)}`);
  // Only the name differs (`Taxtable.php`, `TaxTable.php`), or a folder of the path too.
  const nameOnly = caseOnly(subject.slice(subject.lastIndexOf('/') + 1), wanted.slice(wanted.lastIndexOf('/') + 1)) && segments(renamedTo(subject, wanted)).slice(0, -1).join('/') === segments(subject).slice(0, -1).join('/');
  const differs = nameOnly ? `whose name differs from ${inlineCode(wanted.slice(wanted.lastIndexOf('/') + 1))}` : `whose ${subject === path ? 'path' : 'folder'} differs from ${inlineCode(wanted)}`;
  const declared = c.line > 1 && c.code ? ` (line ${c.line}: ${inlineCode(clip(c.code))})` : '';
  const lead = `The workspace has ${inlineCode(subject)}${declared}, ${differs} only in letter case: ${looker(kind, name, path)}, and ${CASE_SENSITIVE}.`;
  if (kind === 'module' && path.endsWith('.py')) {
    // The module's name as the workspace spells it (`CsvClean`, `app.Utils`).
    const spelled = segments(subject.replace(/\.py$/, '')).slice(-name.split('.').length).join('.');
    return `${lead} Use one spelling in both places: import it as ${inlineCode(spelled)} where ${inlineCode(name)} is imported${failingFile ? ` (${inlineCode(failingFile)})` : ''}, or rename it: ${rename}.`;
  }
  if (kind === 'header') return `${lead} Include it as it is spelled on disk, or rename it: ${rename}.`;
  // A class's file is named after the class (PSR-4, Java's public classes): the file is what to rename.
  return `${lead} Rename it to the ${kind}'s spelling: ${rename} (\`git mv\` records a rename of the case alone, which a plain \`mv\` on macOS or Windows may not).`;
}

/** The step for a file in another folder than the one the tool looked in (`in another folder than X`). */
function folderStep(c: Clue, kind: string, name: string, looked: string, failingFile: string | undefined): string {
  const path = c.snippet.path;
  const at = inlineCode(`${path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  const root = path.endsWith(`/${looked}`) ? path.slice(0, path.length - looked.length - 1) : undefined;
  if (kind === 'header') {
    return `The workspace has ${inlineCode(path)}, the header ${inlineCode(name)}${failingFile ? ` that ${inlineCode(failingFile)} includes` : ''}, in a folder the compiler did not search: it looks beside the including file and in the include path, so ${root ? `add ${inlineCode(root)} to the include path of the target that compiles ${failingFile ? inlineCode(failingFile) : 'it'} (${inlineCode(`-I${root}`)}; in CMake, ${inlineCode('target_include_directories')} of that target, or \`PUBLIC\` on the library that owns the header)` : 'add its folder to the include path of the target that compiles it'}, or include it by a path that reaches it.`;
  }
  if (kind === 'class' && path.endsWith('.php')) {
    return `The workspace has ${inlineCode(path)} (${at}${code}), but not in the folder of its namespace, where PHP's autoloader (PSR-4) looks for ${inlineCode(name)}: ${inlineCode(looked)}. Move it there (${inlineCode('git mv')}), or change its namespace to match its folder and the code that uses it.`;
  }
  if (kind === 'class') {
    return `The workspace has ${inlineCode(path)} (${at}${code}), but not in the folder of the package ${inlineCode(name.slice(0, name.lastIndexOf('.')))}, where javac looks for it (${inlineCode(looked)}): make its \`package\` line and its folder agree.`;
  }
  const search = path.endsWith('.py') ? `Python's search path (${inlineCode('sys.path')}: the running script's folder, the working directory with ${inlineCode('python -m')}, ${inlineCode('PYTHONPATH')}, installed packages)` : path.endsWith('.pm') ? `Perl's ${inlineCode('@INC')}` : 'the load path';
  const add = path.endsWith('.py') ? `add ${inlineCode(root ?? dirOf(path))} to ${inlineCode('PYTHONPATH')} for the step or install the project (${inlineCode('pip install -e .')})` : path.endsWith('.pm') ? `add it with ${inlineCode(`-I${root ?? dirOf(path)}`)} (or ${inlineCode('use lib')})` : `add ${inlineCode(root ?? dirOf(path))} to the load path (${inlineCode('-I')})`;
  return `The workspace has ${inlineCode(path)} (${at}${code}), the ${kind} ${inlineCode(name)}, in a folder that is not on ${search}: ${add}, or import it by the path that reaches it from there.`;
}

/** The step for one clue of misplacedFiles.ts or goWork.ts, or undefined when the clue is not one of them. */
export function misplacedStep(c: Clue, f: Finding, failingFile: string | undefined, others: readonly Clue[]): string | undefined {
  let m: RegExpExecArray | null;
  if ((m = /^the (?:file|directory) for the (class|module|package|header) (\S+), named (\S+) in another letter case$/.exec(c.what))) {
    return caseStep(c, m[1] as string, m[2] as string, m[3] as string, f, failingFile);
  }
  if ((m = /^the (?:file|directory) for the (class|module|header) (\S+), in another folder than (\S+)$/.exec(c.what))) {
    return folderStep(c, m[1] as string, m[2] as string, m[3] as string, failingFile);
  }
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  if ((m = /^declares the module (\S+), which (.+) requires and whose directory (\S+) go\.work does not use$/.exec(c.what))) {
    const by = (m[2] as string).split(', ').map((d) => inlineCode(d)).join(', ');
    const work = others.find((o) => o.what.startsWith('lists the module directories go.work uses'));
    const workDir = work ? dirOf(work.snippet.path) : '';
    const dir = m[3] as string;
    const use = inlineCode(`go work use ./${workDir !== '' && dir.startsWith(`${workDir}/`) ? dir.slice(workDir.length + 1) : dir}`);
    return `${at} declares the module ${inlineCode(m[1] as string)}${code}, which ${by} requires, and ${inlineCode('go.work')} does not \`use\` its directory ${inlineCode(dir)}: so go does not take it from the repository and looks for it as a published module, which a module that is only in the repository cannot be. That is the module to add (${use}), whichever module go named when it failed.`;
  }
  if ((m = /^lists the module directories go\.work uses \(no (.+)\)$/.exec(c.what))) {
    const missing = (m[1] as string).split(', ');
    const work = dirOf(c.snippet.path);
    const rel = (d: string): string => `./${work === '' ? d : d.startsWith(`${work}/`) ? d.slice(work.length + 1) : d}`;
    if (!others.some((o) => o.what.startsWith('declares the module '))) return undefined;
    // The directories its `use` lines name, as the snippet shows them (a block or single lines).
    const used: string[] = [];
    let block = false;
    for (const raw of c.snippet.text.split('\n')) {
      const l = raw.replace(/\/\/.*$/, '').trim();
      if (block) {
        if (l.startsWith(')')) block = false;
        else if (l !== '') used.push(l.split(/\s+/)[0] as string);
      } else if (/^use\s*\($/.test(l)) block = true;
      else if (/^use\s+\S/.test(l)) used.push(l.split(/\s+/)[1] as string);
    }
    const uses = used.length > 0 ? `uses ${used.map((d) => inlineCode(d)).join(', ')} and not ${missing.map((d) => inlineCode(rel(d))).join(', ')}` : `does not use ${missing.map((d) => inlineCode(rel(d))).join(', ')}`;
    return `${at} is where ${inlineCode(c.snippet.path)} lists the module directories of the build's workspace: it ${uses}. Run ${missing.map((d) => inlineCode(`go work use ${rel(d)}`)).join(', ')}${work === '' ? '' : ` in ${inlineCode(work)}`} (it adds the directory to that list) and commit ${inlineCode(c.snippet.path)}.`;
  }
  return undefined;
}

/** The clues of misplacedFiles.ts and goWork.ts: a file the log does not name, which says what the log could not. */
const NAMES_THE_CAUSE = /^the (?:file|directory) for the (?:class|module|package|header) \S+, |^declares the module \S+, which .+ requires and whose directory /;

/**
 * For "why did the build fail?": the sentence of the first clue that names a file the log does not name (a class's
 * file under another letter case, a module go.work does not use), the file cited; undefined without one. The fix
 * answer quotes it with the file's lines (clues.ts).
 */
export function misplacedCause(ask: Ask, f: Finding): Reply | undefined {
  const snippets = snippetsOf(ask.ci);
  const clues: Clue[] = snippets.flatMap((s) => {
    if (!isClue(s) || s.line === undefined) return [];
    return [{ snippet: s, what: (s.message ?? '').slice(SNIPPET_CLUE_MARK.length), line: s.line, code: (s.text.split('\n')[s.line - s.startLine] ?? '').trim() }];
  });
  const c = clues.find((x) => NAMES_THE_CAUSE.test(x.what));
  const failing = snippets.find((s) => !isClue(s) && s.line !== undefined && s.kind !== 'pipeline')?.path ?? f.location?.file;
  const step = c ? misplacedStep(c, f, failing, clues) : undefined;
  if (!c || !step) return undefined;
  return new ReplyBuilder().line(`**In the workspace:** ${step}`).source({ kind: 'file', path: c.snippet.path, start_line: c.snippet.startLine, end_line: c.snippet.endLine }).reply();
}
