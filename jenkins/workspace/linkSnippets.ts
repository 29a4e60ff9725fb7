/**
 * Where a workspace's C and C++ sources stand on a symbol the linker (or the loader) could not find (issue 25): the
 * files that define it (a source the build does not compile or link), the declaration nothing defines with the orphan
 * definitions like it (linkDecl.ts `declaredNotDefined`), and, when nothing defines or declares it, the callers of the
 * old name and the definitions named like it with their headers (linkDecl.ts `renamedDefinitions`). Moved out of
 * snippets.ts (session 48, helper lk1), which reads them into snippets.
 */
import { WorkspaceError } from './errors.js';
import { C_SOURCE, declaredNotDefined, demangledName, renamedDefinitions } from './linkDecl.js';
import { hiddenLinkage, VISIBILITY_BUILD_FILE } from './linkVisibility.js';

/** snippets.ts's workspace and limits, as far as these readers use them (it imports this module: no import back). */
interface SnippetWorkspace {
  workspaceId: string;
  dir: string;
}
interface SnippetLimits {
  maxIndexedFiles: number;
}

export interface ReadFile {
  lines: string[];
  /** The file was longer than what was read. */
  cut: boolean;
}

/** What these readers need of snippets.ts's WorkspaceReader: the file list and a file's lines. */
export interface SourceReader {
  index(workspace: SnippetWorkspace): Promise<string[]>;
  read(workspace: SnippetWorkspace, rel: string): Promise<ReadFile | WorkspaceError>;
}

/** Files read at most when looking for where a linker symbol is defined. */
export const DEFINITION_FILES_MAX = 300;

/**
 * Where the workspace's C, C++ (and other natively linked) sources define a function the linker
 * could not find: `parse_config` from `undefined reference to 'parse_config'`, `Stats::mean`
 * from `'Stats::mean() const'`. A definition is a line that names it with its parameters and
 * does not end in `;` (a declaration or a call does), and is not a call inside a body.
 */
