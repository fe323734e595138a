// The daily send cap counts an account's emails of the last 24 hours at every send
// (domain/limits/send-limit.ts): an index on (owner_id, created_at) keeps that a range read
// rather than a scan of the outbox.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('emails_owner_created')
    .on('emails')
    .columns(['owner_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('emails_owner_created').execute();
}
