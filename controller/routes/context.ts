import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { BadRequest, HttpError, NotFound } from '../errors.js';
import { readJsonBody } from '../../http/body.js';
import { parseInput } from '../../http/validate.js';
import { contextRequestSchema, MAX_SNIPPETS } from '../../protocol/schemas.js';
import type { CiContext } from '../../protocol/types.js';
import type { CiContextOptions, CiContextResult } from '../../jenkins/context.js';
import type { RefererInfo } from '../../jenkins/referer.js';
import { resolveBuildNumber } from '../../jenkins/jobs.js';
import { BuildNotFoundError, JobNotFoundError, notFoundCode } from '../../jenkins/errors.js';
import type { WorkspaceChanges, WorkspaceSnippet } from '../../protocol/types.js';
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
  /** A permalink (`lastFailedBuild`) in place of `buildNumber`: resolved from JENKINS_HOME before the context is read. */
  buildRef?: string;
  consoleLog?: string;
  /** The last passing build's log (`cichat context upload --baseline-log`): sent as `buildDetails.lastSuccessfulBuild`. */
  baselineLog?: string;
  /** The pipeline's own variables (`cichat context upload --from-env`): kept as `ciContext.ciEnvironment`. */
  ciEnvironment?: Record<string, string>;
  /** Source snippets the caller read where the build ran (`--from-env`, `cichat ask --workspace`). */
  workspaceSnippets?: WorkspaceSnippet[];
  /** The checkout's change the caller read with git (`cichat ask --workspace DIR`); wins over the controller's own. */
  workspaceChanges?: WorkspaceChanges;
  /**
   * A CiContext the client collected itself (the original plugin's Java side, a script), in
   * canonical form: its facts are laid over the ones read from JENKINS_HOME.
   */
  ciContext?: CiContext;
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

/**
 * Validates the caller's JSON into a ContextRequest with `contextRequestSchema` (protocol/, the
 * schema the OpenAPI document describes): 400 for a non-object, 422 naming a field of the wrong
 * type. A full CiContext may come along as `ciContext` (or `jenkinsContext`), either shape.
 */
export function parseContextRequest(value: unknown): ContextRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequest('The context body must be a JSON object such as {"jobName": "team/app", "buildNumber": 7}');
  }
  const body = parseInput(contextRequestSchema, value);
  const out: ContextRequest = {};
  if (typeof body.currentScreen === 'string' && body.currentScreen !== '') out.currentScreen = body.currentScreen;
  if (typeof body.jobName === 'string' && body.jobName !== '') out.jobName = body.jobName;
  if (typeof body.consoleLog === 'string') out.consoleLog = body.consoleLog;
  if (typeof body.baselineLog === 'string') out.baselineLog = body.baselineLog;
  if (body.ciEnvironment && Object.keys(body.ciEnvironment).length > 0) out.ciEnvironment = body.ciEnvironment;
  const rawBuild = body.buildNumber;
  if (typeof rawBuild === 'string' && !/^\d+$/.test(rawBuild) && rawBuild !== '') out.buildRef = rawBuild;
  else if (rawBuild !== undefined && rawBuild !== null && rawBuild !== '') out.buildNumber = Number(rawBuild);
  if (body.workspaceSnippets) out.workspaceSnippets = body.workspaceSnippets as WorkspaceSnippet[];
  if (body.workspaceChanges) out.workspaceChanges = body.workspaceChanges;
  const sent = body.ciContext ?? body.jenkinsContext;
  // The schema's codec made it canonical.
  if (sent) out.ciContext = sent;
  return out;
}

/**
 * The caller's snippets (read where the build ran, e.g. on an agent this host cannot see) first,
 * then the controller's own for files the caller did not send; at most MAX_SNIPPETS.
 */
export function mergeSnippets(fromCaller: readonly WorkspaceSnippet[] | undefined, own: readonly WorkspaceSnippet[] | undefined): WorkspaceSnippet[] {
  const caller = fromCaller ?? [];
  const sent = new Set(caller.map((s) => s.path));
  return [...caller, ...(own ?? []).filter((s) => !sent.has(s.path))].slice(0, MAX_SNIPPETS);
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
  if (body.baselineLog !== undefined) out.baselineLog = body.baselineLog;
  if (body.ciEnvironment !== undefined) out.ciEnvironment = body.ciEnvironment;
  if (body.workspaceSnippets !== undefined) out.workspaceSnippets = body.workspaceSnippets;
  if (body.workspaceChanges !== undefined) out.workspaceChanges = body.workspaceChanges;
  if (body.ciContext !== undefined) out.ciContext = body.ciContext;
  return out;
}

