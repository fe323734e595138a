// Recipients meet contacts by address without regard to case (domain/invitations/recipients.ts
// `byEmail`, and the lookups of a bulk addition): indexes on lower(email) make each match one
// index read. Without them PostgreSQL, whose statistics lag a bulk addition, joined a send's
// recipients to the account's contacts by scanning every contact for each recipient (3,000
// recipients: 10 s).
import { type Kysely, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX contacts_owner_lower_email ON contacts (owner_id, lower(email))`.execute(db);
  await sql`CREATE INDEX collector_recipients_collector_lower_email ON collector_recipients (collector_id, lower(email))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('contacts_owner_lower_email').execute();
  await db.schema.dropIndex('collector_recipients_collector_lower_email').execute();
}
