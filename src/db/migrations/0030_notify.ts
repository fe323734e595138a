// An account's notification preferences, one row per account that changed one (the defaults are
// the row's absence): the time zone its pages show and take times in (times are stored in UTC) and
// whether it opted out of response alerts. Response alerts per survey (domain/alerts): 'each' or
// 'daily', and where the next digest counts from.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('alerts_opt_out', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('survey_alerts')
    .addColumn('survey_id', 'text', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('digest_since', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('survey_alerts_mode')
    .on('survey_alerts')
    .columns(['mode', 'digest_since'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('survey_alerts').execute();
  await db.schema.dropTable('account_preferences').execute();
}
