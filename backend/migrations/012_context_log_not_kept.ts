import type { Knex } from 'knex';

// The bounded store for big logs (issue 28): a context keeps the head and tail of its log, the
// failing steps' lines and the ranked excerpts; `log_not_kept` says which lines it does not
// hold ({lines, chars, ranges: [[first, last], ...], totalLines}, JSON), so answers can say so.
// Null: the whole log is held (every context stored before this migration).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contexts', (t) => {
    t.text('log_not_kept').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contexts', (t) => {
    t.dropColumn('log_not_kept');
  });
}
