/**
 * Workspace searches the snippet reader makes around a failing line (moved out of snippets.ts, session 49, helper fx11,
 * to make room): the members a missing member of a type most likely became, the script line that runs a failing
 * command, the Python modules that define names an import could not find, and the types named like a missing type.
 */
import { WorkspaceError } from './errors.js';
import { arityOf, callArityAt, likelyMembers, membersOf, similarIdentifiers, symbolKindAt } from '../../core/log/symbols.js';
import { DEFINITION_FILES_MAX, type ReadFile, type SourceReader } from './linkSnippets.js';
import { SCRIPT_FILE, SCRIPT_FILES_MAX } from './scriptTrace.js';

/** snippets.ts's workspace, as far as these searches use it (it imports this module: no import back). */
interface SnippetWorkspace {
  workspaceId: string;
  dir: string;
}
type WorkspaceReader = SourceReader;

/** Files read at most when looking for the type that should declare a missing member. */
const OWNER_FILES_MAX = 200;

/** The members of `owner` that a missing `missing` most likely became, from the workspace file that declares `owner`. */
export async function memberSuggestions(
  reader: WorkspaceReader,
  workspace: SnippetWorkspace,
  failingRel: string,
  owner: string,
  missing: string,
  message: string,
  sourceLine?: string,
  failingLines: readonly string[] = [],
): Promise<{ name: string; index: number; rel: string; file: ReadFile; unused?: true }[]> {
  const ext = /\.[A-Za-z0-9]+$/.exec(failingRel)?.[0];
  if (!ext) return [];
  const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  // C and C++ declare a type in a header: the sources and headers of the family count.
  // A Go template's field (`can't evaluate field Total in type main.Report`): the type is Go code.
  const family = /^\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)$/.test(ext) ? /\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)$/ : /can't evaluate field/.test(message) ? /\.go$/ : undefined;
  const dir = (p: string): string => p.slice(0, p.lastIndexOf('/') + 1);
  const files = (await reader.index(workspace)).filter((f) => (family ? family.test(f) : f.endsWith(ext)));
  // The file named after the type first (Inventory.java; a Go package's directory, slug/), then the failing file's neighbours.
  const named = (p: string): boolean => base(p).startsWith(owner) || dir(p).endsWith(`/${owner}/`) || dir(p) === `${owner}/`;
  files.sort((a, b) => Number(named(b)) - Number(named(a)) || a.length - b.length);
  for (const rel of files.slice(0, OWNER_FILES_MAX)) {
    const file = await reader.read(workspace, rel);
    if (file instanceof WorkspaceError) continue;
    const members = membersOf(owner, file.lines);
    if (members.length === 0) continue;
    // Go: a lower-case member of a type in another package cannot be used from the failing file (fx9): never offered.
    const usable = ext === '.go' && dir(rel) !== dir(failingRel) ? members.filter((m) => /^[A-Z]/.test(m.name)) : members;
    const likely = likelyMembers(missing, symbolKindAt(message, missing, sourceLine), arityOf(message) ?? callArityAt(missing, sourceLine), usable);
    if (likely.length > 0) return likely.map((m) => ({ ...m, rel, file }));
    return membersNotUsedIn(failingLines, owner, missing, outsideBodies(usable, file.lines, owner)).map((m) => ({ ...m, rel, file, unused: true as const }));
  }
  return [];
}

/**
 * The members declared in the type's own block or beside it, not inside one of its methods (`String ascii = ...` in a
 * method body is a local: membersOf reads the whole block). By braces: a member's line is at most one level deeper than
 * the line declaring the type (a Go method beside its struct is at the same level). A Python class (no braces): the
 * members indented least.
 */
function outsideBodies<M extends { index: number }>(members: readonly M[], lines: readonly string[], owner: string): M[] {
  const declared = new RegExp(`\\b(?:class|struct|union|interface|trait|object|record|enum|type)\\s+${owner.replace(/[$]/g, '\\$')}\\b`);
  const depth: number[] = [];
  let d = 0;
  for (const l of lines) {
    depth.push(d);
    for (const ch of l.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\/\/.*$/g, '')) d += ch === '{' ? 1 : ch === '}' ? -1 : 0;
  }
  const at = lines.findIndex((l) => declared.test(l));
  if (at < 0) return [...members];
  if (d === 0 && lines.some((l) => l.includes('{'))) return members.filter((m) => (depth[m.index] ?? 0) <= (depth[at] ?? 0) + 1);
  const indent = (i: number): number => /^\s*/.exec(lines[i] ?? '')?.[0].length ?? 0;
  const least = Math.min(...members.map((m) => indent(m.index)));
  return members.filter((m) => indent(m.index) === least);
}

/** At most this many members a file does not use are offered as what a missing member became (more: no lead). */
const UNUSED_MEMBERS_MAX = 3;

/**
 * The members of `owner` (fields and methods, not its constructor or nested types) that the failing file names nowhere,
 * when none is named like the missing one (issue 25, fx12: `len` -> `size`, `Total` -> `Sum()`, `available()` ->
 * `onHand()`). The failing file was written against the type as it was: a member it already uses elsewhere is not the
 * one the missing name became. Empty when every member is used, or when more than three are not (no lead then).
 */
