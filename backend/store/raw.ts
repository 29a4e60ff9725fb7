import type { Knex } from 'knex';
import type { Db } from '../db.js';
import { isMysql } from '../db.js';

/**
 * Rows of a hand-written SELECT on either dialect (mysql2 answers `[rows, fields]`,
 * better-sqlite3 the rows). Used on the hot read paths, where one round trip instead of two or
 * three is most of the cost (each query is a socket write, a read and knex's compile step).
 */
export async function selectRows<T>(db: Db, sql: string, bindings: readonly Knex.Value[]): Promise<T[]> {
  const result = (await db.raw(sql, bindings as Knex.RawBinding[])) as unknown;
  return (isMysql(db) ? (result as [T[], unknown])[0] : result) as T[];
}
