// "Finish later" links of the respondent page: each lets a partial response be continued in any
// browser for RESUME_DAYS. Only the SHA-256 of the link's token is kept (as account links are), so
// a leaked database cannot be replayed as links. A link goes with its response.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('resume_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('response_id', 'text', (c) => c.notNull().references('responses.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    /** how many times the link was emailed (capped per link) */
    .addColumn('emails', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The cascade from a deleted response, and the pruning of expired links.
  await db.schema.createIndex('resume_links_response').on('resume_links').column('response_id').execute();
  await db.schema.createIndex('resume_links_expires').on('resume_links').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('resume_links').execute();
}
