/**
 * `cichat history JOB [--build N] [--window N] [--json]` (issue 29): the job's recent builds with
 * the result and the fingerprint of each failure, and the verdict of one failed build (default:
 * the newest failed or unstable one) with the builds it rests on.
 */
import { Command } from 'commander';
import { intArg, type CommandDeps } from '../command.js';
import { UsageError } from '../errors.js';
import type { Ctx } from '../io.js';
import { colourful, paint, printJson } from '../output.js';

export function historyCommand(deps: CommandDeps): Command {
  return new Command('history')
    .description("a job's recent builds with the fingerprint of each failure, and whether a failure is new, recurring, flaky or back")
    .argument('<job>', 'the job (full name with folders)')
    .option('--build <n>', 'the failed build to judge (default: the newest failed or unstable one)', intArg('--build'))
    .option('--window <n>', 'how many of the last builds to look at, 2-1000 (default: the controller\'s CICHAT_HISTORY_BUILDS, 50)', intArg('--window'))
    .action(async (job: string, opts: { build?: number; window?: number }, cmd: Command) => {
      if (opts.window !== undefined && (opts.window < 2 || opts.window > 1000)) throw new UsageError('--window: must be between 2 and 1000');
      await showHistory(await deps.ctxOf(cmd), job, opts.build, opts.window);
    });
}

const VERDICT_TEXT: Record<string, string> = {
  new: 'new',
  recurring: 'recurring',
  flaky: 'flaky',
  'fixed-and-back': 'fixed and back',
};

export async function showHistory(ctx: Ctx, job: string, build: number | undefined, window: number | undefined): Promise<void> {
  const answer = await ctx.client().history(job, build, window);
  if (ctx.options.json) return printJson(ctx.io.stdout, answer);
  const colour = colourful(ctx.io.stdout, ctx.io.env);
  const out = ctx.io.stdout;
  out.write(`${answer.job}: the last ${answer.builds.length} builds (newest first)\n`);
  for (const b of answer.builds) {
    const result = b.result ?? 'RUNNING';
    const painted = paint(colour, result === 'SUCCESS' ? 'green' : result === 'FAILURE' ? 'red' : 'yellow', result.padEnd(9));
    const commit = b.commit ? ` ${b.commit.slice(0, 10)}` : '';
    const failure = b.fingerprint ? `  ${b.fingerprint.slice(0, 8)} ${b.class && b.class !== 'unknown' ? `${b.class}: ` : ''}${(b.message ?? '').slice(0, 90)}` : '';
    const tests = b.failedTests?.length ? ` (${b.failedTests.length} failed test${b.failedTests.length === 1 ? '' : 's'})` : '';
    out.write(`  #${String(b.number).padEnd(6)} ${painted}${commit}${failure}${tests}\n`);
  }
  const h = answer.history;
  if (answer.build === null) {
    out.write('\nNo failed or unstable build among them: nothing to compare.\n');
    return;
  }
  if (!h) {
    out.write(`\n#${answer.build}: no failure was recognised in its log or test report, so it cannot be compared with other builds.\n`);
    return;
  }
  out.write(`\n#${answer.build}: ${paint(colour, 'bold', VERDICT_TEXT[h.verdict] ?? h.verdict)} (fingerprint ${h.fingerprint.slice(0, 8)}, seen in ${h.seenInLast} of the ${h.window} builds looked at)\n`);
  out.write(`  ${h.reason}\n`);
  out.write(`  evidence: ${h.evidenceBuilds.map((n) => `#${n}`).join(', ')}\n`);
  for (const t of h.tests ?? []) {
    out.write(`  test ${t.name}: ${VERDICT_TEXT[t.verdict] ?? t.verdict}; failed in ${t.failedIn.map((n) => `#${n}`).join(', ')}${t.passedIn.length ? `; passed in ${t.passedIn.map((n) => `#${n}`).join(', ')}` : ''}${t.sameCommitPass !== undefined ? ` (same commit as a failure: #${t.sameCommitPass})` : ''}\n`);
  }
  for (const o of h.otherJobs ?? []) out.write(`  also in ${o.job}: ${o.builds.map((n) => `#${n}`).join(', ')}\n`);
}
