import type { Knex } from 'knex';

// The replica (backend process, id kept in DATA_DIR/replica-id) that holds a chat's stream lease
// and that builds an upload: a restarted replica frees the leases it held and sweeps the uploads
// it was writing at once, instead of waiting for the lease to expire or the upload to age.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chats', (t) => {
    t.string('stream_owner', 64).nullable();
  });
  await knex.schema.alterTable('contexts', (t) => {
    t.string('owner', 64).nullable();
    // The upload sweep reads the few `building` rows, not every chat's ready context.
    t.index(['state', 'created_at'], 'contexts_state_created_idx');
  });
  // The sweep looks for pairs still `streaming` every minute: a handful among millions.
  await knex.schema.alterTable('qa_pairs', (t) => {
    t.index(['answer_status'], 'qa_pairs_status_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('qa_pairs', (t) => {
    t.dropIndex(['answer_status'], 'qa_pairs_status_idx');
  });
  await knex.schema.alterTable('contexts', (t) => {
    t.dropIndex(['state', 'created_at'], 'contexts_state_created_idx');
    t.dropColumn('owner');
  });
  await knex.schema.alterTable('chats', (t) => {
    t.dropColumn('stream_owner');
  });
}
