import type { Knex } from 'knex';

// "One answer streams per chat" lives in the database so that any backend replica enforces it:
// a lease (epoch ms) taken with a conditional UPDATE and renewed while the stream runs.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chats', (t) => {
    t.bigInteger('streaming_until').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chats', (t) => {
    t.dropColumn('streaming_until');
  });
}
