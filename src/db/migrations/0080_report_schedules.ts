// Scheduled summaries (domain/reports): per survey, one weekly or monthly email of its headline
// figures, at a weekday (0 = Sunday) or day of the month and an hour in an IANA time zone.
// `next_send_at` (UTC) is when the next one is due; the worker sends it and moves `next_send_at`
// on by one conditional UPDATE (… WHERE next_send_at = the due time) in the transaction that
// queues the email, so one period is sent once however many workers run. Rows go with their survey.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('report_schedules')
    .addColumn('survey_id', 'text', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('weekday', 'integer')
    .addColumn('day_of_month', 'integer')
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('next_send_at', 'text', (c) => c.notNull())
    .addColumn('last_sent_at', 'text')
    .addColumn('date_created', 'text', (c) => c.notNull())
    .addColumn('date_modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_schedules_due').on('report_schedules').column('next_send_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('report_schedules').execute();
}
