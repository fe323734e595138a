// Contact lists (reference §12.1): named sets of the account's contacts.
import type { Deps } from '../../context.js';
import type { ContactListsTable } from '../../db/tables/reach.js';
import { ApiError } from '../../platform/errors.js';

export type ContactList = ContactListsTable;

export async function createList(deps: Deps, ownerId: string, name: string): Promise<ContactList> {
  const row: ContactList = {
    id: await deps.ids.one(),
    owner_id: ownerId,
    name,
    created_at: deps.clock.now().toISOString(),
  };
  await deps.db.kysely.insertInto('contact_lists').values(row).execute();
  return row;
}

export async function getList(deps: Deps, ownerId: string, id: string): Promise<ContactList> {
  const row = await deps.db.kysely
    .selectFrom('contact_lists')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Contact list not found.');
  return row;
}

export async function listLists(
  deps: Deps,
  ownerId: string,
  page: { offset: number; perPage: number },
): Promise<{ total: number; rows: ContactList[] }> {
  const k = deps.db.kysely;
  const { n } = await k
    .selectFrom('contact_lists')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  const rows = await k
    .selectFrom('contact_lists')
    .selectAll()
    .where('owner_id', '=', ownerId)
    // Creation order; ids alone are not (each process takes ids from its own block).
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  return { total: Number(n), rows };
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
