// One row per running outbox worker (serve's own or `survey-service worker`), stamped as its loop
// goes round. Every process's metrics read the table, so a worker that died shows as a stale
// stamp on the processes still scraped, not only as a scrape that stopped answering.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('worker_heartbeats')
    .addColumn('worker', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('beat_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('worker_heartbeats').execute();
}
