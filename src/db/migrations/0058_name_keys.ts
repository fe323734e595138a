// Usernames and addresses compared by one key on both databases (db/account-keys.ts: NFKC, then a
// case fold), stored in users.username_key and users.email_key under unique indexes: a look-alike
// (Kelvin sign, fullwidth letters, İ, ı, ß) of a taken name is the taken name. The backfill gives
// each existing account its keys, the oldest first; an account whose key an older one already
// holds keeps an empty key (it works as before) and is reported by `migrate`, which names both
// accounts, until one is renamed. Additive: an older release keeps serving (it writes no keys; the
// next `migrate` fills them, and lookups fall back to the lower-cased value for a row without one).
// Index names: PostgreSQL already calls the constraint of users.username "users_username_key".
import type { Kysely } from 'kysely';
import { fillAccountKeys } from '../account-keys.js';

export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
  await db.schema.alterTable('users').addColumn('email_key', 'text').execute();
  await db.schema.createIndex('users_username_fold').on('users').unique().column('username_key').execute();
  await db.schema.createIndex('users_email_fold').on('users').unique().column('email_key').execute();
  await fillAccountKeys(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_email_fold').execute();
  await db.schema.dropIndex('users_username_fold').execute();
  await db.schema.alterTable('users').dropColumn('email_key').execute();
  await db.schema.alterTable('users').dropColumn('username_key').execute();
}
