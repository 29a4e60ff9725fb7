/**
 * Answers from the workspace snippets of the context (issue 17): the failing line of the source
 * for "how do I fix it?", and "show me <file>" / "show me the Jenkinsfile".
 */
import type { CiContext, Source, WorkspaceSnippet } from '../../../protocol/types.js';
import { locationsInSpan, PIPELINE_SCRIPT } from '../../../core/log/locations.js';
import { missingSymbolOf, similarIdentifiers, typeMismatchOf } from '../../../core/log/symbols.js';
import { buildLabel } from '../facts.js';
import { inlineCode, type LogSpan } from '../logtext.js';
import { ReplyBuilder, type AnswerGroup, type Ask, type Composer, type Reply } from './reply.js';

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

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

function languageOf(p: string): string {
  if (p === PIPELINE_SCRIPT || /Jenkinsfile/.test(p) || p.endsWith('.groovy')) return 'groovy';
  const ext = /\.([A-Za-z0-9]+)$/.exec(p)?.[1]?.toLowerCase() ?? '';
  const map: Record<string, string> = { java: 'java', kt: 'kotlin', kts: 'kotlin', ts: 'ts', tsx: 'tsx', js: 'js', jsx: 'jsx', mjs: 'js', py: 'python', go: 'go', rs: 'rust', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', cs: 'csharp', rb: 'ruby', scala: 'scala', swift: 'swift' };
  return map[ext] ?? 'text';
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
export function similarNames(missing: string, snippets: readonly WorkspaceSnippet[], max = 3): { name: string; snippet: WorkspaceSnippet; line: number }[] {
  const found: { name: string; snippet: WorkspaceSnippet; line: number; score: number }[] = [];
  for (const s of snippets) {
    for (const hit of similarIdentifiers(missing, s.text.split('\n'), max)) {
      if (!found.some((f) => f.name === hit.name)) found.push({ name: hit.name, snippet: s, line: s.startLine + hit.index, score: hit.score });
    }
  }
  return found.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, max);
}

/** The snippet the top failure points at: its named line is among the excerpt's locations, else the first one named. */
function snippetForFailure(snippets: readonly WorkspaceSnippet[], spans: readonly LogSpan[]): WorkspaceSnippet | undefined {
  const named = snippets.filter((s) => posInt(s.line));
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

/** `cichat ws cat` for a path of this build, with what the context knows of job and build. */
function fetchCommand(ci: CiContext, filePath: string, workspaceId?: string): string {
  const job = ci.jobDetails?.fullName ?? ci.jobDetails?.name;
  const build = ci.buildDetails?.number;
  const ws = workspaceId && workspaceId !== 'ws-default' && workspaceId !== 'local' && workspaceId !== 'job-config' ? ` --workspace ${workspaceId}` : '';
  return inlineCode(`cichat ws cat ${job ?? 'JOB'} ${build ?? 'BUILD'} ${filePath}${ws}`);
}

/**
 * The failing source for a failure answer: the named line quoted with the lines around it
 * (marked), file and line named, and the fix the error suggests. Undefined when the context
 * holds no snippet for it (then `missingSourceHint` tells how to fetch it).
 */
export function failingSource(ask: Ask, spans: readonly LogSpan[], headline?: string): Reply | undefined {
  const snippets = snippetsOf(ask.ci);
  const s = snippetForFailure(snippets, spans);
  if (!s || !posInt(s.line)) return undefined;
  const out = new ReplyBuilder();
  const at = `${s.path === PIPELINE_SCRIPT ? 'WorkflowScript' : s.path}:${s.line}`;
  out.line(`**In the source:** ${inlineCode(at)}${s.workspaceId && s.workspaceId !== 'job-config' ? ` (workspace ${inlineCode(s.workspaceId)})` : ''}${s.path === PIPELINE_SCRIPT ? ', the pipeline script in the job\'s configuration' : ''}, line ${s.line} marked:`);
  out.line(numbered(s, s.line, 15));
  out.source(fileSource(s));
  const message = [s.message ?? '', headline ?? '', ...spans.slice(0, 2).map((x) => x.text)].join('\n');
  const fix = fixFor(message, s, snippets, out);
  if (fix) out.line(`**Fix:** ${fix}`);
  return out.reply();
}

function fixFor(message: string, s: WorkspaceSnippet, snippets: readonly WorkspaceSnippet[], out: ReplyBuilder): string | undefined {
  const code = lineOf(s, s.line ?? 0)?.trim();
  const where = `line ${s.line} of ${place(s)}`;
  const missing = missingSymbolOf(message);
  if (missing) {
    const suggested = /Did you mean '([\w$]+)'\?/.exec(message)?.[1];
    const similar = similarNames(missing, snippets);
    for (const x of similar) if (x.snippet !== s) out.source(fileSource(x.snippet));
    if (suggested) return `${inlineCode(missing)} does not exist where ${where} uses it; the compiler suggests ${inlineCode(suggested)}.`;
    if (similar.length > 0) {
      const names = similar.map((x) => `${inlineCode(x.name)} (${x.snippet.path === s.path ? '' : `${x.snippet.path} `}line ${x.line})`).join(', ');
      return `${inlineCode(missing)} is not defined where ${where} uses it. Similar names in the source I can see: ${names}. Use the one you meant, or declare ${inlineCode(missing)} (or add its import).`;
    }
    return `${inlineCode(missing)} is not defined where ${where} uses it, and no similar name is in the source the context holds: declare it, add its import or dependency, or fix the spelling.`;
  }
  const types = typeMismatchOf(message);
  if (types) {
    return `${where}${code ? ` (${inlineCode(code)})` : ''} gives a ${inlineCode(types.found)} where a ${inlineCode(types.required)} is needed: convert the value, or change the declared type to ${inlineCode(types.found)}.`;
  }
  const assertion = /expected:? ?<(.+?)> but was:? ?<(.+?)>/.exec(message) ?? /Expected:?\s+(.+?)\s*\n\s*Received:?\s+(.+)/.exec(message) ?? /assert (.+?) == (.+)/.exec(message);
  if (assertion) {
    const subject = snippets.find((x) => x.message === `code under test of ${s.path}`);
    if (subject) out.source(fileSource(subject));
    const look = subject ? ` The code under test is ${inlineCode(subject.path)} (ask *show me ${baseName(subject.path)}*).` : '';
    return `the assertion at ${where} expects ${inlineCode(assertion[1] ?? '')} but the code returned ${inlineCode(assertion[2] ?? '')}. Decide which is right: if the expectation is, fix the code under test; if the behaviour changed on purpose, update the test.${look}`;
  }
  if (isPipeline(s)) return `correct ${where} of the pipeline script as the error says, then replay the build (Replay on the build's page lets you try the edit without a commit).`;
  return `change ${where} as the error says${code ? ` (${inlineCode(code)})` : ''}, then re-run the build.`;
}

/** For a failure whose log names a file:line the context holds no source of: how to fetch it. */
export function missingSourceHint(ask: Ask, spans: readonly LogSpan[]): Reply | undefined {
  for (const span of spans.slice(0, 2)) {
    const loc = locationsInSpan(span, 1)[0];
    if (!loc) continue;
    const out = new ReplyBuilder();
    const path = loc.path === PIPELINE_SCRIPT ? 'Jenkinsfile' : loc.path;
    out.line(`The log names ${inlineCode(`${loc.path}:${loc.line}`)}; the uploaded context holds no copy of that source. To see it: ${fetchCommand(ask.ci, path)}.`);
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
    out.line(`The uploaded context holds no copy of ${what} of ${build}. To see it from the workspace: ${fetchCommand(ask.ci, path)} (${inlineCode(`cichat ws tree ${ask.ci.jobDetails?.fullName ?? 'JOB'} ${ask.ci.buildDetails?.number ?? 'BUILD'}`)} lists the files).`);
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
