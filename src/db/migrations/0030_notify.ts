// An account's notification preferences, one row per account that changed one (the defaults are
// the row's absence): the time zone its pages show and take times in (times are stored in UTC).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_preferences').execute();
}
