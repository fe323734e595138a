// Contacts: the account's address book (reference §12). Emails are matched case-insensitively and
// are unique per account, as are phone numbers; custom fields are the six slots "1".."6".
import { type Kysely, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import { contactColumn, contactMatches, contactSearchMode } from '../../db/stores/contact-search.js';
import { contactCount } from '../../db/stores/day-counts.js';
import type { ContactsTable } from '../../db/tables/reach.js';
import { ApiError } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import { countAndPage, ownedRow } from '../core/owned.js';

export type Contact = ContactsTable;
/** The database or an open transaction. */
type Db = Kysely<Database>;
export const CUSTOM_SLOTS = ['1', '2', '3', '4', '5', '6'] as const;
export type CustomSlot = (typeof CUSTOM_SLOTS)[number];
export const CONTACT_STATUSES = ['active', 'optout', 'bounced'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export interface ContactInput {
  first_name?: string;
  last_name?: string;
  email?: string | null;
  phone_number?: string | null;
  custom_fields?: Partial<Record<CustomSlot, string>>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9]{7,15}$/;

/** Why a contact cannot be stored, or null. */
export function contactProblem(c: ContactInput): string | null {
  const email = c.email?.trim() || null;
  const phone = c.phone_number?.trim() || null;
  if (!email && !phone) return "'email' or 'phone_number' is required.";
  if (email && (!EMAIL.test(email) || email.length > 254)) return `'${email}' is not an email address.`;
  if (phone && !PHONE.test(phone)) return `'${phone}' is not a phone number (+1XXXYYYZZZZ).`;
  return null;
}

export function customFieldsOf(c: Contact): Record<CustomSlot, string> {
  return {
    '1': c.custom_1,
    '2': c.custom_2,
    '3': c.custom_3,
    '4': c.custom_4,
    '5': c.custom_5,
    '6': c.custom_6,
  };
}

function customColumns(fields: Partial<Record<CustomSlot, string>> | undefined, base?: Contact) {
  const out: Record<string, string> = {};
  for (const slot of CUSTOM_SLOTS) {
    const key = `custom_${slot}` as const;
    out[key] = fields?.[slot] ?? (base ? base[key] : '');
  }
  return out as Pick<Contact, 'custom_1' | 'custom_2' | 'custom_3' | 'custom_4' | 'custom_5' | 'custom_6'>;
}

/**
 * Refuses when `adding` more contacts would pass the plan's limit (403/1017). Call it inside the
 * inserting transaction after `lockRow(deps.db, trx, 'users', ownerId)`, so the count stays true
 * until the insert commits.
 */
export async function checkContactLimit(db: Db, deps: Deps, ownerId: string, plan: Plan, adding: number) {
  const limit = deps.config.contactLimits[plan] ?? 0;
  if (limit === 0 || adding === 0) return;
  const { n } = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  if (Number(n) + adding > limit)
    throw new ApiError(
      1017,
      `The ${plan} plan allows at most ${limit} contacts; this account has ${Number(n)} and the request adds ${adding}.`,
    );
}

/** The account's contact with this email or phone number, if any. */
export async function findExisting(db: Db, ownerId: string, c: ContactInput): Promise<Contact | undefined> {
  const email = c.email?.trim().toLowerCase() || null;
  const phone = c.phone_number?.trim() || null;
  let q = db.selectFrom('contacts').selectAll().where('owner_id', '=', ownerId);
  q = q.where((eb) => {
    const ors = [];
    if (email) ors.push(eb(sql`lower(email)`, '=', email));
    if (phone) ors.push(eb('phone_number', '=', phone));
    return eb.or(ors);
  });
  return q.executeTakeFirst();
}

export function newContactRow(deps: Deps, id: string, ownerId: string, c: ContactInput): Contact {
  const now = deps.clock.now().toISOString();
  return {
    id,
    owner_id: ownerId,
    first_name: c.first_name ?? '',
    last_name: c.last_name ?? '',
    email: c.email?.trim() || null,
    phone_number: c.phone_number?.trim() || null,
    ...customColumns(c.custom_fields),
    status: 'active',
    created_at: now,
    updated_at: now,
  };
}

/** Creates one contact (409/1026 when the email or phone number is already in the address book). */
export async function createContact(
  deps: Deps,
  ownerId: string,
  plan: Plan,
  input: ContactInput,
  listId?: string,
): Promise<Contact> {
  const problem = contactProblem(input);
  if (problem) throw new ApiError(1002, problem);
  const row = newContactRow(deps, await deps.ids.one(), ownerId, input);
  await deps.db.kysely.transaction().execute(async (trx) => {
    // The account's row serialises concurrent creates: the duplicate check and the limit hold.
    await lockRow(deps.db, trx, 'users', ownerId);
    if (await findExisting(trx, ownerId, input))
      throw new ApiError(1026, 'A contact with this email or phone number already exists.');
    await checkContactLimit(trx, deps, ownerId, plan, 1);
    await trx.insertInto('contacts').values(row).execute();
    if (listId)
      await trx
        .insertInto('contact_list_members')
        .values({ list_id: listId, contact_id: row.id, owner_id: ownerId, added_at: row.created_at })
        .execute();
  });
  return row;
}

export function getContact(deps: Deps, ownerId: string, id: string): Promise<Contact> {
  return ownedRow(deps.db.kysely, 'contacts', ownerId, id, 'Contact not found.');
}

/** PATCH merges (custom fields per slot); PUT replaces every field. */
export async function updateContact(
  deps: Deps,
  ownerId: string,
  id: string,
  input: ContactInput,
  replace: boolean,
): Promise<Contact> {
  const current = await getContact(deps, ownerId, id);
  const next: ContactInput = replace
    ? input
    : {
        first_name: input.first_name ?? current.first_name,
        last_name: input.last_name ?? current.last_name,
        email: input.email !== undefined ? input.email : current.email,
        phone_number: input.phone_number !== undefined ? input.phone_number : current.phone_number,
        custom_fields: { ...customFieldsOf(current), ...input.custom_fields },
      };
  const problem = contactProblem(next);
  if (problem) throw new ApiError(1002, problem);
  const clash = await findExisting(deps.db.kysely, ownerId, next);
  if (clash && clash.id !== id)
    throw new ApiError(1026, 'Another contact already has this email or phone number.');
  const values = {
    first_name: next.first_name ?? '',
    last_name: next.last_name ?? '',
    email: next.email?.trim() || null,
    phone_number: next.phone_number?.trim() || null,
    ...customColumns(next.custom_fields),
    updated_at: deps.clock.now().toISOString(),
  };
  await deps.db.kysely.updateTable('contacts').set(values).where('id', '=', id).execute();
  return { ...current, ...values };
}

export async function deleteContact(deps: Deps, ownerId: string, id: string): Promise<Contact> {
  const current = await getContact(deps, ownerId, id);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('contact_list_members').where('contact_id', '=', id).execute();
    await trx.deleteFrom('contacts').where('id', '=', id).execute();
  });
  return current;
}

