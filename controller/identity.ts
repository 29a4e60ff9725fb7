import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { ControllerAuth } from './config.js';
import { Unauthorized } from './errors.js';
import { hashToken, parseTokenFile } from '../core/tokens.js';
import { requestLog } from '../http/request.js';

/** Answers who the caller of a request is, or throws `Unauthorized`. */
export interface Identity {
  /** The caller's user id (the `sub` of the JWT the controller mints). */
  userOf(headers: IncomingHttpHeaders): string;
}

interface LoadedEntry {
  userId: string;
  hash: Buffer;
}

/**
 * Holds the parsed token file and reloads it when its mtime (or size, or inode) changes, so a
 * token added with `cichat token add` works without a restart. The stat is one cheap syscall
 * per authenticated request; a file that became unreadable keeps the last good entries (logged)
 * rather than locking everybody out.
 */
export class TokenFile {
  private entries: LoadedEntry[] = [];
  private stamp = '';

  constructor(
    readonly file: string,
    private readonly logger: Logger,
  ) {}

  /** The current entries, reloading the file first if it changed on disk. */
  current(): readonly LoadedEntry[] {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch (err) {
      if (this.stamp !== 'missing') {
        requestLog(this.logger).error({ file: this.file, err }, 'token file unreadable: no caller can authenticate');
        this.stamp = 'missing';
        this.entries = [];
      }
      return this.entries;
    }
    const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (stamp === this.stamp) return this.entries;
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      requestLog(this.logger).error({ file: this.file, err }, 'token file unreadable: keeping the previous tokens');
      return this.entries;
    }
    const { entries, problems } = parseTokenFile(text);
    for (const problem of problems) {
      requestLog(this.logger).warn({ file: this.file, line: problem.line }, `${this.file} line ${problem.line} skipped: ${problem.reason}`);
    }
    this.entries = entries.map((e) => ({ userId: e.userId, hash: Buffer.from(e.sha256, 'hex') }));
    this.stamp = stamp;
    requestLog(this.logger).info({ file: this.file, tokens: this.entries.length }, 'token file loaded');
    return this.entries;
  }

  /**
   * The user whose token hashes to the same sha256, compared in constant time against EVERY
   * entry (no early exit), so neither the position of a match nor a partial match shows in the
   * timing. Hashing first makes all compared buffers 32 bytes long.
   */
  userOfToken(token: string): string | undefined {
    const presented = Buffer.from(hashToken(token), 'hex');
    let found: string | undefined;
    for (const entry of this.current()) {
      if (timingSafeEqual(presented, entry.hash) && found === undefined) found = entry.userId;
    }
    return found;
  }
}

/** Extracts the token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (!value) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value);
  return match?.[1];
}

/** The caller-identity policy of CONTROLLER_AUTH (CONTRACT section 1). */
export function createIdentity(auth: ControllerAuth, logger: Logger): Identity {
  if (auth.mode === 'none') {
    const user = auth.user;
    return { userOf: () => user };
  }
  const tokens = new TokenFile(auth.tokensFile, logger);
  tokens.current(); // load now so problems in the file show at start-up
  return {
    userOf(headers) {
      const token = bearerToken(headers);
      if (token === undefined) {
        throw new Unauthorized('Missing bearer token: send Authorization: Bearer <token> (create one with `cichat token add USER --file F`)');
      }
      const user = tokens.userOfToken(token);
      if (user === undefined) throw new Unauthorized('Invalid token: it is not in the controller\'s token file');
      return user;
    },
  };
}
