/**
 * Questions about one side of the failure that the whole "why did it fail?" answer buries
 * (helper qa, issue 25): "show me the stack trace" is the trace, from the message to its last
 * frame, with where it was raised; "what does this error mean?" is the meaning first, with what
 * that error usually asks for. Both say only what the finding and the log hold; without frames
 * (a compiler's error) or without a class the failure answer answers as before.
 */
import { cite, clip, inlineCode, logReadWords, storedLogSpan, withoutStamp, type LogSpan } from '../logtext.js';
import { ERROR_CODE } from '../intents.js';
import type { ChatContext } from '../engine.js';
import type { Finding } from '../../../protocol/types.js';
import { citeMessage, meaningOf, toolShown, traceSentence } from './findingText.js';
import { classHedge } from './likely.js';
import { exceptionHint } from './exceptions.js';
import { isJvmLinkage } from './jvmResolve.js';
import { isConsequenceOnly, lineTextOf, quote } from './logHelpers.js';
import { ReplyBuilder, type Reply } from './reply.js';

/** "Show me the stack trace", "the traceback", "the backtrace". */
export const TRACE_QUESTION = /\b(stack ?traces?|tracebacks?|backtraces?|call stack)\b/i;

/** "What does this error mean?", "explain the error", "what is the meaning of this exception?" */
export const MEANING_QUESTION =
  /\bwhat (?:does|do) (?:this|the|that|these|those|it)\b(?: (?:error|exception|panic|failure|message)s?)?(?: message)? mean\b|\bmeaning of (?:the|this|that) (?:error|exception|panic|message)\b|\bexplain (?:the|this|that) (?:error|exception|panic|message)\b/i;

/**
 * A frame line that may follow an excerpt cut inside a long trace: a JVM/.NET/Node `at` frame,
 * `... N more`, `Caused by:`, Python's `File "x", line N`, a Go `file.go:N +0x` frame, a
 * gdb/sanitizer `#N 0x` frame.
 */
const TRACE_LINE = /^\s+at \S|^\s*\.\.\. \d+ more|^\s*Caused by: |^\s*File "[^"]+", line \d+|\.go:\d+ \+0x|^\s*#\d+ 0x[0-9a-f]+/;

/** The trace around the finding: the top excerpt, then the frames the log prints right after it. */
function traceSpan(ctx: ChatContext, top: LogSpan, found: Finding): LogSpan {
  const text = lineTextOf(ctx, top);
  const start = Math.min(top.start_line, found.message_line);
  let end = Math.max(top.end_line, found.message_line);
  // An excerpt may stop inside a long JVM trace: the frames below it belong to it.
  for (let n = end + 1; n <= end + 60; n++) {
    const raw = text(n);
    const line = raw === undefined ? undefined : withoutStamp(raw);
    if (line === undefined || !TRACE_LINE.test(line)) break;
    end = n;
  }
  const lines: string[] = [];
  for (let n = start; n <= end; n++) {
    const line = text(n);
    if (line === undefined) return top;
    lines.push(line);
  }
  return { start_line: start, end_line: end, text: lines.join('\n') };
}

/** Whether the log printed frames for the finding: the finding holds them, or the excerpt shows them. */
export function hasTrace(found: Finding, top: LogSpan): boolean {
  return found.location?.frames !== undefined || top.text.split('\n').some((l) => /^\s+at \S|^\s*File "[^"]+", line \d+|\.go:\d+ \+0x|^\s*#\d+ 0x[0-9a-f]+/.test(l));
}

/** "Show me the stack trace": where it was raised, then the trace itself; undefined without frames. */
function traceAnswer(ctx: ChatContext, top: LogSpan, found: Finding): Reply | undefined {
  if (!hasTrace(found, top)) return undefined;
  const out = new ReplyBuilder();
  const span = traceSpan(ctx, top, found);
  // Without an exception type the trace is the log's, printed around the message: not "the trace of" a message.
  out.line(
    found.exception
      ? `**The stack trace of ${inlineCode(found.exception)}** ${cite(span)}: ${inlineCode(clip(found.message))} ${citeMessage(found, lineTextOf(ctx, top))}`
      : `**The stack trace the log prints around ${inlineCode(clip(found.message, 80))}** ${citeMessage(found, lineTextOf(ctx, top))}:`,
  );
  out.log({ start_line: found.message_line, end_line: found.message_line });
  const where = traceSentence(found);
  if (where) out.line(where);
  if (found.test) {
    out.line(`The test that ran it is ${inlineCode(found.test.name)} ${cite({ start_line: found.test.log_line, end_line: found.test.log_line })}.`);
    out.log({ start_line: found.test.log_line, end_line: found.test.log_line });
  }
  out.line();
  quote(out, span, 40);
  out.line();
  out.line(`Ask *how do I fix it?* for the remedy${found.location?.line !== undefined ? ' and the source line' : ''}.`);
  return out.reply();
}

/** "What does this error mean?": the meaning first, what such an error usually asks for, the lines. */
function meaningAnswer(ctx: ChatContext, top: LogSpan, found: Finding): Reply | undefined {
  if (found.class === 'unknown') return undefined;
  const out = new ReplyBuilder();
  const lineText = lineTextOf(ctx, top);
  out.line(`**What ${inlineCode(clip(found.message))} ${citeMessage(found, lineText)} means:** ${meaningOf(toolShown(found, ctx), lineText)}${classHedge(found) ? ` ${classHedge(found) as string}` : ''}`);
  out.log({ start_line: found.message_line, end_line: found.message_line });
  for (const n of found.evidence) out.log({ start_line: n, end_line: n });
  const hint = found.class === 'test-error' || found.class === 'runtime-exception' || isJvmLinkage(found) ? exceptionHint(found) : undefined;
  if (hint) {
    out.line();
    out.line(`**What this error usually asks for:** ${hint}`);
  }
  out.line();
  quote(out, top, 15);
  out.line();
  out.line('Ask *how do I fix it?* for the remedy for this build, and *where is the error?* for the source line.');
  return out.reply();
}

