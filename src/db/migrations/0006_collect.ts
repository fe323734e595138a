import type { Kysely } from 'kysely';

// Collectors, responses (answers as one JSON document per row), response ordinals and rollup counts.
// Everything hangs off surveys with ON DELETE CASCADE, so deleting a survey removes its collecting data.
export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collectors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url_token', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('close_date', 'text')
    .addColumn('response_limit', 'integer')
    .addColumn('response_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collectors_survey').on('collectors').column('survey_id').execute();

  await db.schema
    .createTable('responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('collector_id', 'text', (c) => c.notNull().references('collectors.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('response_status', 'text', (c) => c.notNull())
    .addColumn('collection_mode', 'text', (c) => c.notNull())
    .addColumn('custom_value', 'text', (c) => c.notNull())
    .addColumn('custom_variables', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email_address', 'text', (c) => c.notNull())
    .addColumn('total_time', 'integer', (c) => c.notNull())
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('page_path', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('current_page_id', 'text', (c) => c.notNull())
    .addColumn('edit_token', 'text', (c) => c.notNull().unique())
    .addColumn('respondent_key', 'text')
    .execute();
  await db.schema
    .createIndex('responses_survey_ordinal')
    .on('responses')
    .columns(['survey_id', 'ordinal'])
    .execute();
  await db.schema
    .createIndex('responses_collector_ordinal')
    .on('responses')
    .columns(['collector_id', 'ordinal'])
    .execute();
  await db.schema
    .createIndex('responses_survey_modified')
    .on('responses')
    .columns(['survey_id', 'date_modified'])
    .execute();
  await db.schema.createIndex('responses_respondent').on('responses').column('respondent_key').execute();

  await db.schema
    .createTable('survey_response_seq')
    .addColumn('survey_id', 'text', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('next_ordinal', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('response_counts')
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('collector_id', 'text', (c) => c.notNull().references('collectors.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('akey', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('response_counts_pk', ['survey_id', 'collector_id', 'question_id', 'akey'])
    .execute();
  await db.schema
    .createIndex('response_counts_collector')
    .on('response_counts')
    .column('collector_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['response_counts', 'survey_response_seq', 'responses', 'collectors'])
    await db.schema.dropTable(t).execute();
}