/** Fields the caller's CiContext replaces whole instead of merging into the controller's. */
const WHOLE_FIELDS = new Set(['workspaceChanges', 'workspaceChangesNotRead']);

/**
 * The context sent on: what JENKINS_HOME says, with the client's own CiContext laid over it
 * (its live facts, such as `inQueue` or `isOnline`, are newer than the files on disk), object
 * fields merged one level deep, then the pipeline's variables.
 */
export function mergeContexts(fromHome: CiContext, sent: CiContext | undefined, env: Record<string, string> | undefined): CiContext {
  const out: CiContext = { ...fromHome };
  for (const [key, value] of Object.entries(sent ?? {})) {
    const base = out[key];
    // A note about the caller's own checkout (`workspaceChangesNotRead`: a shallow clone) replaces the controller's whole.
    const bothObjects = !WHOLE_FIELDS.has(key) && [base, value].every((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
    out[key] = bothObjects ? { ...(base as object), ...(value as object) } : value;
  }
  if (env !== undefined) out.ciEnvironment = { ...(out.ciEnvironment ?? {}), ...env };
  return out;
}

/** The context without the controller's "workspace not read" note when the caller's own change replaced it. */
function withoutNotRead(ci: CiContext, replaced: boolean): CiContext {
  if (!replaced) return ci;
  const { workspaceChangesNotRead: _notRead, ...rest } = ci;
  return rest;
}

function withoutReadErrors(ci: CiContext): CiContext {
  const { jobDetails: _job, buildDetails: _build, ...rest } = ci;
  return rest;
}

/** A permalink of a job as its build number; a job or build that is not there is a 404 saying which. */
async function resolveBuildRef(jenkinsHome: string, jobName: string, ref: string): Promise<number> {
  try {
    return await resolveBuildNumber(jenkinsHome, jobName, ref);
  } catch (err) {
    if (err instanceof JobNotFoundError) throw new NotFound(`${err.message}: no context was uploaded`, notFoundCode(err));
    if (err instanceof BuildNotFoundError) {
      const what = ref.replace(/^last/, '').replace(/Build$/, '').replace(/([A-Z])/g, ' $1').trim().toLowerCase();
      throw new NotFound(`Job ${jobName} has no ${what ? `${what} ` : ''}build (${ref}) in JENKINS_HOME: no context was uploaded`, 'build_not_found');
    }
    throw err;
  }
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
  // A client's own context names its job and build when the body does not.
  const sentJob = body.ciContext?.jobDetails?.fullName ?? body.ciContext?.jobDetails?.name;
  const sentBuild = body.ciContext?.buildDetails?.number;
  const named: ContextRequest =
    body.jobName === undefined && typeof sentJob === 'string' && sentJob
      ? { ...body, jobName: sentJob, ...(body.buildNumber === undefined && typeof sentBuild === 'number' ? { buildNumber: sentBuild } : {}) }
      : body;
  const request = resolveContextRequest(named, fromPage);
  if (body.buildRef !== undefined) {
    if (request.jobName === undefined) throw new BadRequest(`buildNumber: ${body.buildRef} needs a jobName`);
    request.buildNumber = await resolveBuildRef(deps.jenkinsHome, request.jobName, body.buildRef);
  }

  const { ciEnvironment, ciContext: sent, workspaceSnippets, workspaceChanges, ...contextOptions } = request;
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
  if (result.notFound && sent === undefined) {
    // Decision (docs/notes/controller.md): a job or build that does not exist is a 404 and
    // nothing is uploaded, so a typo in `--job` is not silently stored as an empty context.
    // A job that exists but whose files are corrupt is uploaded with an `error` note instead.
    const missing = result.problems.find((p) => (p.error as { status?: unknown }).status === 404) ?? result.problems[0];
    const where = request.jobName !== undefined && body.jobName === undefined ? ' (taken from the Referer)' : '';
    throw new NotFound(`${missing?.error.message ?? `No job ${request.jobName ?? ''} in JENKINS_HOME`}${where}: no context was uploaded`, missing ? notFoundCode(missing.error) : 'job_not_found');
  }
  // The backend masks secrets in every field of the context before storing it.
  // A client that sent its own context keeps it even when JENKINS_HOME lacks the job (another
  // server's): the read errors are dropped then, the client's facts stand.
  const fromHome = result.notFound && sent !== undefined ? withoutReadErrors(result.context) : result.context;
  const merged = mergeContexts(fromHome, sent, ciEnvironment);
  const snippets = mergeSnippets(workspaceSnippets, merged.workspaceSnippets);
  // The caller's change (read where the build ran) replaces the controller's whole, never merged field by field.
  const change = workspaceChanges ?? sent?.workspaceChanges ?? fromHome.workspaceChanges;
  const ciContext = { ...withoutNotRead(merged, change !== fromHome.workspaceChanges), ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}), ...(change ? { workspaceChanges: change } : {}) };

  ctx.respond = false;
  await deps.proxy.forward(ctx.req, ctx.res, {
    method: ctx.method,
    pathAndQuery: ctx.url.slice('/chatbot-api'.length),
    headers: { ...ctx.req.headers, 'content-type': 'application/json' },
    userId,
    body: contextBody(ciContext),
  });
}

