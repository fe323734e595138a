// Webhooks made on the /integrations page: pausing (paused_at: no deliveries are made or sent while
// set) and the body's format ('surveymonkey': reference §13.3; 'slack': an incoming-webhook
// `{"text": …}`). A page-made webhook has app_id '' (no app): it is signed with its own Standard
// Webhooks secret only. Plain added columns, the same on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('paused_at', 'text').execute();
  await db.schema
    .alterTable('webhooks')
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('surveymonkey'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('format').execute();
  await db.schema.alterTable('webhooks').dropColumn('paused_at').execute();
}
