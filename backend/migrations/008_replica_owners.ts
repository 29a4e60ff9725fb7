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
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contexts', (t) => {
    t.dropColumn('owner');
  });
  await knex.schema.alterTable('chats', (t) => {
    t.dropColumn('stream_owner');
  });
}
