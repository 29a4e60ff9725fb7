/** `cichat chats list | new | show | rename | rm`. */
import type { Command } from 'commander';
import { commandGroup, intArg, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import type { QaPair } from '../../protocol/types.js';
import { colourful, localTime, paint, printJson } from '../output.js';
import { UsageError } from '../errors.js';
import { sourcesText } from '../sources.js';
import { chatSubject, listJobText } from '../chatSubject.js';

export function chatsCommand(deps: CommandDeps): Command {
  const chats = commandGroup('chats', 'chat management: list, new, show, rename, rm');
  chats
    .command('list')
    .description('list your chats, most recently updated first')
    .action(async (_opts: unknown, cmd: Command) => {
      await listChats(await deps.ctxOf(cmd));
    });
  chats
    .command('new')
    .description('create a chat and print its id')
    .argument('[title]', 'its title (default: "New Chat")')
    .action(async (title: string | undefined, _opts: unknown, cmd: Command) => {
      await newChat(await deps.ctxOf(cmd), title);
    });
  chats
    .command('show')
    .description('print a conversation, oldest question first')
    .argument('<id>', 'the chat id', intArg('id'))
    .action(async (id: number, _opts: unknown, cmd: Command) => {
      await showChat(await deps.ctxOf(cmd), id);
    });
  chats
    .command('rename')
    .description('give a chat a new title')
    .argument('<id>', 'the chat id', intArg('id'))
    .argument('<title...>', 'the new title, 1-200 characters')
    .action(async (id: number, title: string[], _opts: unknown, cmd: Command) => {
      await renameChat(await deps.ctxOf(cmd), id, title.join(' '));
    });
  chats
    .command('rm')
    .description('delete a chat with its conversation and context')
    .argument('<id>', 'the chat id', intArg('id'))
    .action(async (id: number, _opts: unknown, cmd: Command) => {
      await removeChat(await deps.ctxOf(cmd), id);
    });
  return chats;
}

export async function listChats(ctx: Ctx): Promise<void> {
  const client = ctx.client();
  const [chats, unread] = await Promise.all([client.allChats(), client.unreadChatIds()]);
  // Job and build from the backend's fields, else read from the title (cli/chatSubject.ts).
  const subjects = chats.map((c) => chatSubject(c));
  if (ctx.options.json) {
    return printJson(
      ctx.io.stdout,
      chats.map((c, i) => {
        const subject = subjects[i];
        const out = { ...c, job_name: subject?.job ?? null, build_number: subject?.build ?? null };
        return unread.has(c.id) ? { ...out, unread: true } : out;
      }),
    );
  }
  if (chats.length === 0) {
    ctx.io.stderr.write('No chats yet: create one with `cichat chats new` or `cichat ask "..."`.\n');
    return;
  }
  const width = Math.max(2, ...chats.map((c) => String(c.id).length));
  const jobs = chats.map((c, i) => listJobText(c, subjects[i]));
  // The JOB column only when some chat has one; as wide as its longest entry, at most 40.
  const jobWidth = Math.min(40, Math.max(0, ...jobs.map((j) => j.length)));
  const jobHead = jobWidth > 0 ? `${'JOB'.padEnd(jobWidth)}  ` : '';
  ctx.io.stdout.write(`${'ID'.padStart(width)}  UPDATED              ${jobHead}TITLE\n`);
  chats.forEach((chat, i) => {
    // `*`: a diagnosis the failed-build watcher made that you have not opened yet.
    const mark = unread.has(chat.id) ? '* ' : '';
    const job = jobWidth > 0 ? `${clip(jobs[i] ?? '', jobWidth).padEnd(jobWidth)}  ` : '';
    const title = subjects[i]?.rest ?? chat.title;
    ctx.io.stdout.write(`${String(chat.id).padStart(width)}  ${localTime(chat.updated_at).padEnd(19)}  ${job}${mark}${title}\n`);
  });
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

export async function newChat(ctx: Ctx, title: string | undefined): Promise<void> {
  if (title !== undefined) checkTitle(title);
  const chat = await ctx.client().createChat(title);
  if (ctx.options.json) return printJson(ctx.io.stdout, chat);
  ctx.io.stdout.write(`${chat.id}\n`);
  ctx.io.stderr.write(`Created chat ${chat.id} "${chat.title}".\n`);
}

/** The conversation as text: each question, then its answer, its sources and, unless complete, its status. */
export function conversationText(pairs: QaPair[], colour: boolean): string {
  const out: string[] = [];
  for (const pair of pairs) {
    out.push(paint(colour, 'bold', `> ${pair.question.content}`), '');
    const answer = pair.answer;
    if (!answer) out.push(paint(colour, 'dim', '(no answer)'));
    else {
      out.push(answer.content);
      const sources = sourcesText(answer.sources);
      if (sources) out.push(paint(colour, 'dim', sources));
      if (answer.status !== 'complete') out.push(paint(colour, answer.status === 'failed' ? 'red' : 'yellow', `[${answer.status}]`));
    }
    out.push('');
  }
  return out.join('\n');
}

export async function showChat(ctx: Ctx, id: number): Promise<void> {
  const pairs = await ctx.client().conversation(id);
  if (ctx.options.json) return printJson(ctx.io.stdout, pairs);
  if (pairs.length === 0) {
    ctx.io.stderr.write(`Chat ${id} has no questions yet: ask one with \`cichat ask --chat ${id} "..."\`.\n`);
    return;
  }
  ctx.io.stdout.write(conversationText(pairs, colourful(ctx.io.stdout, ctx.io.env)));
}

function checkTitle(title: string): void {
  // Characters as the backend counts them (code points): 200 emoji are a valid title.
  const length = [...title].length;
  if (length < 1 || length > 200) throw new UsageError('title: must be 1-200 characters');
}

export async function renameChat(ctx: Ctx, id: number, title: string): Promise<void> {
  checkTitle(title);
  const chat = await ctx.client().renameChat(id, title);
  if (ctx.options.json) return printJson(ctx.io.stdout, chat);
  ctx.io.stdout.write(`${chat.id}\t${chat.title}\n`);
}

export async function removeChat(ctx: Ctx, id: number): Promise<void> {
  const answer = await ctx.client().deleteChat(id);
  if (ctx.options.json) return printJson(ctx.io.stdout, answer);
  ctx.io.stdout.write(`${answer.message}\n`);
}