/** "What does ENOENT mean?": an error code, as intents.ts marks it (one at a time, not global). */
const CODE_ASKED = new RegExp(ERROR_CODE.source);

/**
 * A question naming an error code (`ERR_PACKAGE_PATH_NOT_EXPORTED`, `ENOENT`): where the log prints it. In the
 * first error: the meaning answer (or the whole diagnosis); elsewhere: that line, said not to be the first error;
 * nowhere: that this log does not print it (ux14; rv1's item 4).
 */
function codeAnswer(question: string, ctx: ChatContext, top: LogSpan, found: Finding): Reply | undefined {
  const code = CODE_ASKED.exec(question)?.[0];
  if (code === undefined) return undefined;
  const word = new RegExp(`(?<![\\w-])${code}(?![\\w-])`);
  const lineText = lineTextOf(ctx, top);
  if (word.test(top.text) || word.test(found.message)) return meaningAnswer(ctx, top, found);
  const stored = storedLogSpan(ctx);
  const lines = stored ? stored.text.split('\n') : [];
  const at = lines.findIndex((l) => l.includes(code) && word.test(l));
  const out = new ReplyBuilder();
  out.log({ start_line: found.message_line, end_line: found.message_line });
  const first = `${found.class === 'unknown' ? 'the first line that looks like an error' : 'the first error'} is ${citeMessage(found, lineText)}: ${inlineCode(clip(found.message))}`;
  if (!stored || at < 0) {
    // Of a stored tail, only the lines held are known not to print it.
    const read = stored ? logReadWords(ctx, stored) : undefined;
    const subject = read === undefined ? 'The log text this chat holds does not show' : read === 'the log' ? 'This log does not print' : `${read.charAt(0).toUpperCase()}${read.slice(1)} does not print`;
    out.line(`**${subject} ${inlineCode(code)}**, so it does not say what ${inlineCode(code)} had to do with this build; ${first}.`);
    return out.reply();
  }
  const n = stored.start_line + at;
  out.log({ start_line: n, end_line: n });
  out.line(`**${inlineCode(code)} is printed at ${cite({ start_line: n, end_line: n })}:** ${inlineCode(clip(withoutStamp(lines[at] as string).trim()))}`);
  out.line(`That line is not the failure I found first: ${first}. Ask *why did it fail?* for that one.`);
  return out.reply();
}

/** The answer to a question about the trace or the meaning of the first error, when it has one of its own. */
export function focusedAnswer(question: string, ctx: ChatContext, top: LogSpan, found: Finding): Reply | undefined {
  const code = codeAnswer(question, ctx, top, found);
  if (code) return code;
  if (TRACE_QUESTION.test(question)) return traceAnswer(ctx, top, found);
  if (MEANING_QUESTION.test(question)) return meaningAnswer(ctx, top, found);
  return undefined;
}

/**
 * The step an answer's "Next step" gives: the class's first remedy step, unless it only restates
 * the diagnosis the answer just gave (a failed check's expected and actual values; "fix the cause
 * of X at P: message" when a hint for that error follows): then the step after it.
 */
export function nextStep(f: Finding, steps: readonly string[]): string | undefined {
  const [first, second] = steps;
  if (second === undefined) return first;
  if (f.class === 'test-assertion' && f.expected !== undefined && f.actual !== undefined) return second;
  if ((f.class === 'test-error' || f.class === 'runtime-exception' || isJvmLinkage(f)) && exceptionHint(f) === second) return `${first} ${second}`;
  return first;
}

/**
 * The excerpt to quote under a headline: the top excerpt, grown to the finding's message line
 * when that line sits just outside it (make's `No rule to make target` above the CI's `exit code 2`
 * excerpt), so that the quote holds the line the headline cites.
 */
export function spanWithMessage(ctx: ChatContext, top: LogSpan, found: Finding): LogSpan {
  const n = found.message_line;
  if (n >= top.start_line && n <= top.end_line) return top;
  const text = lineTextOf(ctx, top);
  // A verdict alone (`ERROR: script returned exit code 1` at a Pipeline's end) whose finding was read further up (a
  // failed parallel branch's last output, ux14): the lines that say why, not the verdict again.
  if ((n < top.start_line - 8 || n > top.end_line + 8) && isConsequenceOnly(top.text)) return around(text, n) ?? top;
  if (n < top.start_line - 8 || n > top.end_line + 8) return top;
  const start = Math.min(n, top.start_line);
  const end = Math.max(n, top.end_line);
  const lines: string[] = [];
  for (let i = start; i <= end; i++) {
    const line = text(i);
    if (line === undefined) return top;
    lines.push(line);
  }
  return { ...top, start_line: start, end_line: end, text: lines.join('\n') };
}

/** Line `n` with up to four lines above it and one below, as the stored log holds them (blank edges dropped). */
function around(text: (n: number) => string | undefined, n: number): LogSpan | undefined {
  if (text(n) === undefined) return undefined;
  let start = n;
  while (start > n - 4 && start > 1 && text(start - 1) !== undefined) start--;
  let end = n + 1;
  if (text(end) === undefined || (text(end) as string).trim() === '') end = n;
  while (start < n && (text(start) as string).trim() === '') start++;
  const lines: string[] = [];
  for (let i = start; i <= end; i++) lines.push(text(i) as string);
  return { start_line: start, end_line: end, text: lines.join('\n') };
}
