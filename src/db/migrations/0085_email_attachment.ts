// An email's attachment, by reference: a JSON object such as {"kind":"survey_report","survey_id":"…"}
// that the worker resolves into the file just before sending (domain/reports/summaries.ts), so the
// outbox keeps no file bytes. Nullable: rows queued by an older release carry none, and an older
// worker sends a row that has one without it.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('attachment', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('attachment').execute();
}
