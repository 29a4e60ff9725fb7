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
  const named = [...opened.keys()].filter((b) => new RegExp(`(?:^|[^\\w-])${escape(b)}(?:$|[^\\w-])`, 'i').test(q));
  if (named.length === 0) return undefined;
  // "Did the syntax branch fail?" is answered yes or no; "which branch failed, unit or examples?" is not (ux13).
  const yesNo = named.length === 1 && /^\W*(?:did|does|do|is|was|has|have|were|are)\b/i.test(q);
  const out = new ReplyBuilder();
  for (const name of named) {
    const openedAt = opened.get(name) as number;
    const failedAt = failed.get(name);
    out.log({ start_line: openedAt, end_line: openedAt });
    if (failedAt !== undefined) {
      out.log({ start_line: failedAt, end_line: failedAt });
      out.line(`**${yesNo ? 'Yes: parallel' : 'Parallel'} branch ${inlineCode(name)} failed** ${cite({ start_line: openedAt, end_line: openedAt })}: Jenkins says \`Failed in branch ${name}\` ${cite({ start_line: failedAt, end_line: failedAt })}.`);
      continue;
    }
    const others = [...failed].map(([b, n]) => {
      out.log({ start_line: n, end_line: n });
      return `${inlineCode(b)} ${cite({ start_line: n, end_line: n })}`;
    });
    out.line(
      `**Parallel branch ${inlineCode(name)} did not fail** ${cite({ start_line: openedAt, end_line: openedAt })}: Jenkins prints \`Failed in branch NAME\` for each parallel branch that failed, and this log ` +
        (others.length > 0 ? `names only ${others.join(', ')}.` : 'names none.'),
    );
  }
  return out.reply();
}
