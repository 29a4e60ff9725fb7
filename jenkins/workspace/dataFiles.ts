/**
 * The data file a failing line reads (issue 25 point 3, session 49, helper fx11): a path the failing source line
 * (or the error's message) names as a string (`"testdata/relay.json"`, `new URL('./fixtures/rates.json', ...)`,
 * `getResourceAsStream("/carriers.properties")`), found in the workspace the way the program would look for it
 * (beside the source file, from the project's root, or on the classpath under a `resources/` directory):
 * - found: the line of it the error points at: the position a JSON parser names (`at position 117`, `line 9 column
 *   1 (char 117)`), or the line that holds a name the message quotes (`unknown field "retry_backoff_ms"`);
 * - not found: the workspace files it most likely meant: the same file name elsewhere (a classpath resource in a
 *   sub-directory), a name like it with the same extension (`orders.csv` -> `orders-2024.csv`), or a file of that
 *   extension in a directory named after it (`carriers.properties` -> `carriers/eu.properties`).
 * Found by text, whatever the language; nothing is said when the line names no such file.
 */
import { namesAlike } from '../../core/log/symbols.js';

/** Extensions of files a program reads as data (not source code). */
const DATA_EXT = /\.(?:json|jsonl|ndjson|ya?ml|toml|csv|tsv|properties|xml|txt|ini|cfg|conf|sql|dat|env|html?|po|pem|golden|txtpb|proto|adoc|asciidoc|rst|md|m4|tmpl|tpl|j2|jinja2?|mustache|hbs|ejs|thrift)$/i;
/** Structured data, whose keys an error may quote (not documents or templates). */
const KEYED_EXT = /\.(?:json|jsonl|ndjson|ya?ml|toml|properties|xml|ini|cfg|conf|env)$/i;

/** A line of a data file to show, and the snippet's message (without the clue mark). */
export interface DataFileHit {
  rel: string;
  /** 0-based. */
  index: number;
  message: string;
}

/** What the search needs of the workspace: its file list and a file's lines. */
export interface DataFileReader {
  files: readonly string[];
  read(rel: string): Promise<readonly string[] | undefined>;
}

const dirOf = (rel: string): string => rel.slice(0, rel.lastIndexOf('/') + 1);
const baseOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);
const extOf = (rel: string): string => /\.[^./]+$/.exec(rel)?.[0].toLowerCase() ?? '';
const stemOf = (rel: string): string => baseOf(rel).replace(/\.[^.]+$/, '');

/** `a/b/../c/./d` -> `a/c/d`; undefined when it leaves the root. */
function normal(p: string): string | undefined {
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(s);
  }
  return out.join('/');
}

