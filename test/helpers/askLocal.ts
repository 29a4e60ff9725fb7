/** The offline engine's whole answer to one question over a chat context (no typing delay, no history). */
import type { ChatContext } from '../../backend/answer/engine.js';
import { createLocalEngine } from '../../backend/answer/local.js';

export async function askLocal(question: string, context: ChatContext): Promise<string> {
  const engine = createLocalEngine({ typingDelayMs: 0 });
  const stream = await engine.answer({ question, history: [], context, signal: new AbortController().signal });
  let text = '';
  for await (const piece of stream.pieces) text += piece;
  return text;
}
