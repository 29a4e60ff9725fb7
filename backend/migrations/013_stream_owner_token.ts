import type { Knex } from 'knex';
import { identifierCollation } from './010_identifier_collation.js';

// A chat's stream lease is held by one stream, not by its replica: `stream_owner` is
// `<replica id>:<token>` (store/pairs.ts streamLeaseOwner), so a stream whose lease expired
// while it still ran cannot release or renew the lease a newer stream of the same replica took.
// The replica id is up to 64 characters: the column grows to 128. SQLite does not enforce a
// VARCHAR's length; on MySQL/MariaDB the column keeps its exact (binary) collation (010).
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  const collation = await identifierCollation(knex);
  await knex.raw(`ALTER TABLE \`chats\` MODIFY \`stream_owner\` VARCHAR(128) CHARACTER SET utf8mb4 COLLATE ${collation} NULL`);
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  // Back to the replica's id alone, the owner the code before this migration writes and releases.
  await knex.raw("UPDATE `chats` SET `stream_owner` = SUBSTRING_INDEX(`stream_owner`, ':', 1) WHERE `stream_owner` LIKE '%:%'");
  const collation = await identifierCollation(knex);
  await knex.raw(`ALTER TABLE \`chats\` MODIFY \`stream_owner\` VARCHAR(64) CHARACTER SET utf8mb4 COLLATE ${collation} NULL`);
}
