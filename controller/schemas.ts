import { z } from 'zod';
import { PERMALINKS, isPermalink } from '../jenkins/jobs.js';
import { badRequest, pathTraversal } from '../jenkins/workspace/errors.js';
import { relativePathSegments } from '../jenkins/workspace/pathguard.js';
import { MAX_TREE_DEPTH } from '../jenkins/workspace/tree.js';

/**
 * The zod schemas of the workspace queries the controller reads from a caller (the context
 * request body's schema is wire shape: protocol/schemas.ts `contextRequestSchema`). The routes
 * validate with them and the API description (controller/openapi.ts) is made from them, so the
 * two cannot drift apart. What is only relayed to the backend is the backend's to validate.
 */

/**
 * One query parameter: a single non-empty string. Missing, empty and repeated parameters get the
 * contract's 400 wording (`jobName is required`, `jobName must be given once`).
 */
function queryParam(required: true): z.ZodType<string, unknown>;
function queryParam(required: false): z.ZodType<string | undefined, unknown>;
function queryParam(required: boolean): z.ZodType<string | undefined, unknown> {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v, ctx) => {
      if (Array.isArray(v)) {
        ctx.addIssue({ code: 'custom', message: 'must be given once' });
        return z.NEVER;
      }
      if (v === undefined || v === '') {
        if (required) ctx.addIssue({ code: 'custom', message: 'is required' });
        return undefined;
      }
      return v;
    });
}

/** A build number, or a permalink name (`lastFailedBuild`) that discovery resolves. */
const buildNumberParam = queryParam(true).transform((raw, ctx): number | string => {
  if (/^[1-9][0-9]{0,9}$/.test(raw)) return Number(raw);
  if (isPermalink(raw)) return raw;
  // A traversal attempt keeps the phrase clients and tests look for.
  if (/[./\\%\0]/.test(raw)) throw pathTraversal('buildNumber must be a build number');
  ctx.addIssue({ code: 'custom', message: `must be a positive integer or one of ${PERMALINKS.join(', ')}` });
  return z.NEVER;
});

const depthParam = queryParam(false).transform((raw, ctx): number | undefined => {
  if (raw === undefined) return undefined;
  const depth = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(depth >= 1 && depth <= MAX_TREE_DEPTH)) {
    ctx.addIssue({ code: 'custom', message: `must be between 1 and ${MAX_TREE_DEPTH}` });
    return z.NEVER;
  }
  return depth;
});

/**
 * A relative path inside something (a job folder path, a file in a workspace): `..`, absolute
 * paths and the like are refused with the contract's `Path traversal` 400, thrown as it is.
 */
const relativePath = (what?: string) =>
  queryParam(true).transform((v, ctx) => {
    relativePathSegments(v, what);
    // Past what a file system can name the path names nothing: 400, not the OS's ENAMETOOLONG (a 500).
    const tooLong = Buffer.byteLength(v) > MAX_PATH_BYTES || v.split('/').some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES);
    if (tooLong) {
      ctx.addIssue({ code: 'custom', message: `is too long: at most ${MAX_PATH_BYTES} bytes, each part between slashes at most ${MAX_NAME_BYTES}` });
      return z.NEVER;
    }
    return v;
  });

/** The longest path and file name a file system takes (Linux PATH_MAX and NAME_MAX, in bytes). */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

const workspaceIdParam = relativePath('workspaceId').refine((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id), {
  message: 'must be "ws-default" or a flow node id from workspaceTree',
});

/** `GET /chatbot-api/workspaceTree` */
export const WorkspaceTreeQuerySchema = z.object({
  /** Job names are folder paths (`team/app`): the same traversal rules as file paths apply. */
  jobName: relativePath('jobName'),
  buildNumber: buildNumberParam,
  depth: depthParam,
});

/** `GET /chatbot-api/history` (issue 29) */
export const HistoryQuerySchema = z.object({
  jobName: relativePath('jobName'),
  buildNumber: buildNumberParam.optional(),
  window: z
    .string()
    .regex(/^\d+$/, 'must be between 2 and 1000')
    .transform(Number)
    .refine((n) => n >= 2 && n <= 1000, 'must be between 2 and 1000')
    .optional()
    .meta({ description: 'How many of the last builds to look at (default CICHAT_HISTORY_BUILDS, 50)' }),
});

/** `GET /chatbot-api/workspaceFile` */
export const WorkspaceFileQuerySchema = z.object({
  jobName: relativePath('jobName'),
  buildNumber: buildNumberParam,
  workspaceId: workspaceIdParam,
  filePath: relativePath(),
});

/**
 * Parses a workspace query, answering the contract's workspace 400 (`{status: "error",
 * message}`, e.g. `depth must be between 1 and 20`) for the first wrong parameter.
 */
export function parseWorkspaceQuery<T>(schema: z.ZodType<T>, query: unknown): T {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? 'query';
  throw badRequest(`${field} ${issue?.message ?? 'is invalid'}`);
}

/** `GET /chatbot-api/failures?limit=`: how many of the caller's failed builds (controller/watch/routes.ts). */
export const FailuresQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be between 1 and 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'must be between 1 and 100')
    .default(20)
    .meta({ description: 'How many failures, newest first (1-100, default 20)' }),
});

/** `POST /chatbot-api/failures/{chat_id}/read`: the chat the watcher made for a failure. */
export const FailureReadParamsSchema = z.object({
  chat_id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'must be a chat id (a positive whole number)')
    .transform(Number),
});

/** One failed build the watcher saw (protocol/types.ts `WatchedFailure`). */
export const WatchedFailureSchema = z.object({
  job: z.string(),
  build: z.number().int(),
  result: z.string(),
  cause: z.string(),
  chat_id: z.number().int().nullable(),
  unread: z.boolean(),
  build_url: z.string().nullable(),
  detected_at: z.string().meta({ format: 'date-time' }),
  diagnosed_at: z.string().meta({ format: 'date-time' }),
  error: z.string().optional().meta({ description: 'Why no diagnosis could be made (the build vanished, the backend kept failing)' }),
});

/** The answer of `GET /chatbot-api/failures`. */
export const FailuresPageSchema = z.object({
  items: z.array(WatchedFailureSchema),
  watching: z.literal(true),
  ready: z.boolean().meta({ description: 'The first scan of JENKINS_HOME is done: builds that end from now on are announced' }),
});
