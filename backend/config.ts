import path from 'node:path';
import { z } from 'zod';
import { JWT_SECRET_MIN_BYTES, loadOrCreateJwtSecret } from '../protocol/auth.js';

/** The backend's configuration, validated once at start-up (CONTRACT section 1). */
export interface BackendConfig {
  databaseUrl: string;
  dataDir: string;
  host: string;
  port: number;
  jwtSecret: string;
  llmProvider: 'local' | 'openai';
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  llmModel: string;
  embeddings: 'local' | 'openai';
  embeddingModel: string;
  llmContextTokens: number;
  typingDelayMs: number;
  logLevel: string;
  /** Where the controller is, for the openai engine's workspace tools (CONTROLLER_URL). */
  controllerUrl: string;
  /** Workspace tool calls per answer (LLM_TOOL_CALLS, 0 = off) and their results' token budget (LLM_TOOL_TOKENS). */
  llmToolCalls: number;
  llmToolTokens: number;
  /** BACKEND_REPLICA_ID, else the id kept in DATA_DIR/replica-id (made on first start). */
  replicaId: string | undefined;
  /** CONTEXT_UPLOADS_MAX: context uploads processed at once by this process; more get 503. */
  contextUploadsMax: number;
  /**
   * What a context keeps of a big log (issue 28), in MiB of text: its first CONTEXT_LOG_HEAD_MIB
   * and last CONTEXT_LOG_TAIL_MIB whole, and up to CONTEXT_LOG_MIDDLE_MIB of the failing steps'
   * lines and the ranked excerpts from the part between (default 16, 16, 8).
   */
  contextLogHeadMib: number;
  contextLogTailMib: number;
  contextLogMiddleMib: number;
  /**
   * STREAM_LEASE_MS: how long a chat stays locked after the replica streaming into it died
   * without a word (renewed every fifth of it while the stream lives). Default 15 s.
   */
  streamLeaseMs: number;
}

/** The default stream lease: a chat whose streaming replica died is free again within 15 s. */
export const STREAM_LEASE_MS = 15_000;

/** Raised when one or more variables are bad; `problems` has one line per variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** Values never echoed in error messages. */
const SECRET_VARIABLES = new Set(['JWT_SECRET', 'OPENAI_API_KEY', 'DATABASE_URL']);

