import type { Context } from 'koa';
import { BadRequest, HttpError, NotFound, Unprocessable } from '../errors.js';
import { readJsonBody } from '../../http/body.js';
import { parseInput } from '../../http/validate.js';
import { ContextRequestSchema } from '../schemas.js';
import type { CiContextOptions, CiContextResult } from '../../jenkins/context.js';
import type { RefererInfo } from '../../jenkins/referer.js';
import type { WorkspaceSnippet } from '../../protocol/types.js';
import type { BackendProxy } from '../proxy.js';

/**
 * Context injection (CONTRACT section 3): `POST|PUT /chatbot-api/context/...` reads the
 * caller's small JSON request, builds the CiContext from JENKINS_HOME on disk and sends
 * `{ciContext}` to the backend at the same path. The only proxied path whose body is buffered.
 */

/** The context body limit of the contract (a whole console log may travel in `consoleLog`). */
export const CONTEXT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/** What the caller may say about the context (every field optional). */
export interface ContextRequest {
  currentScreen?: string;
  jobName?: string;
  buildNumber?: number;
  consoleLog?: string;
  /** The pipeline's own variables (`cichat context upload --from-env`): kept as `ciContext.ciEnvironment`. */
  ciEnvironment?: Record<string, string>;
  /** Source snippets the caller read where the build ran (`--from-env`, `cichat ask --workspace`). */
  workspaceSnippets?: WorkspaceSnippet[];
}

/** controller/jenkins/context.ts `buildCiContextResult`: the context and whether the job or build was missing. */
export type BuildCiContext = (options: CiContextOptions) => Promise<CiContextResult>;
/** controller/jenkins/referer.ts `resolveReferer`: job, build (permalinks resolved) and screen of a page. */
export type ParseReferer = (jenkinsHome: string, referer: string | undefined) => Promise<RefererInfo>;

export interface ContextRouteDeps {
  jenkinsHome: string;
  proxy: BackendProxy;
  buildCiContext: BuildCiContext;
  parseReferer: ParseReferer;
  /** Where workspaces are and how they are confined: failed builds get `workspaceSnippets`. */
  workspace?: CiContextOptions['workspace'];
}

/** The context upload's route under `/chatbot-api` (POST and PUT): `/context/<chat id>` as the backend has it. */
export const CONTEXT_ROUTE = '/context/{*rest}';

/** Validates the caller's JSON into a ContextRequest: 400 for a non-object, 422 naming a field of the wrong type. */
export function parseContextRequest(value: unknown): ContextRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequest('The context body must be a JSON object such as {"jobName": "team/app", "buildNumber": 7}');
  }
  const { currentScreen, jobName, buildNumber, consoleLog, ciEnvironment } = parseInput(ContextRequestSchema, value);
  const snippets = (value as { workspaceSnippets?: unknown }).workspaceSnippets;
  return {
    ...(currentScreen !== undefined ? { currentScreen } : {}),
    ...(jobName !== undefined ? { jobName } : {}),
    ...(buildNumber !== undefined ? { buildNumber } : {}),
    ...(consoleLog !== undefined ? { consoleLog } : {}),
    ...(ciEnvironment !== undefined ? { ciEnvironment } : {}),
    // Checked by hand (not in ContextRequestSchema): 422 names the snippet and field.
    ...(snippets !== undefined && snippets !== null ? { workspaceSnippets: parseSnippets(snippets) } : {}),
  };
}

/** Caps on caller-sent snippets: what the controller itself would send at most. */
export const MAX_CALLER_SNIPPETS = 20;
export const MAX_CALLER_SNIPPET_CHARS = 20_000;

