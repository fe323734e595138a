// When the first attempt of a webhook delivery or an email was made. A failing item's next due time
// moves on with every back-off, so "due since" never grows during an outage; the age of the oldest
// undelivered item (the survey_outbox_oldest_due_seconds gauge, /readyz) counts from here instead.
// Nullable: rows queued or attempted by an older release fall back to their creation time.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('first_attempt_at', 'text').execute();
  await db.schema.alterTable('emails').addColumn('first_attempt_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('first_attempt_at').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('first_attempt_at').execute();
}
