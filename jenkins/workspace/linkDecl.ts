/**
 * A symbol the linker could not find that the workspace DECLARES but never defines (issue 25,
 * "how do I fix it?": a function renamed in its .c/.cpp and not in its header, or a declaration
 * whose definition was deleted). Read from the workspace's text only:
 * - the declaration: a prototype (`double mean_of(const std::vector<double>& xs);`, over up to four
 *   lines) of the symbol's name; for `Owner::name`, in a file that declares `class`/`struct Owner`;
 * - the candidates: functions DEFINED in the source files that go with the declaring header (the
 *   same stem, or an `#include` of it) with a name like the missing one (a typo, a third of the letters,
 *   one containing the other, the same words reordered), or with the declaration's parameter types
 *   when no header declares them (an orphan definition is what a rename in one place leaves).
 * Nothing is said when the workspace holds a definition (snippets.ts `definitionsOf` handles that)
 * or when the file list was cut (then "no file defines it" could be false).
 */
import { namesAlike } from '../../core/log/symbols.js';
import { escapeRegExp } from '../../core/regexp.js';

export interface LinkSourceFile {
  rel: string;
  lines: readonly string[];
}

export interface LinkDeclaration {
  rel: string;
  /** 0-based index of the line where the declaration starts. */
  index: number;
  name: string;
  params: string[];
}

export interface LinkCandidate {
  rel: string;
  index: number;
  name: string;
  sameParams: boolean;
  similarName: boolean;
  /** No header declares it (what a rename in the source file alone leaves). */
  orphan: boolean;
}

const HEADER = /\.(?:h|hh|hpp|hxx|h\+\+|inl)$/i;
export const C_SOURCE = /\.(?:c|cc|cpp|cxx|c\+\+|m|mm)$/i;
const STATEMENT = /^\s*(?:return|if|while|for|else|switch|case|do|sizeof|delete|new|throw|goto)\b/;

/** A line without its line comment, its block comments and its string contents. */
function code(line: string): string {
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""').replace(/\/\*.*?\*\/|\/\/.*$/g, '');
}

/** The text of a declaration or definition head from `index` on, up to its `;` or `{` (4 lines at most). */
function headAt(lines: readonly string[], index: number): { text: string; end: ';' | '{' | undefined } {
  let text = '';
  for (let i = index; i < Math.min(lines.length, index + 4); i++) {
    text += ` ${code(lines[i] as string)}`;
    const m = /[;{]/.exec(text.slice(text.indexOf('(')));
    if (text.includes('(') && m) {
      const cut = text.indexOf('(') + m.index;
      return { text: text.slice(0, cut + 1), end: m[0] as ';' | '{' };
    }
  }
  return { text, end: undefined };
}

/** The parameter list's top-level parts, between the head's first `(` and its matching `)`. */
function paramsOf(head: string): string[] | undefined {
  const open = head.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  let part = '';
  const parts: string[] = [];
  for (let i = open + 1; i < head.length; i++) {
    const ch = head[i] as string;
    if (ch === '(' || ch === '<' || ch === '[') depth++;
    else if ((ch === ')' || ch === '>' || ch === ']') && depth > 0) depth--;
    else if (ch === ')' && depth === 0) {
      if (part.trim() !== '') parts.push(part.trim());
      return parts.length === 1 && parts[0] === 'void' ? [] : parts;
    } else if (ch === ',' && depth === 0) {
      parts.push(part.trim());
      part = '';
      continue;
    }
    part += ch;
  }
  return undefined;
}

/** A parameter's type alone: no default value, no parameter name, spaces only where they separate words. */
export function paramType(param: string): string {
  const t = param.replace(/=.*$/, '').trim().replace(/\s+/g, ' ');
  // The name is the last identifier when something stands before it that is not a qualifier (`const int` keeps `int`).
  const m = /^(.*?[\w>*&\]\s])\s*\b([A-Za-z_]\w*)(\s*\[[^\]]*\])?$/.exec(t);
  const typeOnly = m && !/^(?:const|volatile|unsigned|signed|struct|enum|union)?\s*$/.test(m[1] as string) && !/^(?:int|char|long|short|double|float|bool|void|unsigned|signed|size_t|const)$/.test(m[2] as string) ? `${m[1] as string}${m[3] ? '*' : ''}` : t;
  return typeOnly.replace(/\s*([*&<>,])\s*/g, '$1').trim();
}

