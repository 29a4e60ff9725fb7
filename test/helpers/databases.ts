import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';

/**
 * The two database dialects every HTTP test runs against. MariaDB is the server this machine
 * runs (127.0.0.1:3306, root, no password); each test file creates its own database and
 * drops it after. With CI=true an unreachable MariaDB fails the run; locally its half is
 * skipped with a message.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface Dialect {
  name: 'sqlite' | 'mysql';
  create(): Promise<TestDatabase>;
}

const MYSQL_HOST = process.env.TEST_MYSQL_HOST ?? '127.0.0.1';
const MYSQL_PORT = Number(process.env.TEST_MYSQL_PORT ?? 3306);
const MYSQL_USER = process.env.TEST_MYSQL_USER ?? 'root';
const MYSQL_PASSWORD = process.env.TEST_MYSQL_PASSWORD ?? '';

function mysqlAdmin() {
  return knexFactory({
    client: 'mysql2',
    connection: { host: MYSQL_HOST, port: MYSQL_PORT, user: MYSQL_USER, password: MYSQL_PASSWORD, connectTimeout: 3000 },
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: 4000,
  });
}

let mysqlReachable: Promise<string | null> | undefined;
/** null when MariaDB answers, else why not. */
export function mysqlProblem(): Promise<string | null> {
  mysqlReachable ??= (async () => {
    const admin = mysqlAdmin();
    try {
      await admin.raw('select 1');
      return null;
    } catch (err) {
      return `MariaDB at ${MYSQL_HOST}:${MYSQL_PORT} is unreachable (${(err as Error).message})`;
    } finally {
      await admin.destroy();
    }
  })();
  return mysqlReachable;
}

export const sqlite: Dialect = {
  name: 'sqlite',
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-test-db-'));
    return {
      url: `sqlite:${path.join(dir, 'test.sqlite')}`,
      async drop() {
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const mysql: Dialect = {
  name: 'mysql',
  async create() {
    const problem = await mysqlProblem();
    if (problem) {
      throw new Error(
        `${problem}. Start it with: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`,
      );
    }
    const name = `${process.env.TEST_MYSQL_DB_PREFIX ?? 'cichat_test'}_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = mysqlAdmin();
    try {
      await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    } finally {
      await admin.destroy();
    }
    const auth = MYSQL_PASSWORD ? `${MYSQL_USER}:${encodeURIComponent(MYSQL_PASSWORD)}` : MYSQL_USER;
    return {
      url: `mysql://${auth}@${MYSQL_HOST}:${MYSQL_PORT}/${name}`,
      async drop() {
        const a = mysqlAdmin();
        try {
          await a.raw(`DROP DATABASE IF EXISTS \`${name}\``);
        } finally {
          await a.destroy();
        }
      },
    };
  },
};

/**
 * The dialects to run: both, or only SQLite when MariaDB is unreachable outside CI (a clear
 * message says so). Under CI=true MariaDB is always included, so its absence fails loudly.
 */
export async function testDialects(): Promise<Dialect[]> {
  if (process.env.CI === 'true' || process.env.CI === '1') return [sqlite, mysql];
  const problem = await mysqlProblem();
  if (problem) {
    console.warn(`Skipping the MySQL half of the tests: ${problem}. (With CI=true this fails instead.)`);
    return [sqlite];
  }
  return [sqlite, mysql];
}
