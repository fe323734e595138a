// Shared results (domain/shared-results): one row per survey whose owner made a
// read-only results page at /results/<token>. The link itself is never stored: it is an HMAC of the
// row's random `nonce` under the server key, and `token_hash` (its SHA-256, unique) finds the row.
// Turning the page off clears `token_hash` and `nonce` (the link dies) and keeps the choices; the
// row goes with its survey (cascade).
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shared_results')
    .addColumn('survey_id', 'text', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('nonce', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('question_ids', 'text', (c) => c.notNull())
    .addColumn('filter_query', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shared_results').execute();
}
