/**
 * The workspace tools of the `openai` engine (issue 17), executed here on behalf of the chat's
 * user: `POST /cichat-internal/workspace-tools` with a backend tool token (protocol/toolToken.ts:
 * its own audience; the job and build come from the token, never from the body) and
 * `{tool, arguments}`. Same discovery and confinement as `GET /workspaceTree` and
 * `/workspaceFile`; answers `{content, ...}` for the model, or `{detail}` with 400/401/404/415.
 */
import type { Context } from 'koa';
import { readJsonBody } from '../../http/body.js';
import { BadRequest, HttpError, Unauthorized } from '../errors.js';
import type { PathMap } from '../../jenkins/pathmap.js';
import { maskSecrets } from '../../core/secrets.js';
import type { WorkspaceConfinement } from '../../jenkins/workspace/confine.js';
import { findWorkspace, listWorkspaces } from '../../jenkins/workspace/discover.js';
import { WorkspaceError } from '../../jenkins/workspace/errors.js';
import { readWorkspaceFile, TRUNCATION_MARK } from '../../jenkins/workspace/file.js';
import { relativePathSegments, resolveInside } from '../../jenkins/workspace/pathguard.js';
import { workspaceTree } from '../../jenkins/workspace/tree.js';
import type { WorkspaceTreeNode } from '../../protocol/types.js';
import { ToolTokenError, verifyToolToken, type ToolClaims } from '../../protocol/toolToken.js';

export interface ToolRouteDeps {
  jenkinsHome: string;
  pathMap: PathMap;
  confinement?: WorkspaceConfinement;
  jwtSecret: string;
}

/** Lines one read returns at most; entries one listing returns at most. */
export const MAX_READ_LINES = 400;
export const MAX_LIST_ENTRIES = 400;
const MAX_LIST_DEPTH = 6;

type Args = Record<string, unknown>;

