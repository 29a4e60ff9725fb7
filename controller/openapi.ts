/**
 * `GET /chatbot-api/openapi.json`: the OpenAPI 3.1 document of the controller's API (CONTRACT
 * sections 2 and 3), generated with `z.toJSONSchema` from the zod schemas of protocol/schemas.ts
 * that the routes validate with: the backend's chat and message bodies, the controller's context
 * request (and the CiContext and workspace snippets it may carry), the workspace queries, the
 * failed-build watcher's routes.
 */
import { z } from 'zod';
import {
  chatPageSchema,
  chatSchema,
  ciContextSchema,
  contextRequestSchema,
  createChatBodySchema,
  editMessageBodySchema,
  errorBodySchema,
  paginationQuerySchema,
  qaPairPageSchema,
  qaPairSchema,
  renameChatBodySchema,
  sendMessageBodySchema,
  sourceSchema,
  streamEventSchema,
  uploadContextAnswerSchema,
  workspaceChangesNotReadSchema,
  workspaceChangesSchema,
  workspaceSnippetSchema,
} from '../protocol/schemas.js';
import {
  FailuresPageSchema,
  FailuresQuerySchema,
  HistoryQuerySchema,
  WatchedFailureSchema,
  WorkspaceFileQuerySchema as workspaceFileQuerySchema,
  WorkspaceTreeQuerySchema as workspaceTreeQuerySchema,
} from './schemas.js';

type Json = Record<string, unknown>;

/** The named schemas of the document (`#/components/schemas/<name>`), each generated from its zod schema. */
export const COMPONENTS = {
  CiContext: ciContextSchema,
  ContextRequest: contextRequestSchema,
  CreateChatBody: createChatBodySchema,
  RenameChatBody: renameChatBodySchema,
  SendMessageBody: sendMessageBodySchema,
  EditMessageBody: editMessageBodySchema,
  Chat: chatSchema,
  ChatPage: chatPageSchema,
  QAPair: qaPairSchema,
  QAPairPage: qaPairPageSchema,
  Source: sourceSchema,
  StreamEvent: streamEventSchema,
  ContextUploaded: uploadContextAnswerSchema,
  Error: errorBodySchema,
  WatchedFailure: WatchedFailureSchema,
  FailuresPage: FailuresPageSchema,
  WorkspaceSnippet: workspaceSnippetSchema,
  WorkspaceChanges: workspaceChangesSchema,
  WorkspaceChangesNotRead: workspaceChangesNotReadSchema,
};

const ref = (id: keyof typeof COMPONENTS): Json => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json, description: string): Json => ({ description, content: { 'application/json': { schema } } });
const errors = (...codes: number[]): Json => {
  const text: Record<number, string> = {
    400: 'Malformed request (not JSON, bad parameters, path traversal)',
    401: 'No or bad caller identity (tokens mode)',
    403: 'Host or origin not allowed',
    404: 'Not found, or not yours',
    409: 'The chat already has an answer streaming',
    413: 'Body over the limit (context 64 MiB, else 1 MiB)',
    415: 'Not JSON, or a binary file',
    422: 'A field of the wrong type or out of range, named in `detail`',
    502: 'Backend unreachable',
  };
  return Object.fromEntries(codes.map((c) => [String(c), json(ref('Error'), text[c] ?? 'Error')]));
};
const sse = (description: string): Json => ({
  description,
  content: { 'text/event-stream': { schema: { type: 'string', description: 'Lines `data: <StreamEvent JSON>` and blank lines; `: ping` every 15 s of silence' }, itemSchema: ref('StreamEvent') } },
});
const pathParam = (name: string): Json => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });

/** Query parameters from a zod object schema, each described by its own JSON Schema. */
function queryParams(schema: z.ZodObject): Json[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const { $schema: _s, description, ...rest } = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as Json;
    const required = !field.safeParse(undefined).success;
    return { name, in: 'query', required, schema: rest, ...(typeof description === 'string' ? { description } : {}) };
  });
}

function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema as z.ZodType, { id });
  const out = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  const schemas: Record<string, Json> = {};
  for (const [id, s] of Object.entries(out.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = s as Json;
    schemas[id] = rest;
  }
  return schemas;
}

let cached: string | undefined;

/** The document, built once per process. */
export function openApiDocument(): Json {
  return JSON.parse(openApiText()) as Json;
}

/** The document as JSON text (what the route serves). */
export function openApiText(): string {
  cached ??= JSON.stringify(build());
  return cached;
}

