import type { Knex } from 'knex';

// The log of a context, cut into overlapping line ranges, each with its embedding (float32,
// little-endian). These rows are the source of truth the HNSW index files are rebuilt from;
// `seq` (0..n-1 within a context) is the label of the chunk in the index.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('context_chunks', (t) => {
    t.increments('id').primary();
    t.integer('context_id').unsigned().notNullable().references('id').inTable('contexts').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.integer('start_line').notNullable();
    t.integer('end_line').notNullable();
    t.text('text', 'mediumtext').notNullable();
    t.binary('embedding').notNullable();
    t.unique(['context_id', 'seq'], { indexName: 'context_chunks_context_seq_uq' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('context_chunks');
}
