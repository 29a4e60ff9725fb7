/**
 * The checkout's change (`workspaceChanges`, read with git where the build's files are) as structured facts for the
 * `openai` engine's system prompt (session 53): the range and how it was chosen, the commits with their files, and
 * the changed lines that touch what the top finding names (its line, its file, the frames beside it, a code name its
 * message quotes), picked by the same reader as the offline fix answer (local/changeDiff.ts), so both engines point at
 * the same lines. When no changed line touches what the error names, the section says so, so a model is not led to
 * blame the change.
 */
import type { Finding, Source } from '../../protocol/types.js';
import type { ChatContext } from './engine.js';
import { estimateTokens } from './prompt.js';
import { blocksOf, blocksTheErrorNames, changesNotReadStep, changesOf, headWords, type ChangedBlock, type ChangePlaces } from './local/changeDiff.js';
import { findingFor } from './local/findingText.js';
import { clip } from './logtext.js';

const MAX_COMMITS_SHOWN = 10;
const MAX_BLOCK_LINES = 12;

/** The finding of the top excerpt, new ones first (the order of the prompt's Findings section). */
function topFinding(context: ChatContext): Finding | undefined {
  const excerpts = context.failureExcerpts.filter((e) => e.score > 0 && e.reason !== 'no failure found');
  const top = excerpts.find((e) => e.new_since_baseline !== false) ?? excerpts[0];
  return top ? findingFor(context, top) : undefined;
}

/** The places a finding names, as the fix answer passes them: its file and line, the raise site and the project frame. */
function placesOf(f: Finding): ChangePlaces {
  const frames = [f.location?.frames?.project, f.location?.frames?.raise].flatMap((x) => (x ? [{ path: x.file, why: 'on the stack of the error' }] : []));
  return { located: f.location ? { path: f.location.file, line: f.location.line } : undefined, named: frames };
}

/** A block's lines as a unified diff's, at most `MAX_BLOCK_LINES`. */
function diffLines(b: ChangedBlock): string[] {
  const all = [...b.removed.map((l) => `-${l}`), ...b.added.map((l) => `+${l}`)];
  // Indentation kept (a diff's own); a long line cut at 200 characters.
  const shown = all.slice(0, MAX_BLOCK_LINES).map((l) => `    ${l.length > 200 ? `${l.slice(0, 199)}…` : l}`);
  return all.length > MAX_BLOCK_LINES ? [...shown, `    (${all.length - MAX_BLOCK_LINES} more changed lines)`] : shown;
}

/** The section and its source (the context field); empty when the context has no `workspaceChanges` or it does not fit. */
export function workspaceChangesSection(context: ChatContext | null, maxTokens: number): { text: string; sources: Source[] } {
  const w = context ? changesOf(context.ciContext) : undefined;
  const notRead = context && !w ? changesNotReadStep(context.ciContext) : undefined;
  if (context && notRead && estimateTokens(notRead) + 20 <= maxTokens) {
    return { text: `## The checkout's change (context field workspaceChangesNotRead)\n${notRead.replace(/\*\*/g, '')}`, sources: [{ kind: 'context', field: 'workspaceChangesNotRead' }] };
  }
  if (!context || !w) return { text: '', sources: [] };
  const count = w.commits.length + (w.moreCommits ?? 0);
  const lines: string[] = [
    "## The checkout's change (context field workspaceChanges, read with git in the build's checkout; it shows what changed, not that the change caused the failure: say it caused it only where a changed line below is the error's own line, and cite it as `workspaceChanges`)",
    w.range === 'since-green'
      ? `- Range: since the last green build, ${w.base.slice(0, 10)}..${w.head.slice(0, 10)} (${count} commit${count === 1 ? '' : 's'})`
      : `- Range: the checkout's last commit ${w.head.slice(0, 10)} only (the last green build's commit is not known)`,
    ...(w.headFrom === 'workspace-head' ? [`- Head:${headWords(context.ciContext, w).replace(/`/g, '').replace(/^ \((.*)\)$/, ' $1')}`] : []),
  ];
  const f = topFinding(context);
  const { picked } = f ? blocksTheErrorNames(w, f, placesOf(f)) : { picked: [] };
  if (f && picked.length > 0) {
    lines.push('- Changed lines that touch what finding 1 names:');
    for (const { b, where } of picked) lines.push(`  - ${where.replace(/`/g, '')} (commit ${b.commitId.slice(0, 10)}):`, ...diffLines(b));
  } else if (f) {
    const named = [f.location?.file, f.location?.frames?.project?.file, f.location?.frames?.raise?.file].filter((x): x is string => typeof x === 'string');
    lines.push(`- No changed line touches what finding 1 names (${[...new Set(named)].slice(0, 3).join(', ') || 'no file of the checkout'}, nor a code name its message quotes): nothing here shows the change caused it.`);
  }
  for (const c of w.commits.slice(0, MAX_COMMITS_SHOWN)) {
    const files = (c.files ?? []).slice(0, 8).join(', ');
    lines.push(`- Commit ${c.commitId.slice(0, 10)} "${clip((c.message ?? '').split('\n')[0] ?? '', 100)}"${c.author ? ` by ${c.author}` : ''}${files ? `; files: ${files}${(c.files ?? []).length > 8 ? `, and ${(c.files ?? []).length - 8} more` : ''}` : ''}`);
  }
  if (w.commits.length > MAX_COMMITS_SHOWN || (w.moreCommits ?? 0) > 0) lines.push(`- and ${count - Math.min(w.commits.length, MAX_COMMITS_SHOWN)} more commits`);
  const shown = new Set(picked.map((x) => x.b.path));
  const rest = [...new Set(w.diffs.filter((d) => !shown.has(d.path) && blocksOf(d).length > 0).map((d) => d.path))];
  if (rest.length > 0) lines.push(`- Other files with changed lines (not shown): ${rest.slice(0, 8).join(', ')}${rest.length > 8 ? ` and ${rest.length - 8} more` : ''}`);
  // Cut from the end (other files, then the commit list's tail), never past the range line.
  while (lines.length > 2 && estimateTokens(lines.join('\n')) > maxTokens) lines.pop();
  if (estimateTokens(lines.join('\n')) > maxTokens) return { text: '', sources: [] };
  return { text: lines.join('\n'), sources: [{ kind: 'context', field: 'workspaceChanges' }] };
}
