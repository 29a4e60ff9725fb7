import type { CiContext, LogExcerpt, Source } from '../../protocol/types.js';
import type { LogNotKept } from '../store/contexts.js';

/** One earlier exchange of the chat, oldest first, as the engine sees it. */
export interface HistoryTurn {
  question: string;
  answer: string;
}

/** A line range of the chat's stored (masked, cleaned) build log, with its text. */
export interface LogPassage {
  start_line: number;
  end_line: number;
  text: string;
  score: number;
}

/** What the engine knows of the chat's uploaded context (secrets already masked). */
export interface ChatContext {
  ciContext: CiContext;
  uploadedAt: string;
  /** Number of lines of the stored log; 0 when the upload held no log. */
  logLineCount: number;
  /**
   * Lines of a big log the context does not hold (the bounded store, issue 28): answers that
   * rest on the log say so (`notKeptSentence`). Absent when the whole log is held.
   */
  logNotKept?: LogNotKept;
  /** The analyzer's ranked failure excerpts of the log, computed at upload, with their text. */
  failureExcerpts: (LogExcerpt & { text: string })[];
  /** Hybrid retrieval over the log's chunks (vector + exact terms); [] when there is no log. */
  retrieve(query: string, k: number): Promise<LogPassage[]>;
  /**
   * Lines `from`-`to` of the stored log, as `GET /context/{id}/log` gives them (a line the bounded
   * store did not keep is absent). The answers hold only the log's tail in memory
   * (`consoleLogTail`); this reads the rest. Absent where no store is behind the context.
   */
  readLines?(from: number, to: number): Promise<{ n: number; text: string }[]>;
}

export interface AnswerRequest {
  question: string;
  /** Recent history, oldest first, superseded pairs excluded. */
  history: HistoryTurn[];
  /** null when nothing was uploaded to this chat. */
  context: ChatContext | null;
  /** Aborted when the client goes away: stop generating and abort any upstream request. */
  signal: AbortSignal;
  /** The chat's user and the chat: on whose behalf the workspace tools run (openai engine). */
  userId?: string;
  chatId?: number;
}

export interface AnswerStream {
  /**
   * What the answer rests on; recorded on the pair. Known before the first piece, except the
   * openai engine's tool calls, which are added to this array as they happen (read it when the
   * pieces end).
   */
  sources: Source[];
  /** The answer text, piece by piece. Throws on engine failure; stops when the signal aborts. */
  pieces: AsyncIterable<string>;
}

/** An answer engine: `local` (offline) or `openai` (any OpenAI-compatible server). */
export interface AnswerEngine {
  readonly name: string;
  answer(request: AnswerRequest): Promise<AnswerStream>;
}
