// Bulk contact creation with per-item results (reference §12.3): each submitted contact ends up in
// `succeeded` (created, or updated when update_existing is true), `existing` (already in the
// address book, left alone) or `invalids` (with the reason).
import { type Kysely, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import type { Plan } from '../../platform/plans.js';
import {
  type Contact,
  type ContactInput,
  checkContactLimit,
  contactProblem,
  customFieldsOf,
  newContactRow,
} from './contacts.js';

export interface BulkResult {
  succeeded: Contact[];
  invalids: Array<ContactInput & { error: string }>;
  existing: Contact[];
  /** What became of each submitted contact, in order (the CSV import's per-row result). */
  rows: BulkRow[];
}

export type BulkRow =
  | { outcome: 'created' | 'updated' | 'existing'; contact: Contact }
  | { outcome: 'invalid' | 'duplicate'; error: string };

const CHUNK = 100;

/** The account's contacts matching any email (case-insensitive) or phone number of the batch. */
async function existingByKey(
  k: Kysely<Database>,
  ownerId: string,
  contacts: ContactInput[],
): Promise<Map<string, Contact>> {
  const emails = [
    ...new Set(contacts.map((c) => c.email?.trim().toLowerCase()).filter((e): e is string => !!e)),
  ];
  const phones = [...new Set(contacts.map((c) => c.phone_number?.trim()).filter((p): p is string => !!p))];
  const found = new Map<string, Contact>();
  for (let i = 0; i < emails.length; i += CHUNK) {
    const rows = await k
      .selectFrom('contacts')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where(sql`lower(email)`, 'in', emails.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) found.set(r.email!.toLowerCase(), r);
  }
  for (let i = 0; i < phones.length; i += CHUNK) {
    const rows = await k
      .selectFrom('contacts')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('phone_number', 'in', phones.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) found.set(r.phone_number!, r);
  }
  return found;
}

export async function bulkCreateContacts(
  deps: Deps,
  ownerId: string,
  plan: Plan,
  contacts: ContactInput[],
  updateExisting: boolean,
  listId?: string,
): Promise<BulkResult> {
  const result: BulkResult = { succeeded: [], invalids: [], existing: [], rows: [] };
  // Ids before the transaction (SQLite: the transaction holds the only connection).
  const ids = await deps.ids.take(contacts.length);
  const now = deps.clock.now().toISOString();
  const created: Contact[] = [];
  const updated: Contact[] = [];
  // Per input: its row outcome, or the index into the created/updated contacts filled in below.
  let pending: Array<BulkRow | { create: number } | { update: number }> = [];
  await deps.db.kysely.transaction().execute(async (trx) => {
    // The account's row serialises concurrent requests: sorting into new/existing and the
    // contact limit both stay true until this transaction commits.
    await lockRow(deps.db, trx, 'users', ownerId);
    const toCreate: ContactInput[] = [];
    const toUpdate: Array<{ current: Contact; input: ContactInput }> = [];
    pending = [];
    const seen = new Map<string, 'new' | Contact>();
    const keysOf = (c: ContactInput) =>
      [c.email?.trim().toLowerCase(), c.phone_number?.trim()].filter((k): k is string => !!k);
    const known = await existingByKey(trx, ownerId, contacts);
    for (const c of contacts) {
      const problem = contactProblem(c);
      if (problem) {
        result.invalids.push({ ...c, error: problem });
        pending.push({ outcome: 'invalid', error: problem });
        continue;
      }
      const keys = keysOf(c);
      const earlier = keys.map((k) => seen.get(k)).find((v) => v !== undefined);
      if (earlier !== undefined) {
        const error = 'The same email or phone number appears earlier in this request.';
        result.invalids.push({ ...c, error });
        pending.push({ outcome: 'duplicate', error });
        continue;
      }
      const current = keys.map((k) => known.get(k)).find((v) => v !== undefined);
      if (current) {
        if (updateExisting) pending.push({ update: toUpdate.push({ current, input: c }) - 1 });
        else {
          result.existing.push(current);
          pending.push({ outcome: 'existing', contact: current });
        }
        for (const k of keys) seen.set(k, current);
        continue;
      }
      pending.push({ create: toCreate.push(c) - 1 });
      for (const k of keys) seen.set(k, 'new');
    }
    await checkContactLimit(trx, deps, ownerId, plan, toCreate.length);
    created.push(...toCreate.map((c, i) => newContactRow(deps, ids[i], ownerId, c)));
    updated.push(
      ...(toUpdate.map(({ current, input }) => ({
        ...current,
        first_name: input.first_name ?? current.first_name,
        last_name: input.last_name ?? current.last_name,
        email: input.email?.trim() || current.email,
        phone_number: input.phone_number?.trim() || current.phone_number,
        ...Object.fromEntries(
          Object.entries({ ...customFieldsOf(current), ...input.custom_fields }).map(([k, v]) => [
            `custom_${k}`,
            v,
          ]),
        ),
        updated_at: now,
      })) as Contact[]),
    );
    for (let i = 0; i < created.length; i += CHUNK)
      await trx
        .insertInto('contacts')
        .values(created.slice(i, i + CHUNK))
        .execute();
    for (const u of updated) {
      const { id, owner_id: _o, created_at: _c, ...values } = u;
      await trx.updateTable('contacts').set(values).where('id', '=', id).execute();
    }
    if (listId) {
      const members = [...created, ...updated, ...result.existing].map((c) => ({
        list_id: listId,
        contact_id: c.id,
        owner_id: ownerId,
        added_at: now,
      }));
      for (let i = 0; i < members.length; i += CHUNK)
        await trx
          .insertInto('contact_list_members')
          .values(members.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['list_id', 'contact_id']).doNothing())
          .execute();
    }
  });
  result.succeeded = [...created, ...updated];
  result.rows = pending.map((p) =>
    'create' in p
      ? { outcome: 'created' as const, contact: created[p.create] }
      : 'update' in p
        ? { outcome: 'updated' as const, contact: updated[p.update] }
        : p,
  );
  return result;
}
