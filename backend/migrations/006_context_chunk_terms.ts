import type { Knex } from 'knex';

// The identifiers of each chunk (error codes, paths, dotted and camel/snake names), lowercased
// and space-separated with a space at both ends, so that a question's identifier finds its
// chunks by `INSTR(terms, ' e0425 ')` even when vector search did not rank them near.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('context_chunks', (t) => {
    t.text('terms', 'mediumtext').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('context_chunks', (t) => {
    t.dropColumn('terms');
  });
}
