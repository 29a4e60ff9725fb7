import fs from 'node:fs';
import path from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { migrationSource } from './migrations/index.js';

export type Db = Knex;

/**
 * The knex configuration for a DATABASE_URL: `sqlite:<file>` (better-sqlite3, WAL, foreign
 * keys on) or `mysql://user:pass@host:port/db` (mysql2, utf8mb4).
 */
/** Where knex's own warnings go (a lost pooled connection, say): stderr unless a caller takes them. */
export type DbWarningSink = (message: string) => void;

const toStderr: DbWarningSink = (message) => console.warn(message);

/**
 * Every level of knex's logger goes to the sink (a level it is not given is console.log, issue
 * 27). A server that cannot be reached or a missing database fails the first query, which says
 * so in one line (dbProblem.ts); knex's "Acquire connection error" would add a stack trace before it.
 */
function knexLog(onWarning: DbWarningSink): Knex.Config['log'] {
  return {
    warn(message: string) {
      if (!String(message).startsWith('Acquire connection error')) onWarning(String(message));
    },
    error: (message: string) => onWarning(String(message)),
    deprecate: (message: string) => onWarning(String(message)),
    debug: (message: unknown) => onWarning(typeof message === 'string' ? message : JSON.stringify(message)),
  };
}

export function knexConfig(databaseUrl: string, onWarning: DbWarningSink = toStderr): Knex.Config {
  if (databaseUrl.startsWith('sqlite:')) {
    let file = databaseUrl.slice('sqlite:'.length);
    if (file.startsWith('//')) file = file.slice(2);
    if (file !== ':memory:') {
      // Private whatever the umask: the directory 0700, the file 0600 before SQLite opens it
      // (SQLite gives its -wal and -shm files the database file's permissions).
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
      fs.closeSync(fs.openSync(file, 'a', 0o600));
    }
    return {
      client: 'better-sqlite3',
      connection: { filename: file },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('synchronous = NORMAL');
          done(null, conn);
        },
      },
      migrations: { migrationSource },
      log: knexLog(onWarning),
    };
  }
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  return {
    client: 'mysql2',
    connection: {
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
      charset: 'utf8mb4',
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: false,
      connectTimeout: 5000,
    },
    pool: { min: 0, max: 20 },
    acquireConnectionTimeout: 5000,
    migrations: { migrationSource },
    log: knexLog(onWarning),
  };
}

/** Opens the database named by DATABASE_URL. */
export function openDb(databaseUrl: string, onWarning?: DbWarningSink): Db {
  return knexFactory(knexConfig(databaseUrl, onWarning));
}

/** Brings the schema up to date (run at backend start and by `npm run db:migrate`). */
export async function migrateLatest(db: Db): Promise<void> {
  await db.migrate.latest();
}

export function isMysql(db: Db): boolean {
  return db.client.config.client === 'mysql2';
}
