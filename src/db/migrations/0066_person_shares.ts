// Person shares: a survey shared with one member of the sharer's team, carrying the role
// (privileges) that person gets on it. It has effect while the person is an active member of that
// team (team_id). One share per survey and person (the unique constraint holds under concurrency);
// deleting the survey removes its shares.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('person_shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('owner_account_id', 'text', (c) => c.notNull())
    .addColumn('shared_by', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('person_shares_survey_user', ['survey_id', 'user_id'])
    .execute();
  await db.schema.createIndex('person_shares_user').on('person_shares').columns(['user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('person_shares').execute();
}
