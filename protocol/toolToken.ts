/**
 * The backend -> controller token of the workspace tools (issue 17): the `openai` engine's tool
 * calls are executed by the controller on behalf of the chat's user, for the chat's job and
 * build only. HS256 with the shared JWT_SECRET, but its own issuer and audience (protocol/jwt.ts
 * `TOOL_TOKEN`), so neither service accepts the other's tokens in place of its own: a backend
 * token (aud `cichat-backend`) is refused here, and this one is refused by the backend.
 */
import { Jwt, JwtError, TOOL_TOKEN } from './jwt.js';

export const TOOL_JWT_ISSUER = TOOL_TOKEN.issuer;
export const TOOL_JWT_AUDIENCE = TOOL_TOKEN.audience;
/** Where the controller serves the tools (outside `/chatbot-api`: no caller ever reaches it through the proxy). */
export const TOOLS_PATH = '/cichat-internal/workspace-tools';

export interface ToolClaims {
  /** The chat's user. */
  sub: string;
  /** The chat's job (full name) and build: the only ones the token opens. */
  job: string;
  build: number;
  chat?: number;
}

/** A token for `claims`, valid `ttlSeconds` (60 by default: one answer's tool calls). */
export function signToolToken(secret: string, claims: ToolClaims, ttlSeconds = 60, now = Date.now()): Promise<string> {
  return Jwt.of(secret).sign(TOOL_TOKEN, { ...claims }, ttlSeconds, now);
}

export class ToolTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolTokenError';
  }
}

/** The claims of a valid tool token; throws ToolTokenError saying what is wrong otherwise. */
export async function verifyToolToken(secret: string, token: string, now = Date.now()): Promise<ToolClaims> {
  let c;
  try {
    c = await Jwt.of(secret).verify(TOOL_TOKEN, token, { now, rejectFutureIat: true });
  } catch (err) {
    if (!(err instanceof JwtError)) throw err;
    throw new ToolTokenError(err.problem === 'audience' ? 'not a workspace-tools token' : err.message);
  }
  if (typeof c.job !== 'string' || c.job === '') throw new ToolTokenError('no job');
  if (typeof c.build !== 'number' || !Number.isSafeInteger(c.build) || c.build < 1) throw new ToolTokenError('no build');
  return { sub: c.sub, job: c.job, build: c.build, ...(typeof c.chat === 'number' ? { chat: c.chat } : {}) };
}
