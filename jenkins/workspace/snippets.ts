/**
 * Snippets at upload (issue 17): the source lines around every `file:line` the top failure
 * excerpts of a log name, and the pipeline script, read from a build's workspace with the same
 * rules as `GET /workspaceFile` (`readWorkspaceFile`: relative paths only, never outside the
 * workspace's real path, never `.git`, binary refused). Shared by the controller (workspaces
 * from JENKINS_HOME, confined) and the CLI (`$WORKSPACE`, `--workspace DIR`).
 */
import { promises as fs } from 'node:fs';
import { analyze } from '../../core/log/analyze.js';
import { cleanLines } from '../../core/log/clean.js';
import { PIPELINE_SCRIPT, failureLocations, type SourceLocation } from '../../core/log/locations.js';
import { missingSymbolOf, ownerTypeOf, similarIdentifiers, symbolKindAt } from '../../core/log/symbols.js';
import type { LogExcerpt } from '../../protocol/types.js';
import { maskSecrets } from '../../core/secrets.js';
import type { WorkspaceSnippet } from '../../protocol/types.js';
import { WorkspaceError } from './errors.js';
import { TRUNCATION_MARK, readWorkspaceFile } from './file.js';
import { relativePathSegments } from './pathguard.js';
import { CLUE_MARK, findClues } from './clues.js';
import { misplacedFiles } from './misplacedFiles.js';
import { goWorkGaps } from './goWork.js';
import { originSnippets } from './origins.js';
import { dataFileHits } from './dataFiles.js';
import { renamedHits, undefinedNameOf } from './renamedName.js';
import { earlyUse, usedEarlyName } from './useBeforeDeclaration.js';
import { missingEnumCases, NOT_EXHAUSTIVE } from './enumCases.js';
import { LOCK_OR_REGISTRY, lockDrift } from './lockDrift.js';
import { familyOf, requiredMemberHits, requiredMemberOf } from './requiredMembers.js';
import { jvmLinkageHits, jvmLinkageOf } from './jvmLinkage.js';
import { settingHits } from './settingReads.js';
import { importedFiles, importedNamesNotUsed } from './importedNames.js';
import { importedSubjects, subjectOf } from './subject.js';
export { subjectOf } from './subject.js';
import { failingTestFile, testFileDeclaring, programSources } from './testFile.js';
import { agentWorkspaceRoots, bySuffix, directPath, indexFiles } from './locate.js';
export { agentWorkspaceRoots } from './locate.js';
import { declaredInWorkspace, definitionsOf, hiddenLinkageIn, renamedInWorkspace, type ReadFile } from './linkSnippets.js';
import { window } from './window.js';
import { memberSuggestions, pythonDefinitionsOf, scriptLineOf, typeSuggestions } from './suggestions.js';
import { SCRIPT_CLASSES, commandBefore, lineRunning, printingProgram, scriptRunBy, tracesOf } from './scriptTrace.js';

/** A workspace to read from: `dir` on this host, `path` as Jenkins recorded it (when known). */
export interface SnippetWorkspace {
  workspaceId: string;
  dir: string;
  path?: string;
}

export { pipelineScriptOf, readPipelineScript, type PipelineScript } from './pipelineScript.js';
import type { PipelineScript } from './pipelineScript.js';

export interface SnippetLimits {
  /** Snippets around failure locations (the pipeline script comes on top). */
  maxSourceSnippets: number;
  /** Lines shown before and after a named line. */
  contextLines: number;
  /** Characters of one source snippet. */
  maxSnippetChars: number;
  /** Characters of all source snippets together. */
  maxSourceChars: number;
  /** Characters and lines of the pipeline script snippet. */
  maxScriptChars: number;
  maxScriptLines: number;
  /** Characters read from one file: a line beyond them is not shown. */
  maxReadChars: number;
  /** Files indexed per workspace when a path must be found by its end (`Foo.java`). */
  maxIndexedFiles: number;
}

export const SNIPPET_LIMITS: SnippetLimits = {
  maxSourceSnippets: 8,
  contextLines: 6,
  maxSnippetChars: 4000,
  maxSourceChars: 16_000,
  maxScriptChars: 8000,
  maxScriptLines: 150,
  maxReadChars: 1_000_000,
  maxIndexedFiles: 50_000,
};

/** A location that gave no snippet, and why (for logs and tests; never sent). */
export interface SkippedLocation {
  path: string;
  line: number;
  reason: string;
}

export interface SnippetResult {
  snippets: WorkspaceSnippet[];
  skipped: SkippedLocation[];
}

export interface CollectOptions {
  /** The build's log (raw or cleaned). */
  log: string;
  workspaces: readonly SnippetWorkspace[];
  pipeline?: PipelineScript;
  limits?: Partial<SnippetLimits>;
  /**
   * The analyzer's excerpts of `log` (`analyze(log)`) when the caller has them already: the
   * log is not analysed again. Absent: analysed here.
   */
  excerpts?: readonly LogExcerpt[];
}


class WorkspaceReader {
  private readonly realDirs = new Map<string, string | undefined>();
  private readonly indexes = new Map<string, Promise<string[]>>();
  private readonly files = new Map<string, Promise<ReadFile | WorkspaceError>>();

