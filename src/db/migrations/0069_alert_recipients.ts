// Who a survey's response alerts go to, when its owner chose (on the alerts page) among their team
// members: one row per chosen person. A survey without rows alerts its owner alone.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('survey_alert_recipients')
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('survey_alert_recipients_pk', ['survey_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('survey_alert_recipients').execute();
}
