/** `cichat token add | list | rm`: controller tokens, printed once, only their hashes stored. */
import type { Command } from 'commander';
import { commandGroup, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import { localTime, printJson } from '../output.js';
import { UsageError, UserError } from '../errors.js';

export function tokenCommand(deps: CommandDeps): Command {
  const token = commandGroup('token', 'controller tokens (CONTROLLER_AUTH=tokens)');
  token
    .command('add')
    .description('create a token for USER: prints it once, stores only its hash in the tokens file')
    .argument('<user>', 'the user id the token stands for')
    .option('--file <file>', 'the tokens file (default: $CONTROLLER_TOKENS_FILE)')
    .option('--replace', "revoke the user's earlier tokens (default: a second token is added beside them)")
    .action(async (user: string, opts: { file?: string; replace?: boolean }, cmd: Command) => {
      const ctx = await deps.ctxOf(cmd);
      await addToken(ctx, user, tokensFile(ctx, opts.file), opts.replace === true);
    });
  token
    .command('list')
    .description('list the tokens of the file: id, user and when it was made (never the token)')
    .option('--file <file>', 'the tokens file (default: $CONTROLLER_TOKENS_FILE)')
    .action(async (opts: { file?: string }, cmd: Command) => {
      const ctx = await deps.ctxOf(cmd);
      await listTokenUsers(ctx, tokensFile(ctx, opts.file));
    });
  token
    .command('rm')
    .description('revoke every token of USER, or the one token with ID (as `token list` shows it)')
    .argument('<user-or-id>', 'a user id, or a token id')
    .option('--file <file>', 'the tokens file (default: $CONTROLLER_TOKENS_FILE)')
    .action(async (which: string, opts: { file?: string }, cmd: Command) => {
      const ctx = await deps.ctxOf(cmd);
      await removeToken(ctx, which, tokensFile(ctx, opts.file));
    });
  return token;
}

/** --file, else CONTROLLER_TOKENS_FILE, else a usage error. */
function tokensFile(ctx: Ctx, file: string | undefined): string {
  const chosen = file ?? (ctx.io.env.CONTROLLER_TOKENS_FILE || undefined);
  if (!chosen) throw new UsageError('--file: the tokens file is needed', 'pass --file F or set CONTROLLER_TOKENS_FILE');
  return chosen;
}

export async function addToken(ctx: Ctx, user: string, file: string, replace = false): Promise<void> {
  const { addToken: appendToken, isValidTokenUserId, listTokens, removeTokens } = await import('../../core/tokens.js');
  if (!isValidTokenUserId(user)) {
    throw new UsageError(`USER "${user}": must be 1-255 characters without ":" or whitespace`);
  }
  const before = (await listTokens(file)).filter((t) => t.userId === user);
  // The new token is written first, the old ones removed after: the user is never without one.
  const token = await appendToken(file, user, { created: new Date() });
  const replaced = [];
  if (replace) for (const old of before) replaced.push(...(await removeTokens(file, old.id)));
  if (ctx.options.json) return printJson(ctx.io.stdout, { user, token, file, replaced: replaced.map((t) => t.id), tokens_of_user: replace ? 1 : before.length + 1 });
  ctx.io.stdout.write(`${token}\n`);
  const what =
    before.length === 0
      ? `Token for ${user} added to ${file}`
      : replace
        ? `Token for ${user} added to ${file}; it replaces ${before.length === 1 ? 'the earlier token' : `the ${before.length} earlier tokens`} (${before.map((t) => t.id).join(', ')}), which no longer work`
        : `A second token for ${user} added to ${file}: ${user} now has ${before.length + 1} tokens and the earlier ${before.length === 1 ? 'one still works' : 'ones still work'} (use --replace to revoke ${before.length === 1 ? 'it' : 'them'})`;
  ctx.io.stderr.write(
    `${what} (only its hash is stored: this is the only time it is shown).\n` +
      `Use it with: CICHAT_TOKEN=<token> cichat ...  (controller: CONTROLLER_AUTH=tokens CONTROLLER_TOKENS_FILE=${file})\n`,
  );
}

export async function listTokenUsers(ctx: Ctx, file: string): Promise<void> {
  const { listTokens } = await import('../../core/tokens.js');
  const tokens = await listTokens(file);
  if (ctx.options.json) return printJson(ctx.io.stdout, tokens.map((t) => ({ id: t.id, user: t.userId, created_at: t.createdAt })));
  if (tokens.length === 0) {
    ctx.io.stderr.write(`No tokens in ${file}: create one with \`cichat token add USER --file ${file}\`.\n`);
    return;
  }
  const userWidth = Math.max(4, ...tokens.map((t) => t.userId.length));
  ctx.io.stdout.write(`ID        ${'USER'.padEnd(userWidth)}  CREATED\n`);
  for (const t of tokens) {
    ctx.io.stdout.write(`${t.id}  ${t.userId.padEnd(userWidth)}  ${t.createdAt ? localTime(t.createdAt) : '(unknown: written by hand)'}\n`);
  }
}

export async function removeToken(ctx: Ctx, which: string, file: string): Promise<void> {
  const { removeTokens } = await import('../../core/tokens.js');
  let removed;
  try {
    removed = await removeTokens(file, which);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err), `see the ids with \`cichat token list --file ${file}\``);
  }
  if (removed.length === 0) {
    throw new UserError(`No token of a user or with an id "${which}" in ${file}.`, `see them with \`cichat token list --file ${file}\``);
  }
  if (ctx.options.json) return printJson(ctx.io.stdout, { removed: removed.map((t) => ({ id: t.id, user: t.userId })) });
  const users = [...new Set(removed.map((t) => t.userId))].join(', ');
  ctx.io.stdout.write(`Removed ${removed.length} token${removed.length === 1 ? '' : 's'} of ${users} (${removed.map((t) => t.id).join(', ')}) from ${file}.\n`);
}