/** Room kept under the backend's limit for what the proxy and JSON add. */
const BODY_MARGIN_BYTES = 64 * 1024;
/** Characters of a log escaped into JSON at once. */
const ESCAPE_SLICE_CHARS = 1024 * 1024;

/**
 * `{ciContext}` as the backend's body, assembled piece by piece (issue 28): the context without
 * its logs is serialised (small), and each log (the build's, the last green build's) is escaped
 * into JSON slice by slice where its placeholder stood, so the log is never copied whole into
 * one JSON text and then into one Buffer (the six copies of an upload the issue measured). The
 * bytes are those `JSON.stringify({ciContext})` makes (a test compares them), and `length` is
 * exact (the backend gets a Content-Length).
 *
 * Within the backend's 64 MiB limit: the caller's own log may already take most of it, so the
 * last green build's log gives way first: its start is cut at a line start, and when nothing
 * of it fits it is left out with a note saying why. The failed build's own log is never cut here.
 */
export interface ContextBody {
  length: number;
  pieces(): Generator<Buffer>;
}

export function contextBody(ciContext: CiContext, limit = CONTEXT_BODY_LIMIT_BYTES): ContextBody {
  let body = assemble(ciContext);
  const green = ciContext.buildDetails?.lastSuccessfulBuild;
  if (body.length <= limit - BODY_MARGIN_BYTES || typeof green !== 'object' || green === null) return body;
  const field = typeof green.consoleLogTail === 'string' ? 'consoleLogTail' : typeof green.consoleLog === 'string' ? 'consoleLog' : undefined;
  if (field === undefined) return body;
  const log = green[field] as string;
  const escaped = escapedLength(log);
  let over = body.length - (limit - BODY_MARGIN_BYTES);
  for (let attempt = 0; attempt < 4 && over > 0; attempt++) {
    // JSON escaping can make a log longer than its characters: scale by the escaped length.
    const keep = Math.floor(((escaped - over) / Math.max(1, escaped)) * log.length) - attempt * 1024;
    const fitted: Record<string, unknown> = { ...green };
    if (keep <= 0) {
      delete fitted[field];
      fitted.consoleLogOmitted = `the log of the last green build did not fit in the ${Math.round(limit / 1048576)} MiB context beside this build's log`;
    } else {
      let tail = log.slice(log.length - keep);
      const nl = tail.indexOf('\n');
      if (nl >= 0) tail = tail.slice(nl + 1);
      else if (/^[\udc00-\udfff]/.test(tail)) tail = tail.slice(1);
      fitted[field] = tail;
      fitted.consoleLogTruncated = true;
    }
    body = assemble({ ...ciContext, buildDetails: { ...ciContext.buildDetails, lastSuccessfulBuild: fitted } });
    over = body.length - (limit - BODY_MARGIN_BYTES);
    if (keep <= 0) break;
  }
  return body;
}

/** `{ciContext}` as fitContextBody made it: one Buffer (tests, small bodies). */
export function fitContextBody(ciContext: CiContext, limit = CONTEXT_BODY_LIMIT_BYTES): Buffer {
  return Buffer.concat([...contextBody(ciContext, limit).pieces()]);
}

