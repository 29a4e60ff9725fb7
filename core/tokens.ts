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

/** A token as `cichat token list` shows it: never the token, only what identifies it. */
export interface TokenInfo {
  /** The first 8 hex digits of the token's hash: enough to name it in `token rm`, useless to log in. */
  id: string;
  userId: string;
  /** When `cichat token add` made it (its `# created` comment), or null for a line written by hand. */
  createdAt: string | null;
}

const CREATED = /^#\s*created\s+(\S+)\s*$/;

/** The tokens of a file, in file order (a missing file has none). */
export async function listTokens(file: string): Promise<TokenInfo[]> {
  const text = await readIfExists(file);
  const out: TokenInfo[] = [];
  let created: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const stamp = CREATED.exec(line);
    if (stamp) {
      created = stamp[1] ?? null;
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const { entries } = parseTokenFile(line);
    const entry = entries[0];
    if (entry) out.push({ id: entry.sha256.slice(0, 8), userId: entry.userId, createdAt: created });
    created = null;
  }
  return out;
}

async function readIfExists(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Writes the file whole (temporary file + rename, mode 0600): a reader never sees half of it. */
async function writeWhole(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, text, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, file);
}

/**
 * Removes the tokens of a user (`which` is a user id) or the one token whose id is `which`
 * (its hash starts with it). Lines of other users, comments and blank lines stay as they
 * were; a token's `# created` comment goes with it. Answers the removed tokens.
 */
export async function removeTokens(file: string, which: string): Promise<TokenInfo[]> {
  const text = await readIfExists(file);
  // A user id wins over an id: `token rm cafe1234` removes user cafe1234's tokens if there is one.
  const byUser = (await listTokens(file)).some((t) => t.userId === which);
  const byId = !byUser && /^[0-9a-f]{4,64}$/i.test(which);
  if (byId && (await listTokens(file)).filter((t) => t.id.startsWith(which.toLowerCase()) || which.toLowerCase().startsWith(t.id)).length > 1) {
    throw new Error(`${which} names more than one token: give more of its id`);
  }
  const lines = text.split('\n');
  const kept: string[] = [];
  const removed: TokenInfo[] = [];
  let pendingStamp: string | undefined;
  for (const raw of lines) {
    const line = raw.trim();
    const stamp = CREATED.exec(line);
    if (stamp) {
      if (pendingStamp !== undefined) kept.push(pendingStamp);
      pendingStamp = raw;
      continue;
    }
    const entry = line && !line.startsWith('#') ? parseTokenFile(line).entries[0] : undefined;
    if (entry && (byUser ? entry.userId === which : byId && entry.sha256.startsWith(which.toLowerCase()))) {
      removed.push({ id: entry.sha256.slice(0, 8), userId: entry.userId, createdAt: pendingStamp ? (CREATED.exec(pendingStamp.trim())?.[1] ?? null) : null });
      pendingStamp = undefined;
      continue;
    }
    if (pendingStamp !== undefined) kept.push(pendingStamp);
    pendingStamp = undefined;
    kept.push(raw);
  }
  if (pendingStamp !== undefined) kept.push(pendingStamp);
  if (removed.length > 0) await writeWhole(file, kept.join('\n'));
  return removed;
}

/**
 * Creates a token for `userId`, appends `userId:sha256(token)` to `file` (creating the file with
 * mode 0600 and its directory when missing) and returns the token, which is stored nowhere else:
 * the caller prints it once.
 */
export async function addToken(file: string, userId: string, options: { created?: Date } = {}): Promise<string> {
  if (!isValidTokenUserId(userId)) {
    throw new Error(`Invalid user id "${userId}": it must be 1-255 characters without ":" or spaces`);
  }
  const token = generateToken();
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  let prefix = '';
  try {
    const existing = await fs.readFile(file, 'utf8');
    if (existing !== '' && !existing.endsWith('\n')) prefix = '\n';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // `cichat token add` notes when (a comment line, which the controller skips) for `token list`.
  const stamp = options.created ? `# created ${options.created.toISOString()}\n` : '';
  await fs.appendFile(file, `${prefix}${stamp}${userId}:${hashToken(token)}\n`, { mode: 0o600 });
  // appendFile's mode applies only on creation; tighten a file someone created more loosely.
  await fs.chmod(file, 0o600);
  return token;
}