  constructor(private readonly limits: SnippetLimits) {}

  async realDir(workspace: SnippetWorkspace): Promise<string | undefined> {
    if (!this.realDirs.has(workspace.dir)) this.realDirs.set(workspace.dir, await fs.realpath(workspace.dir).catch(() => undefined));
    return this.realDirs.get(workspace.dir);
  }

  index(workspace: SnippetWorkspace): Promise<string[]> {
    let index = this.indexes.get(workspace.dir);
    if (!index) {
      index = indexFiles(workspace.dir, this.limits.maxIndexedFiles);
      this.indexes.set(workspace.dir, index);
    }
    return index;
  }

  /** The file's lines, or the WorkspaceError that refused it (404 missing, 400 outside, 415 binary). */
  read(workspace: SnippetWorkspace, rel: string): Promise<ReadFile | WorkspaceError> {
    const key = `${workspace.dir}\0${rel}`;
    let file = this.files.get(key);
    if (!file) {
      file = readWorkspaceFile(workspace.dir, rel, { maxChars: this.limits.maxReadChars }).then(
        (content) => {
          const cut = content.endsWith(TRUNCATION_MARK);
          const text = cut ? content.slice(0, -TRUNCATION_MARK.length) : content;
          const lines = text.split('\n');
          if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
          // A cut file's last line may be incomplete: never show it as whole.
          if (cut) lines.pop();
          return { lines: lines.map((l) => l.replace(/\r$/, '')), cut };
        },
        (err: unknown) => {
          if (err instanceof WorkspaceError) return err;
          throw err;
        },
      );
      this.files.set(key, file);
    }
    return file;
  }

  /**
   * Finds the file a log path names in one of the workspaces: the path itself (relative, or
   * absolute under the workspace's recorded or real path), else the workspace file whose path
   * ends with the most of its trailing segments (a path recorded on another machine, a bare
   * `Foo.java`, a JVM frame's package path).
   */
  async locate(logPath: string, workspaces: readonly SnippetWorkspace[], agentRoots: readonly string[] = []): Promise<{ workspace: SnippetWorkspace; rel: string; file: ReadFile } | { reason: string }> {
    let reason = 'not found in the workspace';
    for (const workspace of workspaces) {
      const direct = directPath(logPath, workspace, await this.realDir(workspace), agentRoots);
      if (direct !== undefined) {
        let guarded = true;
        try {
          relativePathSegments(direct);
        } catch {
          guarded = false;
          reason = 'outside the workspace';
        }
        if (guarded) {
          const file = await this.read(workspace, direct);
          if (!(file instanceof WorkspaceError)) return { workspace, rel: direct, file };
          if (file.status !== 404) {
            reason = file.message;
            continue;
          }
        }
      }
      const rel = bySuffix(logPath, await this.index(workspace));
      if (rel === undefined) continue;
      const file = await this.read(workspace, rel);
      if (!(file instanceof WorkspaceError)) return { workspace, rel, file };
      reason = file.message;
    }
    return { reason };
  }
}

/**
 * The snippets for a failed build's log: for each location the top failure excerpts name (in
 * the analyzer's order), the named line with `contextLines` around it from the workspace file
 * it maps to; then the pipeline script (around the `WorkflowScript` lines the log names, else
 * from its start). Capped in count and characters, secrets masked, binary and refused files
 * skipped (listed in `skipped` with the reason).
 */
