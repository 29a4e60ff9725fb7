import type { Context, Next } from 'koa';
import { BACKEND_TOKEN, Jwt, JwtError } from '../protocol/jwt.js';
import { Unauthorized } from './errors.js';

export interface AuthState {
  userId: string;
}

/**
 * Authentication as the contract says: HS256 only, iss/aud/exp checked with 30 s tolerance,
 * `sub` 1-255 chars is the user id (protocol/jwt.ts does the checking, on jose). Only the
 * token's own verdict becomes a 401, never an error from later middleware.
 */
export function authMiddleware(secret: string) {
  const jwt = Jwt.of(secret);
  return async (ctx: Context, next: Next): Promise<void> => {
    const token = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
    if (token === undefined) {
      throw new Unauthorized('Missing or malformed Authorization header: send Authorization: Bearer <JWT>.');
    }
    let sub: string;
    try {
      ({ sub } = await jwt.verify(BACKEND_TOKEN, token));
    } catch (err) {
      if (!(err instanceof JwtError)) throw err;
      if (err.problem === 'no subject') throw new Unauthorized('The token has no valid subject (sub): ask the cichat controller for a fresh one.');
      if (err.problem === 'no expiry') throw new Unauthorized('The token has no expiry (exp): ask the cichat controller for a fresh one.');
      throw new Unauthorized('Invalid or expired token: ask the cichat controller for a fresh one.');
    }
    (ctx.state as AuthState).userId = sub;
    await next();
  };
}

export function userIdOf(ctx: Context): string {
  return (ctx.state as AuthState).userId;
}