const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: `must be an integer between ${min} and ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `must be an integer between ${min} and ${max}` });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const schema = z.object({
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^(sqlite|mysql|mariadb):/.test(v), {
    message: 'must start with sqlite: (e.g. sqlite:./data/cichat.sqlite) or mysql:// (e.g. mysql://user:pass@host:3306/db)',
  }),
  DATA_DIR: optionalString,
  BACKEND_HOST: optionalString,
  BACKEND_PORT: intIn(0, 65535).optional(),
  JWT_SECRET: optionalString.refine((v) => v === undefined || Buffer.byteLength(v) >= JWT_SECRET_MIN_BYTES, {
    message: `must be at least ${JWT_SECRET_MIN_BYTES} bytes (or unset to generate one into DATA_DIR/jwt-secret)`,
  }),
  LLM_PROVIDER: optionalString.refine((v) => v === undefined || v === 'local' || v === 'openai', {
    message: 'must be local or openai',
  }),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.refine((v) => v === undefined || URL.canParse(v), {
    message: 'must be a URL such as http://127.0.0.1:11434/v1',
  }),
  LLM_MODEL: optionalString,
  EMBEDDINGS: optionalString.refine((v) => v === undefined || v === 'local' || v === 'openai', {
    message: 'must be local or openai',
  }),
  EMBEDDING_MODEL: optionalString,
  LLM_CONTEXT_TOKENS: intIn(512, 10_000_000).optional(),
  TYPING_DELAY_MS: intIn(0, 10_000).optional(),
  CONTROLLER_URL: optionalString.refine((v) => v === undefined || /^https?:\/\/[^/?#]+\/?$/.test(v), {
    message: 'must be the controller as http://host:port, e.g. http://127.0.0.1:8080',
  }),
  LLM_TOOL_CALLS: intIn(0, 50).optional(),
  LLM_TOOL_TOKENS: intIn(100, 1_000_000).optional(),
  BACKEND_REPLICA_ID: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9._-]{1,64}$/.test(v), {
    message: 'must be 1-64 characters of letters, digits, dot, underscore or dash',
  }),
  CONTEXT_UPLOADS_MAX: intIn(1, 64).optional(),
  CONTEXT_LOG_HEAD_MIB: intIn(1, 4096).optional(),
  CONTEXT_LOG_TAIL_MIB: intIn(1, 4096).optional(),
  CONTEXT_LOG_MIDDLE_MIB: intIn(0, 4096).optional(),
  STREAM_LEASE_MS: intIn(2000, 600_000).optional(),
  LOG_LEVEL: optionalString.refine(
    (v) => v === undefined || ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(v),
    { message: 'must be one of fatal, error, warn, info, debug, trace, silent' },
  ),
});

/**
 * Reads and validates every backend variable; throws ConfigError listing all problems at once.
 * `env` is a parameter so tests can pass their own.
 */
export function loadBackendConfig(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const shown = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(env[name] ?? '')})`;
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  const v = parsed.data;
  const problems: string[] = [];
  const dataDir = path.resolve(v.DATA_DIR ?? './data');
  const provider = (v.LLM_PROVIDER ??
    (v.OPENAI_API_KEY !== undefined || v.OPENAI_BASE_URL !== undefined ? 'openai' : 'local')) as 'local' | 'openai';
  const embeddings = (v.EMBEDDINGS ?? 'local') as 'local' | 'openai';
  if (provider === 'openai' && v.OPENAI_API_KEY === undefined && v.OPENAI_BASE_URL === undefined) {
    problems.push('LLM_PROVIDER: openai needs OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server)');
  }
  if (embeddings === 'openai' && v.OPENAI_API_KEY === undefined && v.OPENAI_BASE_URL === undefined) {
    problems.push('EMBEDDINGS: openai needs OPENAI_API_KEY or OPENAI_BASE_URL');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  let jwtSecret: string;
  try {
    jwtSecret = loadOrCreateJwtSecret(dataDir, v.JWT_SECRET);
  } catch (err) {
    throw new ConfigError([`JWT_SECRET: ${(err as Error).message}`]);
  }
  return {
    databaseUrl: v.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'cichat.sqlite')}`,
    dataDir,
    host: v.BACKEND_HOST ?? '127.0.0.1',
    port: v.BACKEND_PORT ?? 8000,
    jwtSecret,
    llmProvider: provider,
    openaiApiKey: v.OPENAI_API_KEY,
    openaiBaseUrl: v.OPENAI_BASE_URL,
    llmModel: v.LLM_MODEL ?? 'gpt-4o-mini',
    embeddings,
    embeddingModel: v.EMBEDDING_MODEL ?? 'text-embedding-3-small',
    llmContextTokens: v.LLM_CONTEXT_TOKENS ?? 8000,
    typingDelayMs: v.TYPING_DELAY_MS ?? 15,
    logLevel: v.LOG_LEVEL ?? 'info',
    controllerUrl: (v.CONTROLLER_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    llmToolCalls: v.LLM_TOOL_CALLS ?? 6,
    llmToolTokens: v.LLM_TOOL_TOKENS ?? 4000,
    replicaId: v.BACKEND_REPLICA_ID,
    contextUploadsMax: v.CONTEXT_UPLOADS_MAX ?? 1,
    contextLogHeadMib: v.CONTEXT_LOG_HEAD_MIB ?? 16,
    contextLogTailMib: v.CONTEXT_LOG_TAIL_MIB ?? 16,
    contextLogMiddleMib: v.CONTEXT_LOG_MIDDLE_MIB ?? 8,
    streamLeaseMs: v.STREAM_LEASE_MS ?? STREAM_LEASE_MS,
  };
}
