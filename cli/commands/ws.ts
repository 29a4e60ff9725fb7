/** `cichat ws tree | cat`: a build's workspaces, read through the controller. */
import type { GlobalOptions } from '../main.js';
import { clientFor, colourful, paint, printJson } from '../output.js';
import { ApiError, UserError } from '../errors.js';
import { drawTree } from '../tree.js';

export async function workspaceTree(options: GlobalOptions, job: string, build: number, depth: number | undefined): Promise<void> {
  const trees = await clientFor(options).workspaceTree(job, build, depth);
  if (options.json) return printJson(trees);
  if (trees.length === 0) {
    throw new UserError(`Build ${job} #${build} has no workspace on disk.`, 'workspaces are listed only while they exist on the CI host');
  }
  const colour = colourful(process.stdout);
  const out: string[] = [];
  for (const ws of trees) {
    out.push(paint(colour, 'bold', `${ws.path ?? ws.tree.name}`) + paint(colour, 'dim', `  [${ws.workspaceId} on ${ws.node}]`));
    const { lines, counts } = drawTree(ws.tree);
    out.push(...lines, '', `${counts.directories} director${counts.directories === 1 ? 'y' : 'ies'}, ${counts.files} file${counts.files === 1 ? '' : 's'}`, '');
  }
  process.stdout.write(out.join('\n'));
}

export async function workspaceCat(
  options: GlobalOptions,
  job: string,
  build: number,
  filePath: string,
  workspaceId: string | undefined,
): Promise<void> {
  const client = clientFor(options);
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
    if (trees.length > 1) process.stderr.write(`(from workspace ${from})\n`);
  }
  if (options.json) return printJson({ workspaceId: from, path: filePath, content });
  process.stdout.write(content.endsWith('\n') ? content : content + '\n');
}
