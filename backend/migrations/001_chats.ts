import type { Knex } from 'knex';

// Times are integer milliseconds since the epoch (UTC) in every table: one code path and one
// ordering for SQLite and MySQL; presenters turn them into ISO 8601 strings.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chats', (t) => {
    t.increments('id').primary();
    t.string('user_id', 255).notNullable();
    t.string('title', 200).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['user_id', 'updated_at'], 'chats_user_updated_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chats');
}
