import type { Knex } from 'knex';
import type { Db } from '../db.js';
import { isMysql } from '../db.js';

/** The driver connections knex pools, as far as the hot reads use them. */
interface Mysql2Connection {
  execute(sql: string, values: unknown[], callback: (err: Error | null, rows: unknown) => void): void;
}
interface SqliteStatement {
  all(...values: unknown[]): unknown[];
  run(...values: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  readonly inTransaction: boolean;
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
    return sqliteStatement(connection, sql).all(...bindings) as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The connection's cached better-sqlite3 statement of `sql`. */
function sqliteStatement(connection: SqliteConnection, sql: string): SqliteStatement {
  let statements = sqliteStatements.get(connection);
  if (!statements) sqliteStatements.set(connection, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = connection.prepare(sql)));
  return statement;
}

/** Statements inside a writeTransaction: the same SQL text on both dialects, values bound. */
export interface WriteTx {
  rows<T>(sql: string, bindings: readonly Knex.Value[]): Promise<T[]>;
  /** An INSERT, UPDATE or DELETE: the rows it changed and, for an INSERT, the new row's id. */
  run(sql: string, bindings: readonly Knex.Value[]): Promise<{ changes: number; insertId: number }>;
}

interface MysqlResultHeader {
  affectedRows: number;
  insertId: number | string;
}

/**
 * Runs `body` as one write transaction of hand-written statements: a hot write path (an answer's
 * start: the lease and the pair) where knex's query builder and its transaction machinery were
 * most of the time. SQLite: cached better-sqlite3 statements on the pooled connection, held for
 * the whole transaction (`BEGIN IMMEDIATE`: the write lock taken at once, so a concurrent writer
 * makes it wait `busy_timeout`, never fail half-way), each statement synchronous: `body` must
 * await nothing but `tx`. MySQL: a knex transaction running the same SQL. Rolled back when `body`
 * throws.
 */
export async function writeTransaction<T>(db: Db, body: (tx: WriteTx) => Promise<T>): Promise<T> {
  if (isMysql(db)) {
    return db.transaction((trx) =>
      body({
        rows: async <R>(sql: string, bindings: readonly Knex.Value[]) => ((await trx.raw(sql, bindings)) as [R[], unknown])[0],
        run: async (sql, bindings) => {
          const [header] = (await trx.raw(sql, bindings)) as [MysqlResultHeader, unknown];
          return { changes: header.affectedRows, insertId: Number(header.insertId) };
        },
      }),
    );
  }
  const client = db.client as unknown as PooledClient<SqliteConnection>;
  const connection = await client.acquireConnection();
  try {
    connection.exec('BEGIN IMMEDIATE');
    try {
      const result = await body({
        rows: <R>(sql: string, bindings: readonly Knex.Value[]) => Promise.resolve(sqliteStatement(connection, sql).all(...bindings) as R[]),
        run: (sql, bindings) => {
          const info = sqliteStatement(connection, sql).run(...bindings);
          return Promise.resolve({ changes: info.changes, insertId: Number(info.lastInsertRowid) });
        },
      });
      connection.exec('COMMIT');
      return result;
    } catch (err) {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      throw err;
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