/** The data-file paths a failing line (`code`) and its message name as strings (at most three). */
export function dataPathsOf(line: string, message: string): { path: string; from: 'code' | 'error' }[] {
  const out: { path: string; from: 'code' | 'error' }[] = [];
  const add = (path: string, from: 'code' | 'error'): void => {
    if (!out.some((x) => x.path === path)) out.push({ path, from });
  };
  for (const m of line.matchAll(/["'`]([^"'`\s]+)["'`]/g)) if (DATA_EXT.test(m[1] as string)) add(m[1] as string, 'code');
  for (const m of message.matchAll(/(?:^|[\s(:"'])((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*)(?=[\s):"',]|$)/g)) {
    const p = m[1] as string;
    if (DATA_EXT.test(p) && /\//.test(p)) add(p, 'error');
  }
  return out.slice(0, 3);
}

/** Where a program looks for `literal` from `source`: beside the source, from the roots above it, and a resource on the classpath. */
function placesOf(literal: string, source: string, files: readonly string[], classpath: boolean): string[] | undefined {
  const out: string[] = [];
  // An absolute path on the agent: the workspace file it ends with, by two segments at least (a bare `package.json` at the
  // root could be any directory's: `undefined`, so that nothing is said of it).
  if (literal.startsWith('/') && !classpath) {
    const ends = files.filter((f) => literal.endsWith(`/${f}`)).sort((a, b) => b.length - a.length);
    return ends.some((f) => !f.includes('/')) && !ends.some((f) => f.includes('/')) ? undefined : ends;
  }
  if (literal.startsWith('/')) {
    // A classpath resource (`getResource("/x")`): under a `resources/` directory.
    for (const f of files) if (/(?:^|\/)resources\//.test(f) && f.slice(f.search(/(?:^|\/)resources\//)).replace(/^\/?resources/, '') === literal) out.push(f);
    return out;
  }
  const dirs = ['', ...dirOf(source).split('/').filter(Boolean).map((_, i, a) => `${a.slice(0, i + 1).join('/')}/`)];
  for (const d of dirs.reverse()) {
    const p = normal(`${d}${literal}`);
    if (p && files.includes(p)) out.push(p);
  }
  return out;
}

/** The 0-based line and column of a character offset in a file's lines (joined by `\n`). */
function lineAt(lines: readonly string[], offset: number): number | undefined {
  let at = 0;
  for (const [i, l] of lines.entries()) {
    if (offset <= at + l.length) return i;
    at += l.length + 1;
  }
  return undefined;
}

/**
 * The clue lines for the data files a failing line reads: for each path the line names (DATA_EXT), the line of the
 * file the error points at, or, when the file is not where the program looks, the workspace files like it.
 */
export async function dataFileHits(reader: DataFileReader, source: string, line: string, message: string): Promise<DataFileHit[]> {
  const out: DataFileHit[] = [];
  const paths = dataPathsOf(line, message);
  for (const { path: literal, from } of paths) {
    const classpath = from === 'code' && /getResource/.test(line);
    const places = placesOf(literal, source, reader.files, classpath);
    if (!places) continue;
    const found = places[0];
    const reads = from === 'code' ? 'the failing code reads' : 'the error names';
    if (found) {
      const lines = await reader.read(found);
      if (!lines) continue;
      // A JSON parser's position: V8's `at position N` (0-based), Python's `line L column C (char N)`.
      const py = /\bline (\d+) column (\d+) \(char \d+\)/.exec(message);
      const pos = /\bat position (\d+)/.exec(message);
      const index = py ? Number(py[1]) - 1 : pos ? lineAt(lines, Number(pos[1])) : undefined;
      if (index !== undefined && index >= 0 && index < lines.length) {
        out.push({ rel: found, index, message: `is where the parse error's position falls in ${literal}, the file ${reads}` });
        continue;
      }
      // A name the message quotes (a field, a key) that the file holds.
      for (const q of KEYED_EXT.test(found) ? message.matchAll(/["'`]([A-Za-z_][\w.-]*)["'`]/g) : []) {
        const name = q[1] as string;
        if (name === literal || literal.endsWith(name)) continue;
        const k = lines.findIndex((l) => new RegExp(`["'\`]${name.replace(/[.]/g, '\\.')}["'\`]|^\\s*${name.replace(/[.]/g, '\\.')}\\s*[:=]`).test(l));
        if (k >= 0) {
          out.push({ rel: found, index: k, message: `holds ${name}, which the error names, in ${literal}, the file ${reads}` });
          break;
        }
      }
      continue;
    }
    // Not where the program looks (said only when the error says a file is missing, or a resource lookup gave null):
    // the files it most likely meant.
    // A file the error does not name is not the missing one (`upstreams.m4` beside a missing `tls.m4`, found on an include path).
    const resourceNull = /null/i.test(message) && /getResource/.test(line);
    // (An error that names no file at all, Rust's `Os { kind: NotFound }`: the line's one data path.)
    const namesAFile = message.split(/[\s'"`()[\]]+/).some((w) => DATA_EXT.test(w));
    const named = message.includes(baseOf(literal)) || (!namesAFile && paths.filter((p) => p.from === 'code').length === 1);
    const missingSaid = (/no such file|not found|notfound|ENOENT|does not exist|cannot (?:find|open)|can't find|could not (?:open|find|read|load)|unable to (?:open|find|read|load)/i.test(message) && named) || resourceNull;
    if (!missingSaid) continue;
    const ext = extOf(literal);
    const base = baseOf(literal);
    // The same file name elsewhere; several (every package's `package.json`): those whose directory is named like the missing one's.
    const parent = (p: string): string => baseOf(dirOf(p).replace(/\/$/, ''));
    const elsewhere = reader.files.filter((f) => baseOf(f) === base);
    const sameName = elsewhere.length > 1 ? elsewhere.filter((f) => parent(literal) !== '' && namesAlike(parent(literal), parent(f))) : elsewhere;
    if (elsewhere.length > 1 && sameName.length === 0) continue;
    // Like it: symbols.ts's likeness, or the missing name with a word added after a separator (`tls.m4` -> `tls-params.m4`).
    const alike = reader.files.filter((f) => extOf(f) === ext && baseOf(f) !== base && (namesAlike(stemOf(literal), stemOf(f)) || (stemOf(literal).length >= 2 && new RegExp(`^${stemOf(literal).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[-_.]`, 'i').test(stemOf(f)))));
    const inDir = reader.files.filter((f) => extOf(f) === ext && dirOf(f).split('/').includes(stemOf(literal)));
    const candidates = (sameName.length > 0 ? sameName : alike.length > 0 ? alike : inDir).slice(0, 3);
    if (candidates.length === 0 || candidates.length > 2) continue;
    for (const c of candidates) {
      if (out.some((o) => o.rel === c)) continue;
      const resource = /(?:^|\/)resources\//.test(c) ? c.slice(c.search(/(?:^|\/)resources\//)).replace(/^\/?resources/, '') : undefined;
      out.push({ rel: c, index: 0, message: `is a file like ${literal}, which ${reads} and is not where it looks${resource && classpath ? `; on the classpath it is ${resource}` : ''}${candidates.length > 1 ? '; one of two' : ''}` });
    }
  }
  return out.slice(0, 3);
}
