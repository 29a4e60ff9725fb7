/**
 * The one JWT module: what it mints is what the other side accepts, and every kind of bad token
 * is refused with its reason. The forged tokens are made with jose directly (any claims, any
 * algorithm, any key), the way an attacker or a broken client would.
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { JWT_AUDIENCE, JWT_ISSUER } from './auth.js';
import { BACKEND_TOKEN, Jwt, JwtError, TOOL_TOKEN, type JwtProblem } from './jwt.js';
import { signToolToken, ToolTokenError, verifyToolToken } from './toolToken.js';

const SECRET = 'k'.repeat(48);
const jwt = new Jwt(SECRET);
const now = Math.floor(Date.now() / 1000);
const claims = { sub: 'erin', iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now, exp: now + 300 };
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

function forge(payload: JWTPayload, key: Parameters<SignJWT['sign']>[0] = Buffer.from(SECRET), alg = 'HS256'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

/** The verdict on `token` by a clock fixed at `now` (a slow run must not move the tolerance edges). */
async function problemOf(token: string, kind = BACKEND_TOKEN): Promise<JwtProblem | 'accepted'> {
  try {
    await jwt.verify(kind, token, { now: now * 1000 });
    return 'accepted';
  } catch (err) {
    if (err instanceof JwtError) return err.problem;
    throw err;
  }
}

test('a minted token carries sub, iss, aud, iat and exp = iat + ttl, and is accepted by its own kind only', async () => {
  const token = await jwt.sign(BACKEND_TOKEN, { sub: 'erin', jti: 'one' }, 300);
  const [header] = token.split('.');
  expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
  const got = await jwt.verify(BACKEND_TOKEN, token);
  expect(got).toMatchObject({ sub: 'erin', jti: 'one', iss: 'cichat-controller', aud: 'cichat-backend' });
  expect(got.exp - (got.iat ?? 0)).toBe(300);
  expect(await problemOf(token, TOOL_TOKEN)).toBe('audience');
  const tool = await jwt.sign(TOOL_TOKEN, { sub: 'erin' }, 60);
  expect(await problemOf(tool, BACKEND_TOKEN)).toBe('audience');
  expect(await problemOf(tool, TOOL_TOKEN)).toBe('accepted');
});

test('every bad token is refused, naming its problem', async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cases: [string, string, JwtProblem][] = [
    ['garbage', 'not-a-token', 'malformed'],
    ['two parts', 'a.b', 'malformed'],
    ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`, 'algorithm'],
    ['alg none with a signature', `${b64({ alg: 'none' })}.${b64(claims)}.${b64({ x: 1 })}`, 'algorithm'],
    ['RS256', await forge(claims, privateKey, 'RS256'), 'algorithm'],
    ['HS512 with the right key', await forge(claims, Buffer.from(SECRET), 'HS512'), 'algorithm'],
    ['wrong key', await forge(claims, Buffer.from('another-secret-of-at-least-32-bytes!!')), 'signature'],
    ['payload changed after signing', await (async () => {
      const [h, , s] = (await forge(claims)).split('.');
      return `${h}.${b64({ ...claims, sub: 'mallory' })}.${s}`;
    })(), 'signature'],
    ['wrong audience', await forge({ ...claims, aud: 'someone-else' }), 'audience'],
    ['wrong issuer', await forge({ ...claims, iss: 'evil' }), 'audience'],
    ['expired beyond the 30 s tolerance', await forge({ ...claims, iat: now - 1000, exp: now - 31 }), 'expired'],
    ['not valid for another 10 minutes', await forge({ ...claims, nbf: now + 600 }), 'not yet valid'],
    ['no exp', await forge({ sub: 'erin', iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now }), 'no expiry'],
    ['no sub', await forge({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now, exp: now + 300 }), 'no subject'],
    ['empty sub', await forge({ ...claims, sub: '' }), 'no subject'],
    ['sub of 256 chars', await forge({ ...claims, sub: 'u'.repeat(256) }), 'no subject'],
  ];
  const got = await Promise.all(cases.map(async ([name, token]) => [name, await problemOf(token)]));
  expect(got).toEqual(cases.map(([name, , problem]) => [name, problem]));
});

test('the 30 s clock tolerance: expired 29 s ago and not valid for 29 s more are accepted', async () => {
  expect(await problemOf(await forge({ ...claims, exp: now - 29 }))).toBe('accepted');
  expect(await problemOf(await forge({ ...claims, nbf: now + 29 }))).toBe('accepted');
  expect(await problemOf(await forge({ ...claims, sub: 'u'.repeat(255) }))).toBe('accepted');
  // the same token, judged by a clock a minute later
  const t = now * 1000;
  const token = await jwt.sign(BACKEND_TOKEN, { sub: 'erin' }, 30, t);
  await expect(jwt.verify(BACKEND_TOKEN, token, { now: t + 59_000 })).resolves.toMatchObject({ sub: 'erin' });
  await expect(jwt.verify(BACKEND_TOKEN, token, { now: t + 61_000 })).rejects.toMatchObject({ problem: 'expired' });
});

test('tool tokens: job and build are required, a token issued in the future is refused, messages stay readable', async () => {
  const ok = await signToolToken(SECRET, { sub: 'erin', job: 'team/api', build: 7, chat: 3 });
  await expect(verifyToolToken(SECRET, ok)).resolves.toEqual({ sub: 'erin', job: 'team/api', build: 7, chat: 3 });
  const tool = { sub: 'erin', iss: TOOL_TOKEN.issuer, aud: TOOL_TOKEN.audience, iat: now, exp: now + 60 };
  const cases: [string, string, string][] = [
    ['a backend token', await jwt.sign(BACKEND_TOKEN, { sub: 'erin' }, 60), 'not a workspace-tools token'],
    ['wrong key', await signToolToken('x'.repeat(40), { sub: 'erin', job: 'shop', build: 1 }), 'bad signature'],
    ['expired', await signToolToken(SECRET, { sub: 'erin', job: 'shop', build: 1 }, 60, Date.now() - 10 * 60_000), 'expired token'],
    ['issued in the future', await forge({ ...tool, job: 'shop', build: 1, iat: now + 600, exp: now + 660 }), 'token issued in the future'],
    ['alg none', `${b64({ alg: 'none' })}.${b64({ ...tool, job: 'shop', build: 1 })}.`, 'only HS256 tokens are accepted'],
    ['no job', await forge({ ...tool, build: 1 }), 'no job'],
    ['build 0', await forge({ ...tool, job: 'shop', build: 0 }), 'no build'],
    ['build as text', await forge({ ...tool, job: 'shop', build: '1' }), 'no build'],
  ];
  for (const [name, token, message] of cases) {
    const err: unknown = await verifyToolToken(SECRET, token).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect([name, err instanceof ToolTokenError ? err.message : err]).toEqual([name, message]);
  }
});
