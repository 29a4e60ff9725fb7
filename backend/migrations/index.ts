import type { Knex } from 'knex';
import * as m001 from './001_chats.js';
import * as m002 from './002_qa_pairs.js';
import * as m003 from './003_chat_stream_lease.js';
import * as m004 from './004_contexts.js';
import * as m005 from './005_context_chunks.js';
import * as m006 from './006_context_chunk_terms.js';
import * as m007 from './007_context_terms.js';
import * as m008 from './008_replica_owners.js';
import * as m009 from './009_chat_job.js';
import * as m010 from './010_identifier_collation.js';
import * as m011 from './011_canonical_contexts.js';
import * as m012 from './012_context_log_not_kept.js';
import * as m013 from './013_stream_owner_token.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Migrations in order, imported statically so that they load the same way under tsx, jest
 * and compiled JS (knex's file loader cannot import TypeScript in ESM). Append new ones here.
 */
export const migrations: [string, Migration][] = [
  ['001_chats', m001],
  ['002_qa_pairs', m002],
  ['003_chat_stream_lease', m003],
  ['004_contexts', m004],
  ['005_context_chunks', m005],
  ['006_context_chunk_terms', m006],
  ['007_context_terms', m007],
  ['008_replica_owners', m008],
  ['009_chat_job', m009],
  ['010_identifier_collation', m010],
  ['011_canonical_contexts', m011],
  ['012_context_log_not_kept', m012],
  ['013_stream_owner_token', m013],
];

// Each migration is listed as `{ file }`: knex's own CLI prints pending migrations by their
// `file` property (`npx knex migrate:status` through knexfile.js), whatever the source.
export const migrationSource: Knex.MigrationSource<{ file: string }> = {
  getMigrations: async () => migrations.map(([file]) => ({ file })),
  getMigrationName: (m) => m.file,
  getMigration: async ({ file: name }) => {
    const found = migrations.find(([n]) => n === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return found[1];
  },
};
