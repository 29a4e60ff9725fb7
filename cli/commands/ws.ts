/** `cichat ws tree | cat`: a build's workspaces, read through the controller. */
import { Option, type Command } from 'commander';
import { commandGroup, intArg, type CommandDeps } from '../command.js';
import type { Ctx } from '../io.js';
import { colourful, paint, printJson } from '../output.js';
import { ApiError, UsageError, UserError } from '../errors.js';
import { drawTree } from '../tree.js';

export function wsCommand(deps: CommandDeps): Command {
  const ws = commandGroup('ws', "browse a build's workspaces");
  ws.command('tree')
    .description('draw the workspaces of a build like `tree`, one tree per workspace')
    .argument('<job>', 'the job (full name with folders, e.g. team/api)')
    .argument('<build>', 'the build number', intArg('build'))
    .addOption(new Option('--depth <n>', 'how deep to descend, 1-20 (default 4)').argParser(intArg('--depth')))
    .action(async (job: string, build: number, opts: { depth?: number }, cmd: Command) => {
      if (opts.depth !== undefined && opts.depth > 20) throw new UsageError('--depth: must be between 1 and 20');
      await workspaceTree(await deps.ctxOf(cmd), job, build, opts.depth);
    });
  ws.command('cat')
    .description('print a file of a workspace')
    .argument('<job>', 'the job (full name with folders)')
    .argument('<build>', 'the build number', intArg('build'))
    .argument('<path>', 'the file, relative to the workspace')
    .option('--workspace <id>', 'the workspace id shown by `ws tree` (default: the first workspace holding the file)')
    .action(async (job: string, build: number, filePath: string, opts: { workspace?: string }, cmd: Command) => {
      await workspaceCat(await deps.ctxOf(cmd), job, build, filePath, opts.workspace);
    });
  return ws;
}

export async function workspaceTree(ctx: Ctx, job: string, build: number, depth: number | undefined): Promise<void> {
  const { trees, notice } = await ctx.client().workspaceTreeWithNotice(job, build, depth);
  if (notice && (trees.length > 0 || ctx.options.json)) ctx.io.stderr.write(`cichat: ${notice}\n`);
  if (ctx.options.json) return printJson(ctx.io.stdout, trees);
  if (trees.length === 0) {
    if (notice) throw new UserError(`Build ${job} #${build} has no workspace on disk: ${notice}`);
    throw new UserError(`Build ${job} #${build} has no workspace on disk.`, 'workspaces are listed only while they exist on the CI host');
  }
  const colour = colourful(ctx.io.stdout, ctx.io.env);
  const out: string[] = [];
  for (const ws of trees) {
    out.push(paint(colour, 'bold', `${ws.path ?? ws.tree.name}`) + paint(colour, 'dim', `  [${ws.workspaceId} on ${ws.node}]`));
    const { lines, counts } = drawTree(ws.tree);
    out.push(...lines, '', `${counts.directories} director${counts.directories === 1 ? 'y' : 'ies'}, ${counts.files} file${counts.files === 1 ? '' : 's'}`, '');
  }
  ctx.io.stdout.write(out.join('\n'));
}

export async function workspaceCat(
  ctx: Ctx,
  job: string,
  build: number,
  filePath: string,
  workspaceId: string | undefined,
): Promise<void> {
  const client = ctx.client();
  let content: string;
  let from = workspaceId;
  if (workspaceId !== undefined) {
    content = await client.workspaceFile(job, build, workspaceId, filePath);
  } else {
    // No workspace named: take the first workspace of the build that holds the file.
    const trees = await client.workspaceTree(job, build, 1);
    if (trees.length === 0) throw new UserError(`Build ${job} #${build} has no workspace on disk.`);
    let found: string | undefined;
    let lastError: unknown;
    for (const ws of trees) {
      try {
        found = await client.workspaceFile(job, build, ws.workspaceId, filePath);
        from = ws.workspaceId;
        break;
      } catch (err) {
        if (err instanceof ApiError && (err.status === 404 || err.status === 200)) {
          lastError = err;
          continue;
        }
        throw err;
      }
    }
    if (found === undefined) throw lastError ?? new UserError(`${filePath}: not found`);
    content = found;
    if (trees.length > 1) ctx.io.stderr.write(`(from workspace ${from})\n`);
  }
  if (ctx.options.json) return printJson(ctx.io.stdout, { workspaceId: from, path: filePath, content });
  ctx.io.stdout.write(content.endsWith('\n') ? content : content + '\n');
}