export async function definitionsOf(reader: SourceReader, workspace: SnippetWorkspace, symbol: string): Promise<{ name: string; index: number; rel: string; file: ReadFile }[]> {
  const name = (demangledName(symbol) ?? symbol).replace(/\(.*$/, '').trim();
  if (!/^[A-Za-z_][\w]*(?:::[A-Za-z_~][\w]*)*$/.test(name)) return [];
  const files = (await reader.index(workspace)).filter((f) => /\.(?:c|cc|cpp|cxx|c\+\+|m|mm)$/.test(f));
  const escaped = name.replace(/[$]/g, '\\$');
  // The qualified name in a definition outside the class (`double Stats::mean() const {`), or the plain name at the start of a C definition.
  const def = name.includes('::') ? new RegExp(`(?:^|[\\s*&])${escaped}\\s*\\(`) : new RegExp(`^(?:[A-Za-z_][\\w]*[\\s*&]+)+${escaped}\\s*\\(|^${escaped}\\s*\\(`);
  const out: { name: string; index: number; rel: string; file: ReadFile }[] = [];
  for (const rel of files.slice(0, DEFINITION_FILES_MAX)) {
    const file = await reader.read(workspace, rel);
    if (file instanceof WorkspaceError) continue;
    const index = file.lines.findIndex((l) => def.test(l) && !/;\s*(?:\/\/.*)?$/.test(l) && !/^\s*(?:return|if|while|for|else)\b/.test(l));
    if (index >= 0) out.push({ name, index, rel, file });
    if (out.length >= 2) break;
  }
  return out;
}

/**
 * A link symbol the workspace declares and no C/C++ source defines: the declaration first
 * (`declares NAME, the symbol the linker could not find; no source file defines it`), then up to two
 * orphan definitions like it (`defines NAME, ...`). Undefined when the file list is cut or nothing
 * declares it.
 */
export async function declaredInWorkspace(reader: SourceReader, workspace: SnippetWorkspace, symbol: string, limits: SnippetLimits): Promise<{ rel: string; index: number; file: ReadFile; message: string }[] | undefined> {
  const read = await cSources(reader, workspace, limits);
  if (!read) return undefined;
  const found = declaredNotDefined([...read].map(([rel, f]) => ({ rel, lines: f.lines })), symbol);
  if (!found) return undefined;
  const d = found.declaration;
  const out = [{ rel: d.rel, index: d.index, file: read.get(d.rel) as ReadFile, message: `declares ${d.name}, the symbol the linker could not find; no C or C++ source file of the workspace defines it` }];
  for (const c of found.candidates) {
    const like = [c.sameParams ? `the same parameter types as ${d.name}` : '', c.similarName ? `a name like ${d.name}` : ''].filter((x) => x !== '').join(' and ');
    out.push({ rel: c.rel, index: c.index, file: read.get(c.rel) as ReadFile, message: `defines ${c.name}, with ${like}, and ${c.orphan ? 'no header declares it' : 'a header declares it too'}` });
  }
  return out;
}


/** The C and C++ sources and headers of a workspace, or undefined when the file list or a file was cut ("nothing defines it" could be false). */
async function cSources(reader: SourceReader, workspace: SnippetWorkspace, limits: SnippetLimits): Promise<Map<string, ReadFile> | undefined> {
  const index = await reader.index(workspace);
  const rels = index.filter((f) => C_SOURCE.test(f) || /\.(?:h|hh|hpp|hxx|h\+\+|inl)$/i.test(f));
  if (index.length >= limits.maxIndexedFiles || rels.length > DEFINITION_FILES_MAX) return undefined;
  const read = new Map<string, ReadFile>();
  for (const rel of rels) {
    const file = await reader.read(workspace, rel);
    if (file instanceof WorkspaceError) continue;
    if (file.cut) return undefined;
    read.set(rel, file);
  }
  return read;
}

/**
 * A symbol no C or C++ file of the workspace defines or declares: up to two lines that still call it (`calls NAME, ...`),
 * then up to two definitions named like it (`defines NEW, a function named like NAME, ...`), each with the header line
 * that declares it (`declares NEW, which FILE:LINE defines`). Undefined when the file list is cut, or nothing calls it
 * and nothing is named like it.
 */
export async function renamedInWorkspace(reader: SourceReader, workspace: SnippetWorkspace, symbol: string, limits: SnippetLimits): Promise<{ rel: string; index: number; file: ReadFile; message: string }[] | undefined> {
  // A versioned symbol (`sqrt@@GLIBC_2.2.5`) is a shared library's: no project file was meant to define it.
  if (symbol.includes('@')) return undefined;
  const read = await cSources(reader, workspace, limits);
  const found = read ? renamedDefinitions([...read].map(([rel, f]) => ({ rel, lines: f.lines })), symbol) : undefined;
  // Nothing calls it and nothing is named like it: nothing to show. (A JNI function has no caller in C: the JVM binds it.)
  if (!read || !found || (found.callers.length === 0 && found.candidates.length === 0)) return undefined;
  const name = (demangledName(symbol) ?? symbol).replace(/\(.*$/, '').replace(/@.*$/, '').split('::').pop() as string;
  const out = found.callers.map((c) => ({ ...c, file: read.get(c.rel) as ReadFile, message: `calls ${name}, the missing symbol, which no C or C++ file of the workspace defines or declares` }));
  for (const d of found.candidates) {
    out.push({ rel: d.rel, index: d.index, file: read.get(d.rel) as ReadFile, message: `defines ${d.name}, a function named like ${name}${d.header ? `, declared at ${d.header.rel}:${d.header.index + 1}` : ', declared in no header'}` });
    if (d.header) out.push({ rel: d.header.rel, index: d.header.index, file: read.get(d.header.rel) as ReadFile, message: `declares ${d.name}, the function named like ${name} that ${d.rel}:${d.index + 1} defines` });
  }
  return out;
}

/**
 * A symbol the linker could not find that a workspace source defines where no other file can link to it (`static`,
 * `inline` or a template in a source file, a C++ `const` without its `extern`, a library's hidden symbol):
 * linkVisibility.ts's lines, with their files. Empty when the file list was cut or no definition has such a linkage.
 */
export async function hiddenLinkageIn(reader: SourceReader, workspace: SnippetWorkspace, symbol: string, limits: SnippetLimits): Promise<{ rel: string; index: number; file: ReadFile; message: string }[]> {
  if (symbol.includes('@') || symbol.startsWith('-l')) return [];
  const read = await cSources(reader, workspace, limits);
  if (!read) return [];
  const build = new Map<string, ReadFile>();
  for (const rel of (await reader.index(workspace)).filter((f) => VISIBILITY_BUILD_FILE.test(f)).slice(0, 20)) {
    const file = await reader.read(workspace, rel);
    if (!(file instanceof WorkspaceError)) build.set(rel, file);
  }
  const all = new Map([...read, ...build]);
  const files = (m: Map<string, ReadFile>): { rel: string; lines: string[] }[] => [...m].map(([rel, f]) => ({ rel, lines: f.lines }));
  return hiddenLinkage(files(read), demangledName(symbol) ?? symbol, files(build)).map((h) => ({ ...h, file: all.get(h.rel) as ReadFile }));
}
