// Single sign-on: which account an identity provider's person is (user_identities), the sign-ins
// started and not yet finished (sso_pending: an OIDC flow's state, nonce and PKCE verifier, a SAML
// AuthnRequest's id), and the SAML assertions already used (sso_replays). All three live in the
// database so any server process can finish a sign-in another one started, and a response replayed
// to a second process is refused as it is by the first.
import type { Kysely } from 'kysely';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_identities')
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identities_pk', ['protocol', 'issuer', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
  await db.schema
    .createTable('sso_pending')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text')
    .addColumn('nonce', 'text')
    .addColumn('code_verifier', 'text')
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_pending_expires').on('sso_pending').column('expires_at').execute();
  await db.schema
    .createTable('sso_replays')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_replays_expires').on('sso_replays').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_replays').execute();
  await db.schema.dropTable('sso_pending').execute();
  await db.schema.dropTable('user_identities').execute();
}
