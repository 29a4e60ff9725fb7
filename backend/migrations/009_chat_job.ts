import type { Knex } from 'knex';

// The job and build a chat is about, from its current context (jobDetails.fullName, else
// ciEnvironment JOB_NAME, else jobDetails.name; buildDetails.number, else a numeric
// BUILD_NUMBER), so that the chat list shows them without reading contexts. Set by the upload
// that makes a context current (store/contexts.ts finishContext), cleared when a context without
// them replaces it. Null when unknown.
//
// Chats that already have a context are filled here, in one UPDATE whose JSON is read by the
// database itself (json_extract / JSON_VALUE): no context travels to the process, and the stored
// contexts are valid JSON (the backend wrote them with JSON.stringify).
export const JOB_NAME_MAX = 512;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chats', (t) => {
    t.string('job_name', JOB_NAME_MAX).nullable();
    t.integer('build_number').nullable();
  });
  const mysql = knex.client.config.client === 'mysql2';
  if (mysql) {
    const v = (p: string) => `NULLIF(JSON_VALUE(c.ci_context, '${p}'), '')`;
    const env = `JSON_VALUE(c.ci_context, '$.ciEnvironment.BUILD_NUMBER')`;
    await knex.raw(
      `UPDATE chats ch JOIN contexts c ON c.chat_id = ch.id AND c.state = 'ready'
       AND NOT EXISTS (SELECT 1 FROM contexts n WHERE n.chat_id = c.chat_id AND n.state = 'ready'
         AND (n.uploaded_at > c.uploaded_at OR (n.uploaded_at = c.uploaded_at AND n.id > c.id)))
       SET ch.job_name = LEFT(COALESCE(${v('$.jobDetails.fullName')}, ${v('$.ciEnvironment.JOB_NAME')}, ${v('$.jobDetails.name')}), ${JOB_NAME_MAX}),
           ch.build_number = CASE
             WHEN JSON_TYPE(JSON_EXTRACT(c.ci_context, '$.buildDetails.number')) = 'INTEGER'
               AND JSON_VALUE(c.ci_context, '$.buildDetails.number') BETWEEN 0 AND 2147483647
               THEN JSON_VALUE(c.ci_context, '$.buildDetails.number')
             WHEN ${env} REGEXP '^[0-9]{1,9}$' THEN CAST(${env} AS UNSIGNED)
           END`,
    );
  } else {
    const v = (p: string) => `NULLIF(json_extract(c.ci_context, '${p}'), '')`;
    const env = `json_extract(c.ci_context, '$.ciEnvironment.BUILD_NUMBER')`;
    const num = `json_extract(c.ci_context, '$.buildDetails.number')`;
    await knex.raw(
      `UPDATE chats SET (job_name, build_number) = (
         SELECT substr(COALESCE(${v('$.jobDetails.fullName')}, ${v('$.ciEnvironment.JOB_NAME')}, ${v('$.jobDetails.name')}), 1, ${JOB_NAME_MAX}),
                CASE
                  WHEN json_type(c.ci_context, '$.buildDetails.number') = 'integer' AND ${num} BETWEEN 0 AND 2147483647 THEN ${num}
                  WHEN typeof(${env}) = 'text' AND ${env} GLOB '[0-9]*' AND NOT ${env} GLOB '*[^0-9]*' AND length(${env}) <= 9
                    THEN CAST(${env} AS INTEGER)
                END
         FROM contexts c WHERE c.chat_id = chats.id AND c.state = 'ready'
         ORDER BY c.uploaded_at DESC, c.id DESC LIMIT 1)
       WHERE id IN (SELECT chat_id FROM contexts WHERE state = 'ready')`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chats', (t) => {
    t.dropColumn('build_number');
    t.dropColumn('job_name');
  });
}
