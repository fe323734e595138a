// Imports from another instance of the API (SurveyMonkey or this service): one job per
// (local owner, source URL, source account), and the id map that makes re-runs idempotent.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('source_user_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('cursor', 'text', (c) => c.notNull())
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('skipped', 'text', (c) => c.notNull())
    .addColumn('requests_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('budget_day', 'text', (c) => c.notNull())
    .addColumn('budget_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('daily_budget', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('import_jobs_source', ['owner_id', 'source_url', 'source_user_id'])
    .execute();
  await db.schema
    .createTable('import_ids')
    .addColumn('job_id', 'text', (c) => c.notNull().references('import_jobs.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('local_id', 'text', (c) => c.notNull())
    .addColumn('source_stamp', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('import_ids_pk', ['job_id', 'kind', 'source_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_ids').execute();
  await db.schema.dropTable('import_jobs').execute();
}
