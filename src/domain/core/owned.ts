// Reading rows a customer owns: one by id or 404/1020 (someone else's row is "not found" too), and
// the total of a list with one page of it.
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError } from '../../platform/errors.js';

/** Tables whose rows carry an `id` and the owning account's `owner_id`. */
export type OwnedTable = {
  [T in keyof Database]: Database[T] extends { id: string; owner_id: string } ? T : never;
}[keyof Database];

/** Which rows of a list one page holds. */
export interface Slice {
  offset: number;
  limit: number;
}

// Kysely cannot type a query over a table named by a type parameter; every OwnedTable has these
// two columns, so the queries below are built on this view of the database and typed at the end.
type OwnedView = Kysely<Record<OwnedTable, { id: string; owner_id: string }>>;

/** The owner's row of `table` with this id; otherwise 404/1020 saying `notFound`. */
export async function ownedRow<T extends OwnedTable>(
  db: Kysely<Database>,
  table: T,
  ownerId: string,
  id: string,
  notFound: string,
): Promise<Selectable<Database[T]>> {
  const row = await (db as unknown as OwnedView)
    .selectFrom(table as OwnedTable)
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, notFound);
  return row as Selectable<Database[T]>;
}

/** How many rows `base` matches, and the slice of them that `rows` selects and orders. */
export async function countAndPage<DB, TB extends keyof DB, RDB, RTB extends keyof RDB, O>(
  // biome-ignore lint/complexity/noBannedTypes: {} is Kysely's "nothing selected yet"
  base: SelectQueryBuilder<DB, TB, {}>,
  slice: Slice,
  // biome-ignore lint/complexity/noBannedTypes: as above
  rows: (q: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<RDB, RTB, O>,
): Promise<{ total: number; rows: O[] }> {
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const page = await rows(base).limit(slice.limit).offset(slice.offset).execute();
  return { total: Number((counted as { n: number | string }).n), rows: page };
}

/** Owned tables whose rows also carry `created_at`. */
export type DatedOwnedTable = {
  [T in OwnedTable]: Database[T] extends { created_at: string } ? T : never;
}[OwnedTable];

type DatedView = Kysely<Record<DatedOwnedTable, { id: string; owner_id: string; created_at: string }>>;

/** The owner's rows of `table` in creation order (ids alone are not: each process takes ids from
 * its own block): the total and one slice. */
export async function ownedPage<T extends DatedOwnedTable>(
  db: Kysely<Database>,
  table: T,
  ownerId: string,
  slice: Slice,
): Promise<{ total: number; rows: Selectable<Database[T]>[] }> {
  const base = (db as unknown as DatedView)
    .selectFrom(table as DatedOwnedTable)
    .where('owner_id', '=', ownerId);
  const page = await countAndPage(base, slice, (q) => q.selectAll().orderBy('created_at').orderBy('id'));
  return page as { total: number; rows: Selectable<Database[T]>[] };
}
