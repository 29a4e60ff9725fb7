/**
 * The offline answer engine, kept at this path for its importers: the engine itself is split by
 * groups of answers under `local/` (see `local/index.ts`).
 */
export { ANSWER_GROUPS, composeLocalAnswer, createLocalEngine, type Reply } from './local/index.js';
export type { AnswerGroup, Ask, Composer } from './local/reply.js';
