/** `cichat token add`: a controller token, printed once, only its hash stored. */
import type { Ctx } from '../io.js';
import { addToken as appendToken, isValidTokenUserId } from '../../core/tokens.js';
import { printJson } from '../output.js';
import { UsageError } from '../errors.js';

export async function addToken(ctx: Ctx, user: string, file: string): Promise<void> {
  if (!isValidTokenUserId(user)) {
    throw new UsageError(`USER "${user}": must be 1-255 characters without ":" or whitespace`);
  }
  const token = await appendToken(file, user);
  if (ctx.options.json) return printJson(ctx.io.stdout, { user, token, file });
  ctx.io.stdout.write(`${token}\n`);
  ctx.io.stderr.write(
    `Token for ${user} added to ${file} (only its hash is stored: this is the only time it is shown).\n` +
      `Use it with: CICHAT_TOKEN=<token> cichat ...  (controller: CONTROLLER_AUTH=tokens CONTROLLER_TOKENS_FILE=${file})\n`,
  );
}
