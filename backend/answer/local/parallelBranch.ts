/**
 * A question about a parallel branch of the Pipeline ("did the syntax branch fail too?"), not the
 * git branch the build checked out (ux12, perl-invoice). Jenkins opens each branch with
 * `[Pipeline] { (Branch: X)` and prints `Failed in branch X` for each branch that failed.
 */
import { failedOutputEnd, interleavedParallelAt } from '../../../core/log/failingStep.js';
import { cite, inlineCode, type LogSpan } from '../logtext.js';
import { unstamped } from '../pipelineText.js';
import { ReplyBuilder, type Reply } from './reply.js';

const OPEN = /^\[Pipeline\] (?:\[[^\]\n]+\] )?\{ \(Branch: (.+)\)\s*$/;
const FAILED = /^(?:\[[^\]\n]+\] )?Failed in branch (.+?)\s*$/;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The answer when `q` names a parallel branch of the stored log, else undefined. `running`: the build has not ended
 * (`IN_PROGRESS`), so a branch without `Failed in branch` has not failed so far, no more.
 */
export function parallelBranchReply(q: string, stored: LogSpan | undefined, running = false): Reply | undefined {
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
  const passed: string[] = [];
  for (const name of named) {
    const openedAt = opened.get(name) as number;
    const failedAt = failed.get(name);
    out.log({ start_line: openedAt, end_line: openedAt });
    if (failedAt === undefined) {
      passed.push(name);
      continue;
    }
    out.log({ start_line: failedAt, end_line: failedAt });
    out.line(`**${yesNo ? 'Yes: parallel' : 'Parallel'} branch ${inlineCode(name)} failed** ${cite({ start_line: openedAt, end_line: openedAt })}: Jenkins says \`Failed in branch ${name}\` ${cite({ start_line: failedAt, end_line: failedAt })}.`);
  }
  // The branches that did not fail share one sentence: the log's list of failed branches is said once (rv1 item 7).
  if (passed.length > 0) {
    const others = [...failed].map(([b, n]) => {
      out.log({ start_line: n, end_line: n });
      return `${inlineCode(b)} ${cite({ start_line: n, end_line: n })}`;
    });
    const names = passed.map((b) => inlineCode(b));
    const subject = names.length === 1 ? `Parallel branch ${names[0] as string}` : `Parallel branches ${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;
    const opens = passed.map((b) => cite({ start_line: opened.get(b) as number, end_line: opened.get(b) as number })).join(' ');
    out.line(
      `**${subject} ${running ? 'had not failed when this log was read (the build is still running)' : 'did not fail'}** ${opens}: Jenkins prints \`Failed in branch NAME\` for each parallel branch that failed, and this log ` +
        (others.length > 0 ? `names only ${others.join(', ')}.` : 'names none.'),
    );
  }
  return out.reply();
}

export interface FailedOutputLine {
  /** Jenkins' `Failed in branch X` line and the branch, for a parallel branch that failed. */
  branch?: { name: string; line: number };
  /** Declarative Pipeline's first `Stage "X" skipped due to earlier failure(s)` under the failed stage. */
  skipped?: { name: string; line: number };
  /** The branch printed unprefixed, at once with another: its last line may be another branch's. */
  interleaved: boolean;
}

const SKIPPED = /^Stage "(.+)" skipped due to earlier failure/;

/**
 * Whether line `messageLine` is the last line a failed step printed, read back from the verdict
 * excerpt `top` (core/log/failingStep.ts `failedOutputEnd`): the finding of a Pipeline whose only
 * error lines were Jenkins' own (ux14). Then the answer says it is that, not "the error".
 */
export function failedOutputLine(stored: LogSpan | undefined, top: LogSpan, messageLine: number): FailedOutputLine | undefined {
  if (!stored || !/Failed in branch |skipped due to earlier failure/.test(stored.text)) return undefined;
  const lines = stored.text.split('\n');
  const bodyAt = (i: number): string | undefined => (lines[i] === undefined ? undefined : unstamped(lines[i] as string));
  const at = failedOutputEnd(top.start_line - stored.start_line, bodyAt);
  if (!at || at.end + stored.start_line !== messageLine) return undefined;
  const branch = at.branchFailed === undefined ? undefined : FAILED.exec(bodyAt(at.branchFailed) ?? '')?.[1];
  const skipped = at.skipped === undefined ? undefined : SKIPPED.exec(bodyAt(at.skipped) ?? '')?.[1];
  return {
    ...(branch === undefined ? {} : { branch: { name: branch, line: (at.branchFailed as number) + stored.start_line } }),
    ...(skipped === undefined ? {} : { skipped: { name: skipped, line: (at.skipped as number) + stored.start_line } }),
    interleaved: interleavedParallelAt(at.end, bodyAt) !== undefined,
  };
}
