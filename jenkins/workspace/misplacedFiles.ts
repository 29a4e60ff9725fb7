/**
 * A name a tool did not find whose file the workspace has under another letter case, or in another folder (issue 25
 * item 4, session 51, helper ws1): the log names the class, module, package or header, never the file, so the
 * snippets of the files the log names cannot show it. PHP's PSR-4 class `Shop\Pricing\TaxTable` is looked for in
 * `Pricing/TaxTable.php` and the workspace has `src/Pricing/Taxtable.php` (a Linux agent tells the two apart, macOS
 * and Windows do not); Python's `No module named 'csvclean'` beside `CsvClean.py`; Go's package
 * `example.com/inventory/Store` beside the directory `store/`; a header `geohash/geohash.h` that sits in
 * `lib/include/geohash/`. Read from the workspace's file list (the index the snippet reader keeps), so the controller
 * (a build's workspace) and the CLI (`ask --workspace DIR`, `--from-env`) find the same file; what crosses the wire
 * is the clue snippet (the file's declaration line), never the listing.
 */
import type { Finding } from '../../protocol/types.js';
import type { ClueHit, ClueReader } from './clues.js';

/** What kind of name the tool looked for: the answer words the step after it. */
export type WantedKind = 'class' | 'module' | 'package' | 'header';

/** A name a "not found" message gives, and the path it maps to. */
export interface WantedFile {
  kind: WantedKind;
  /** The name as the message gives it (`Shop\Pricing\TaxTable`, `csvclean`, `example.com/inventory/Store`, `geohash/geohash.h`). */
  name: string;
  /** The path's trailing segments the tool looked for, the last one the file (or, for `dir`, the directory). */
  segments: string[];
  /** A Python module may be a package's directory (`csvclean/__init__.py`) as well as a file. */
  packageDir?: boolean;
  /** The last segment is a directory (a Go package). */
  dir?: boolean;
  /**
   * How the tool finds the path: `prefix` (PSR-4: a namespace prefix maps to any folder, the class's own folder counts),
   * `package` (a Java package: its folders under a source root), `anchored` (under a search path's folders: Python's
   * `sys.path`, Perl's `@INC`, Ruby's `$LOAD_PATH`, an include path), `name` (only the file's name counts).
   */
  search: 'prefix' | 'package' | 'anchored' | 'name';
}

/** Where installed or generated copies live: never the project's own file. */
const NOT_PROJECT = /(?:^|\/)(?:vendor|third_party|site-packages|dist-packages|\.venv|venv|\.tox|build|dist|out|\.gradle|\.m2|pkg\/mod)\//;

/**
 * The file a "not found" message's name maps to: a PHP class (`Class "A\B" not found`, also interfaces, traits,
 * enums), a Java class javac looked for by its source path (`symbol: class X` with `location: package p`), a Python
 * module (`No module named 'a.b'`), a Perl module (`Can't locate A/B.pm in @INC`), a Ruby library (`cannot load such
 * file -- a/b`), a Go package (`no required module provides package p`, `package p is not in std`), a C/C++ header
 * (`fatal error: a/b.h: No such file or directory`, clang's `'a/b.h' file not found`). Node's relative imports are
 * clues.ts's (`a file named like`).
 */
