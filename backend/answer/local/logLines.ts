/** Answers that show the log's own lines. */
import { cite, clip, storedLogSpan, inlineCode, linesOf, notKeptSentence, type LogSpan } from '../logtext.js';
import { type Composer, ReplyBuilder, type AnswerGroup } from './reply.js';
import { quote, hasLog, rankedErrorExcerpts } from './logHelpers.js';
import { findingFor } from './findingText.js';
import type { ChatContext } from '../engine.js';
import { noLogHint } from './noError.js';
import { buildLabel } from '../facts.js';

const MAX_QUOTED_LINES = 60;

/** "what does line 120 say", "show lines 40-50", "last 20 lines", "tail of the log". */
const logLines: Composer = async (ask) => {
  const { ctx, q } = ask;
  if (!hasLog(ctx)) {
    const hint = noLogHint(ask.ci, buildLabel(ask.ci, true));
    return { text: `The uploaded context holds no build log, so there are no lines to show.\n\n${hint.text}`, sources: hint.sources };
  }
  const total = ctx.logLineCount;
  const stored = storedLogSpan(ctx);
  let from: number;
  let to: number;
  const range = /\b(?:lines?|l)\s*#?(\d+)\s*(?:-|–|to|through|and|until|\.\.)\s*(?:lines?\s*|l)?(\d+)/.exec(q);
  const single = /\b(?:lines?|l)\s*#?(\d+)/.exec(q);
  const count = Number(/\b(\d+)\s+lines?\b|\blines?\s+(\d+)/.exec(q)?.slice(1).find(Boolean) ?? 10);
  const n = Math.min(Math.max(1, count), MAX_QUOTED_LINES);
  if (range) {
    from = Number(range[1]);
    to = Number(range[2]);
    if (to < from) [from, to] = [to, from];
  } else if (/\b(last|final|tail|end|bottom)\b/.test(q)) {
    from = total - n + 1;
    to = total;
  } else if (/\b(first|head|start|beginning|top)\b/.test(q)) {
    from = 1;
    to = n;
  } else if (single) {
    from = Number(single[1]);
    to = from;
  } else {
    from = total - 9;
    to = total;
  }
  from = Math.max(1, from);
  if (from > total) return { text: `The log has only **${total} lines**, so there is no line ${from}.`, sources: [] };
  to = Math.min(total, to, from + MAX_QUOTED_LINES - 1);
  let span = stored ? linesOf(stored, from, to) : undefined;
  // Outside the tail held in memory: the stored log (the bounded store keeps a big log's head, its
  // failing steps and excerpts too), its lines from `from` on as far as they run without a gap.
  let gap: string | undefined;
  if (!span && ctx.readLines) {
    const rows = await ctx.readLines(from, to);
    let end = 0;
    while (end < rows.length && rows[end]?.n === from + end) end++;
    if (end > 0) {
      span = { start_line: from, end_line: from + end - 1, text: rows.slice(0, end).map((r) => r.text).join('\n') };
      if (from + end - 1 < to) gap = `Lines ${from + end}-${to} are not in the stored log.`;
      to = from + end - 1;
    }
  }
  if (!span) {
    const notKept = ctx.logNotKept?.ranges.find(([a, b]) => a <= from && b >= from);
    if (notKept && ctx.logNotKept) return { text: `Line ${from} is not in this chat's copy of the log. ${notKeptSentence(ctx.logNotKept)}`, sources: [] };
    const kept = stored && !ctx.readLines ? `: it keeps lines ${stored.start_line}-${stored.end_line} of ${total}` : '';
    return { text: `Lines ${from}-${to} are not in the part of the log this chat can quote${kept}.`, sources: [] };
  }
  const out = new ReplyBuilder();
  if (from === to) {
    const text = span.text.trim();
    out.line(text ? `Line ${from} ${cite(span)} reads: ${inlineCode(clip(text, 300))}` : `Line ${from} ${cite(span)} is empty.`);
    out.log(span);
    // A line alone rarely makes sense: a few lines around it.
    const around = linesOf(stored as LogSpan, Math.max(stored?.start_line ?? 1, from - 2), Math.min(stored?.end_line ?? to, to + 2));
    if (around && around.end_line > around.start_line) {
      out.line();
      quote(out, around, 5);
    }
    // "line 13" right after an answer naming `src/ring.c:13`: the user may mean the source line (ux5).
    const named = /\blog\b/i.test(q) ? undefined : sourceLineNamed(ctx, from);
    if (named) {
      out.log({ start_line: named.logLine, end_line: named.logLine });
      out.line();
      out.line(`If you meant line ${from} of ${inlineCode(named.file)}, the line the error names ${cite({ start_line: named.logLine, end_line: named.logLine })}: ask *how do I fix it?*, which quotes it from the workspace when the context holds it.`);
    }
  } else {
    out.line(to === total && !range ? `The end of the log (lines ${from}-${to} of ${total}):` : `Lines ${from}-${to} of ${total}:`);
    out.line();
    quote(out, span, MAX_QUOTED_LINES);
  }
  if (gap) {
    out.line();
    out.line(gap);
  }
  return out.reply();
};

/** The source file the first failure names at line `n` (its finding's place), with the log line naming it. */
function sourceLineNamed(ctx: ChatContext, n: number): { file: string; logLine: number } | undefined {
  const top = rankedErrorExcerpts(ctx)[0];
  if (!top) return undefined;
  const loc = findingFor(ctx, top).location;
  return loc && loc.line === n ? { file: loc.file, logLine: loc.log_line } : undefined;
}

export const logLineAnswers: AnswerGroup = { name: 'logLines', composers: { logLines } };
