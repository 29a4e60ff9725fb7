import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The controller's token file (CONTRACT section 1, `CONTROLLER_TOKENS_FILE`): one line
 * `user-id:sha256-hex-of-token` per token. Only hashes are stored, so a leaked file does not
 * leak tokens. These functions are pure file handling, shared by the controller (which checks
 * tokens) and the CLI (`cichat token add`), which may not import the controller.
 */

/** One usable line of a token file. */
export interface TokenEntry {
  userId: string;
  /** Lower-case hex sha256 of the token (64 characters). */
  sha256: string;
}

/** A line of a token file that was skipped, with its 1-based number and why. */
export interface TokenFileProblem {
  line: number;
  reason: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The hash stored for a token: lower-case hex sha256 of its UTF-8 bytes. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A fresh random token: 32 bytes, base64url, prefixed so that it is recognisable in a leak scan. */
export function generateToken(): string {
  return `cichat_${randomBytes(32).toString('base64url')}`;
}

/** Whether a user id fits a token line and a JWT `sub` (1-255 chars, no `:`, no whitespace or control chars). */
export function isValidTokenUserId(userId: string): boolean {
  return userId.length >= 1 && userId.length <= 255 && !/[:\s\u0000-\u001f\u007f]/.test(userId);
}

/**
 * Parses a token file. Blank lines and `#` comments are ignored; a malformed line is skipped
 * and reported (the caller logs it) instead of making the whole file unusable.
 * The user id is everything before the LAST `:` so that the hash is always the final field.
 */
export function parseTokenFile(text: string): { entries: TokenEntry[]; problems: TokenFileProblem[] } {
  const entries: TokenEntry[] = [];
  const problems: TokenFileProblem[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.lastIndexOf(':');
    if (colon < 0) {
      problems.push({ line: index + 1, reason: 'expected user-id:sha256-hex, found no ":"' });
      return;
    }
    const userId = line.slice(0, colon).trim();
    const sha256 = line.slice(colon + 1).trim().toLowerCase();
    if (!isValidTokenUserId(userId)) {
      problems.push({ line: index + 1, reason: 'the user id must be 1-255 characters without ":" or spaces' });
      return;
    }
    if (!SHA256_HEX.test(sha256)) {
      problems.push({ line: index + 1, reason: 'the hash must be 64 hexadecimal characters (sha256)' });
      return;
    }
    entries.push({ userId, sha256 });
  });
  return { entries, problems };
}

/**
 * Creates a token for `userId`, appends `userId:sha256(token)` to `file` (creating the file with
 * mode 0600 and its directory when missing) and returns the token, which is stored nowhere else:
 * the caller prints it once.
 */
export async function addToken(file: string, userId: string): Promise<string> {
  if (!isValidTokenUserId(userId)) {
    throw new Error(`Invalid user id "${userId}": it must be 1-255 characters without ":" or spaces`);
  }
  const token = generateToken();
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  let prefix = '';
  try {
    const existing = await fs.readFile(file, 'utf8');
    if (existing !== '' && !existing.endsWith('\n')) prefix = '\n';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await fs.appendFile(file, `${prefix}${userId}:${hashToken(token)}\n`, { mode: 0o600 });
  // appendFile's mode applies only on creation; tighten a file someone created more loosely.
  await fs.chmod(file, 0o600);
  return token;
}
