/**
 * The HTTP API's own shapes (CONTRACT sections 2 and 3), beside the CiContext codec
 * (protocol/ciContext.ts): the controller's context request, the chat API's bodies, and the
 * answers' shapes. The routes validate with these, the OpenAPI document the controller serves is
 * generated from them, and protocol/types.ts infers its types from them.
 */
import { z } from 'zod';
import { ciContextSchema, workspaceChangesSchema, workspaceSnippetsSchema } from './ciContext.js';
import { opt, str } from './fields.js';

// ---------------------------------------------------------------------------------------------
// The controller's own inputs (CONTRACT section 3), validated with these and described by them in
// GET /chatbot-api/openapi.json.

/** The build permalinks a context request may name instead of a number (Jenkins' own names). */
export const BUILD_PERMALINKS = ['lastBuild', 'lastCompletedBuild', 'lastFailedBuild', 'lastSuccessfulBuild', 'lastUnsuccessfulBuild', 'lastStableBuild', 'lastUnstableBuild'] as const;

const BUILD_NUMBER_ERROR = `must be a positive whole number or one of ${BUILD_PERMALINKS.join(', ')}`;

/** `POST|PUT /chatbot-api/context/{chat_id}/`: what the caller may say; `{}` is valid (Referer decides). */
export const contextRequestSchema = z
  .looseObject(
    {
      currentScreen: opt(str),
      jobName: opt(str),
      buildNumber: opt(
        z.union(
          [
            z
              .number({ error: BUILD_NUMBER_ERROR })
              .int({ error: BUILD_NUMBER_ERROR })
              .min(1, { error: BUILD_NUMBER_ERROR })
              .max(Number.MAX_SAFE_INTEGER, { error: BUILD_NUMBER_ERROR }),
            z.string({ error: BUILD_NUMBER_ERROR }).regex(/^\d{1,15}$/, { error: BUILD_NUMBER_ERROR }).refine((s) => Number(s) >= 1, { message: BUILD_NUMBER_ERROR }),
            z.literal('', { error: BUILD_NUMBER_ERROR }),
            // A permalink Jenkins keeps per job: the controller resolves it (`cichat ask --job J`
            // without --build sends `lastCompletedBuild` or `lastFailedBuild`).
            z.enum(BUILD_PERMALINKS, { error: BUILD_NUMBER_ERROR }),
          ],
          { error: BUILD_NUMBER_ERROR },
        ),
      ),
      consoleLog: opt(str),
      /** The last passing build's log (`cichat context upload --baseline-log`). */
      baselineLog: opt(str),
      ciEnvironment: opt(
        z
          .record(z.string(), z.string({ error: 'must be a string' }).max(4000, { error: 'must be at most 4000 characters' }), {
            error: 'must be an object of strings',
          })
          .refine((env) => Object.keys(env).length <= 200, { message: 'must hold at most 200 variables' }),
      ),
      workspaceSnippets: opt(workspaceSnippetsSchema),
      workspaceChanges: opt(workspaceChangesSchema),
      ciContext: opt(ciContextSchema),
      jenkinsContext: opt(ciContextSchema),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'ContextRequest' });

// ---------------------------------------------------------------------------------------------
// The chat API's inputs (CONTRACT section 2), validated by the backend's routes with these, and
// the answers' shapes, for the OpenAPI document the controller serves.

/** Length in characters (code points), as MySQL's utf8mb4 columns count them. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A string of min..max characters (code points), with the contract's messages. */
export function textOfLength(min: number, max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
    .refine((s) => codePoints(s) >= min && codePoints(s) <= max, { message: `must be between ${min} and ${max} characters` })
    .meta({ minLength: min, maxLength: max });
}

export const createChatBodySchema = z.object({ title: textOfLength(1, 200).optional() }).meta({ id: 'CreateChatBody' });
export const renameChatBodySchema = z.object({ new_title: textOfLength(1, 200) }).meta({ id: 'RenameChatBody' });
export const sendMessageBodySchema = z
  .object({
    chat_id: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)], {
      error: (iss) => (iss.input === undefined ? 'is required' : 'must be a chat id (a positive integer)'),
    }),
    content: textOfLength(1, 20000),
  })
  .meta({ id: 'SendMessageBody' });
