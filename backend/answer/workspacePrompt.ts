/**
 * The workspace snippets of the context (issue 17) as a section of the `openai` engine's system
 * prompt: the source around the lines the failure names and the pipeline script, numbered, the
 * named line marked, within a token budget (snippets in upload order; one that does not fit is
 * left out whole).
 */
import type { Source, WorkspaceSnippet } from '../../protocol/types.js';
import { workspaceSnippetSchema } from '../../protocol/schemas.js';
import type { ChatContext } from './engine.js';
import { estimateTokens } from './prompt.js';

function validSnippets(context: ChatContext | null): WorkspaceSnippet[] {
  const raw = context?.ciContext.workspaceSnippets;
  if (!Array.isArray(raw)) return [];
  // Uploads are checked with this schema; a context stored before it may hold anything.
  return raw.filter((s: unknown): s is WorkspaceSnippet => workspaceSnippetSchema.safeParse(s).success);
}

function render(s: WorkspaceSnippet): string {
  const lines = s.text.split('\n');
  const width = String(s.startLine + lines.length - 1).length;
  const what = s.path === 'WorkflowScript' && s.workspaceId === 'job-config' ? "the pipeline script (inline in the job's configuration)" : s.path;
  const note = [s.kind === 'pipeline' ? 'pipeline script' : '', typeof s.logLine === 'number' ? `named by log line ${s.logLine}` : '', s.message ? s.message.replace(/\s+/g, ' ').slice(0, 200) : ''].filter(Boolean).join('; ');
  const body = lines.map((l, i) => `${s.startLine + i === s.line ? '>' : ' '}${String(s.startLine + i).padStart(width)}| ${l}`);
  return `--- ${what}, lines ${s.startLine}-${s.startLine + lines.length - 1}${note ? ` (${note})` : ''}\n${body.join('\n')}`;
}

/** The section and the file sources it holds; empty when the context has no snippets or none fits. */
export function workspaceSection(context: ChatContext | null, maxTokens: number): { text: string; sources: Source[] } {
  const parts: string[] = [];
  const sources: Source[] = [];
  const header = "## Source from the build's workspace (secrets masked; `>` marks the line the log names, or in a snippet noted `clue:` the workspace line that names what failed, found by text; cite as path:line)";
  let used = estimateTokens(header) + 2;
  for (const s of validSnippets(context)) {
    const block = render(s);
    const cost = estimateTokens(block) + 1;
    if (used + cost > maxTokens) continue;
    used += cost;
    parts.push(block);
    sources.push({ kind: 'file', path: s.path, start_line: s.startLine, end_line: s.endLine });
  }
  return parts.length === 0 ? { text: '', sources: [] } : { text: `${header}\n${parts.join('\n')}`, sources };
}
