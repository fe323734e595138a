// The ordered lists of a survey's design, positions kept 1..n: a survey's pages and a page's
// questions. Run inside the transaction of the change (design.ts), under the survey's lock.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

type Trx = Transaction<Database>;

export const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
type Ordered = 'survey_pages' | 'survey_questions';
/** Which list of the table: a survey's pages, or a page's questions. */
type ListScope = { column: 'survey_id' | 'page_id'; value: string };

/** Makes room for a new row at `wanted` (clamped; by default the end) and answers its position. */
export async function makeRoom(
  trx: Trx,
  table: Ordered,
  scope: ListScope,
  wanted: number | undefined,
): Promise<number> {
  const { n } = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(scope.column, '=', scope.value)
    .executeTakeFirstOrThrow();
  const position = clamp(wanted ?? Number(n) + 1, 1, Number(n) + 1);
  await trx
    .updateTable(table)
    .set((eb) => ({ position: eb('position', '+', 1) }))
    .where(scope.column, '=', scope.value)
    .where('position', '>=', position)
    .execute();
  return position;
}

/** Closes the gap a row deleted from `position` left. */
export async function closeGap(trx: Trx, table: Ordered, scope: ListScope, position: number): Promise<void> {
  await trx
    .updateTable(table)
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where(scope.column, '=', scope.value)
    .where('position', '>', position)
    .execute();
}

/** Moves one row of an ordered list from `from` to `to`, shifting the rows between. */
export async function move(
  trx: Trx,
  table: Ordered,
  scope: ListScope,
  id: string,
  from: number,
  to: number,
): Promise<void> {
  if (from === to) return;
  const q = trx.updateTable(table).where(scope.column, '=', scope.value).where('id', '!=', id);
  if (to < from)
    await q
      .set((eb) => ({ position: eb('position', '+', 1) }))
      .where('position', '>=', to)
      .where('position', '<', from)
      .execute();
  else
    await q
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('position', '>', from)
      .where('position', '<=', to)
      .execute();
  await trx.updateTable(table).set({ position: to }).where('id', '=', id).execute();
}
