/** `cichat failures [--json] [--limit N]`: the failed builds the controller's watcher diagnosed. */
import type { Ctx } from '../io.js';
import { colourful, localTime, paint, printJson } from '../output.js';

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
