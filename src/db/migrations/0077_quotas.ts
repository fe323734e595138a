// Quotas (domain/quotas): per survey, a limit on completed responses whose answers meet every
// condition (a question answered with a choice), and what happens to the respondents beyond it.
// `response_count` is the counter: raised by one conditional UPDATE (… WHERE response_count <
// response_limit) in the transaction that completes a response, so the limit holds under
// concurrency on both databases. Rows go with their survey (cascade).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quotas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('response_limit', 'integer', (c) => c.notNull())
    .addColumn('response_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('redirect_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quotas_survey').on('quotas').column('survey_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quotas').execute();
}
