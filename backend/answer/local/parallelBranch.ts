/**
 * A question about a parallel branch of the Pipeline ("did the syntax branch fail too?"), not the
 * git branch the build checked out (ux12, perl-invoice). Jenkins opens each branch with
 * `[Pipeline] { (Branch: X)` and prints `Failed in branch X` for each branch that failed.
 */
import { cite, inlineCode, type LogSpan } from '../logtext.js';
import { unstamped } from '../pipelineText.js';
import { ReplyBuilder, type Reply } from './reply.js';

const OPEN = /^\[Pipeline\] (?:\[[^\]\n]+\] )?\{ \(Branch: (.+)\)\s*$/;
const FAILED = /^(?:\[[^\]\n]+\] )?Failed in branch (.+?)\s*$/;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The answer when `q` names a parallel branch of the stored log, else undefined. */
export function parallelBranchReply(q: string, stored: LogSpan | undefined): Reply | undefined {
  if (!stored || !stored.text.includes('(Branch: ')) return undefined;
  const opened = new Map<string, number>();
  const failed = new Map<string, number>();
  stored.text.split('\n').forEach((raw, i) => {
    const line = unstamped(raw);
    const o = OPEN.exec(line)?.[1];
    if (o !== undefined && !opened.has(o)) opened.set(o, stored.start_line + i);
    const f = FAILED.exec(line)?.[1];
    if (f !== undefined && !failed.has(f)) failed.set(f, stored.start_line + i);
  });
  const named = [...opened.keys()].find((b) => new RegExp(`(?:^|[^\\w-])${escape(b)}(?:$|[^\\w-])`, 'i').test(q));
  if (named === undefined) return undefined;
  const out = new ReplyBuilder();
  const openedAt = opened.get(named) as number;
  const failedAt = failed.get(named);
  out.log({ start_line: openedAt, end_line: openedAt });
  if (failedAt !== undefined) {
    out.log({ start_line: failedAt, end_line: failedAt });
    out.line(`**Yes: parallel branch ${inlineCode(named)} failed** ${cite({ start_line: openedAt, end_line: openedAt })}: Jenkins says \`Failed in branch ${named}\` ${cite({ start_line: failedAt, end_line: failedAt })}.`);
    return out.reply();
  }
  const others = [...failed].map(([b, n]) => {
    out.log({ start_line: n, end_line: n });
    return `${inlineCode(b)} ${cite({ start_line: n, end_line: n })}`;
  });
  out.line(
    `**Parallel branch ${inlineCode(named)} did not fail** ${cite({ start_line: openedAt, end_line: openedAt })}: Jenkins prints \`Failed in branch NAME\` for each parallel branch that failed, and this log ` +
      (others.length > 0 ? `names only ${others.join(', ')}.` : 'names none.'),
  );
  return out.reply();
}
