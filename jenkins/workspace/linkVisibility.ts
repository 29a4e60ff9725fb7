/**
 * A symbol the linker could not find that the workspace does define, where the definition cannot be linked to from
 * another file (issue 25 point 3, session 49, helper fx11): a C or C++ definition marked `static` or `inline` in a
 * source file, a template defined in a source file (its code is made only for the types that file uses), a C++
 * namespace-scope `const` whose file sees no `extern` declaration of it (internal linkage), or a function of a library
 * built with hidden visibility whose declaration lacks the macro that marks what the library exports. Each comes with
 * the header line that declares the name for the other files (or the header named after the defining file, when none
 * does). Found by text, whatever the build tool: the linkage is read off the lines, never guessed.
 */
import { C_SOURCE } from './linkDecl.js';

/** A file of the workspace, by its path and lines. */
export interface SourceFile {
  rel: string;
  lines: readonly string[];
}

/** How a definition keeps the linker from seeing it from another file. */
export type HiddenLinkage = 'static' | 'inline' | 'a template' | 'a const' | 'hidden';

/** One line to show: the definition, the declaring header, the export mark or the build setting. */
export interface LinkageHit {
  rel: string;
  /** 0-based. */
  index: number;
  /** The snippet's message (without the clue mark). */
  message: string;
}