function str(args: Args, name: string, required: boolean): string | undefined {
  const v = args[name];
  if (v === undefined || v === null || v === '') {
    if (required) throw new BadRequest(`arguments.${name}: is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new BadRequest(`arguments.${name}: must be a string`);
  return v;
}

function int(args: Args, name: string, min: number, max: number): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) throw new BadRequest(`arguments.${name}: must be a whole number between ${min} and ${max}`);
  return v;
}

/** A workspace path argument: relative, inside (the same guard as `/workspaceFile`). */
function relPath(value: string): string[] {
  const cleaned = value.replace(/^(\.\/+)+/, '').replace(/\/+$/, '');
  return cleaned === '' || cleaned === '.' ? [] : relativePathSegments(cleaned, 'path');
}

function flatten(node: WorkspaceTreeNode, prefix: string, out: string[], max: number): boolean {
  for (const child of node.children ?? []) {
    if (out.length >= max) return true;
    const name = `${prefix}${child.name}`;
    if (child.type === 'directory') {
      out.push(`${name}/${child.truncated ? ' (more not listed)' : ''}`);
      if (flatten(child, `${name}/`, out, max)) return true;
    } else {
      out.push(`${name} (${child.size ?? 0} bytes)`);
    }
  }
  return false;
}

async function listWorkspace(deps: ToolRouteDeps, claims: ToolClaims, args: Args): Promise<Record<string, unknown>> {
  const sub = str(args, 'path', false);
  const depth = int(args, 'depth', 1, MAX_LIST_DEPTH) ?? 3;
  const segments = sub === undefined ? [] : relPath(sub);
  const workspaces = await listWorkspaces({ ...query(deps, claims) });
  if (workspaces.length === 0) throw new WorkspaceError(404, `${claims.job} #${claims.build} has no workspace on this host`);
  const parts: string[] = [];
  for (const workspace of workspaces) {
    let dir = workspace.dir;
    if (segments.length > 0) {
      const resolved = await resolveInside(workspace.dir, segments).catch((err: unknown) => {
        if (err instanceof WorkspaceError && err.status === 404) return null;
        throw err;
      });
      if (resolved === null) continue;
      if (typeof resolved !== 'string') continue;
      dir = resolved;
    }
    let tree: WorkspaceTreeNode;
    try {
      tree = await workspaceTree(dir, { depth, maxNodes: MAX_LIST_ENTRIES });
    } catch (err) {
      if (err instanceof WorkspaceError && (err.status === 404 || err.status === 400)) continue;
      throw err;
    }
    const entries: string[] = [];
    const cut = flatten(tree, segments.length > 0 ? `${segments.join('/')}/` : '', entries, MAX_LIST_ENTRIES);
    parts.push(`workspace ${workspace.workspaceId} (node ${workspace.node}):\n${entries.join('\n') || '(empty)'}${cut ? `\n(listing cut at ${MAX_LIST_ENTRIES} entries)` : ''}`);
  }
  if (parts.length === 0) throw new WorkspaceError(404, `No directory ${segments.join('/')} in the workspace of ${claims.job} #${claims.build}`);
  return { content: parts.join('\n\n') };
}

async function readFile(deps: ToolRouteDeps, claims: ToolClaims, args: Args): Promise<Record<string, unknown>> {
  const filePath = str(args, 'path', true) as string;
  const segments = relPath(filePath);
  if (segments.length === 0) throw new BadRequest('arguments.path: must name a file');
  const workspaceId = str(args, 'workspaceId', false);
  const startLine = int(args, 'startLine', 1, 10_000_000) ?? 1;
  const endLine = int(args, 'endLine', 1, 10_000_000) ?? startLine + MAX_READ_LINES - 1;
  if (endLine < startLine) throw new BadRequest('arguments.endLine: must not be before startLine');
  const candidates = workspaceId !== undefined ? [await findWorkspace({ ...query(deps, claims), workspaceId })] : await listWorkspaces(query(deps, claims));
  if (candidates.length === 0) throw new WorkspaceError(404, `${claims.job} #${claims.build} has no workspace on this host`);
  let lastError: unknown;
  for (const workspace of candidates) {
    let content: string;
    try {
      content = await readWorkspaceFile(workspace.dir, segments.join('/'), { maxChars: 2_000_000 });
    } catch (err) {
      lastError = err;
      if (err instanceof WorkspaceError && err.status === 404) continue;
      throw err;
    }
    const cut = content.endsWith(TRUNCATION_MARK);
    const lines = (cut ? content.slice(0, -TRUNCATION_MARK.length) : content).split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (cut) lines.pop();
    if (startLine > lines.length) {
      throw new WorkspaceError(400, `${segments.join('/')} has ${lines.length}${cut ? '+ (only the first 2000000 characters are read)' : ''} lines; startLine ${startLine} is beyond them`);
    }
    const to = Math.min(endLine, lines.length, startLine + MAX_READ_LINES - 1);
    const width = String(to).length;
    const body = lines.slice(startLine - 1, to).map((l, i) => `${String(startLine + i).padStart(width)}| ${l.replace(/\r$/, '')}`);
    return {
      content: maskSecrets(body.join('\n')),
      path: segments.join('/'),
      workspaceId: workspace.workspaceId,
      startLine,
      endLine: to,
      totalLines: cut ? undefined : lines.length,
    };
  }
  throw lastError instanceof Error ? lastError : new WorkspaceError(404, `File not found: ${segments.join('/')}`);
}

function query(deps: ToolRouteDeps, claims: ToolClaims) {
  return {
    jenkinsHome: deps.jenkinsHome,
    pathMap: deps.pathMap,
    ...(deps.confinement ? { confinement: deps.confinement } : {}),
    jobName: claims.job,
    buildNumber: claims.build,
  };
}

/** Handles one tool call: the token decides job and build; the body only names the tool and its arguments. */
export async function runWorkspaceTool(ctx: Context, deps: ToolRouteDeps): Promise<void> {
  const header = ctx.get('authorization');
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) throw new Unauthorized('Missing workspace-tools token: only the cichat backend calls this path.');
  let claims: ToolClaims;
  try {
    claims = await verifyToolToken(deps.jwtSecret, token);
  } catch (err) {
    if (err instanceof ToolTokenError) throw new Unauthorized(`Invalid workspace-tools token (${err.message}).`);
    throw err;
  }
  const body = await readJsonBody(ctx, { limit: 64 * 1024 });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('The body must be {"tool": ..., "arguments": {...}}');
  const { tool, arguments: rawArgs } = body as { tool?: unknown; arguments?: unknown };
  const args: Args = typeof rawArgs === 'object' && rawArgs !== null && !Array.isArray(rawArgs) ? (rawArgs as Args) : {};
  try {
    if (tool === 'list_workspace') ctx.body = await listWorkspace(deps, claims, args);
    else if (tool === 'read_workspace_file') ctx.body = await readFile(deps, claims, args);
    else throw new BadRequest('tool: must be list_workspace or read_workspace_file');
  } catch (err) {
    // The workspace kit's errors carry the same statuses as the workspace endpoints.
    if (err instanceof WorkspaceError) throw new HttpError(err.status, err.message);
    throw err;
  }
  ctx.state.log?.info({ user: claims.sub, job: claims.job, build: claims.build, tool }, 'workspace tool');
}
