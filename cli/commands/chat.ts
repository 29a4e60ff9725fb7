/** `cichat chat [chat-id]`: starts the Ink terminal UI. */
import type { GlobalOptions } from '../main.js';
import { clientFor } from '../output.js';
import { UserError } from '../errors.js';

export async function runChatUi(options: GlobalOptions, chatId: number | undefined): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError('`cichat chat` needs a terminal.', 'in scripts use `cichat ask "..."` or `cichat chats show ID`');
  }
  const client = clientFor(options);
  // Fail fast, with the usual message, when the controller is not there.
  const chats = await client.allChats();
  if (chatId !== undefined && !chats.some((c) => c.id === chatId)) {
    throw new UserError(`Chat ${chatId} not found.`, 'see your chats with `cichat chats list`');
  }
  const [{ render }, React, { App }] = await Promise.all([import('ink'), import('react'), import('../ui/App.js')]);
  const app = render(React.createElement(App, { client, initialChatId: chatId, initialChats: chats }), { exitOnCtrlC: false });
  await app.waitUntilExit();
  // Ink has restored the terminal; idle keep-alive sockets of fetch must not hold the exit.
  process.exit(process.exitCode ?? 0);
}
