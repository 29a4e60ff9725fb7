import type { Knex } from 'knex';

// Identifiers are compared byte for byte on both dialects. SQLite's `=` is binary already (no
// column of ours is declared COLLATE NOCASE and no query uses LIKE or lower() on them); MySQL and
// MariaDB gave these columns the database's default collation (`utf8mb4_general_ci` or
// `utf8mb4_unicode_ci`: case, accents and trailing spaces ignored), under which the users
// `Alice`, `ALICE`, `alicé` and `alice ` owned `alice`'s chats.
//
// A binary collation that does not pad: `utf8mb4_bin` is PAD SPACE on MariaDB and MySQL 5.7
// (`'alice' = 'alice '` is true under it), so MySQL 8's `utf8mb4_0900_bin` or MariaDB's
// `utf8mb4_nopad_bin` is used when the server has it; `utf8mb4_bin` only on a server with
// neither (MySQL 5.7, end of life: case and accents are then exact, trailing spaces are not).
//
// A later migration that adds an identifier column sets one of these collations on it too.
export const IDENTIFIER_COLUMNS: { table: string; column: string; type: string; nullable: boolean }[] = [
  { table: 'chats', column: 'user_id', type: 'VARCHAR(255)', nullable: false },
  { table: 'chats', column: 'stream_owner', type: 'VARCHAR(64)', nullable: true },
  { table: 'chats', column: 'job_name', type: 'VARCHAR(512)', nullable: true },
  { table: 'contexts', column: 'owner', type: 'VARCHAR(64)', nullable: true },
  { table: 'contexts', column: 'embedder_id', type: 'VARCHAR(200)', nullable: false },
];

const PREFERRED = ['utf8mb4_0900_bin', 'utf8mb4_nopad_bin', 'utf8mb4_bin'];

/** The exact (binary, NO PAD when the server has one) utf8mb4 collation of this server. */
export async function identifierCollation(knex: Knex): Promise<string> {
  const [rows] = (await knex.raw(
    `SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN (${PREFERRED.map(() => '?').join(', ')})`,
    PREFERRED,
  )) as [{ name: string }[]];
  const names = new Set(rows.map((r) => r.name));
  const found = PREFERRED.find((n) => names.has(n));
  if (!found) throw new Error('The database server has no binary utf8mb4 collation (utf8mb4_bin); cichat needs MySQL 5.7+ or MariaDB 10.2+.');
  return found;
}

/** The table's own default collation when it is a utf8mb4 one (what `down` gives back). */
async function tableCollation(knex: Knex, table: string): Promise<string | null> {
  const [rows] = (await knex.raw(
    'SELECT TABLE_COLLATION AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [table],
  )) as [{ name: string | null }[]];
  const name = rows[0]?.name ?? null;
  return name !== null && name.startsWith('utf8mb4_') ? name : null;
}

async function setCollation(knex: Knex, exact: string | null): Promise<void> {
  const byTable = new Map<string, string[]>();
  for (const c of IDENTIFIER_COLUMNS) {
    // `down`: the table's default collation again (or utf8mb4's default when the table has none).
    const collation = exact ?? (await tableCollation(knex, c.table));
    const clause = collation === null ? '' : ` COLLATE ${collation}`;
    const list = byTable.get(c.table) ?? [];
    list.push(`MODIFY \`${c.column}\` ${c.type} CHARACTER SET utf8mb4${clause} ${c.nullable ? 'NULL' : 'NOT NULL'}`);
    byTable.set(c.table, list);
  }
  for (const [table, clauses] of byTable) await knex.raw(`ALTER TABLE \`${table}\` ${clauses.join(', ')}`);
}

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  await setCollation(knex, await identifierCollation(knex));
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  await setCollation(knex, null);
}
