import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('qa_pairs', (t) => {
    t.increments('id').primary();
    t.integer('chat_id').unsigned().notNullable().references('id').inTable('chats').onDelete('CASCADE');
    t.text('question', 'mediumtext').notNullable();
    t.bigInteger('created_at').notNullable();
    t.text('answer', 'mediumtext').nullable();
    t.string('answer_status', 16).nullable();
    t.text('answer_sources', 'mediumtext').nullable();
    t.bigInteger('answer_created_at').nullable();
    // Set when a retry or an edit cut the history here: kept, never shown again.
    t.bigInteger('superseded_at').nullable();
    t.index(['chat_id', 'created_at'], 'qa_pairs_chat_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('qa_pairs');
}
