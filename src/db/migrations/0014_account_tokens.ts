// Self-service accounts: one address per account (sign-up and email changes rely on the unique
// index, not on a check before the insert, so two concurrent sign-ups cannot share an address),
// and the single-use links of email verification, password reset and sign-up invitations, stored
// only as SHA-256 hashes of the token in the link.
import { type Kysely, sql } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const shared = await sql<{ email: string }>`
    SELECT lower(email) AS email FROM users GROUP BY lower(email) HAVING count(*) > 1 LIMIT 5`.execute(db);
  if (shared.rows.length)
    throw new Error(
      `accounts must have distinct email addresses; change these before upgrading: ${shared.rows.map((r) => r.email).join(', ')}`,
    );
  await db.schema
    .createIndex('users_email_unique')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();
  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    /** verify_email | reset_password | signup_invite */
    .addColumn('purpose', 'text', (c) => c.notNull())
    /** the account the link acts on (null for a sign-up invitation) */
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    /** the address the link was sent to */
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_tokens_user')
    .on('account_tokens')
    .columns(['user_id', 'purpose'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_tokens').execute();
  await db.schema.dropIndex('users_email_unique').execute();
}