/** Validates caller-sent `workspaceSnippets`: 422 naming the first wrong field. */
function parseSnippets(value: unknown): WorkspaceSnippet[] {
  if (!Array.isArray(value)) throw new Unprocessable('workspaceSnippets: must be an array of {path, workspaceId, startLine, endLine, text}');
  if (value.length > MAX_CALLER_SNIPPETS) throw new Unprocessable(`workspaceSnippets: must hold at most ${MAX_CALLER_SNIPPETS} snippets`);
  return value.map((item: unknown, i) => {
    const at = `workspaceSnippets[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Unprocessable(`${at}: must be an object`);
    const s = item as Record<string, unknown>;
    for (const field of ['path', 'workspaceId', 'text'] as const) {
      if (typeof s[field] !== 'string') throw new Unprocessable(`${at}.${field}: must be a string`);
    }
    for (const field of ['startLine', 'endLine'] as const) {
      const n = s[field];
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw new Unprocessable(`${at}.${field}: must be a positive whole number`);
    }
    if ((s.endLine as number) < (s.startLine as number)) throw new Unprocessable(`${at}.endLine: must not be before startLine`);
    if ((s.text as string).length > MAX_CALLER_SNIPPET_CHARS) throw new Unprocessable(`${at}.text: must be at most ${MAX_CALLER_SNIPPET_CHARS} characters`);
    if ((s.path as string).length > 1000) throw new Unprocessable(`${at}.path: must be at most 1000 characters`);
    return s as unknown as WorkspaceSnippet;
  });
}

/**
 * The caller's snippets (read where the build ran, e.g. on an agent this host cannot see) first,
 * then the controller's own for files the caller did not send; at most MAX_CALLER_SNIPPETS.
 */
export function mergeSnippets(fromCaller: readonly WorkspaceSnippet[] | undefined, own: readonly WorkspaceSnippet[] | undefined): WorkspaceSnippet[] {
  const caller = fromCaller ?? [];
  const sent = new Set(caller.map((s) => s.path));
  return [...caller, ...(own ?? []).filter((s) => !sent.has(s.path))].slice(0, MAX_CALLER_SNIPPETS);
}

/**
 * Which job and build the context is about: the body's own `jobName` (with its `buildNumber`),
 * else both from the Referer path. The two sources are never mixed: a body naming job A must
 * not get the build number of the page of job B the browser happened to be on.
 */
export function resolveContextRequest(body: ContextRequest, fromPage: RefererInfo): ContextRequest {
  const out: ContextRequest = {};
  if (body.jobName !== undefined) {
    out.jobName = body.jobName;
    if (body.buildNumber !== undefined) out.buildNumber = body.buildNumber;
  } else {
    if (fromPage.jobName !== undefined) out.jobName = fromPage.jobName;
    const build = body.buildNumber ?? (fromPage.jobName !== undefined ? fromPage.buildNumber : undefined);
    if (build !== undefined && out.jobName !== undefined) out.buildNumber = build;
  }
  const screen = body.currentScreen ?? fromPage.currentScreen;
  if (screen !== undefined) out.currentScreen = screen;
  if (body.consoleLog !== undefined) out.consoleLog = body.consoleLog;
  if (body.ciEnvironment !== undefined) out.ciEnvironment = body.ciEnvironment;
  if (body.workspaceSnippets !== undefined) out.workspaceSnippets = body.workspaceSnippets;
  return out;
}

/** Handles one context upload for `userId`: read, build from JENKINS_HOME, forward `{ciContext}`. */
export async function uploadContext(ctx: Context, userId: string, deps: ContextRouteDeps): Promise<void> {
  // The original plugin's browser client posts `{}` without a Content-Type: read it as JSON.
  const parsed = await readJsonBody(ctx, { limit: CONTEXT_BODY_LIMIT_BYTES, allowMissingType: true });
  const body = parseContextRequest(parsed);
  const referer = ctx.get('referer') || undefined;
  // The page only matters when the body does not name the job (and screen) itself.
  const fromPage: RefererInfo =
    referer !== undefined && (body.jobName === undefined || body.currentScreen === undefined)
      ? await deps.parseReferer(deps.jenkinsHome, referer)
      : {};
  const request = resolveContextRequest(body, fromPage);

  const { ciEnvironment, workspaceSnippets, ...contextOptions } = request;
  let result: CiContextResult;
  try {
    const workspace = deps.workspace ? { workspace: deps.workspace } : {};
    result = await deps.buildCiContext({ jenkinsHome: deps.jenkinsHome, ...contextOptions, ...workspace });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // A home the controller cannot read at all is a server-side problem: the cause (a path, an
    // errno text) goes to the log through the error middleware, never to the client.
    throw new Error(`Could not read the CI context from JENKINS_HOME ${deps.jenkinsHome}`, { cause: err });
  }
  if (result.notFound) {
    // Decision (docs/notes/controller.md): a job or build that does not exist is a 404 and
    // nothing is uploaded, so a typo in `--job` is not silently stored as an empty context.
    // A job that exists but whose files are corrupt is uploaded with an `error` note instead.
    const missing = result.problems.find((p) => (p.error as { status?: unknown }).status === 404) ?? result.problems[0];
    const where = request.jobName !== undefined && body.jobName === undefined ? ' (taken from the Referer)' : '';
    throw new NotFound(`${missing?.error.message ?? `No job ${request.jobName ?? ''} in JENKINS_HOME`}${where}: no context was uploaded`);
  }
  // The backend masks secrets in every field of the context before storing it.
  const snippets = mergeSnippets(workspaceSnippets, result.context.workspaceSnippets);
  const ciContext = {
    ...result.context,
    ...(ciEnvironment !== undefined ? { ciEnvironment } : {}),
    ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}),
  };

  ctx.respond = false;
  await deps.proxy.forward(ctx.req, ctx.res, {
    method: ctx.method,
    pathAndQuery: ctx.url.slice('/chatbot-api'.length),
    headers: { ...ctx.req.headers, 'content-type': 'application/json' },
    userId,
    body: Buffer.from(JSON.stringify({ ciContext })),
  });
}
