import type { Knex } from 'knex';
import type { Db } from '../db.js';
import { isMysql } from '../db.js';

/** The driver connections knex pools, as far as the hot reads use them. */
interface Mysql2Connection {
  execute(sql: string, values: unknown[], callback: (err: Error | null, rows: unknown) => void): void;
}
interface SqliteStatement {
  all(...values: unknown[]): unknown[];
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}
interface PooledClient<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<void>;
}

/** Prepared better-sqlite3 statements per connection and SQL text. */
const sqliteStatements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

/**
 * mysql2 sends a JS number to a prepared statement as a DOUBLE, which MySQL 8.0.22+ refuses for
 * `LIMIT ?` ("Incorrect arguments to mysqld_stmt_execute"); an integer sent as its decimal text
 * is accepted by MySQL and MariaDB alike, and compared with integer columns as the number it is.
 */
function asStatementValue(value: Knex.Value): unknown {
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
}

/**
 * Rows of a fixed, hand-written SELECT, on a connection borrowed from knex's pool (so pool
 * limits, timeouts and connection checks stay knex's). These are the hot read paths (the chat
 * list and a chat's page of pairs), where the query builder and the text protocol were a large
 * share of each request: MySQL runs the statement prepared (mysql2 `execute`, cached per
 * connection: parsed and planned once), SQLite through a cached better-sqlite3 statement.
 * Values are bound, never spliced into the SQL.
 */
export async function selectRows<T>(db: Db, sql: string, bindings: readonly Knex.Value[]): Promise<T[]> {
  if (isMysql(db)) {
    const client = db.client as unknown as PooledClient<Mysql2Connection>;
    const connection = await client.acquireConnection();
    try {
      return await new Promise<T[]>((resolve, reject) => {
        connection.execute(sql, bindings.map(asStatementValue), (err, rows) => (err ? reject(err) : resolve(rows as T[])));
      });
    } finally {
      await client.releaseConnection(connection);
    }
  }
  const client = db.client as unknown as PooledClient<SqliteConnection>;
  const connection = await client.acquireConnection();
  try {
    let statements = sqliteStatements.get(connection);
    if (!statements) sqliteStatements.set(connection, (statements = new Map()));
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = connection.prepare(sql)));
    return statement.all(...bindings) as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}
