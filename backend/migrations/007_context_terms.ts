import type { Knex } from 'knex';

// The exact-term index of a context, replacing context_chunk_terms (one row per chunk with its
// identifiers, searched by INSTR over all of a context's rows: ~10 ms per term on a 100k-line
// log). Terms are hashed into buckets (store/contexts.ts termBuckets/termBucket: a power of
// two near a quarter of the context's chunks); one row per non-empty bucket holds its terms,
// each with the `seq` of its first 16 chunks. A question's identifier reads one row by
// primary key. Existing contexts are converted.
//
// Frozen (issue 31): a migration writes the format of its own day, so the bucketing below is a
// copy of what store/contexts.ts did when 007 was written, not an import of the store (which may
// change, and which imported the migrations back through db.ts: an import circle). The store's
// readers compute the same buckets; test/context.test.ts checks that a context converted here
// is found by the store's term search.
const TERM_POSTINGS = 16;
const ROWS_PER_INSERT = 256;

function termBuckets(chunkCount: number): number {
  let buckets = 16;
  while (buckets < chunkCount / 4 && buckets < 16384) buckets *= 2;
  return buckets;
}

function termBucket(term: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) & (buckets - 1);
}

async function convert(knex: Knex, contextId: number, chunkCount: number, rows: { seq: number; terms: string }[]): Promise<void> {
  const postings = new Map<string, number[]>();
  for (const row of rows) {
    for (const term of row.terms.split(' ').filter(Boolean)) {
      const seqs = postings.get(term);
      if (seqs === undefined) postings.set(term, [Number(row.seq)]);
      else if (seqs.length < TERM_POSTINGS) seqs.push(Number(row.seq));
    }
  }
  const buckets = termBuckets(chunkCount);
  const lines: string[][] = Array.from({ length: buckets }, () => []);
  for (const [term, seqs] of postings) lines[termBucket(term, buckets)]!.push(`${term} ${seqs.join(',')}`);
  const out = lines.flatMap((bucket, i) => (bucket.length > 0 ? [{ context_id: contextId, bucket: i, terms: `\n${bucket.join('\n')}\n` }] : []));
  for (let i = 0; i < out.length; i += ROWS_PER_INSERT) await knex('context_terms').insert(out.slice(i, i + ROWS_PER_INSERT));
}

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
    const rows = (await knex('context_chunk_terms')
      .select('seq', 'terms')
      .where({ context_id: context.id })
      .orderBy('seq')) as { seq: number; terms: string }[];
    await convert(knex, Number(context.id), Number(context.chunk_count), rows);
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
