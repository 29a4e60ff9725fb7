import type { Knex } from 'knex';
import { insertTerms, TermPostings } from '../store/contexts.js';

// The exact-term index of a context, replacing context_chunk_terms (one row per chunk with its
// identifiers, searched by INSTR over all of a context's rows: ~10 ms per term on a 100k-line
// log). Terms are hashed into buckets (store/contexts.ts termBuckets/termBucket: a power of
// two near a quarter of the context's chunks); one row per non-empty bucket holds its terms,
// each with the `seq` of its first 16 chunks. A question's identifier reads one row by
// primary key. Existing contexts are converted.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('context_terms', (t) => {
    t.integer('context_id').unsigned().notNullable().references('id').inTable('contexts').onDelete('CASCADE');
    t.integer('bucket').notNullable();
    // Lines `<term> <seq>,<seq>,...` between newlines.
    t.text('terms', 'mediumtext').notNullable();
    t.primary(['context_id', 'bucket']);
  });
  const contexts = (await knex('contexts')
    .select('id', 'chunk_count')
    .whereIn('id', knex('context_chunk_terms').distinct('context_id'))) as { id: number; chunk_count: number }[];
  for (const context of contexts) {
    const postings = new TermPostings();
    const rows = (await knex('context_chunk_terms')
      .select('seq', 'terms')
      .where({ context_id: context.id })
      .orderBy('seq')) as { seq: number; terms: string }[];
    for (const row of rows) postings.add(Number(row.seq), row.terms.split(' ').filter(Boolean));
    await insertTerms(knex, Number(context.id), postings, Number(context.chunk_count));
  }
  await knex.schema.dropTable('context_chunk_terms');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('context_terms');
  await knex.schema.createTable('context_chunk_terms', (t) => {
    t.integer('context_id').unsigned().notNullable().references('id').inTable('contexts').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.text('terms', 'mediumtext').notNullable();
    t.primary(['context_id', 'seq']);
  });
}
