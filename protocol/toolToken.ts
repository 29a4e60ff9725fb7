/**
 * The backend -> controller token of the workspace tools (issue 17): the `openai` engine's tool
 * calls are executed by the controller on behalf of the chat's user, for the chat's job and
 * build only. HS256 with the shared JWT_SECRET, but its own issuer and audience, so neither
 * service accepts the other's tokens in place of its own: a backend token (aud
 * `cichat-backend`) is refused here, and this one is refused by the backend.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { JWT_CLOCK_TOLERANCE_SECONDS } from './auth.js';

export const TOOL_JWT_ISSUER = 'cichat-backend';
export const TOOL_JWT_AUDIENCE = 'cichat-controller-tools';
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

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** A token for `claims`, valid `ttlSeconds` (60 by default: one answer's tool calls). */
export function signToolToken(secret: string, claims: ToolClaims, ttlSeconds = 60, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const payload = { ...claims, iss: TOOL_JWT_ISSUER, aud: TOOL_JWT_AUDIENCE, iat, exp: iat + ttlSeconds };
  const input = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

export class ToolTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolTokenError';
  }
}

/** The claims of a valid tool token; throws ToolTokenError saying what is wrong otherwise. */
export function verifyToolToken(secret: string, token: string, now = Date.now()): ToolClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw new ToolTokenError('malformed token');
  const [header, payload, signature] = parts as [string, string, string];
  let head: unknown;
  let body: unknown;
  try {
    head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new ToolTokenError('malformed token');
  }
  if (typeof head !== 'object' || head === null || (head as { alg?: unknown }).alg !== 'HS256') throw new ToolTokenError('only HS256 tokens are accepted');
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ToolTokenError('bad signature');
  if (typeof body !== 'object' || body === null) throw new ToolTokenError('malformed token');
  const c = body as Record<string, unknown>;
  if (c.iss !== TOOL_JWT_ISSUER || c.aud !== TOOL_JWT_AUDIENCE) throw new ToolTokenError('not a workspace-tools token');
  const seconds = Math.floor(now / 1000);
  if (typeof c.exp !== 'number' || c.exp + JWT_CLOCK_TOLERANCE_SECONDS < seconds) throw new ToolTokenError('expired token');
  if (typeof c.iat === 'number' && c.iat - JWT_CLOCK_TOLERANCE_SECONDS > seconds) throw new ToolTokenError('token issued in the future');
  if (typeof c.sub !== 'string' || c.sub.length < 1 || c.sub.length > 255) throw new ToolTokenError('no subject');
  if (typeof c.job !== 'string' || c.job === '') throw new ToolTokenError('no job');
  if (typeof c.build !== 'number' || !Number.isSafeInteger(c.build) || c.build < 1) throw new ToolTokenError('no build');
  return { sub: c.sub, job: c.job, build: c.build, ...(typeof c.chat === 'number' ? { chat: c.chat } : {}) };
}