function build(): Json {
  const chatId = pathParam('chat_id');
  const pairId = pathParam('qa_pair_id');
  return {
    openapi: '3.1.0',
    info: {
      title: 'cichat controller API',
      version: '1',
      description:
        'Browsers and the CLI talk to the controller; it proxies to the backend with a fresh JWT for the caller. Every path is served with and without a trailing slash. Errors are `{detail}`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/chatbot-api' }],
    components: {
      schemas: componentSchemas(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'CONTROLLER_AUTH=tokens only; in `none` mode every caller is CONTROLLER_USER' } },
    },
    security: [{}, { bearer: [] }],
    paths: {
      '/healthz': { get: { summary: 'Backend health (no caller identity needed)', security: [], responses: { 200: json({ type: 'object', properties: { status: { const: 'ok' } } }, 'Healthy'), 503: json(ref('Error'), 'Database unavailable') } } },
      '/openapi.json': { get: { summary: 'This document', security: [], responses: { 200: json({ type: 'object' }, 'OpenAPI 3.1') } } },
      '/chats/': {
        get: { summary: 'The caller\'s chats, most recently updated first', parameters: queryParams(paginationQuerySchema), responses: { 200: json(ref('ChatPage'), 'A page of chats'), ...errors(401, 422) } },
        post: { summary: 'New chat', requestBody: { content: { 'application/json': { schema: ref('CreateChatBody') } } }, responses: { 201: json(ref('Chat'), 'Created'), ...errors(400, 401, 415, 422) } },
      },
      '/chats/{chat_id}': {
        parameters: [chatId],
        get: { summary: 'The chat\'s question-answer pairs, newest first', parameters: queryParams(paginationQuerySchema), responses: { 200: json(ref('QAPairPage'), 'A page of pairs'), ...errors(401, 404, 422) } },
        delete: { summary: 'Deletes the chat, its pairs, context and index', responses: { 200: json({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }, 'Deleted'), ...errors(401, 404) } },
      },
      '/chats/{chat_id}/title': {
        parameters: [chatId],
        put: { summary: 'Renames the chat', requestBody: { content: { 'application/json': { schema: ref('RenameChatBody') } } }, responses: { 200: json(ref('Chat'), 'Renamed'), ...errors(400, 401, 404, 415, 422) } },
      },
      '/messages/send': {
        post: { summary: 'Asks a question; the answer streams', requestBody: { content: { 'application/json': { schema: ref('SendMessageBody') } } }, responses: { 200: sse('The answer as Server-Sent Events'), ...errors(400, 401, 404, 409, 415, 422) } },
      },
      '/messages/{qa_pair_id}/retry': {
        parameters: [pairId],
        post: { summary: 'Answers the same question again as a new pair', responses: { 200: sse('The new answer'), ...errors(401, 404, 409) } },
      },
      '/messages/{qa_pair_id}/edit': {
        parameters: [pairId],
        put: { summary: 'Replaces the question and answers it', requestBody: { content: { 'application/json': { schema: ref('EditMessageBody') } } }, responses: { 200: sse('The new answer'), ...errors(400, 401, 404, 409, 415, 422) } },
      },
      '/context/{chat_id}/': {
        parameters: [chatId],
        post: {
          summary: 'Uploads the CI context of a job and build, read from JENKINS_HOME',
          description:
            'The job and build come from the body, else from the `Referer` path (a browser client sends `{}`). A client may add its own `ciContext` (canonical names or aliases), laid over what JENKINS_HOME says.',
          parameters: [{ name: 'Referer', in: 'header', required: false, schema: { type: 'string' }, description: 'The Jenkins page, e.g. `<root>/job/team/job/api/42/console`' }],
          requestBody: { content: { 'application/json': { schema: ref('ContextRequest') } } },
          responses: { 200: json(ref('ContextUploaded'), 'Stored'), ...errors(400, 401, 404, 413, 415, 422, 502) },
        },
      },
      '/context/{chat_id}/last-upload': {
        parameters: [chatId],
        get: { summary: 'When context was last uploaded', responses: { 200: json({ type: 'object', properties: { last_upload_at: { type: ['string', 'null'], format: 'date-time' } }, required: ['last_upload_at'] }, 'The time, or null'), ...errors(401, 404) } },
      },
      '/context/{chat_id}/log': {
        parameters: [chatId],
        get: {
          summary: "Lines of the chat's stored build log, numbered as answers cite them (`[L120-L131]`)",
          description: 'Cleaned and masked as stored; at most 2000 lines at once; a line is cut at 10000 characters. No context: no lines, total_lines 0.',
          parameters: [
            { name: 'from', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
            { name: 'to', in: 'query', required: false, schema: { type: 'integer', minimum: 1, description: 'Inclusive; default from + 1999; at most from + 1999' } },
          ],
          responses: {
            200: json(
              {
                type: 'object',
                properties: {
                  lines: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' }, text: { type: 'string' } }, required: ['n', 'text'] } },
                  total_lines: { type: 'integer' },
                  from: { type: 'integer' },
                  to: { type: 'integer' },
                },
                required: ['lines', 'total_lines', 'from', 'to'],
              },
              'The lines',
            ),
            ...errors(401, 404, 422),
          },
        },
        post: {
          summary: "Upload the build log itself as the chat's context: any size, streamed, optionally gzip",
          description:
            'The body is the raw log (never held whole by the controller or the backend). `?jobName` (and `buildNumber`, a number or a permalink) adds what JENKINS_HOME holds about that build, without its log, in `X-Cichat-Context`; the caller may send its own `X-Cichat-Context` (the ciContext without its log, base64url JSON, at most 12 KiB). An empty or white-space-only body (422), a body that is not gzip (400) or another type (415) keeps the previous context.',
          parameters: [
            { name: 'jobName', in: 'query', required: false, schema: { type: 'string' }, description: 'Full job name, e.g. `team/api`' },
            { name: 'buildNumber', in: 'query', required: false, schema: { type: 'string' }, description: 'A build number or a permalink (`lastFailedBuild`)' },
            { name: 'Content-Encoding', in: 'header', required: false, schema: { type: 'string', enum: ['gzip', 'identity'] } },
            { name: 'X-Cichat-Context', in: 'header', required: false, schema: { type: 'string' }, description: 'The ciContext without its log, as base64url JSON' },
          ],
          requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } }, 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          responses: {
            200: json(
              { type: 'object', properties: { success: { type: 'boolean' }, received_data: { type: 'object' }, log_lines: { type: 'integer' } }, required: ['success', 'received_data', 'log_lines'] },
              'Stored',
            ),
            ...errors(400, 401, 404, 415, 422, 502, 503),
          },
        },
      },
      '/failures': {
        get: {
          summary: 'The caller\'s recent failed builds the watcher diagnosed, newest first',
          description: 'With CICHAT_WATCH off: 404 naming the variable.',
          parameters: queryParams(FailuresQuerySchema),
          responses: { 200: json(ref('FailuresPage'), 'The failures'), ...errors(401, 404, 422) },
        },
      },
      '/failures/{chat_id}/read': {
        parameters: [chatId],
        post: {
          summary: 'Marks the chat of a failure read (opening the chat does the same)',
          responses: { 200: json({ type: 'object', properties: { chat_id: { type: 'integer' }, unread: { const: false } }, required: ['chat_id', 'unread'] }, 'Marked read'), ...errors(401, 404, 422) },
        },
      },
      '/history': {
        get: {
          summary: 'A job\'s last builds with the fingerprint of each failure, and the verdict of one failed build (new, recurring, flaky, fixed-and-back) with its evidence builds',
          description: 'buildNumber: a number or a permalink; default the newest failed or unstable build. Job or build unknown: 404.',
          parameters: queryParams(HistoryQuerySchema),
          responses: { 200: json({ type: 'object', properties: { job: { type: 'string' }, window: { type: 'integer' }, builds: { type: 'array', items: { type: 'object' } }, build: { type: ['integer', 'null'] }, history: { type: ['object', 'null'] } }, required: ['job', 'window', 'builds', 'build', 'history'] }, 'The history'), ...errors(401, 404, 422) },
        },
      },
      '/workspaceTree': {
        get: {
          summary: 'The build\'s workspaces and their file trees',
          parameters: queryParams(workspaceTreeQuerySchema),
          responses: { 200: json({ type: 'array', items: { type: 'object', properties: { workspaceId: { type: 'string' }, node: { type: 'string' }, path: { type: 'string' }, tree: { type: 'object' } }, required: ['workspaceId', 'node', 'tree'] } }, 'One entry per workspace'), ...errors(400, 401, 404) },
        },
      },
      '/workspaceFile': {
        get: {
          summary: 'One file of a workspace (cut at 50000 characters)',
          parameters: queryParams(workspaceFileQuerySchema),
          responses: { 200: json({ type: 'object', properties: { status: { const: 'success' }, content: { type: 'string' } }, required: ['status', 'content'] }, 'The file'), ...errors(400, 401, 404, 415) },
        },
      },
    },
  };
}
