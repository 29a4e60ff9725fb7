/** Facts Jenkins prints in every console log, read when the upload lacks the field itself. */
import type { CiContext } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { cite, clip, inlineCode, type LogSpan } from '../logtext.js';
import type { Reply } from './reply.js';
import { hasLog, findInLog } from './logHelpers.js';

/** Facts Jenkins prints in every console log, used when the upload lacks the field itself. */
const LOG_FACTS: { field: 'result' | 'causes' | 'builtOnNode'; pattern: RegExp; query: string; fromEnd?: boolean }[] = [
  { field: 'result', pattern: /^Finished: (SUCCESS|FAILURE|UNSTABLE|ABORTED|NOT_BUILT)\s*$/, query: 'Finished:', fromEnd: true },
  { field: 'causes', pattern: /^(Started by .+|Triggered by .+|Branch indexing|Push event to branch .+)$/, query: 'Started by' },
  {
    field: 'builtOnNode',
    pattern: /^(?:Running on (\S+) in \S|Building remotely on (\S+)|Building on (?:the )?(built-in node|master|controller)\b|Running on (Jenkins|the built-in node)\b)/,
    query: 'Running on Building remotely on',
  },
];

/**
 * Fills the result, causes and node from the log when the upload holds only a log: the nearest
 * fact to the one asked. Returns the lines they were read from, to cite.
 */
export async function factsFromLog(ci: CiContext, ctx: ChatContext): Promise<{ ci: CiContext; lines: Map<string, LogSpan> }> {
  const lines = new Map<string, LogSpan>();
  const details = { ...(ci.buildDetails ?? {}) };
  if (!hasLog(ctx)) return { ci, lines };
  for (const fact of LOG_FACTS) {
    if (details[fact.field] !== undefined) continue;
    const hit = await findInLog(ctx, fact.pattern, fact.query, fact.fromEnd);
    if (!hit) continue;
    if (fact.field === 'result') details.result = hit.match[1] as string;
    else if (fact.field === 'causes') details.causes = [{ shortDescription: hit.match[1] as string }];
    else {
      const node = hit.match[1] ?? hit.match[2] ?? hit.match[3] ?? hit.match[4] ?? '';
      details.builtOnNode = /^(built-in node|master|controller|Jenkins|the built-in node)$/.test(node) ? '' : node;
    }
    lines.set(`buildDetails.${fact.field}`, hit);
  }
  return lines.size > 0 ? { ci: { ...ci, buildDetails: details }, lines } : { ci, lines };
}

/** Tool-reported durations ("BUILD FAILED in 14s", "Total time: 01:02 min") for when the build's own is missing. */
export const TOOL_DURATION = /^(?:BUILD (?:FAILED|SUCCESSFUL) in (.+)|\[INFO\] Total time:\s+(.+)|Done in (\S+)\.?|Finished in (.+)|Ran \d+ tests? in (\S+))\s*$/;

/** A reply that states a fact read from the log cites the log line instead of a context field. */
export function citeLogFacts(reply: Reply, lines: Map<string, LogSpan>): Reply {
  const used = [...lines.entries()].filter(([field]) => reply.sources.some((s) => s.kind === 'context' && s.field === field));
  if (used.length === 0) return reply;
  const notes = used.map(([, span]) => `${cite(span)} ${inlineCode(clip(span.text, 120))}`);
  return {
    text: `${reply.text}\n\n*Read from the log (the upload holds no build facts for it):* ${notes.join(' · ')}`,
    sources: [
      ...reply.sources.filter((s) => !(s.kind === 'context' && lines.has(s.field))),
      ...used.map(([, span]) => ({ kind: 'log' as const, start_line: span.start_line, end_line: span.end_line })),
    ],
  };
}