/**
 * Marks the account's contacts with this email opted out or bounced (or active again). For the
 * invitation work: opt-out links and bounces call it. Returns how many contacts changed.
 */
export async function setContactStatus(
  deps: Deps,
  ownerId: string,
  email: string,
  status: ContactStatus,
): Promise<number> {
  const res = await deps.db.kysely
    .updateTable('contacts')
    .set({ status, updated_at: deps.clock.now().toISOString() })
    .where('owner_id', '=', ownerId)
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export interface ContactQuery {
  status?: ContactStatus;
  sort_by?: string;
  sort_order?: string;
  search_by?: string;
  search?: string;
}

const SORTABLE: Record<string, string> = {
  email: 'c.email',
  first_name: 'c.first_name',
  last_name: 'c.last_name',
  ...Object.fromEntries(CUSTOM_SLOTS.map((s) => [s, `c.custom_${s}`])),
};

export const SORT_KEYS = Object.keys(SORTABLE);

/** Lists contacts (of a list, when listId is given) with the status, search and sort of §12.2.
 * The default order (email) reads one page from the index on (owner, status, email, id); the total
 * of an account's whole list is its kept count (contact_counts), and a search reads the matching
 * contacts through the trigram index (db/stores/contact-search.ts), so none of these reads the
 * whole account. */
export async function listContacts(
  deps: Deps,
  ownerId: string,
  query: ContactQuery,
  page: { offset: number; perPage: number },
  listId?: string,
): Promise<{ total: number; rows: Contact[] }> {
  const k = deps.db.kysely;
  const status = query.status ?? 'active';
  const searching = query.search !== undefined && query.search !== '';
  const column = SORTABLE[query.search_by ?? 'email'];
  const mode = searching ? contactSearchMode(deps.db, column, query.search!) : 'scan';
  let q = k
    .selectFrom('contacts as c')
    .where(contactColumn(mode, 'owner_id'), '=', ownerId)
    .where(contactColumn(mode, 'status'), '=', status);
  if (listId)
    q = q.where(
      'c.id',
      'in',
      k.selectFrom('contact_list_members').select('contact_id').where('list_id', '=', listId),
    );
  if (searching) q = q.where(contactMatches(mode, column, query.search!));
  const direction = (query.sort_order ?? 'ASC').toUpperCase() === 'DESC' ? 'desc' : 'asc';
  const ordered = (base: typeof q) =>
    base
      .selectAll('c')
      .orderBy(sql`coalesce(${sql.ref(SORTABLE[query.sort_by ?? 'email'])}, '')`, direction)
      .orderBy('c.id', direction);
  if (!listId && !searching) {
    const [total, rows] = await Promise.all([
      contactCount(deps.db, ownerId, status),
      ordered(q).limit(page.perPage).offset(page.offset).execute(),
    ]);
    return { total, rows };
  }
  return countAndPage(q, { offset: page.offset, limit: page.perPage }, ordered);
}
