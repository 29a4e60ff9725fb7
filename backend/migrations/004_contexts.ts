import type { Knex } from 'knex';

// One row per upload. An upload is written as `building` (with its chunks), then one
// transaction marks it `ready` and deletes the chat's older ready contexts: the chat's current
// context is its ready one (the newest by id should two ever coexist), and an upload that fails
// half-way leaves only a `building` row that no reader looks at.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contexts', (t) => {
    t.increments('id').primary();
    t.integer('chat_id').unsigned().notNullable().references('id').inTable('chats').onDelete('CASCADE');
    t.string('state', 16).notNullable();
    // The CiContext as stored (secrets masked), JSON.
    t.text('ci_context', 'longtext').notNullable();
    t.bigInteger('created_at').notNullable();
    // Epoch ms at which the upload became the chat's context (last_upload_at).
    t.bigInteger('uploaded_at').nullable();
    t.integer('log_line_count').notNullable().defaultTo(0);
    t.integer('chunk_count').notNullable().defaultTo(0);
    // The analyzer's excerpts with their text, JSON.
    t.text('failure_excerpts', 'longtext').notNullable();
    t.string('embedder_id', 200).notNullable();
    t.integer('dim').notNullable();
    t.index(['chat_id', 'state'], 'contexts_chat_state_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contexts');
}
