/** `cichat failures [--json] [--limit N]`: the failed builds the controller's watcher diagnosed. */
import type { GlobalOptions } from '../main.js';
import { clientFor, colourful, localTime, paint, printJson } from '../output.js';

export async function listFailures(options: GlobalOptions, limit: number): Promise<void> {
  const failures = await clientFor(options).failures(limit);
  if (options.json) return printJson(failures);
  if (failures.length === 0) {
    process.stderr.write('No failed builds noticed yet (the controller watches JENKINS_HOME while CICHAT_WATCH=on).\n');
    return;
  }
  const colour = colourful(process.stdout);
  for (const f of failures) {
    const unread = f.unread ? paint(colour, 'bold', '* ') : '  ';
    const chat = f.chat_id === null ? 'no chat' : `chat ${f.chat_id}`;
    const result = paint(colour, f.result === 'FAILURE' ? 'red' : 'yellow', f.result);
    process.stdout.write(`${unread}${f.job} #${f.build}  ${result}  ${localTime(f.detected_at)}  ${chat}\n`);
    process.stdout.write(`    ${f.error ?? (f.cause || '(no cause found)')}\n`);
  }
  process.stderr.write('`*` not opened yet; open one with `cichat chat <chat-id>`.\n');
}