export async function collectSnippets(options: CollectOptions): Promise<SnippetResult> {
  const limits: SnippetLimits = { ...SNIPPET_LIMITS, ...options.limits };
  const reader = new WorkspaceReader(limits);
  const lines = cleanLines(options.log);
  const excerpts = options.excerpts ?? analyze(options.log, { maxExcerpts: 5 });
  const locations = withFindingPlaces(excerpts, failureLocations(lines, excerpts));
  const agentRoots = agentWorkspaceRoots(lines);
  const snippets: WorkspaceSnippet[] = [];
  const skipped: SkippedLocation[] = [];
  let sourceChars = 0;
  const scriptLines: SourceLocation[] = [];

  for (const loc of locations) {
    if (loc.path === PIPELINE_SCRIPT) {
      scriptLines.push(loc);
      continue;
    }
    if (snippets.length >= limits.maxSourceSnippets) {
      skipped.push({ path: loc.path, line: loc.line, reason: `more than ${limits.maxSourceSnippets} locations` });
      continue;
    }
    const found = await reader.locate(loc.path, options.workspaces, agentRoots);
    if ('reason' in found) {
      skipped.push({ path: loc.path, line: loc.line, reason: found.reason });
      continue;
    }
    if (loc.line > found.file.lines.length) {
      skipped.push({
        path: loc.path,
        line: loc.line,
        reason: found.file.cut ? `line beyond the first ${limits.maxReadChars} characters read` : `the file has ${found.file.lines.length} lines`,
      });
      continue;
    }
    const w = window(found.file, loc.line, limits.contextLines, limits.maxSnippetChars);
    const text = maskSecrets(w.text);
    if (sourceChars + text.length > limits.maxSourceChars) {
      skipped.push({ path: loc.path, line: loc.line, reason: `over the ${limits.maxSourceChars}-character budget` });
      continue;
    }
    sourceChars += text.length;
    snippets.push({
      path: found.rel,
      workspaceId: found.workspace.workspaceId,
      startLine: w.startLine,
      endLine: w.endLine,
      text,
      kind: 'source',
      line: loc.line,
      logLine: loc.logLine,
      ...(loc.message ? { message: maskSecrets(loc.message).slice(0, 500) } : {}),
    });
    // A Python module that is not there (`No module named 'logs.tools'`) imported as
    // `from logs.tools import parse_level`: the modules of the workspace that define those names
    // (a moved or renamed module).
    const gone = /No module named '([\w.]+)'|cannot import name '\w+' from '([\w.]+)'/.exec(`${loc.message ?? ''}\n${excerpts[0]?.finding?.message ?? ''}`);
    const imported = /^\s*from\s+([\w.]+)\s+import\s+\(?([\w, ]+)\)?/.exec(found.file.lines[loc.line - 1] ?? '');
    if (gone && imported && imported[1] === (gone[1] ?? gone[2])) {
      const names = (imported[2] as string).split(',').map((n) => n.trim().split(/\s+/)[0] as string).filter(Boolean).slice(0, 3);
      for (const d of await pythonDefinitionsOf(reader, found.workspace, names, found.rel)) {
        if (snippets.length >= limits.maxSourceSnippets) break;
        const near = window(d.file, d.index + 1, 1, 600);
        const nearText = maskSecrets(near.text);
        if (sourceChars + nearText.length > limits.maxSourceChars) break;
        sourceChars += nearText.length;
        snippets.push({ path: d.rel, workspaceId: found.workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', message: `defines ${d.name} in module ${d.module}, imported from ${imported[1]}` });
      }
    }
    // A symbol the compiler cannot find: the lines of the same file that declare names like it
    // (`totl` -> `total` on line 10), which the window around the error rarely shows.
    // javac's `symbol:` and `location:` lines under `cannot find symbol` (a place the finding gave has only the first line).
    const said = `${loc.message ?? ''}${/cannot find symbol$/.test(loc.message ?? '') ? `\n${symbolLinesBelow(lines, loc.logLine)}` : ''}`;
    const missing = loc.message ? missingSymbolOf(said) : undefined;
    if (missing) {
      // The kind the message says, refined by how the line uses the name (`Tax.rateFor(...)` is a type).
      const sourceLine = found.file.lines[loc.line - 1];
      const kind = symbolKindAt(said, missing, sourceLine);
      // Definitions of the same kind only: a method for a method, never a parameter or a comment's word.
      for (const hit of similarIdentifiers(missing, found.file.lines, 3, kind)) {
        const n = hit.index + 1;
        if ((n >= w.startLine && n <= w.endLine) || snippets.length >= limits.maxSourceSnippets) continue;
        const near = window(found.file, n, 1, 600);
        const nearText = maskSecrets(near.text);
        if (sourceChars + nearText.length > limits.maxSourceChars) break;
        sourceChars += nearText.length;
        snippets.push({ path: found.rel, workspaceId: found.workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', message: `declares ${hit.name}, a name like ${missing}` });
      }
      // A missing type (`symbol: class Tax`): the types declared in files named like it
      // (`TaxTable.java`), where a renamed class lives.
      if (kind === 'type' && snippets.length < limits.maxSourceSnippets) {
        for (const t of await typeSuggestions(reader, found.workspace, found.rel, missing)) {
          if (snippets.length >= limits.maxSourceSnippets) break;
          const near = window(t.file, t.index + 1, 1, 600);
          const nearText = maskSecrets(near.text);
          if (sourceChars + nearText.length > limits.maxSourceChars) break;
          sourceChars += nearText.length;
          snippets.push({ path: t.rel, workspaceId: found.workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', message: `declares ${t.name}, a name like ${missing}` });
        }
      }
      // A member of another type (`inv.count(...)` on an Inventory): that type's members of the
      // same kind, from the file that declares it (a renamed method's new name lives there).
      const owner = ownerTypeOf(said);
      if (owner && snippets.length < limits.maxSourceSnippets) {
        const member = await memberSuggestions(reader, found.workspace, found.rel, owner, missing, said, sourceLine, found.file.lines);
        for (const m of member) {
          if (snippets.length >= limits.maxSourceSnippets) break;
          const near = window(m.file, m.index + 1, 1, 600);
          const nearText = maskSecrets(near.text);
          if (sourceChars + nearText.length > limits.maxSourceChars) break;
          sourceChars += nearText.length;
          snippets.push({ path: m.rel, workspaceId: found.workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', message: m.unused ? `declares ${m.name}, a member of ${owner} that ${found.rel} does not use, where ${missing} is not` : `declares ${m.name}, a member of ${owner} like ${missing}` });
        }
      }
      // No owner type: the file the failing one takes the name from (an include, a module), when no name like it was found (importedNames.ts).
      if (!owner && snippets.length < limits.maxSourceSnippets && !snippets.some((x) => (x.message ?? '').endsWith(` like ${missing}`))) {
        const index = await reader.index(found.workspace);
        const read = new Map<string, string[]>();
        for (const rel of importedFiles(index, found.rel, found.file.lines, missing, sourceLine)) {
          const f = await reader.read(found.workspace, rel);
          if (!(f instanceof WorkspaceError)) read.set(rel, f.lines);
        }
        for (const hit of importedNamesNotUsed((rel) => read.get(rel), index, found.rel, found.file.lines, missing, sourceLine)) {
          const near = window({ lines: read.get(hit.rel) ?? [], cut: false }, hit.index + 1, 1, 600);
          const nearText = maskSecrets(near.text);
          if (sourceChars + nearText.length > limits.maxSourceChars || snippets.length >= limits.maxSourceSnippets) break;
          sourceChars += nearText.length;
          snippets.push({ path: hit.rel, workspaceId: found.workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', message: `declares ${hit.name}, a name of ${hit.rel} that ${found.rel} does not use, where ${missing} is not` });
        }
      }
    }
  }

  // A symbol the linker could not find: where the workspace defines it (a source file the build
  // does not compile or link is the usual cause).
  const linked = excerpts
    .slice(0, 2)
    .map((e) => e.finding)
    .find((f) => f?.class === 'link-error' && f.symbol !== undefined && !f.symbol.startsWith('-l'));
  if (linked?.symbol) {
    // A symbol the linker found defined twice (`multiple definition of`, `duplicate symbol`) is defined: the searches for
    // a declaration without a definition, or a definition renamed away, would say something false of it.
    let defined = /\b(?:multiple definitions? of|duplicate symbol)\b/i.test(linked.message);
    // Defined where no other file can link to it (`static`, `inline`, a template in a .cpp...): that linkage and the
    // header that declares the name, as clues (linkVisibility.ts); the plain "defines" snippet of that file is left out.
    const linkage = new Set<string>();
    for (const workspace of defined ? [] : options.workspaces) {
      const hits = await hiddenLinkageIn(reader, workspace, linked.symbol, limits);
      for (const hit of hits) {
        if (snippets.length >= limits.maxSourceSnippets) break;
        const near = window(hit.file, hit.index + 1, 2, 600);
        const nearText = maskSecrets(near.text);
        if (sourceChars + nearText.length > limits.maxSourceChars) break;
        sourceChars += nearText.length;
        linkage.add(`${workspace.workspaceId}\0${hit.rel}`);
        snippets.push({ path: hit.rel, workspaceId: workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
      }
      if (hits.length > 0) {
        defined = true;
        break;
      }
    }
    for (const workspace of options.workspaces) {
      for (const d of await definitionsOf(reader, workspace, linked.symbol)) {
        defined = true;
        if (linkage.has(`${workspace.workspaceId}\0${d.rel}`)) continue;
        if (snippets.length >= limits.maxSourceSnippets) break;
        const near = window(d.file, d.index + 1, 1, 600);
        const nearText = maskSecrets(near.text);
        if (sourceChars + nearText.length > limits.maxSourceChars) break;
        sourceChars += nearText.length;
        snippets.push({ path: d.rel, workspaceId: workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', message: `defines ${d.name}, the symbol the linker could not find` });
      }
    }
    // Declared but defined nowhere (a rename in the .c/.cpp only, a deleted definition): the
    // declaration, and the orphan definitions that look like it (linkDecl.ts).
    for (const workspace of defined ? [] : options.workspaces) {
      const found = await declaredInWorkspace(reader, workspace, linked.symbol, limits);
      for (const [i, hit] of (found ?? []).entries()) {
        if (snippets.length >= limits.maxSourceSnippets) break;
        const near = window(hit.file, hit.index + 1, i === 0 ? 1 : 2, 600);
        const nearText = maskSecrets(near.text);
        if (sourceChars + nearText.length > limits.maxSourceChars) break;
        sourceChars += nearText.length;
        snippets.push({ path: hit.rel, workspaceId: workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', line: hit.index + 1, message: hit.message });
      }
      if (found) break;
    }
    // Neither defined nor declared (renamed in its .c and its header, a caller left with the old name): the callers and
    // the definitions named like it, with their headers (linkDecl.ts `renamedDefinitions`).
    for (const workspace of defined || snippets.some((x) => /, the symbol the linker could not find; /.test(x.message ?? '')) ? [] : options.workspaces) {
      const found = await renamedInWorkspace(reader, workspace, linked.symbol, limits);
      for (const hit of found ?? []) {
        if (snippets.length >= limits.maxSourceSnippets) break;
        const near = window(hit.file, hit.index + 1, 1, 600);
        const nearText = maskSecrets(near.text);
        if (sourceChars + nearText.length > limits.maxSourceChars) break;
        sourceChars += nearText.length;
        snippets.push({ path: hit.rel, workspaceId: workspace.workspaceId, startLine: near.startLine, endLine: near.endLine, text: nearText, kind: 'source', line: hit.index + 1, message: hit.message });
      }
      if (found) break;
    }
  }

  // Where the workspace names what failed (the manifest line of a dependency, the script line of a host...).
  // (Without a baseline a warning the green build printed too can rank first: the first finding with a class.)
  const clued = excerpts.slice(0, 3).find((e) => e.score > 0 && e.finding && e.finding.class !== 'unknown')?.finding;
  const place = clued?.location;
  const at = place?.line !== undefined ? snippets.find((x) => x.line === place.line && `/${place.file}`.endsWith(`/${x.path.slice(x.path.lastIndexOf('/') + 1)}`)) : undefined;
  const atLine = at?.line !== undefined ? at.text.split('\n')[at.line - at.startLine] : undefined;
  // First a file the log does not name: the one a name maps to, misnamed or misplaced (misplacedFiles.ts), a module go.work lacks (goWork.ts).
  const failed = excerpts.slice(0, 3).filter((e) => e.score > 0).map((e) => e.finding);
  const unnamed = [...(await misplacedFiles(reader, options.workspaces, failed, snippets)), ...(await goWorkGaps(reader, options.workspaces, failed))];
  const clues = clued ? await findClues(reader, options.workspaces, clued, 3, atLine, at?.line !== undefined ? at.text.split('\n').slice(0, at.line - at.startLine) : []) : [];
  for (const hit of [...unnamed, ...clues.filter((h) => unnamed.length === 0 || !h.message.startsWith('a file named like'))]) {
    if (snippets.length >= limits.maxSourceSnippets) break;
    const list = hit.message.startsWith('lists ') || hit.message.startsWith('defines the targets');
    const w = window({ lines: hit.lines, cut: false }, list ? Math.min(hit.lines.length, hit.index + 1 + limits.contextLines) : hit.index + 1, limits.contextLines, limits.maxSnippetChars);
    const text = maskSecrets(w.text);
    if (sourceChars + text.length > limits.maxSourceChars) break;
    sourceChars += text.length;
    snippets.push({ path: hit.rel, workspaceId: hit.workspace.workspaceId, startLine: w.startLine, endLine: w.endLine, text, kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
  }

  // A failure of how a step ran (a host, a credential, a tool, a limit) names no source line:
  // the script line that runs the failing command is where its settings come from.
  const top = clued ?? excerpts[0]?.finding;
  if (top && top.location?.line === undefined && SCRIPT_CLASSES.has(top.class) && snippets.length < limits.maxSourceSnippets) {
    const command = commandBefore(lines, top.message_line);
    // The same command traced earlier in the step (`sqlite3 db < a.sql`, then `sqlite3 db < b.sql`
    // echo alike): which of its runs failed picks among script lines that run it alike.
    const occurrence = command ? tracesOf(lines, command, top.message_line) : 0;
    for (const workspace of command ? options.workspaces : []) {
      const hit = await scriptLineOf(reader, workspace, command as string, occurrence);
      if (!hit) continue;
      const w = window(hit.file, hit.index + 1, limits.contextLines, limits.maxSnippetChars);
      const text = maskSecrets(w.text);
      if (sourceChars + text.length > limits.maxSourceChars) break;
      sourceChars += text.length;
      snippets.push({ path: hit.rel, workspaceId: workspace.workspaceId, startLine: w.startLine, endLine: w.endLine, text, kind: 'source', line: hit.index + 1, message: 'runs the failing command' });
      break;
    }
    // The command ran a script of the workspace (not traced inside): its line that runs the program that printed the error.
    const program = printingProgram(top.message);
    const home = options.workspaces[0];
    const script = command && program && home ? scriptRunBy(command, await reader.index(home)) : undefined;
    const file = script && home ? await reader.read(home, script) : undefined;
    const index = file && !(file instanceof WorkspaceError) ? lineRunning(file.lines, program as string) : undefined;
    if (file && !(file instanceof WorkspaceError) && index !== undefined && snippets.length < limits.maxSourceSnippets) {
      const w = window(file, index + 1, limits.contextLines, limits.maxSnippetChars);
      snippets.push({ path: script as string, workspaceId: (home as SnippetWorkspace).workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: index + 1, message: `runs ${program as string}, which printed the error` });
    }
  }

  // A failing test's code under test (`OrderTotalsTest.java` -> `OrderTotals.java`): where the fix usually is, from its start.
  // (Names not pairing up: the project files a test in the finding imports. Not if that very file is shown: `tests/test_a.py` is not `a.py`.)
  const fromStart = (found: { rel: string; file: ReadFile }, workspaceId: string, message: string): boolean => {
    const w = window(found.file, 1, 0, limits.maxSnippetChars);
    let endLine = Math.min(found.file.lines.length, 60);
    let text = found.file.lines.slice(0, endLine).join('\n');
    while (text.length > limits.maxSnippetChars && endLine > w.endLine) text = found.file.lines.slice(0, --endLine).join('\n');
    text = maskSecrets(text);
    if (sourceChars + text.length > limits.maxSourceChars) return false;
    sourceChars += text.length;
    snippets.push({ path: found.rel, workspaceId, startLine: 1, endLine, text, kind: 'source', message });
    return true;
  };
  const subjects = async (testRel: string, workspace: SnippetWorkspace, imports: boolean): Promise<string[]> => {
    const test = imports ? await reader.read(workspace, testRel) : undefined;
    return [subjectOf(testRel), ...(test && !(test instanceof WorkspaceError) ? importedSubjects(testRel, test.lines) : [])].filter((x): x is string => x !== undefined);
  };
  for (const snippet of [...snippets]) {
    const workspace = options.workspaces.find((w) => w.workspaceId === snippet.workspaceId);
    if (!workspace || snippet.message?.startsWith(CLUE_MARK) || snippets.length >= limits.maxSourceSnippets) continue;
    const candidates = await subjects(snippet.path, workspace, !subjectOf(snippet.path) && clued?.test !== undefined && /^test-/.test(clued.class));
    let found: Awaited<ReturnType<typeof reader.locate>> = { reason: 'no subject' };
    const shown = (name: string): boolean => snippets.some((x) => !x.message?.startsWith(CLUE_MARK) && (x.path === name || x.path.endsWith(`/${name}`)));
    for (const subject of candidates) if ('reason' in found && !shown(subject.split('/').pop() ?? '')) found = await reader.locate(subject, [workspace]);
    if ('reason' in found || found.file.lines.length === 0 || found.rel === snippet.path) continue;
    if (!fromStart(found, workspace.workspaceId, `code under test of ${snippet.path}`)) break;
  }
  // No place in a test file: the test file the command ran or the test is named after (testFile.ts);
  // a program that crashed without a frame: the sources its build line names.
  const home = options.workspaces[0];
  if (clued && home && snippets.length < limits.maxSourceSnippets && !snippets.some((x) => x.message?.startsWith('code under test of '))) {
    const files = await reader.index(home);
    const readLines = async (rel: string): Promise<readonly string[] | undefined> => ((f) => (f instanceof WorkspaceError ? undefined : f.lines))(await reader.read(home, rel));
    const testRel = /^test-/.test(clued.class) || clued.test || clued.class === 'timeout-aborted' ? (failingTestFile(lines, clued.message_line, clued.test?.name, files) ?? (await testFileDeclaring(clued.test?.name, files, readLines))) : undefined;
    const crashed = !testRel && clued.class === 'runtime-exception' && clued.location === undefined ? programSources(lines, clued.message_line, files) : undefined;
    for (const name of testRel ? await subjects(testRel, home, true) : (crashed?.sources ?? [])) {
      const found = await reader.locate(name, [home]);
      if ('reason' in found || found.file.lines.length === 0 || found.rel === testRel) continue;
      fromStart(found, home.workspaceId, testRel ? `code under test of ${testRel}` : `source of ${crashed?.program ?? ''}, built at log line ${crashed?.built.line ?? 0}`);
      break;
    }
  }

  // The failing line's values assigned further up its file (origins.ts): one line each, after the rest.
  const failing = snippets.find((x) => x.line !== undefined && x.kind === 'source' && !x.message?.startsWith(CLUE_MARK));
  const failingFile = failing ? await reader.read(options.workspaces.find((w) => w.workspaceId === failing.workspaceId) as SnippetWorkspace, failing.path) : undefined;
  if (failing && failingFile && !(failingFile instanceof WorkspaceError)) snippets.push(...originSnippets(failing, failingFile.lines, maskSecrets));
  // The data file the failing line (or the three above it) reads, as a string (dataFiles.ts): the line the error points at, or the files like it.
  const failingWorkspace = failing ? options.workspaces.find((w) => w.workspaceId === failing.workspaceId) : undefined;
  if (failing?.line !== undefined && failingWorkspace && failingFile && !(failingFile instanceof WorkspaceError)) {
    const near = failingFile.lines.slice(Math.max(0, failing.line - 4), failing.line).join('\n');
    const files = await reader.index(failingWorkspace);
    const readLines = async (rel: string): Promise<string[] | undefined> => ((f) => (f instanceof WorkspaceError ? undefined : f.lines))(await reader.read(failingWorkspace, rel));
    for (const hit of await dataFileHits({ files, read: readLines }, failing.path, near, `${clued?.message ?? ''}\n${failing.message ?? ''}`)) {
      const file = await reader.read(failingWorkspace, hit.rel);
      if (file instanceof WorkspaceError || snippets.length >= limits.maxSourceSnippets + 2) break;
      const w = window(file, hit.index + 1, 2, 800);
      snippets.push({ path: hit.rel, workspaceId: failingWorkspace.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  // A name used before its declaration ran (useBeforeDeclaration.ts): the declaration's lines and the line that runs first.
  const early = top ? usedEarlyName(top.message) : undefined;
  if (early && failing?.line !== undefined && failingWorkspace && failingFile && !(failingFile instanceof WorkspaceError)) {
    const hit = earlyUse(failingFile.lines, early, failing.line);
    if (hit) {
      const w = window(failingFile, hit.first + 1, 1, 800);
      snippets.push({ path: failing.path, workspaceId: failingWorkspace.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.first + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  // A switch that misses values of its enum (enumCases.ts): the project's enum holding every label, and the constants it lacks.
  if (top && NOT_EXHAUSTIVE.test(top.message) && failing?.line !== undefined && failingWorkspace && failingFile && !(failingFile instanceof WorkspaceError)) {
    const ext = /\.\w+$/.exec(failing.path)?.[0] ?? '';
    const files: { rel: string; lines: string[] }[] = [];
    for (const rel of (await reader.index(failingWorkspace)).filter((f) => ext !== '' && f.endsWith(ext)).slice(0, 300)) {
      const f = await reader.read(failingWorkspace, rel);
      if (!(f instanceof WorkspaceError)) files.push({ rel, lines: f.lines });
    }
    for (const hit of missingEnumCases(files, failing.path, failingFile.lines, failing.line)) {
      const file = files.find((f) => f.rel === hit.rel) as { rel: string; lines: string[] };
      const w = window({ lines: file.lines, cut: false }, hit.index + 1, 2, 800);
      snippets.push({ path: hit.rel, workspaceId: failingWorkspace.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  // A type lacking a member its interface, trait or base requires (requiredMembers.ts): the member as declared there, the type's file.
  const family = top && failing ? familyOf(failing.path) : undefined;
  const near = top ? [top.message, ...lines.slice(top.message_line - 1, top.message_line + 3)].join('\n') : '';
  if (top && family && failing?.line !== undefined && failingWorkspace && failingFile && !(failingFile instanceof WorkspaceError) && requiredMemberOf(near, failingFile.lines[failing.line - 1])) {
    const files: { rel: string; lines: string[] }[] = [];
    for (const rel of (await reader.index(failingWorkspace)).filter((f) => familyOf(f) === family && !/(?:^|\/)(?:node_modules|vendor|target|build|dist)\//.test(f)).slice(0, 400)) {
      const f = await reader.read(failingWorkspace, rel);
      if (!(f instanceof WorkspaceError) && f.lines.length <= 5000) files.push({ rel, lines: f.lines });
    }
    for (const hit of requiredMemberHits(files, near, { rel: failing.path, lines: failingFile.lines, line: failing.line })) {
      const w = window({ lines: (files.find((f) => f.rel === hit.rel) as { lines: string[] }).lines, cut: false }, hit.index + 1, 2, 800);
      snippets.push({ path: hit.rel, workspaceId: failingWorkspace.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  // A JVM linkage error against the checkout's declaration of the class, its caller and the classpath's jars (jvmLinkage.ts).
  const jvmHome = failingWorkspace ?? options.workspaces[0];
  const jvmRead = async (rel: string): Promise<string[] | undefined> => (jvmHome ? ((f) => (f instanceof WorkspaceError ? undefined : f.lines))(await reader.read(jvmHome, rel)) : undefined);
  for (const hit of top && jvmHome && jvmLinkageOf(top.message) ? await jvmLinkageHits(await reader.index(jvmHome), jvmRead, top.message, lines, top.message_line) : []) {
    const w = window({ lines: (await jvmRead(hit.rel)) ?? [], cut: false }, hit.index + 1, 2, 800);
    snippets.push({ path: hit.rel, workspaceId: (jvmHome as SnippetWorkspace).workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
  }
  // An install stopped on its lock file or on the registry it had to ask (lockDrift.ts): the manifest lines the lock does not record.
  const lockHome = failingWorkspace ?? options.workspaces[0];
  if (top && (top.class === 'dependency-resolution' || top.class === 'network') && LOCK_OR_REGISTRY.test(top.message) && lockHome) {
    const files: { rel: string; lines: string[] }[] = [];
    for (const rel of (await reader.index(lockHome)).filter((f) => /(?:^|\/)(?:Gemfile(?:\.lock)?|package(?:-lock)?\.json|yarn\.lock|composer\.(?:json|lock)|Cargo\.(?:toml|lock))$/.test(f) && !/(?:^|\/)(?:node_modules|vendor)\//.test(f)).slice(0, 100)) {
      const f = await reader.read(lockHome, rel);
      if (!(f instanceof WorkspaceError) && !f.cut) files.push({ rel, lines: f.lines });
    }
    for (const hit of lockDrift(files).slice(0, 2)) {
      const file = files.find((f) => f.rel === hit.rel) as { rel: string; lines: string[] };
      const w = window({ lines: file.lines, cut: false }, hit.index + 1, 1, 600);
      snippets.push({ path: hit.rel, workspaceId: lockHome.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  // The settings the step ran with (settingReads.ts): the variables the failing file or its script reads or sets; a full disk's directory.
  const settingHome = failingWorkspace ?? options.workspaces[0];
  if (top && SCRIPT_CLASSES.has(top.class) && settingHome) {
    const readLines = async (rel: string): Promise<string[] | undefined> => ((f) => (f instanceof WorkspaceError || f.cut ? undefined : f.lines))(await reader.read(settingHome, rel));
    for (const hit of await settingHits({ files: await reader.index(settingHome), read: readLines }, lines, top, failing?.path, commandBefore(lines, top.message_line))) {
      const w = window({ lines: (await readLines(hit.rel)) ?? [], cut: false }, hit.index + 1, 2, 800);
      snippets.push({ path: hit.rel, workspaceId: settingHome.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  // A name the tool says is not defined, and the project's definition of a name like it (renamedName.ts): a rename that missed a use.
  const named = top ? undefinedNameOf(`${top.message}\n${failing?.message ?? ''}`) : undefined;
  const renamedHome = failingWorkspace ?? options.workspaces[0];
  if (named && renamedHome && !snippets.some((x) => (x.message ?? '').includes(` like ${named}`) || (x.message ?? '').includes(`${named}, the name the compiler could not find`))) {
    const files: { rel: string; lines: string[] }[] = [];
    for (const rel of (await reader.index(renamedHome)).filter((f) => !/(?:^|\/)(?:\.[\w-]+|node_modules|vendor|third_party)\//.test(f)).slice(0, 300)) {
      const f = await reader.read(renamedHome, rel);
      if (!(f instanceof WorkspaceError) && !f.cut && f.lines.length <= 5000) files.push({ rel, lines: f.lines });
    }
    for (const hit of renamedHits(files, named, failing?.line !== undefined && top?.location?.line !== undefined ? { rel: failing.path, line: failing.line } : undefined)) {
      const file = files.find((f) => f.rel === hit.rel) as { rel: string; lines: string[] };
      const w = window({ lines: file.lines, cut: false }, hit.index + 1, 1, 600);
      snippets.push({ path: hit.rel, workspaceId: renamedHome.workspaceId, startLine: w.startLine, endLine: w.endLine, text: maskSecrets(w.text), kind: 'source', line: hit.index + 1, message: `${CLUE_MARK}${hit.message}` });
    }
  }
  const script = await pipelineSnippet(reader, options, limits, scriptLines);
  if (script) snippets.push(script);
  else for (const loc of scriptLines) skipped.push({ path: loc.path, line: loc.line, reason: 'the pipeline script was not found' });
  return { snippets, skipped };
}

/**
 * The places the excerpts' findings name first (the tool's location, the deepest project
 * frame of a trace: a Go panic's or a Python traceback's raise site), then the other
 * locations the excerpts name, without repeats.
 */
function withFindingPlaces(excerpts: readonly LogExcerpt[], named: SourceLocation[]): SourceLocation[] {
  const out: SourceLocation[] = [];
  const seen = new Set<string>();
  const add = (loc: SourceLocation): void => {
    const key = `${loc.path}:${loc.line}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(loc);
  };
  for (const e of excerpts.slice(0, 2)) {
    const f = e.finding;
    if (!f || e.score <= 0) continue;
    const frames = f.location?.frames;
    const places = [f.location, frames?.project].filter((p): p is NonNullable<typeof p> => p !== undefined && p.line !== undefined && p.line > 0);
    for (const p of places) {
      const named1 = named.find((n) => n.path === p.file && n.line === p.line);
      add(named1 ?? { path: p.file, line: p.line as number, ...(p.column !== undefined ? { column: p.column } : {}), shape: 'other', logLine: p.log_line, message: f.message });
    }
  }
  for (const loc of named) add(loc);
  return out;
}

async function pipelineSnippet(
  reader: WorkspaceReader,
  options: CollectOptions,
  limits: SnippetLimits,
  named: readonly SourceLocation[],
): Promise<WorkspaceSnippet | undefined> {
  const pipeline = options.pipeline;
  if (!pipeline) return undefined;
  let file: ReadFile | undefined;
  let where: { path: string; workspaceId: string } | undefined;
  if (pipeline.inline !== undefined && pipeline.inline.trim() !== '') {
    const lines = pipeline.inline.split('\n').map((l) => l.replace(/\r$/, ''));
    file = { lines, cut: false };
    where = { path: PIPELINE_SCRIPT, workspaceId: 'job-config' };
  } else {
    const scriptPath = pipeline.scriptPath || 'Jenkinsfile';
    for (const workspace of options.workspaces) {
      try {
        relativePathSegments(scriptPath);
      } catch {
        return undefined;
      }
      const read = await reader.read(workspace, scriptPath);
      if (read instanceof WorkspaceError) continue;
      file = read;
      where = { path: scriptPath, workspaceId: workspace.workspaceId };
      break;
    }
  }
  if (!file || !where) return undefined;
  const first = named.find((loc) => loc.line <= file.lines.length);
  let startLine: number;
  let endLine: number;
  let text: string;
  if (first) {
    const w = window(file, first.line, Math.max(limits.contextLines, 8), limits.maxScriptChars);
    ({ startLine, endLine, text } = w);
  } else {
    startLine = 1;
    endLine = Math.min(file.lines.length, limits.maxScriptLines);
    text = file.lines.slice(0, endLine).join('\n');
    while (text.length > limits.maxScriptChars && endLine > 1) {
      endLine--;
      text = file.lines.slice(0, endLine).join('\n');
    }
  }
  if (file.lines.length === 0) return undefined;
  return {
    path: where.path,
    workspaceId: where.workspaceId,
    startLine,
    endLine,
    text: maskSecrets(text),
    kind: 'pipeline',
    ...(first ? { line: first.line, logLine: first.logLine, ...(first.message ? { message: maskSecrets(first.message).slice(0, 500) } : {}) } : {}),
  };
}

/**
 * The lines javac prints under `cannot find symbol` (the source line, its caret, `symbol:` and `location:`), up to the
 * next error: a place taken from the finding carries its first line only (fx12, gradle's `:compileJava` prefix).
 */
function symbolLinesBelow(lines: readonly string[], logLine: number): string {
  const below = lines.slice(logLine, logLine + 4);
  const next = below.findIndex((l) => /\berror\b/.test(l));
  return (next < 0 ? below : below.slice(0, next)).join('\n');
}
