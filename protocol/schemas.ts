/**
 * The wire schemas, by shape: the CiContext codec (protocol/ciContext.ts) and the HTTP API's
 * bodies and answers (protocol/api.ts). One import place for the routes, the controller's OpenAPI
 * document and the tests; protocol/types.ts infers the types from the same schemas.
 */
export {
  MAX_SNIPPETS,
  MAX_SNIPPET_CHARS,
  SECRET_PARAMETER_NAME,
  buildDetailsSchema,
  buildHistorySchema,
  buildSummarySchema,
  ciContextSchema,
  historyVerdictSchema,
  jobDetailsSchema,
  normaliseCiContext,
  pluginList,
  uploadContextBodySchema,
  withoutNulls,
  workspaceChangesNotReadSchema,
  workspaceChangesSchema,
  workspaceSnippetSchema,
  workspaceSnippetsSchema,
  type CiContextUpload,
} from './ciContext.js';
export {
  BUILD_PERMALINKS,
  answerSchema,
  answerStatusSchema,
  chatPageSchema,
  chatSchema,
  contextRequestSchema,
  createChatBodySchema,
  editMessageBodySchema,
  errorBodySchema,
  paginationQuerySchema,
  qaPairPageSchema,
  qaPairSchema,
  questionSchema,
  renameChatBodySchema,
  sendMessageBodySchema,
  sourceSchema,
  streamEventSchema,
  textOfLength,
  uploadContextAnswerSchema,
} from './api.js';
