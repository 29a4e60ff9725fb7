/**
 * The one JWT module (issue 31): every token cichat mints or checks goes through here, on `jose`.
 * Two kinds of token travel, both HS256 with the shared JWT_SECRET (CONTRACT section 2):
 * - the proxy's token, controller -> backend: iss `cichat-controller`, aud `cichat-backend`;
 * - the workspace-tools token, backend -> controller: iss `cichat-backend`, aud
 *   `cichat-controller-tools`.
 * Each kind is checked against its own issuer and audience, so neither service takes the other's
 * token in place of its own. Checks: HS256 only (so `alg: none`, RS256, HS512 are refused), the
 * signature, iss, aud, `exp` required, `nbf` honoured, 30 s clock tolerance, `sub` 1-255 chars.
 */
import { webcrypto } from 'node:crypto';
// jose's parts by their own paths: its index loads all of JWE, JWKS and key generation too
// (about 100 modules; 45 ms of CPU against 18 for these, in every backend and controller start).
import type { JWTPayload } from 'jose';
import * as errors from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import { JWT_AUDIENCE, JWT_CLOCK_TOLERANCE_SECONDS, JWT_ISSUER } from './auth.js';

export const JWT_ALGORITHM = 'HS256';

/** Who mints one kind of token and who accepts it. */
export interface TokenKind {
  issuer: string;
  audience: string;
}

/** The proxy's tokens: the controller speaks to the backend for a caller. */
export const BACKEND_TOKEN: TokenKind = { issuer: JWT_ISSUER, audience: JWT_AUDIENCE };
/** The workspace tools' tokens: the backend's `openai` engine calls the controller's tools. */
export const TOOL_TOKEN: TokenKind = { issuer: 'cichat-backend', audience: 'cichat-controller-tools' };

/** Why a token was refused, in words a log reader or a 401 detail can carry. */
export type JwtProblem = 'malformed' | 'algorithm' | 'signature' | 'audience' | 'expired' | 'not yet valid' | 'issued in the future' | 'no subject' | 'no expiry';

export class JwtError extends Error {
  constructor(readonly problem: JwtProblem) {
    super(
      {
        malformed: 'malformed token',
        algorithm: 'only HS256 tokens are accepted',
        signature: 'bad signature',
        audience: 'wrong issuer or audience',
        expired: 'expired token',
        'not yet valid': 'token not valid yet',
        'issued in the future': 'token issued in the future',
        'no subject': 'no subject',
        'no expiry': 'no expiry',
      }[problem],
    );
    this.name = 'JwtError';
  }
}

/** The claims of a checked token: `sub` is the user id. */
export type VerifiedClaims = JWTPayload & { sub: string; exp: number };

/**
 * Signs and checks the tokens of one shared secret. The key is imported once, on first use, as
 * a WebCrypto key: given the raw bytes, jose would import them again on every call (about four
 * times the cost of a signature).
 */
export class Jwt {
  private key: Promise<webcrypto.CryptoKey> | undefined;

  constructor(private readonly secret: string) {}

  /** The Jwt of `secret`, made once per secret (a process has one or two; tests a few more). */
  static of(secret: string): Jwt {
    let jwt = bySecret.get(secret);
    if (!jwt) {
      if (bySecret.size >= 16) bySecret.clear();
      jwt = new Jwt(secret);
      bySecret.set(secret, jwt);
    }
    return jwt;
  }

  private cryptoKey(): Promise<webcrypto.CryptoKey> {
    this.key ??= webcrypto.subtle.importKey('raw', Buffer.from(this.secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.key;
  }

  /**
   * A token of `kind` for `claims` (with `sub`), valid `ttlSeconds` from `now` (ms): iss, aud,
   * iat and exp are set here.
   */
  async sign(kind: TokenKind, claims: { sub: string } & Record<string, unknown>, ttlSeconds: number, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
      .setIssuer(kind.issuer)
      .setAudience(kind.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(await this.cryptoKey());
  }

  /**
   * The claims of `token` when it is a valid token of `kind` at `now` (ms); throws JwtError
   * naming the problem otherwise. `rejectFutureIat` also refuses a token issued more than the
   * tolerance ahead of this clock (the tools' tokens always did; the backend's never did).
   */
  async verify(kind: TokenKind, token: string, options: { now?: number; rejectFutureIat?: boolean } = {}): Promise<VerifiedClaims> {
    const now = options.now ?? Date.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.cryptoKey(), {
        algorithms: [JWT_ALGORITHM],
        issuer: kind.issuer,
        audience: kind.audience,
        clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
        currentDate: new Date(now),
      }));
    } catch (err) {
      throw new JwtError(problemOf(err));
    }
    const { sub, exp, iat } = payload;
    if (typeof sub !== 'string' || sub.length < 1 || sub.length > 255) throw new JwtError('no subject');
    if (typeof exp !== 'number') throw new JwtError('no expiry');
    if (options.rejectFutureIat && typeof iat === 'number' && iat - JWT_CLOCK_TOLERANCE_SECONDS > Math.floor(now / 1000)) {
      throw new JwtError('issued in the future');
    }
    return { ...payload, sub, exp };
  }
}

const bySecret = new Map<string, Jwt>();

function problemOf(err: unknown): JwtProblem {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'exp') return 'no expiry';
    if (err.claim === 'nbf') return 'not yet valid';
    if (err.claim === 'iss' || err.claim === 'aud') return 'audience';
    return 'malformed';
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (err instanceof errors.JOSEError) return 'malformed';
  // Anything else is not about the token (a broken key): not a 401 to hide.
  throw err;
}