/** The log fields carried whole in a context: the build's own and the last green build's. */
function logsOf(ci: CiContext): { path: 'build' | 'green'; field: 'consoleLog' | 'consoleLogTail'; text: string }[] {
  const out: { path: 'build' | 'green'; field: 'consoleLog' | 'consoleLogTail'; text: string }[] = [];
  const build = ci.buildDetails;
  if (!build) return out;
  for (const field of ['consoleLog', 'consoleLogTail'] as const) {
    const v = build[field];
    if (typeof v === 'string') out.push({ path: 'build', field, text: v });
  }
  const green = build.lastSuccessfulBuild;
  if (typeof green === 'object' && green !== null) {
    for (const field of ['consoleLog', 'consoleLogTail'] as const) {
      const v = green[field];
      if (typeof v === 'string') out.push({ path: 'green', field, text: v });
    }
  }
  return out;
}

/** Cuts a string into slices that never split a surrogate pair (each escapes as its part of the whole). */
function* slices(text: string): Generator<string> {
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + ESCAPE_SLICE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(i, end);
    i = end;
  }
}

const escapedSlice = (slice: string): Buffer => Buffer.from(JSON.stringify(slice).slice(1, -1), 'utf8');

/** Bytes of `text` escaped into a JSON string, without its quotes. */
function escapedLength(text: string): number {
  let n = 0;
  for (const slice of slices(text)) n += Buffer.byteLength(JSON.stringify(slice)) - 2;
  return n;
}

function assemble(ciContext: CiContext): ContextBody {
  const logs = logsOf(ciContext);
  if (logs.reduce((n, l) => n + l.text.length, 0) < ESCAPE_SLICE_CHARS) {
    const whole = Buffer.from(JSON.stringify({ ciContext }));
    return { length: whole.length, *pieces() { yield whole; } };
  }
  // The logs' places are marked with tokens no log holds (a NUL and a random nonce).
  const nonce = randomBytes(8).toString('hex');
  const token = (i: number) => `\u0000cichat-log-${nonce}-${i}\u0000`;
  const build = { ...ciContext.buildDetails };
  let greenCopy: Record<string, unknown> | undefined;
  logs.forEach((l, i) => {
    if (l.path === 'build') build[l.field] = token(i);
    else {
      greenCopy ??= { ...(build.lastSuccessfulBuild as Record<string, unknown>) };
      greenCopy[l.field] = token(i);
    }
  });
  if (greenCopy) build.lastSuccessfulBuild = greenCopy;
  const skeleton = JSON.stringify({ ciContext: { ...ciContext, buildDetails: build } });
  const parts: (Buffer | string)[] = [];
  let rest = skeleton;
  logs.forEach((l, i) => {
    const marker = JSON.stringify(token(i)).slice(1, -1);
    const at = rest.indexOf(marker);
    parts.push(Buffer.from(rest.slice(0, at)), l.text);
    rest = rest.slice(at + marker.length);
  });
  parts.push(Buffer.from(rest));
  const length = parts.reduce((n, p) => n + (typeof p === 'string' ? escapedLength(p) : p.length), 0);
  return {
    length,
    *pieces() {
      for (const p of parts) {
        if (typeof p !== 'string') yield p;
        else for (const slice of slices(p)) yield escapedSlice(slice);
      }
    },
  };
}

/** The raw-log upload under `/chatbot-api` (POST): `/context/<chat id>/log` as the backend has it. */
export const CONTEXT_LOG_ROUTE = '/context/:chatId/log';
/** The backend's limit on the X-Cichat-Context header (backend/routes/context.ts). */
const FACTS_HEADER_MAX_CHARS = 12 * 1024;

/**
 * The raw log (any size, `text/plain`, optionally gzip) streamed to the backend as it arrives:
 * the controller never holds it. With `?jobName=J[&buildNumber=N]` the facts JENKINS_HOME holds
 * about that build (without its log: the log is the body) go along in X-Cichat-Context, the
 * caller's own header laid over them; what does not fit the header's 12 KiB is left out, the
 * biggest parts first, and the context says so (`factsOmitted`).
 */
