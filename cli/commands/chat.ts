/** `cichat chat [chat-id]`: starts the Ink terminal UI. */
import { Command } from 'commander';
import { intArg, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import { UserError } from '../errors.js';

export function chatCommand(deps: CommandDeps): Command {
  return new Command('chat')
    .description('the terminal UI: chat list, streaming answers, retry, edit, stop, rename, delete')
    .argument('[chat-id]', 'open this chat directly', intArg('chat-id'))
    .action(async (chatId: number | undefined, _opts: unknown, cmd: Command) => {
      await runChatUi(await deps.ctxOf(cmd), chatId);
    });
}

export async function runChatUi(ctx: Ctx, chatId: number | undefined): Promise<void> {
  if (!ctx.io.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError('`cichat chat` needs a terminal.', 'in scripts use `cichat ask "..."` or `cichat chats show ID`');
  }
  const client = ctx.client();
  // Fail fast, with the usual message, when the controller is not there.
  const chats = await client.allChats();
  if (chatId !== undefined && !chats.some((c) => c.id === chatId)) {
    throw new UserError(`Chat ${chatId} not found.`, 'see your chats with `cichat chats list`');
  }
  // Ink renders only a final frame when it believes it runs in CI (CI / CONTINUOUS_INTEGRATION
  // set, read when ink is imported). This command has just checked that it owns a terminal,
  // so a CI variable exported in the user's shell must not freeze the UI.
  for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) if (name in ctx.io.env) ctx.io.env[name] = 'false';
  const [{ render }, React, { App }] = await Promise.all([import('ink'), import('react'), import('../ui/App.js')]);
  const app = render(React.createElement(App, { client, initialChatId: chatId, initialChats: chats }), { exitOnCtrlC: false });
  await app.waitUntilExit();
  // Ink has restored the terminal; idle keep-alive sockets of fetch must not hold the exit.
  process.exit(process.exitCode ?? 0);
}
