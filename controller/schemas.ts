import { z } from 'zod';
import { PERMALINKS, isPermalink } from '../jenkins/jobs.js';
import { badRequest, pathTraversal } from '../jenkins/workspace/errors.js';
import { relativePathSegments } from '../jenkins/workspace/pathguard.js';
import { MAX_TREE_DEPTH } from '../jenkins/workspace/tree.js';

/**
 * The zod schemas of what the controller's own routes read from a caller (the context request
 * body and the workspace queries). The routes validate with them and the API description is made
 * from them, so the two cannot drift apart. What is only relayed to the backend is the backend's
 * to validate.
 */

/** Limits of the `ciEnvironment` a pipeline step sends (`cichat context upload --from-env`). */
export const CI_ENVIRONMENT_MAX_VARIABLES = 200;
export const CI_ENVIRONMENT_MAX_VALUE_CHARS = 4000;

/** A string field that may be absent or null; an empty string counts as absent. */
const optionalText = z
  .string({ error: 'must be a string' })
  .nullish()
  .transform((v) => (v === null || v === '' ? undefined : v));

/** A build number as a JSON number or a string of digits (form posts send strings). */
const buildNumber = z
  .union([z.number(), z.string(), z.null()], { error: 'must be a positive whole number' })
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === null || raw === '') return undefined;
    const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message: 'must be a positive whole number' });
      return z.NEVER;
    }
    return n;
  });

const ciEnvironment = z
  .record(
    z.string(),
    z
      .string({ error: 'must be a string' })
      .max(CI_ENVIRONMENT_MAX_VALUE_CHARS, `must be at most ${CI_ENVIRONMENT_MAX_VALUE_CHARS} characters`),
    { error: 'must be an object of strings' },
  )
  .nullish()
  .superRefine((env, ctx) => {
    if (env && Object.keys(env).length > CI_ENVIRONMENT_MAX_VARIABLES) {
      ctx.addIssue({ code: 'custom', message: `must hold at most ${CI_ENVIRONMENT_MAX_VARIABLES} variables` });
    }
  })
  .transform((env) => (env && Object.keys(env).length > 0 ? env : undefined));

/**
 * `POST|PUT /chatbot-api/context/...`: what the caller may say about the context; every field
 * optional (the original plugin's browser client posts `{}` and lets the Referer name the
 * build). Other fields are ignored: the controller builds the context from JENKINS_HOME.
 */
export const ContextRequestSchema = z
  .looseObject({
    currentScreen: optionalText,
    jobName: optionalText,
    buildNumber,
    consoleLog: z
      .string({ error: 'must be a string' })
      .nullish()
      .transform((v) => v ?? undefined),
    /** The last passing build's log (`cichat context upload --baseline-log`): sent as `buildDetails.lastSuccessfulBuild`. */
    baselineLog: z
      .string({ error: 'must be a string' })
      .nullish()
      .transform((v) => v ?? undefined),
    /** The pipeline's own variables: kept as `ciContext.ciEnvironment`. */
    ciEnvironment,
  })
  .describe('What the caller says about the context; the controller reads the rest from JENKINS_HOME.');

export type ContextRequestInput = z.output<typeof ContextRequestSchema>;

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
  queryParam(true).transform((v) => {
    relativePathSegments(v, what);
    return v;
  });

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