export function wantedFileOf(f: Finding): WantedFile | undefined {
  const m = f.message;
  let x: RegExpExecArray | null;
  if ((x = /\b(?:Class|Interface|Trait|Enum) ["']\\?([A-Za-z_][\w\\]*)["'] not found/.exec(m))) {
    const parts = (x[1] as string).split('\\').filter(Boolean);
    return { kind: 'class', name: parts.join('\\'), segments: [...parts.slice(0, -1), `${parts[parts.length - 1] as string}.php`], search: parts.length > 1 ? 'prefix' : 'name' };
  }
  if ((x = /\bsymbol:\s+class ([A-Z]\w*)\b[\s\S]*?\blocation:\s+package ([\w.]+)/.exec(m))) {
    const pkg = (x[2] as string).split('.');
    return { kind: 'class', name: `${x[2] as string}.${x[1] as string}`, segments: [...pkg, `${x[1] as string}.java`], search: 'package' };
  }
  if ((x = /\bNo module named ['"]?([A-Za-z_][\w.]*)['"]?(?!\.)/.exec(m)) && !/__main__|is a package and cannot be directly executed/.test(m)) {
    const parts = (x[1] as string).split('.');
    return { kind: 'module', name: x[1] as string, segments: [...parts.slice(0, -1), `${parts[parts.length - 1] as string}.py`], packageDir: true, search: 'anchored' };
  }
  if ((x = /\bCan't locate ([\w/]+\.pm) in @INC/.exec(m))) {
    return { kind: 'module', name: (x[1] as string).replace(/\.pm$/, '').replace(/\//g, '::'), segments: (x[1] as string).split('/'), search: 'anchored' };
  }
  if ((x = /\bcannot load such file -- ([\w./-]+)/.exec(m)) && !(x[1] as string).startsWith('/')) {
    const parts = (x[1] as string).replace(/\.rb$/, '').split('/').filter((p) => p !== '.' && p !== '');
    if (parts.length === 0 || parts.includes('..')) return undefined;
    return { kind: 'module', name: x[1] as string, segments: [...parts.slice(0, -1), `${parts[parts.length - 1] as string}.rb`], search: 'anchored' };
  }
  if ((x = /\bno required module provides package ([\w.~/-]+)|\bpackage ([\w.~/-]+) is not in (?:GOROOT|std)\b|\bcannot find package "([\w.~/-]+)"/.exec(m))) {
    const name = (x[1] ?? x[2] ?? x[3]) as string;
    if (!name.includes('/') || name === '.') return undefined;
    return { kind: 'package', name, segments: name.split('/'), dir: true, search: 'name' };
  }
  if ((x = /(?:fatal error: ([\w./+-]+\.(?:h|hh|hpp|hxx|inc)): No such file or directory|['"]([\w./+-]+\.(?:h|hh|hpp|hxx|inc))['"] file not found)/.exec(m))) {
    const name = (x[1] ?? x[2]) as string;
    const parts = name.split('/').filter((p) => p !== '.' && p !== '');
    if (parts.includes('..') || parts.length === 0) return undefined;
    return { kind: 'header', name, segments: parts, search: 'anchored' };
  }
  return undefined;
}

const lower = (s: string): string => s.toLowerCase();
const segmentsOf = (rel: string): string[] => rel.split('/');
const dirOf = (rel: string): string => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));

/**
 * How many trailing segments of `path` equal the wanted ones when letter case is ignored, and whether those are
 * also equal as spelled.
 */
function trailing(path: readonly string[], wanted: readonly string[]): { same: number; exact: boolean } {
  let same = 0;
  let exact = true;
  while (same < path.length && same < wanted.length) {
    const a = path[path.length - 1 - same] as string;
    const b = wanted[wanted.length - 1 - same] as string;
    if (lower(a) !== lower(b)) break;
    if (a !== b) exact = false;
    same++;
  }
  return { same, exact };
}

/** A candidate file and how it differs from what the tool looked for. */
interface Candidate {
  rel: string;
  how: 'case' | 'folder';
  /** The name the tool looked for, as the clue says it (`TaxTable.php`, `Store`, `geohash/geohash.h`). */
  looked: string;
}

/** The go.mod module paths of the workspace: `example.com/inventory` -> its directory. */
async function goModules<W>(reader: ClueReader<W>, workspace: W, files: readonly string[]): Promise<{ module: string; dir: string }[]> {
  const out: { module: string; dir: string }[] = [];
  for (const rel of files.filter((r) => /(?:^|\/)go\.mod$/.test(r) && !NOT_PROJECT.test(r)).slice(0, 20)) {
    const file = await reader.read(workspace, rel);
    if (file instanceof Error) continue;
    const module = file.lines.map((l) => /^\s*module\s+"?([^\s"]+)"?/.exec(l)?.[1]).find((x) => x !== undefined);
    if (module) out.push({ module, dir: dirOf(rel) });
  }
  return out;
}

/** The workspace files (or Go package directories) that are the wanted one under another case or in another folder. */
async function candidatesIn<W>(reader: ClueReader<W>, workspace: W, files: readonly string[], want: WantedFile, includer?: string): Promise<Candidate[]> {
  const project = files.filter((r) => !NOT_PROJECT.test(r));
  if (want.dir) {
    // A Go package: the directory the import path names inside a module of the workspace (its module path ends where the
    // directory path begins), compared without case: `example.com/inventory/Store` in module `example.com/inventory`.
    for (const { module, dir } of await goModules(reader, workspace, project)) {
      if (!lower(want.name).startsWith(`${lower(module)}/`)) continue;
      const rest = want.name.slice(module.length + 1);
      const wanted = dir === '' ? rest : `${dir}/${rest}`;
      const dirs = [...new Set(project.filter((r) => r.endsWith('.go')).map(dirOf))];
      if (dirs.includes(wanted)) return [];
      const other = dirs.filter((d) => lower(d) === lower(wanted));
      return other.slice(0, 1).map((d) => ({ rel: project.find((r) => r.endsWith('.go') && dirOf(r) === d && !r.endsWith('_test.go')) ?? project.find((r) => dirOf(r) === d) ?? d, how: 'case', looked: rest.slice(rest.lastIndexOf('/') + 1) }));
    }
    return [];
  }
  const wantedFiles = [want.segments, ...(want.packageDir ? [[...want.segments.slice(0, -1), want.segments[want.segments.length - 1]?.replace(/\.py$/, '') ?? '', '__init__.py']] : [])];
  const base = (segs: readonly string[]): string => segs[segs.length - 1] as string;
  const out: Candidate[] = [];
  for (const wanted of wantedFiles) {
    // A package directory is matched by its `__init__.py`: its segment before that is the module's name.
    const nameAt = base(wanted) === '__init__.py' ? 2 : 1;
    for (const rel of project) {
      const segs = segmentsOf(rel);
      const t = trailing(segs, wanted);
      if (t.same < nameAt) continue;
      const whole = t.same === wanted.length;
      if (t.exact) {
        // Spelled as the tool spells it. Where the tool looks, it would have been found: nothing is misnamed, the cause is
        // elsewhere (nothing is said). PSR-4 maps a namespace prefix to any folder: the class's own folder is what counts.
        const found = { prefix: t.same >= Math.min(2, wanted.length), package: whole, anchored: whole && segs.length === wanted.length, name: true }[want.search];
        if (found) return [];
        // Elsewhere: in another folder than the one the tool looked in (a search path, an include path, a namespace's folder).
        if (want.search === 'anchored' ? whole : t.same < wanted.length) out.push({ rel, how: 'folder', looked: wanted.join('/') });
      } else out.push({ rel, how: 'case', looked: wanted.slice(wanted.length - t.same).join('/') });
    }
  }
  // A file beside the one that includes or imports it would be found there (a header, a script's own folder): its
  // folder is not what went wrong.
  const kept = out.filter((c) => !(c.how === 'folder' && includer !== undefined && dirOf(c.rel) === dirOf(includer)));
  // The same name in many places says nothing about which one was meant.
  const folders = kept.filter((c) => c.how === 'folder');
  return [...kept.filter((c) => c.how === 'case').slice(0, 2), ...(folders.length <= 2 ? folders : [])].slice(0, 2);
}

/** The line of a candidate to show: where it declares the name (`class TaxTable`, `package store`), else its first line. */
function declarationIndex(lines: readonly string[], want: WantedFile): number {
  const last = want.name.split(/\\|\.|\/|::/).pop() ?? '';
  const declares =
    want.kind === 'class'
      ? new RegExp(`^\\s*(?:(?:final|abstract|readonly|public|private|protected|static|sealed)\\s+)*(?:class|interface|trait|enum|record)\\s+${last}\\b`, 'i')
      : want.kind === 'package'
        ? /^\s*package\s+\w+/
        : want.name.includes('::')
          ? new RegExp(`^\\s*package\\s+${want.name.replace(/[$]/g, '\\$')}\\b`, 'i')
          : undefined;
  const i = declares ? lines.findIndex((l) => declares.test(l)) : -1;
  return i >= 0 ? i : 0;
}

/**
 * The clue hits for the first finding whose message names a class, module, package or header the tool did not find,
 * when the workspace has its file under another letter case or in another folder (at most 2). Whatever the finding's
 * class: the message says what was looked for (a test run's `No module named` may rank as unknown). `placed`: the
 * snippets already read, so the file a finding is placed in (a header's including file) is known by its workspace path.
 * Messages, after the clue mark: `the file for the class Shop\Pricing\TaxTable, named Pricing/TaxTable.php in another
 * letter case`, `the file for the module helpers, in another folder than helpers.py`, `the directory for the package
 * example.com/inventory/Store, named Store in another letter case`.
 */
export async function misplacedFiles<W>(reader: ClueReader<W>, workspaces: readonly W[], findings: readonly (Finding | undefined)[], placed: readonly { path: string; line?: number }[]): Promise<ClueHit<W>[]> {
  const f = findings.find((x) => x !== undefined && wantedFileOf(x) !== undefined);
  const want = f ? wantedFileOf(f) : undefined;
  if (!f || !want) return [];
  const loc = f.location;
  const name = (p: string): string => p.slice(p.replace(/\\/g, '/').lastIndexOf('/') + 1);
  const includer = loc?.line !== undefined ? placed.find((s) => s.line === loc.line && name(s.path) === name(loc.file))?.path : undefined;
  for (const workspace of workspaces) {
    const files = await reader.index(workspace);
    const found = await candidatesIn(reader, workspace, files, want, includer);
    const hits: ClueHit<W>[] = [];
    for (const c of found) {
      const file = await reader.read(workspace, c.rel);
      if (file instanceof Error) continue;
      const what = `the ${want.dir ? 'directory' : 'file'} for the ${want.kind} ${want.name}`;
      const message = c.how === 'case' ? `${what}, named ${c.looked} in another letter case` : `${what}, in another folder than ${c.looked}`;
      hits.push({ workspace, rel: c.rel, lines: file.lines, index: declarationIndex(file.lines, want), message });
    }
    if (hits.length > 0) return hits;
  }
  return [];
}
