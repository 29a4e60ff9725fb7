/**
 * The answer engine the backend's configuration asks for (LLM_PROVIDER and friends, CONTRACT
 * section 1), from plain values so that config.ts stays the only reader of the environment.
 */
import type { Logger } from 'pino';
import { requestLog } from '../../http/request.js';
import type { AnswerEngine } from './engine.js';
import { createLocalEngine } from './local.js';
import type { RetryNotice } from './openai.js';
import type { ToolSettings } from './tools.js';

export type { AnswerEngine } from './engine.js';
export { createLocalEngine } from './local.js';

export interface EngineConfig {
  provider: 'local' | 'openai';
  /** TYPING_DELAY_MS: pause between pieces of the offline engine. */
  typingDelayMs: number;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  /** LLM_MODEL; the openai engine needs one. */
  llmModel?: string;
  /** LLM_CONTEXT_TOKENS, default 8000. */
  llmContextTokens?: number;
  fetch?: typeof fetch;
  /** Where the model client's retries are logged (each with the request id of the answer it serves). */
  log?: Logger;
  /** The openai engine's workspace tools (issue 17); off when absent. */
  tools?: ToolSettings;
}

/** Used when LLM_MODEL is unset with the openai provider. */
export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';

function retryLogger(log: Logger) {
  return (notice: RetryNotice): void => requestLog(log).warn({ notice }, 'model server retry');
}

/**
 * Makes the configured engine. The openai engine's module (and with it the `openai` package,
 * ~70 ms to load) is imported only when that engine is asked for: a backend on the default
 * local engine starts without it (issue 31).
 */
export async function createEngine(config: EngineConfig): Promise<AnswerEngine> {
  if (config.provider === 'openai') {
    const { createOpenAIEngine } = await import('./openai.js');
    return createOpenAIEngine({
      apiKey: config.openaiApiKey,
      baseURL: config.openaiBaseUrl,
      model: config.llmModel || DEFAULT_LLM_MODEL,
      contextTokens: config.llmContextTokens ?? 8000,
      fetch: config.fetch,
      ...(config.log ? { onRetry: retryLogger(config.log) } : {}),
      ...(config.tools ? { tools: config.tools } : {}),
    });
  }
  return createLocalEngine({ typingDelayMs: config.typingDelayMs });
}
