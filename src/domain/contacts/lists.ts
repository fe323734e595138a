// Contact lists (reference §12.1): named sets of the account's contacts.
import type { Deps } from '../../context.js';
import type { ContactListsTable } from '../../db/tables/reach.js';
import { ownedPage, ownedRow } from '../core/owned.js';

export type ContactList = ContactListsTable;

/** `presetId`: an id reserved beforehand (the importer records it first, so a re-run never duplicates). */
export async function createList(
  deps: Deps,
  ownerId: string,
  name: string,
  presetId?: string,
): Promise<ContactList> {
  const row: ContactList = {
    id: presetId ?? (await deps.ids.one()),
    owner_id: ownerId,
    name,
    created_at: deps.clock.now().toISOString(),
  };
  await deps.db.kysely.insertInto('contact_lists').values(row).execute();
  return row;
}

export function getList(deps: Deps, ownerId: string, id: string): Promise<ContactList> {
  return ownedRow(deps.db.kysely, 'contact_lists', ownerId, id, 'Contact list not found.');
}

export function listLists(
  deps: Deps,
  ownerId: string,
  page: { offset: number; perPage: number },
): Promise<{ total: number; rows: ContactList[] }> {
  return ownedPage(deps.db.kysely, 'contact_lists', ownerId, { offset: page.offset, limit: page.perPage });
}

export async function renameList(
  deps: Deps,
  ownerId: string,
  id: string,
  name: string,
): Promise<ContactList> {
  const current = await getList(deps, ownerId, id);
  await deps.db.kysely.updateTable('contact_lists').set({ name }).where('id', '=', id).execute();
  return { ...current, name };
}

/** Deletes the list; its contacts stay in the address book. */
export async function deleteList(deps: Deps, ownerId: string, id: string): Promise<ContactList> {
  const current = await getList(deps, ownerId, id);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('contact_list_members').where('list_id', '=', id).execute();
    await trx.deleteFrom('contact_lists').where('id', '=', id).execute();
  });
  return current;
}

async function copyMembers(deps: Deps, ownerId: string, fromId: string, toId: string): Promise<void> {
  const k = deps.db.kysely;
  const now = deps.clock.now().toISOString();
  await k
    .insertInto('contact_list_members')
    .columns(['list_id', 'contact_id', 'owner_id', 'added_at'])
    .expression((eb) =>
      eb
        .selectFrom('contact_list_members')
        .select([
          eb.val(toId).as('list_id'),
          'contact_id',
          eb.val(ownerId).as('owner_id'),
          eb.val(now).as('added_at'),
        ])
        .where('list_id', '=', fromId),
    )
    .onConflict((oc) => oc.columns(['list_id', 'contact_id']).doNothing())
    .execute();
}

/** POST /contact_lists/{id}/copy: a new list "Copy of <name>" with the same contacts. */
export async function copyList(deps: Deps, ownerId: string, id: string): Promise<ContactList> {
  const source = await getList(deps, ownerId, id);
  const copy = await createList(deps, ownerId, `Copy of ${source.name}`);
  await copyMembers(deps, ownerId, source.id, copy.id);
  return copy;
}

/** POST /contact_lists/{id}/merge {list_id}: adds that list's contacts to this one. */
export async function mergeList(
  deps: Deps,
  ownerId: string,
  id: string,
  fromId: string,
): Promise<ContactList> {
  const target = await getList(deps, ownerId, id);
  await getList(deps, ownerId, fromId);
  await copyMembers(deps, ownerId, fromId, target.id);
  return target;
}

/** Adds the account's contacts `contactIds` to the list (those already in it stay once). */
export async function addMembers(
  deps: Deps,
  ownerId: string,
  listId: string,
  contactIds: string[],
): Promise<void> {
  await getList(deps, ownerId, listId);
  const k = deps.db.kysely;
  const now = deps.clock.now().toISOString();
  // In slices: an import adds thousands, beyond SQLite's limit of bound values per statement.
  for (let i = 0; i < contactIds.length; i += 200) {
    const owned = await k
      .selectFrom('contacts')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('id', 'in', contactIds.slice(i, i + 200))
      .execute();
    if (owned.length === 0) continue;
    await k
      .insertInto('contact_list_members')
      .values(owned.map((c) => ({ list_id: listId, contact_id: c.id, owner_id: ownerId, added_at: now })))
      .onConflict((oc) => oc.columns(['list_id', 'contact_id']).doNothing())
      .execute();
  }
}

/** Takes the contact out of the list; it stays in the address book. */
export async function removeMember(
  deps: Deps,
  ownerId: string,
  listId: string,
  contactId: string,
): Promise<void> {
  await getList(deps, ownerId, listId);
  await deps.db.kysely
    .deleteFrom('contact_list_members')
    .where('list_id', '=', listId)
    .where('contact_id', '=', contactId)
    .where('owner_id', '=', ownerId)
    .execute();
}

/** How many contacts each list has. */
export async function memberCounts(deps: Deps, listIds: string[]): Promise<Map<string, number>> {
  const out = new Map(listIds.map((id) => [id, 0]));
  if (listIds.length === 0) return out;
  const rows = await deps.db.kysely
    .selectFrom('contact_list_members')
    .select(['list_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('list_id', 'in', listIds)
    .groupBy('list_id')
    .execute();
  for (const r of rows) out.set(r.list_id, Number(r.n));
  return out;
}
