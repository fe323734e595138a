// The comparison key of a username or an address: what "the same name, in any case" means, computed
// in one place so SQLite and PostgreSQL agree (their lower() differ: SQLite's folds ASCII only,
// PostgreSQL's follows the database's locale) and so a look-alike cannot pass for a new name.
// Unicode NFKC first (compatibility forms: the Kelvin sign is K, fullwidth letters are ASCII, ligatures
// split), then a case fold: JavaScript has no full case folding, so upper-then-lower casing, which
// folds the special casings (ß to ss, ı to i, ſ to s), plus the folds that leaves out (İ to i, not
// i with a dot above; ẞ to ss; final ς to σ), then NFKC again for what casing decomposed. The stored columns
// users.username_key and users.email_key hold it, each under a unique index.
import type { Kysely } from 'kysely';

/** The key two names share when they are one name. */
export function foldKey(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/\u0130/g, 'I')
    .toUpperCase()
    .toLowerCase()
    .replace(/\u03c2/g, '\u03c3')
    .replace(/\u00df/g, 'ss')
    .normalize('NFKC');
}

export const usernameKey = (username: string): string => foldKey(username);
export const emailKey = (email: string): string => foldKey(email.trim());

/** An account whose key another, older account holds: the two are one name and must be told apart. */
export interface KeyClash {
  field: 'username' | 'email';
  key: string;
  /** the account left without its key (it signs in as before: by its name in any ASCII case) */
  id: string;
  username: string;
  value: string;
  /** the account holding the key */
  holder: { id: string; username: string; value: string };
}

type Row = {
  id: string;
  username: string;
  email: string;
  username_key: string | null;
  email_key: string | null;
};

/**
 * Stores the keys of the accounts that have none yet (rows written before the keys existed, or by
 * an older release while a newer one was rolling out), the oldest first. A key another account
 * already holds is left empty and returned as a clash: nothing fails, and each clash is reported
 * until one of the two accounts is renamed (or given another address). Safe to run from several
 * processes at once: each update takes the key only while no row holds it, and the unique index
 * decides a race.
 */
// biome-ignore lint/suspicious/noExplicitAny: called with a migration's untyped Kysely and the app's typed one
export async function fillAccountKeys(db: Kysely<any>): Promise<KeyClash[]> {
  const k = db as Kysely<{ users: Row & { date_created: string } }>;
  const rows = await k
    .selectFrom('users')
    .select(['id', 'username', 'email', 'username_key', 'email_key'])
    .where((eb) => eb.or([eb('username_key', 'is', null), eb('email_key', 'is', null)]))
    .orderBy('date_created')
    .orderBy('id')
    .execute();
  const clashes: KeyClash[] = [];
  for (const row of rows)
    for (const field of ['username', 'email'] as const) {
      const column = field === 'username' ? 'username_key' : 'email_key';
      if (row[column] !== null) continue;
      const key = field === 'username' ? usernameKey(row.username) : emailKey(row.email);
      let taken = false;
      try {
        const done = await k
          .updateTable('users')
          .set({ [column]: key })
          .where('id', '=', row.id)
          .where(column, 'is', null)
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('users as o').select('o.id').where(`o.${column}`, '=', key))),
          )
          .executeTakeFirst();
        taken = Number(done.numUpdatedRows) === 0;
      } catch (err) {
        const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
        if (!/unique|23505/i.test(`${code} ${err instanceof Error ? err.message : undefined}`)) throw err;
        taken = true;
      }
      if (!taken) continue;
      const holder = await k
        .selectFrom('users')
        .select(['id', 'username', 'email'])
        .where(column, '=', key)
        .executeTakeFirst();
      // A concurrent run stored this row's key itself: no clash.
      if (!holder || holder.id === row.id) continue;
      clashes.push({
        field,
        key,
        id: row.id,
        username: row.username,
        value: row[field],
        holder: { id: holder.id, username: holder.username, value: holder[field] },
      });
    }
  return clashes;
}

/** One line per clash, for the operator. */
export function describeClash(c: KeyClash): string {
  return c.field === 'username'
    ? `username "${c.value}" (account ${c.id}) is the same name as "${c.holder.value}" (account ${c.holder.id}): rename one of them`
    : `address "${c.value}" of ${c.username} (account ${c.id}) is the same address as "${c.holder.value}" of ${c.holder.username} (account ${c.holder.id}): change one of them`;
}
