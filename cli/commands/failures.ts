/** `cichat failures [--json] [--limit N]`: the failed builds the controller's watcher diagnosed. */
import { Command, Option } from 'commander';
import { intArg, type CommandDeps } from '../command.js';
import { UsageError } from '../errors.js';
import type { Ctx } from '../io.js';
import { colourful, localTime, paint, printJson } from '../output.js';

export function failuresCommand(deps: CommandDeps): Command {
  return new Command('failures')
    .description('recent failed builds the controller noticed (CICHAT_WATCH), each with its one-line cause and chat id')
    .addOption(new Option('--limit <n>', 'show at most n failures, 1-100 (default 20)').argParser(intArg('--limit')))
    .action(async (opts: { limit?: number }, cmd: Command) => {
      if (opts.limit !== undefined && opts.limit > 100) throw new UsageError('--limit: must be between 1 and 100');
      await listFailures(await deps.ctxOf(cmd), opts.limit ?? 20);
    });
}

export async function listFailures(ctx: Ctx, limit: number): Promise<void> {
  const failures = await ctx.client().failures(limit);
  if (ctx.options.json) return printJson(ctx.io.stdout, failures);
  if (failures.length === 0) {
    ctx.io.stderr.write('No failed builds noticed yet (the controller watches JENKINS_HOME while CICHAT_WATCH=on).\n');
    return;
  }
  const colour = colourful(ctx.io.stdout, ctx.io.env);
  for (const f of failures) {
    const unread = f.unread ? paint(colour, 'bold', '* ') : '  ';
    const chat = f.chat_id === null ? 'no chat' : `chat ${f.chat_id}`;
    const result = paint(colour, f.result === 'FAILURE' ? 'red' : 'yellow', f.result);
    ctx.io.stdout.write(`${unread}${f.job} #${f.build}  ${result}  ${localTime(f.detected_at)}  ${chat}\n`);
    ctx.io.stdout.write(`    ${f.error ?? (f.cause || '(no cause found)')}\n`);
  }
  ctx.io.stderr.write('`*` not opened yet; open one with `cichat chat <chat-id>`.\n');
}
