import type { Knex } from 'knex';

// The identifiers of each chunk (error codes, paths, dotted and camel/snake names), lowercased
// and space-separated with a space at both ends, so that a question's identifier finds its
// chunks by `INSTR(terms, ' e0425 ')` even when vector search did not rank them near. A table
// of its own: scanning these short rows does not read the chunks' text and vectors.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('context_chunk_terms', (t) => {
    t.integer('context_id').unsigned().notNullable().references('id').inTable('contexts').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.text('terms', 'mediumtext').notNullable();
    t.primary(['context_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('context_chunk_terms');
}