export function membersNotUsedIn(failingLines: readonly string[], owner: string, missing: string, members: readonly { name: string; kind: string; index: number }[]): { name: string; index: number }[] {
  if (failingLines.length === 0) return [];
  const text = failingLines.join('\n');
  const used = (name: string): boolean => new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`).test(text);
  // A constant for a constant (`QUOTA_EXCEEDED` is not what an enum's field `status` was called), a name for a name.
  const constant = (n: string): boolean => /^[A-Z][A-Z0-9_]*$/.test(n) && /[A-Z]{2}/.test(n);
  const left = members.filter((m) => m.kind !== 'type' && m.name !== owner && m.name !== missing && constant(m.name) === constant(missing) && !used(m.name));
  return left.length <= UNUSED_MEMBERS_MAX ? left.map(({ name, index }) => ({ name, index })) : [];
}

/**
 * The script line that runs `command` as `sh -x` echoed it (variables expanded, quotes gone):
 * the line whose words cover most of the command's, a `$VAR` or `${VAR...}` standing for any
 * word, its first word the command's program. Undefined when no line covers at least half.
 */
export async function scriptLineOf(reader: WorkspaceReader, workspace: SnippetWorkspace, command: string, occurrence = 1): Promise<{ index: number; rel: string; file: ReadFile } | undefined> {
  const words = (t: string): string[] => t.replace(/["']/g, ' ').split(/\s+/).filter(Boolean);
  const want = words(command);
  const wanted = new Set(want);
  const program = want[0];
  if (!program) return undefined;
  let best: { index: number; rel: string; file: ReadFile; score: number; extra: number } | undefined;
  // Lines as good as the best, in file order: the same command run several times alike.
  let alike: { index: number; rel: string; file: ReadFile }[] = [];
  for (const rel of (await reader.index(workspace)).filter((f) => SCRIPT_FILE.test(f)).slice(0, SCRIPT_FILES_MAX)) {
    const file = await reader.read(workspace, rel);
    if (file instanceof WorkspaceError) continue;
    file.lines.forEach((line, index) => {
      // Redirections are not echoed by `sh -x`: `< in.sql`, `> out.txt`, `2>&1` are left out.
      const have = words(line.replace(/^\s*(?:-\s+|sh\s+['"]|run:\s*)/, '').replace(/\s\d?(?:<|>>?|&>)\s*(?:&\d|\S+)/g, ' '));
      if (have[0] !== program && !have.slice(0, 3).includes(program)) return;
      const vars = have.filter((w) => /\$\{?[A-Za-z_]/.test(w)).length;
      const literal = new Set(have);
      const matched = want.filter((w) => literal.has(w)).length;
      const score = (matched + Math.min(vars, want.length - matched)) / want.length;
      // Words the line has that the echoed command lacks (other arguments): a worse match.
      const extra = have.filter((w) => !wanted.has(w) && !/\$\{?[A-Za-z_]/.test(w)).length;
      if (score < 0.5) return;
      if (!best || score > best.score || (score === best.score && extra < best.extra)) {
        best = { index, rel, file, score, extra };
        alike = [{ index, rel, file }];
      } else if (score === best.score && extra === best.extra) {
        alike.push({ index, rel, file });
      }
    });
  }
  if (alike.length <= 1) return best;
  // Several lines run it alike: the failing run's one when the log says which, else none (a guess).
  return occurrence >= 1 && occurrence <= alike.length ? alike[occurrence - 1] : undefined;
}

/** The workspace's Python modules that define `names` at the top level (`def x(`, `class x`, `x =`), with their module path. */
export async function pythonDefinitionsOf(reader: WorkspaceReader, workspace: SnippetWorkspace, names: readonly string[], importer: string): Promise<{ name: string; module: string; index: number; rel: string; file: ReadFile }[]> {
  const out: { name: string; module: string; index: number; rel: string; file: ReadFile }[] = [];
  const files = (await reader.index(workspace)).filter((f) => f.endsWith('.py') && f !== importer && !/(?:^|\/)(?:tests?|\.venv|venv|site-packages)\//.test(f));
  for (const rel of files.slice(0, DEFINITION_FILES_MAX)) {
    const file = await reader.read(workspace, rel);
    if (file instanceof WorkspaceError) continue;
    for (const name of names) {
      const index = file.lines.findIndex((l) => new RegExp(`^(?:async\\s+)?def ${name}\\s*\\(|^class ${name}\\b|^${name}\\s*(?::[^=]+)?=[^=]`).test(l));
      if (index < 0) continue;
      const module = rel.replace(/\.py$/, '').replace(/\/__init__$/, '').replace(/^src\//, '').replace(/\//g, '.');
      out.push({ name, module, index, rel, file });
    }
    if (out.length >= 2) break;
  }
  return out;
}

/** Types declared in the workspace files (same extension) whose names look like the missing type's. */
export async function typeSuggestions(reader: WorkspaceReader, workspace: SnippetWorkspace, failingRel: string, missing: string): Promise<{ name: string; index: number; rel: string; file: ReadFile }[]> {
  const ext = /\.[A-Za-z0-9]+$/.exec(failingRel)?.[0];
  if (!ext) return [];
  const lower = missing.toLowerCase();
  const stem = (p: string): string => p.slice(p.lastIndexOf('/') + 1, p.length - ext.length).toLowerCase();
  const files = (await reader.index(workspace)).filter((f) => f.endsWith(ext) && f !== failingRel && (stem(f).includes(lower) || lower.includes(stem(f)) || editDistanceAtMost(stem(f), lower, 2)));
  const out: { name: string; index: number; rel: string; file: ReadFile }[] = [];
  for (const rel of files.slice(0, 20)) {
    const file = await reader.read(workspace, rel);
    if (file instanceof WorkspaceError) continue;
    for (const hit of similarIdentifiers(missing, file.lines, 2, 'type')) out.push({ name: hit.name, index: hit.index, rel, file });
    if (out.length >= 2) break;
  }
  return out;
}

function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return (prev[b.length] as number) <= max;
}
