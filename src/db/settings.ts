// Server-wide settings kept in the database (the `settings` table).
import type { Db } from './database.js';

/**
 * The server key kept in the database: `candidate` is stored if none is yet (first start), and the
 * stored key is returned, so every process on one database signs with the same key.
 */
export async function storedServerKey(db: Db, candidate: string): Promise<string> {
  const k = db.kysely;
  await k
    .insertInto('settings')
    .values({ key: 'server_key', value: candidate })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await k
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'server_key')
    .executeTakeFirstOrThrow();
  return row.value;
}