/** `int f(a, b)`'s name as a definition or declaration head, when the line starts one. */
function headName(line: string, name?: string): string | undefined {
  const c = code(line);
  if (STATEMENT.test(c) || /^\s*#/.test(c)) return undefined;
  const pattern = name
    ? new RegExp(`^\\s*(?:(?:extern|static|inline|virtual|constexpr|explicit|friend)\\s+)*(?:[A-Za-z_][\\w:<>,]*[\\s*&]+)+${name.replace(/[$]/g, '\\$')}\\s*\\(`)
    : /^\s*(?:(?:extern|inline|constexpr)\s+)*(?:[A-Za-z_][\w:<>,]*[\s*&]+)+([A-Za-z_][\w:]*)\s*\(/;
  const m = pattern.exec(c);
  if (!m) return undefined;
  return name ?? m[1];
}

/** The words of a name (`parse_rate`, `parseRate` -> parse, rate), sorted. */
const wordsOf = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split('_').filter((w) => w !== '').sort().join(' ');

/** A name like the missing one (symbols.ts `namesAlike`), or the same words in another order (`parse_rate` -> `rate_parse`). */
function similar(missing: string, name: string): boolean {
  if (missing === name) return false;
  return (wordsOf(missing) === wordsOf(name) && wordsOf(name).includes(' ')) || namesAlike(missing, name);
}

/** The headers' declared function names (prototypes), for "no header declares it". */
function declaredNames(files: readonly LinkSourceFile[]): Set<string> {
  const names = new Set<string>();
  for (const f of files) {
    if (!HEADER.test(f.rel)) continue;
    f.lines.forEach((line, i) => {
      const n = headName(line);
      if (n && headAt(f.lines, i).end === ';') names.add(n.split('::').pop() as string);
    });
  }
  return names;
}

const stemOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '').toLowerCase();

/**
 * The declaration of `symbol` (as the linker prints it: `mean_of`, `mean_of(std::vector<...> const&)`,
 * `Stats::mean() const`) in `files`, and the functions that look like its renamed definition.
 * Undefined when no file declares it.
 */
export function declaredNotDefined(files: readonly LinkSourceFile[], symbol: string): { declaration: LinkDeclaration; candidates: LinkCandidate[] } | undefined {
  const qualified = (demangledName(symbol) ?? symbol).replace(/\(.*$/, '').trim();
  if (!/^[A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*$/.test(qualified)) return undefined;
  const parts = qualified.split('::');
  const name = parts.pop() as string;
  const owner = parts.pop();
  const ordered = [...files.filter((f) => HEADER.test(f.rel)), ...files.filter((f) => !HEADER.test(f.rel))];
  let declaration: LinkDeclaration | undefined;
  for (const f of ordered) {
    if (owner && !f.lines.some((l) => new RegExp(`\\b(?:class|struct|namespace)\\s+${owner}\\b`).test(l))) continue;
    const index = f.lines.findIndex((l, i) => headName(l, name) !== undefined && headAt(f.lines, i).end === ';');
    if (index < 0) continue;
    declaration = { rel: f.rel, index, name: qualified, params: paramsOf(headAt(f.lines, index).text) ?? [] };
    break;
  }
  if (!declaration) return undefined;
  const decl = declaration;
  const wanted = decl.params.map(paramType);
  const header = HEADER.test(decl.rel) ? decl.rel.slice(decl.rel.lastIndexOf('/') + 1) : undefined;
  const declared = declaredNames(files);
  const candidates: LinkCandidate[] = [];
  for (const f of files) {
    if (!C_SOURCE.test(f.rel)) continue;
    const goesWith = stemOf(f.rel) === stemOf(decl.rel) || (header !== undefined && f.lines.some((l) => new RegExp(`^\\s*#\\s*include\\s*["<](?:[^">]*/)?${escapeRegExp(header)}[">]`).test(l)));
    f.lines.forEach((line, index) => {
      const full = headName(line);
      if (!full || /^\s*static\b/.test(line)) return;
      const fullParts = full.split('::');
      const defName = fullParts.pop() as string;
      // A namespace's function is defined unqualified inside `namespace owner {` (a class's member is qualified outside it).
      const inNamespace = owner !== undefined && fullParts.length === 0 && f.lines.some((l) => new RegExp(`^\\s*namespace\\s+${owner}\\b`).test(l));
      if (defName === name || defName === 'main' || (owner && !inNamespace ? fullParts.pop() !== owner : fullParts.length > 0)) return;
      const head = headAt(f.lines, index);
      if (head.end !== '{') return;
      const params = (paramsOf(head.text) ?? []).map(paramType);
      const sameParams = params.length === wanted.length && params.every((p, i) => p === wanted[i]);
      const similarName = similar(name, defName);
      const orphan = !declared.has(defName);
      // A file that does not go with the declaration (a caller that declares the old name itself, the new one in another
      // .c and its header): only a function with the same parameters that kept the name's words (`vec_norm` -> `vec_length`).
      if (!goesWith) {
        if (sameParams && renameLikeness(name, defName) >= 0.5) candidates.push({ rel: f.rel, index, name: owner ? `${owner}::${defName}` : defName, sameParams, similarName: true, orphan });
        return;
      }
      // A declared function with the same parameters is just another function of the file; one named like it may be the new name.
      if (similarName || (sameParams && orphan)) candidates.push({ rel: f.rel, index, name: owner ? `${owner}::${defName}` : defName, sameParams, similarName, orphan });
    });
  }
  const rank = (c: LinkCandidate): number => (c.sameParams ? 2 : 0) + (c.similarName ? 2 : 0) + (c.orphan ? 1 : 0);
  candidates.sort((a, b) => rank(b) - rank(a));
  return { declaration: decl, candidates: candidates.slice(0, 2) };
}

/** Words too common in names to tie two of them together (`scale_of` and `count_of` share nothing). */
const FILLER = new Set(['of', 'at', 'to', 'on', 'in', 'by', 'for', 'and', 'or', 'the', 'a', 'an', 'is', 'do', 'get', 'set', 'new', 'init', 'make', 'from', 'with', 'impl', 'fn', 'func']);
const nameWords = (name: string): string[] => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/_+/).filter((w) => w.length >= 3 && !FILLER.has(w));

/**
 * How much `name` looks like what `missing` was renamed to: 3 for a typo or another case (symbols.ts `namesAlike`),
 * 2 for the same words reordered, else the share of `missing`'s words `name` keeps (`weight_at` -> `luhn_weight`: 1),
 * 0 for nothing in common.
 */
export function renameLikeness(missing: string, name: string): number {
  if (missing === name) return 0;
  if (namesAlike(missing, name)) return 3;
  if (wordsOf(missing) === wordsOf(name) && wordsOf(name).includes(' ')) return 2;
  const want = nameWords(missing);
  const have = new Set(nameWords(name));
  const kept = want.filter((w) => have.has(w)).length;
  return want.length === 0 ? 0 : kept / want.length;
}

/** An Itanium-mangled C++ name's qualified name without its parameters (`_ZN7metrics7mean_ofERKSt6vectorIdSaIdEE` -> `metrics::mean_of`). */
export function demangledName(symbol: string): string | undefined {
  const m = /^_Z(N?)(.*)$/.exec(symbol);
  if (!m) return undefined;
  let rest = m[2] as string;
  const parts: string[] = [];
  for (;;) {
    rest = rest.replace(/^[rVK]+/, '');
    const len = /^(\d+)/.exec(rest);
    if (!len) break;
    const n = Number(len[1]);
    parts.push(rest.slice(len[0].length, len[0].length + n));
    rest = rest.slice(len[0].length + n);
    if (!m[1]) break;
  }
  return parts.length > 0 && parts.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? parts.join('::') : undefined;
}

export interface RenamedDefinition {
  rel: string;
  index: number;
  name: string;
  likeness: number;
  /** The header line that declares it, when a header does. */
  header?: { rel: string; index: number };
}

/**
 * A symbol no file of the workspace defines nor declares (a function renamed in its .c and its header while a caller
 * kept the old name; the compiler only warned of the implicit declaration): the callers that still use the old name,
 * and the functions defined in the C/C++ sources whose names look like it (a typo, the same words, the words it kept),
 * most alike first, a definition nothing calls before one other code calls (what a rename leaves), each with the header
 * that declares it. `renamed`: names the change introduced (its commit messages), first among equally alike ones.
 */
export function renamedDefinitions(files: readonly LinkSourceFile[], symbol: string, renamed: ReadonlySet<string> = new Set()): { callers: { rel: string; index: number }[]; candidates: RenamedDefinition[] } | undefined {
  const qualified = (demangledName(symbol) ?? symbol).replace(/\(.*$/, '').replace(/@.*$/, '').trim();
  if (!/^[A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*$/.test(qualified)) return undefined;
  const name = qualified.split('::').pop() as string;
  const escaped = escapeRegExp(name);
  const call = new RegExp(`(?:^|[^\\w.>:])${escaped}\\s*\\(`);
  const callers: { rel: string; index: number }[] = [];
  const defs: { rel: string; index: number; name: string }[] = [];
  for (const f of files) {
    const source = C_SOURCE.test(f.rel);
    f.lines.forEach((line, index) => {
      const c = code(line);
      const head = headName(line);
      if (head !== undefined && (head.split('::').pop() as string) === name) return;
      if (source && call.test(c) && !/^\s*#/.test(c)) callers.push({ rel: f.rel, index });
      if (!source || !head || /^\s*static\b/.test(line) || head === 'main') return;
      if (headAt(f.lines, index).end === '{') defs.push({ rel: f.rel, index, name: head.split('::').pop() as string });
    });
  }
  // Called by other code (not on its own definition's line): a function the rename did not make.
  const calledElsewhere = (def: string): boolean => files.some((f) => C_SOURCE.test(f.rel) && f.lines.some((l) => headName(l)?.split('::').pop() !== def && new RegExp(`(?:^|[^\\w.>:])${escapeRegExp(def)}\\s*\\(`).test(code(l))));
  const candidates = defs
    .map((d) => ({ ...d, likeness: renameLikeness(name, d.name) }))
    .filter((d) => d.likeness >= 0.5)
    .map((d) => ({ ...d, rank: d.likeness + (renamed.has(d.name) ? 0.5 : 0) + (calledElsewhere(d.name) ? 0 : 0.25) }))
    .sort((a, b) => b.rank - a.rank || a.name.localeCompare(b.name))
    .slice(0, 2)
    .map(({ rank: _r, ...d }): RenamedDefinition => {
      for (const f of files) {
        if (!HEADER.test(f.rel)) continue;
        const index = f.lines.findIndex((l, i) => headName(l, d.name) !== undefined && headAt(f.lines, i).end === ';');
        if (index >= 0) return { ...d, header: { rel: f.rel, index } };
      }
      return d;
    });
  return { callers: callers.slice(0, 2), candidates };
}
