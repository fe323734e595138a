// The audit log: one row per change (an API call, a page form post, a CLI verb), per refused change
// and per sign-in, written in the change's own transaction (domain/audit). Append-only; the worker
// prunes rows past RETAIN_AUDIT_DAYS.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    // The actor's team when the row was written (the team owner's log), null outside any team.
    .addColumn('team_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('address', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_team').on('audit_log').columns(['team_id', 'at']).execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_name', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