const HEADER = /\.(?:h|hh|hpp|hxx|h\+\+|inl)$/i;
const CXX = /\.(?:cc|cpp|cxx|c\+\+|mm)$/i;
/** Build files that may set the default visibility of a library's symbols. */
export const VISIBILITY_BUILD_FILE = /(?:^|\/)(?:CMakeLists\.txt|[\w.-]+\.cmake|(?:GNU)?[Mm]akefile|[\w.-]+\.mk|Makefile\.am|meson\.build|configure\.ac|build\.ninja|SConstruct|[\w.-]+\.gyp|BUILD(?:\.bazel)?)$/;
const HIDES = /-fvisibility=hidden|VISIBILITY_PRESET\s+hidden|gnu_symbol_visibility\s*[:=]\s*['"]hidden/;

/**
 * The name a linker's symbol is defined under in source: `int stats::median<int>(std::vector<int> >)` ->
 * `stats::median`, `RateWindow::ratio() const` -> `RateWindow::ratio`, `crc8` -> `crc8`. Undefined for a mangled or
 * odd symbol.
 */
export function sourceNameOf(symbol: string): string | undefined {
  let s = symbol.trim();
  const paren = s.indexOf('(');
  if (paren >= 0) s = s.slice(0, paren);
  // Template arguments, nested.
  let prev = '';
  while (prev !== s) {
    prev = s;
    s = s.replace(/<[^<>]*>/g, '');
  }
  const name = s.trim().split(/\s+/).pop() ?? '';
  return /^[A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*$/.test(name) ? name : undefined;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const code = (line: string): string => line.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '');

/** The line above `index` that is not blank. */
function lineAbove(lines: readonly string[], index: number): string {
  for (let k = index - 1; k >= 0 && k >= index - 3; k--) if ((lines[k] ?? '').trim() !== '') return lines[k] as string;
  return '';
}

interface Definition {
  rel: string;
  index: number;
  linkage?: HiddenLinkage;
  templateLine?: number;
}

/** Where a source file (not a header) defines `name`: a function's head (no `;` after it) or a namespace-scope variable. */
function definitionIn(file: SourceFile, name: string, template: boolean): Definition | undefined {
  const last = name.split('::').pop() as string;
  const qualified = name.includes('::') ? new RegExp(`(?:^|[\\s*&])${esc(name)}\\s*\\(`) : undefined;
  const plain = new RegExp(`(?:^|[\\s*&])${esc(last)}\\s*\\(`);
  const variable = new RegExp(`^\\s*(?:(?:static|const|constexpr|extern|volatile|unsigned|signed|long|short)\\s+)*[A-Za-z_][\\w:<>]*[\\s*&]+(?:const\\s+)?${esc(last)}\\s*(?:\\[[^\\]]*\\]\\s*)?(?:=|\\{|;)`);
  // `stats::median` is defined as `T median(...)` inside `namespace stats {`: the plain name counts there.
  const first = name.split('::')[0] as string;
  const inNamespace = name.includes('::') && file.lines.some((l) => new RegExp(`^\\s*namespace\\s+${esc(first)}\\b`).test(l));
  for (const [index, raw] of file.lines.entries()) {
    const line = code(raw);
    // Top-level lines only (a call inside a body is indented), never a statement or a directive.
    if (!/^\S/.test(line) || /^(?:return|if|while|for|else|#)\b/.test(line)) continue;
    const head = [qualified, inNamespace || !qualified ? plain : undefined].find((re) => re?.test(line));
    if (head && !/;\s*$/.test(line) && !/[=(]/.test(line.slice(0, line.search(head)))) {
      const before = line.slice(0, line.search(head) + 1);
      const above = lineAbove(file.lines, index);
      if (template && (/^\s*template\s*</.test(above) || /^\s*template\s*</.test(line))) return { rel: file.rel, index, linkage: 'a template', templateLine: /^\s*template\s*</.test(line) ? index : file.lines.indexOf(above) };
      if (/\bstatic\b/.test(before) && !name.includes('::')) return { rel: file.rel, index, linkage: 'static' };
      if (/\binline\b/.test(before) || /^\s*inline\s*$/.test(above)) return { rel: file.rel, index, linkage: 'inline' };
      return { rel: file.rel, index };
    }
    if (!name.includes('::') && variable.test(line) && !/^extern\b/.test(line)) {
      if (/^static\b/.test(line)) return { rel: file.rel, index, linkage: 'static' };
      if (CXX.test(file.rel) && /\b(?:const|constexpr)\b/.test(line.slice(0, line.search(new RegExp(`\\b${esc(last)}\\b`))))) return { rel: file.rel, index, linkage: 'a const' };
      return { rel: file.rel, index };
    }
  }
  return undefined;
}

/** The header line that declares `name` for other files: a prototype (`;` after the parameters) or an `extern` variable. */
function declarationIn(file: SourceFile, name: string): number | undefined {
  const last = name.split('::').pop() as string;
  const fn = new RegExp(`(?:^|[\\s*&])${esc(last)}\\s*\\([^;{]*\\)[^;{]*;\\s*$`);
  const variable = new RegExp(`^\\s*extern\\b[^;(]*\\b${esc(last)}\\s*(?:\\[[^\\]]*\\]\\s*)?;`);
  const index = file.lines.findIndex((raw) => {
    const line = code(raw);
    return (fn.test(line) && !/^\s*(?:return|#)/.test(line)) || variable.test(line);
  });
  return index >= 0 ? index : undefined;
}

const stemOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
const dirOf = (rel: string): string => rel.slice(0, rel.lastIndexOf('/') + 1);

/** Whether `file` includes the header `header` (by its file name, as `#include "x.h"` or `<x.h>` does). */
function includes(file: SourceFile, header: string): boolean {
  const base = header.slice(header.lastIndexOf('/') + 1);
  return file.lines.some((l) => new RegExp(`^\\s*#\\s*include\\s*[<"](?:[^">]*/)?${esc(base)}[">]`).test(l));
}

/**
 * Why a symbol the linker could not find, defined in `files`, is not visible to the other files, and where the
 * header declares it: at most three lines, or none when no definition has such a linkage (then the usual reading
 * stands: the file is not compiled into the link). `symbol` is the finding's (`crc8`, `int stats::median<int>(...)`).
 */
export function hiddenLinkage(files: readonly SourceFile[], symbol: string, buildFiles: readonly SourceFile[] = []): LinkageHit[] {
  const name = sourceNameOf(symbol);
  if (!name) return [];
  const template = /<[^>]*>\s*\(/.test(symbol) || /<[^>]*>$/.test(symbol.replace(/\(.*$/, ''));
  const headers = files.filter((f) => HEADER.test(f.rel));
  const sources = files.filter((f) => C_SOURCE.test(f.rel) && !HEADER.test(f.rel));
  // A source that defines it with external linkage too: then the linkage of another definition is not the cause.
  const defs = sources.map((f) => definitionIn(f, name, template)).filter((d): d is Definition => d !== undefined);
  const plainDefs = defs.filter((d) => !d.linkage);
  const def = plainDefs.length > 0 ? plainDefs[0] : defs[0];
  if (!def) return [];
  const defFile = sources.find((f) => f.rel === def.rel) as SourceFile;
  const declaring = headers.map((h) => ({ h, index: declarationIn(h, name) })).filter((x): x is { h: SourceFile; index: number } => x.index !== undefined);
  // The declaring header nearest the definition (same directory, then named after it).
  declaring.sort((a, b) => Number(dirOf(b.h.rel) === dirOf(def.rel)) - Number(dirOf(a.h.rel) === dirOf(def.rel)) || Number(stemOf(b.h.rel) === stemOf(def.rel)) - Number(stemOf(a.h.rel) === stemOf(def.rel)));
  const decl = declaring[0];
  const at = `${def.rel}:${def.index + 1}`;
  const out: LinkageHit[] = [];
  if (def.linkage === 'a const') {
    // The file sees an `extern` declaration: then the const has external linkage, and this is not the cause.
    const externs = declaring.filter((x) => /^\s*extern\b/.test(x.h.lines[x.index] ?? ''));
    if (externs.length === 0 || externs.some((x) => includes(defFile, x.h.rel))) return [];
    const e = externs[0] as { h: SourceFile; index: number };
    out.push({ rel: def.rel, index: def.index, message: `defines ${name}, the symbol the linker could not find, as a const; ${e.h.rel}:${e.index + 1} declares it extern, and ${def.rel} does not include ${e.h.rel}` });
    out.push({ rel: e.h.rel, index: e.index, message: `declares ${name} extern, which ${at} defines as a const without seeing it` });
    return out;
  }
  if (def.linkage) {
    out.push({ rel: def.rel, index: def.index, message: `defines ${name}, the symbol the linker could not find, as ${def.linkage}${def.templateLine !== undefined && def.templateLine !== def.index ? ` (line ${def.templateLine + 1})` : ''}` });
    if (decl) out.push({ rel: decl.h.rel, index: decl.index, message: `declares ${name}, which ${at} defines as ${def.linkage}` });
    else {
      // No header declares it: the header named after the defining file, if there is one.
      const own = headers.filter((h) => stemOf(h.rel) === stemOf(def.rel)).sort((a, b) => Number(dirOf(b.rel) === dirOf(def.rel)) - Number(dirOf(a.rel) === dirOf(def.rel)))[0];
      if (own) {
        const first = own.lines.findIndex((l) => /\)\s*;\s*$/.test(code(l)));
        out.push({ rel: own.rel, index: Math.max(0, first), message: `is the header of ${def.rel}, and declares no ${name}` });
      }
    }
    return out;
  }
  // A library built with hidden visibility: the header's other declarations carry a mark that exports them.
  const hides = buildFiles.flatMap((b) => b.lines.flatMap((l, index) => (HIDES.test(code(l)) ? [{ rel: b.rel, index }] : [])))[0];
  if (!hides || !decl) return [];
  const marks = headers.flatMap((h) => h.lines.flatMap((l, index) => {
    const m = /^\s*#\s*define\s+([A-Z_][A-Z0-9_]*)\s+.*(?:visibility\s*\(\s*"default"\s*\)|__declspec\s*\(\s*dllexport\s*\))/.exec(l);
    return m ? [{ mark: m[1] as string, rel: h.rel, index }] : [];
  }));
  const declLine = decl.h.lines[decl.index] ?? '';
  const mark = marks.find((m) => !new RegExp(`\\b${m.mark}\\b`).test(declLine) && decl.h.lines.some((l, k) => k !== decl.index && new RegExp(`^\\s*${m.mark}\\b`).test(l)));
  if (!mark) return [];
  out.push({ rel: decl.h.rel, index: decl.index, message: `declares ${name} without ${mark.mark}, which ${mark.rel}:${mark.index + 1} defines to export a symbol` });
  out.push({ rel: hides.rel, index: hides.index, message: `hides the library's symbols that ${mark.mark} does not mark` });
  out.push({ rel: def.rel, index: def.index, message: `defines ${name}, the symbol the linker could not find, without ${mark.mark}` });
  return out;
}
