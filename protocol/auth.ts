import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The JWT claims the controller mints and the backend checks (CONTRACT section 2). */
export const JWT_ISSUER = 'cichat-controller';
export const JWT_AUDIENCE = 'cichat-backend';
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;
export const JWT_SECRET_MIN_BYTES = 32;

/**
 * The shared HS256 key: JWT_SECRET when set, else the key generated once into
 * `DATA_DIR/jwt-secret` (mode 0600) so that backend and controller started from one
 * directory agree without configuration. Creation is race-free (exclusive create).
 */
export function loadOrCreateJwtSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(secret) < JWT_SECRET_MIN_BYTES) {
    throw new Error(`${file} holds a key shorter than ${JWT_SECRET_MIN_BYTES} bytes: delete it to generate a new one`);
  }
  return secret;
}
