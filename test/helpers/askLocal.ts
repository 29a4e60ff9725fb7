/**
 * The answer tests' one way to read an engine's answer (issue 31 review: one shape for each thing):
 * `readAll` a stream's whole text, `askLocalAnswer` the offline engine's whole answer with its first
 * line and sources, `askLocal` its text (no typing delay).
 */
import type { AnswerStream, ChatContext, HistoryTurn } from '../../backend/answer/engine.js';
import { createLocalEngine } from '../../backend/answer/local.js';
import type { Source } from '../../protocol/types.js';

/** The whole text of an answer stream. */
export async function readAll(stream: AnswerStream): Promise<string> {
  let text = '';
  for await (const piece of stream.pieces) text += piece;
  return text;
}

export interface LocalAnswer {
  text: string;
  /** The answer's first line (its headline). */
  first: string;
  sources: Source[];
}

/** The offline engine's whole answer to one question over a chat context (no history unless given). */
export async function askLocalAnswer(question: string, context: ChatContext | null, history: HistoryTurn[] = []): Promise<LocalAnswer> {
  const engine = createLocalEngine({ typingDelayMs: 0 });
  const stream = await engine.answer({ question, history, context, signal: new AbortController().signal });
  const text = await readAll(stream);
  return { text, first: text.split('\n')[0] ?? '', sources: stream.sources };
}

/** The offline engine's whole answer's text. */
export async function askLocal(question: string, context: ChatContext): Promise<string> {
  return (await askLocalAnswer(question, context)).text;
}