export const editMessageBodySchema = z.object({ new_content: textOfLength(1, 20000) }).meta({ id: 'EditMessageBody' });

const isoDate = z.string().meta({ format: 'date-time', examples: ['2026-11-22T01:18:14.123Z'] });
export const chatSchema = z
  .object({
    id: z.number().int(),
    user_id: z.string(),
    title: z.string(),
    created_at: isoDate,
    updated_at: isoDate,
    job_name: z.string().nullable().optional().meta({ description: "The job of the chat's current context (jobDetails.fullName, else JOB_NAME); null when none" }),
    build_number: z.number().int().nullable().optional().meta({ description: "The build of the chat's current context (buildDetails.number, else BUILD_NUMBER); null when none" }),
  })
  .meta({ id: 'Chat' });
/** What an answer rests on. */
export const sourceSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('log'), start_line: z.number().int(), end_line: z.number().int() }),
    z.object({ kind: z.literal('context'), field: z.string() }),
    z.object({ kind: z.literal('file'), path: z.string(), start_line: z.number().int().optional(), end_line: z.number().int().optional() }),
    /** A workspace tool the `openai` engine called (list_workspace, read_workspace_file, search_log). */
    z.object({ kind: z.literal('tool'), name: z.string(), input: z.string(), ok: z.boolean() }),
  ])
  .meta({ id: 'Source' });
export const answerStatusSchema = z.enum(['streaming', 'complete', 'interrupted', 'failed']);
export const questionSchema = z.object({ id: z.number().int(), content: z.string(), created_at: isoDate });
export const answerSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  status: answerStatusSchema,
  sources: z.array(sourceSchema),
  created_at: isoDate,
});
export const qaPairSchema = z
  .object({
    id: z.number().int(),
    qa_pair_id: z.number().int(),
    chat_id: z.number().int(),
    created_at: isoDate,
    question: questionSchema,
    answer: answerSchema.nullable(),
  })
  .meta({ id: 'QAPair' });
const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), total_items: z.number().int(), limit: z.number().int(), offset: z.number().int() }).meta({ id });
export const chatPageSchema = pageOf(chatSchema, 'ChatPage');
export const qaPairPageSchema = pageOf(qaPairSchema, 'QAPairPage');

/**
 * The error codes a body may carry beside its `detail` (docs/notes/contract.md, section 2): a client tells these
 * errors apart by the code, not by the wording of `detail`.
 * - `job_not_found`: the controller's JENKINS_HOME has no job of that name.
 * - `build_not_found`: the job is there, but not the build (a number or a permalink such as `lastFailedBuild`).
 */
export const ERROR_CODES = ['job_not_found', 'build_not_found'] as const;

export const errorBodySchema = z.object({ detail: z.string(), code: z.enum(ERROR_CODES).optional() }).meta({ id: 'Error', description: 'Every error: one sentence a person can act on' });
export const streamEventSchema = z
  .union([
    z.object({ event: z.literal('started'), qa_pair_id: z.number().int() }),
    z.object({ event: z.literal('chunk'), content: z.string() }),
    z.object({ event: z.literal('done') }),
    z.object({ event: z.literal('error'), detail: z.string() }),
  ])
  .meta({ id: 'StreamEvent', description: 'One `data:` line of the text/event-stream answer' });
export const uploadContextAnswerSchema = z
  .object({ success: z.literal(true), received_data: z.looseObject({}).meta({ description: 'The stored context, canonical names, secrets masked' }) })
  .meta({ id: 'ContextUploaded' });
export const paginationQuerySchema = z
  .object({
    limit: z.string().regex(/^\d+$/).optional().meta({ description: '1-100, default 20' }),
    offset: z.string().regex(/^\d+$/).optional().meta({ description: '>= 0, default 0' }),
  })
  .meta({ id: 'PaginationQuery' });
