// What the account's security page shows of each signed-in session: the browser's user agent
// (named as "Chrome on macOS" when shown), when the session was last seen (written at most once per
// few minutes per session, not per request), and a public id that names the session in the page's
// forms (the cookie value and its hash never appear in a page). Sessions made by a server that does
// not know these columns yet (a rolling upgrade) get an id and a time on their next request to one
// that does; the rows here get them now.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const randomId = sqlite ? sql`lower(hex(randomblob(16)))` : sql`replace(gen_random_uuid()::text, '-', '')`;
  await sql`UPDATE sessions SET public_id = ${randomId}, last_seen_at = created_at WHERE public_id IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['public_id', 'last_seen_at', 'user_agent'])
    await db.schema.alterTable('sessions').dropColumn(column).execute();
}
