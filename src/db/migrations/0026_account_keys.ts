// Usernames are unique without regard to case, as addresses already are (0014): a sign-in, a
// throttle or a lookup by name can then mean only one account. Existing names that differ only
// in case are reported by name before anything changes, so the operator can rename them first.
// Tokens record where they came from: `registration` (the app owner's token made with the app)
// or `oauth` (an authorization code's exchange), so an exchange replaces only earlier OAuth
// tokens and a replayed code revokes only its own.
import { type Kysely, sql } from 'kysely';

/** Needs-stop: tokens an older release's process makes meanwhile are all recorded as 'oauth', whatever their origin. */
export const kind = 'needs-stop' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const clashes = await sql<{ lowered: string }>`
    SELECT lower(username) AS lowered FROM users
    GROUP BY lower(username) HAVING count(*) > 1 ORDER BY lower(username) LIMIT 20`.execute(db);
  if (clashes.rows.length) {
    const lowered = clashes.rows.map((r) => r.lowered);
    const rows = await sql<{ username: string }>`
      SELECT username FROM users WHERE lower(username) IN (${sql.join(lowered)}) ORDER BY username`.execute(
      db,
    );
    const names = rows.rows.map((r) => r.username);
    throw new Error(
      `usernames must be unique without regard to case, and these differ only in case: ${names.join(', ')}. ` +
        'Rename all but one of each group, then migrate again: ' +
        'survey-service user rename --from OLD --to NEW' +
        ` (e.g. survey-service user rename --from ${names[names.length - 1]} --to ${names[names.length - 1]}-2)`,
    );
  }
  await db.schema
    .createIndex('users_username_lower')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();

  await db.schema
    .alterTable('tokens')
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('oauth'))
    .execute();
  // The owner's tokens that no authorization code issued were made with their app.
  await sql`
    UPDATE tokens SET origin = 'registration'
    WHERE user_id = (SELECT owner_id FROM apps WHERE apps.id = tokens.app_id)
      AND id NOT IN (SELECT token_id FROM auth_codes WHERE token_id IS NOT NULL)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tokens').dropColumn('origin').execute();
  await db.schema.dropIndex('users_username_lower').execute();
}
