// The import page: imports started from a page run in the background of a server process, so
// any instance must tell whether one is alive (heartbeat_at, refreshed while a process holds the
// job), what the source holds (totals, for the progress bar) and why a run failed (last_error,
// never the token).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('import_jobs').addColumn('heartbeat_at', 'text').execute();
  await db.schema.alterTable('import_jobs').addColumn('last_error', 'text').execute();
  await db.schema
    .alterTable('import_jobs')
    .addColumn('totals', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('import_jobs').dropColumn('totals').execute();
  await db.schema.alterTable('import_jobs').dropColumn('last_error').execute();
  await db.schema.alterTable('import_jobs').dropColumn('heartbeat_at').execute();
}