export async function uploadContextLog(ctx: Context, userId: string, deps: ContextRouteDeps): Promise<void> {
  const jobName = typeof ctx.query.jobName === 'string' && ctx.query.jobName !== '' ? ctx.query.jobName : undefined;
  // Checked as the JSON body's buildNumber is: `?buildNumber=abc` is a 422 naming it, not a 404 for a build "abc".
  if (ctx.query.buildNumber !== undefined) parseInput(contextRequestSchema, { buildNumber: ctx.query.buildNumber });
  const buildQuery = typeof ctx.query.buildNumber === 'string' && ctx.query.buildNumber !== '' ? ctx.query.buildNumber : undefined;
  const headers: Record<string, string | string[] | undefined> = { ...ctx.req.headers };
  if (jobName !== undefined) {
    const buildNumber = buildQuery === undefined ? undefined : /^\d+$/.test(buildQuery) ? Number(buildQuery) : await resolveBuildRef(deps.jenkinsHome, jobName, buildQuery);
    let result: CiContextResult;
    try {
      const workspace = deps.workspace ? { workspace: deps.workspace } : {};
      result = await deps.buildCiContext({ jenkinsHome: deps.jenkinsHome, jobName, ...(buildNumber !== undefined ? { buildNumber } : {}), ...workspace });
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new Error(`Could not read the CI context from JENKINS_HOME ${deps.jenkinsHome}`, { cause: err });
    }
    if (result.notFound) {
      const missing = result.problems[0];
      throw new NotFound(`${missing?.error.message ?? `No job ${jobName} in JENKINS_HOME`}: no context was uploaded`, missing ? notFoundCode(missing.error) : 'job_not_found');
    }
    const sentHeader = ctx.get('x-cichat-context');
    let sent: CiContext | undefined;
    if (sentHeader !== '') {
      try {
        sent = JSON.parse(Buffer.from(sentHeader, 'base64url').toString('utf8')) as CiContext;
      } catch {
        throw new BadRequest('X-Cichat-Context: not base64url-encoded JSON');
      }
    }
    const home = withoutLogs(result.context);
    const merged = mergeContexts(home, sent, undefined);
    // The caller's snippets (read where the build ran: `cichat ask --workspace`) first, then the
    // controller's own for other files, as the JSON upload does.
    const snippets = mergeSnippets(sent?.workspaceSnippets as WorkspaceSnippet[] | undefined, home.workspaceSnippets as WorkspaceSnippet[] | undefined);
    const change = sent?.workspaceChanges ?? home.workspaceChanges;
    headers['x-cichat-context'] = factsHeader({ ...withoutNotRead(merged, change !== home.workspaceChanges), ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}), ...(change ? { workspaceChanges: change } : {}) });
  }
  ctx.respond = false;
  await deps.proxy.forward(ctx.req, ctx.res, {
    method: ctx.method,
    pathAndQuery: ctx.url.slice('/chatbot-api'.length),
    headers,
    userId,
  });
}

/** A context without any build log (the body carries the log). */
function withoutLogs(ci: CiContext): CiContext {
  if (!ci.buildDetails) return ci;
  const { consoleLog: _l, consoleLogTail: _t, ...build } = ci.buildDetails;
  const green = build.lastSuccessfulBuild;
  if (typeof green === 'object' && green !== null) {
    const { consoleLog: _g, consoleLogTail: _gt, ...greenRest } = green;
    build.lastSuccessfulBuild = greenRest;
  }
  return { ...ci, buildDetails: build };
}

/** The facts as the header's base64url JSON, the biggest top-level parts left out until it fits. */
export function factsHeader(ci: CiContext): string {
  const encode = (c: CiContext) => Buffer.from(JSON.stringify(c)).toString('base64url');
  let out = ci;
  const omitted: string[] = [];
  while (encode(out).length > FACTS_HEADER_MAX_CHARS) {
    const keys = Object.keys(out).filter((k) => k !== 'factsOmitted');
    if (keys.length === 0) break;
    const biggest = keys.reduce((a, b) => (JSON.stringify(out[a]).length >= JSON.stringify(out[b]).length ? a : b));
    const { [biggest]: _gone, ...rest } = out;
    omitted.push(biggest);
    out = { ...rest, factsOmitted: `left out to fit the ${FACTS_HEADER_MAX_CHARS / 1024} KiB header beside a raw log: ${omitted.join(', ')}` };
  }
  return encode(out);
}
