// Responses kept aside by the respondent screening (honeypot, time per page, per-address limits,
// duplicate rules): a table of their own, not a flag beside the counted responses, so no reader
// of `responses` and none of its derived rows (counts, numbers, kept answers, days, totals, events)
// can count one by mistake. Releasing one writes it as a response then. Beside it, the windowed
// counters of the per-address limits and duplicate rules (one atomic upsert each).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flagged_responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    // No key to surveys: rows go with their collector, which goes with its survey. A second
    // reference locked surveys too, and with collectors locked first the migration deadlocked
    // with the running release's submissions (they lock collectors, then surveys).
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('collector_id', 'text', (c) => c.notNull().references('collectors.id').onDelete('cascade'))
    .addColumn('reasons', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('response_status', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('custom_value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('custom_variables', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('ip_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('page_path', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('logic_path', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('current_page_id', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('respondent_key', 'text')
    .execute();
  await db.schema
    .createIndex('flagged_responses_survey')
    .on('flagged_responses')
    .columns(['survey_id', 'date_created'])
    .execute();
  await db.schema
    .createIndex('flagged_responses_respondent')
    .on('flagged_responses')
    .columns(['collector_id', 'respondent_key'])
    .execute();
  await db.schema
    .createTable('screening_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screening_counters').execute();
  await db.schema.dropTable('flagged_responses').execute();
}
