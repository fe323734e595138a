// Recipients of an email collector (reference §9). A recipient is one address on one collector,
// tied to a contact of the account's address book, with an unguessable token for their personal
// survey link (/r/<collector token>?rcp=<token>) and opt-out link (/optout?sm=<token>). Messages
// reach recipients through message_recipients.
import { randomBytes } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import type { CollectorMessagesTable, CollectorRecipientsTable } from '../../db/tables/invitations.js';
import { ApiError } from '../../platform/errors.js';
import { chunks } from '../../platform/lists.js';
import type { Plan } from '../../platform/plans.js';
import { type Collector, urlToken } from '../collectors/collectors.js';
import { type Contact, checkContactLimit, newContactRow } from '../contacts/contacts.js';
import { countAndPage, ownedRow } from '../core/owned.js';

export type RecipientRow = Selectable<CollectorRecipientsTable>;

/** Rows per INSERT when adding recipients (about a dozen parameters each). */
const ROWS_PER_INSERT = 500;

export interface RecipientInput {
  email?: string;
  first_name?: string;
  last_name?: string;
  custom_fields?: Record<string, string>;
  extra_fields?: Record<string, string>;
}

export interface BulkInput {
  contacts?: RecipientInput[];
  contact_ids?: string[];
  contact_list_ids?: string[];
}

export interface BulkOutcome {
  succeeded: RecipientRow[];
  invalids: string[];
  existing: string[];
  bounced: string[];
  opted_out: string[];
  duplicate: string[];
}

export type Duplicates = 'add' | 'add_if_not_in_message' | 'add_if_not_in_collector';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const token = () => randomBytes(18).toString('base64url');
const notFound = () => new ApiError(1020, 'Recipient not found.');

/**
 * Joins a recipient (`r`) to the account's contact (`c`) with its address: opt-outs and bounces
 * are per address, and survive the contact the recipient was made from being deleted.
 */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's join builder type for any aliased pair
export const byEmail = (j: any) =>
  j.onRef('c.owner_id', '=', 'r.owner_id').on(sql`lower(c.email) = lower(r.email)`);

/** The collector's respondent URL token (email collectors get one with their first recipient). */
export async function ensureLinkToken(deps: Deps, collector: Collector): Promise<string> {
  if (collector.url_token) return collector.url_token;
  const t = urlToken();
  await deps.db.kysely
    .updateTable('collectors')
    .set({ url_token: t })
    .where('id', '=', collector.id)
    .where('url_token', 'is', null)
    .execute();
  const row = await deps.db.kysely
    .selectFrom('collectors')
    .select('url_token')
    .where('id', '=', collector.id)
    .executeTakeFirstOrThrow();
  collector.url_token = row.url_token;
  return row.url_token!;
}

export function surveyLink(
  base: string,
  collectorToken: string | null,
  r: Pick<RecipientRow, 'token'>,
): string {
  return `${base}/r/${collectorToken ?? ''}?rcp=${r.token}`;
}
export function removeLink(base: string, r: Pick<RecipientRow, 'token'>): string {
  return `${base}/optout?sm=${r.token}`;
}

/**
 * Adds recipients to an invite message that has not been sent, sorting every address into the
 * result buckets of reference §9.3. Checks the plan's recipients-per-message limit (400/1056).
 */
export async function addRecipients(
  deps: Deps,
  plan: Plan,
  collector: Collector,
  message: Pick<Selectable<CollectorMessagesTable>, 'id' | 'type' | 'status'>,
  input: BulkInput,
  duplicates: Duplicates = 'add',
): Promise<BulkOutcome> {
  if (message.type !== 'invite')
    throw new ApiError(
      1002,
      "Recipients are added to invite messages; reminders and thank-you messages reach the invite's recipients.",
    );
  if (message.status !== 'not_sent')
    throw new ApiError(1025, `Message ${message.id} has been sent; recipients cannot be added.`);
  const k = deps.db.kysely;
  const owner = collector.owner_id;
  const out: BulkOutcome = {
    succeeded: [],
    invalids: [],
    existing: [],
    bounced: [],
    opted_out: [],
    duplicate: [],
  };

  // Everyone named, as {email, names, contact?}.
  const wanted: Array<RecipientInput & { contact?: Contact }> = [];
  for (const c of input.contacts ?? []) wanted.push(c);
  const contactIds = [...new Set(input.contact_ids ?? [])];
  if (contactIds.length > 0) {
    const found = await k
      .selectFrom('contacts')
      .selectAll()
      .where('owner_id', '=', owner)
      .where('id', 'in', contactIds)
      .execute();
    const byId = new Map(found.map((c) => [c.id, c]));
    for (const id of contactIds) {
      const c = byId.get(id);
      if (!c) out.invalids.push(id);
      else if (!c.email) out.invalids.push(c.phone_number ?? id);
      else wanted.push({ email: c.email, first_name: c.first_name, last_name: c.last_name, contact: c });
    }
  }
  for (const listId of [...new Set(input.contact_list_ids ?? [])]) {
    await ownedRow(k, 'contact_lists', owner, listId, `Contact list ${listId} not found.`);
    const members = await k
      .selectFrom('contact_list_members as m')
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .selectAll('c')
      .where('m.list_id', '=', listId)
      .execute();
    for (const c of members)
      if (c.email)
        wanted.push({ email: c.email, first_name: c.first_name, last_name: c.last_name, contact: c });
  }

  // Sort into buckets.
  const seen = new Set<string>();
  const candidates: Array<RecipientInput & { email: string; contact?: Contact }> = [];
  for (const w of wanted) {
    const email = (w.email ?? '').trim();
    if (!EMAIL.test(email) || email.length > 320) {
      out.invalids.push(w.email ?? '');
      continue;
    }
    const key = email.toLowerCase();
    if (seen.has(key)) {
      out.duplicate.push(email);
      continue;
    }
    seen.add(key);
    candidates.push({ ...w, email });
  }
  if (candidates.length === 0) return out;
  // Ids and the link token first (SQLite: the transaction holds the only connection).
  const ids = await deps.ids.take(2 * candidates.length);
  await ensureLinkToken(deps, collector);
  const now = deps.clock.now().toISOString();
  await deps.db.kysely.transaction().execute(async (k) => {
    // The account's row serialises concurrent additions and sends: the buckets, the recipient
    // limit and the contact limit stay true until this transaction commits.
    await lockRow(deps.db, k, 'users', owner);
    const current = await k
      .selectFrom('collector_messages')
      .select('status')
      .where('id', '=', message.id)
      .executeTakeFirst();
    if (current?.status !== 'not_sent')
      throw new ApiError(1025, `Message ${message.id} has been sent; recipients cannot be added.`);
    const emails = candidates.map((c) => c.email.toLowerCase());
    const contacts = new Map<string, Contact>();
    const inMessage = new Set<string>();
    const inCollector = new Map<string, RecipientRow>();
    for (let i = 0; i < emails.length; i += 500) {
      const chunk = emails.slice(i, i + 500);
      for (const c of await k
        .selectFrom('contacts')
        .selectAll()
        .where('owner_id', '=', owner)
        .where(sql`lower(email)`, 'in', chunk)
        .execute())
        contacts.set((c.email ?? '').toLowerCase(), c);
      for (const r of await k
        .selectFrom('collector_recipients')
        .selectAll()
        .where('collector_id', '=', collector.id)
        .where(sql`lower(email)`, 'in', chunk)
        .execute())
        inCollector.set(r.email.toLowerCase(), r);
      for (const r of await k
        .selectFrom('message_recipients as mr')
        .innerJoin('collector_recipients as r', 'r.id', 'mr.recipient_id')
        .select('r.email')
        .where('mr.message_id', '=', message.id)
        .where(sql`lower(r.email)`, 'in', chunk)
        .execute())
        inMessage.add(r.email.toLowerCase());
    }
    const accepted: typeof candidates = [];
    for (const c of candidates) {
      const key = c.email.toLowerCase();
      const contact = c.contact ?? contacts.get(key);
      if (contact?.status === 'optout') out.opted_out.push(c.email);
      else if (contact?.status === 'bounced') out.bounced.push(c.email);
      else if (inMessage.has(key)) out.existing.push(c.email);
      else if (duplicates === 'add_if_not_in_collector' && inCollector.has(key)) out.existing.push(c.email);
      else accepted.push(c);
    }
    if (accepted.length === 0) return;

    const limit = deps.config.invitationLimits.recipients[plan] ?? 0;
    if (limit > 0) {
      const { n } = await k
        .selectFrom('message_recipients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('message_id', '=', message.id)
        .executeTakeFirstOrThrow();
      if (Number(n) + accepted.length > limit)
        throw new ApiError(
          1056,
          `The ${plan} plan allows at most ${limit} recipients on one message; it has ${Number(n)} and the request adds ${accepted.length}.`,
        );
    }
    const newContacts = accepted.filter((c) => !(c.contact ?? contacts.get(c.email.toLowerCase())));
    await checkContactLimit(k, deps, owner, plan, newContacts.length);
    // Inserted a few hundred rows per statement: thousands of recipients are a few statements, not
    // three round trips each.
    let next = 0;
    const contactRows = newContacts.map((c) => {
      const row = newContactRow(deps, ids[next++], owner, {
        email: c.email,
        first_name: c.first_name,
        last_name: c.last_name,
        custom_fields: c.custom_fields,
      });
      contacts.set(c.email.toLowerCase(), row);
      return row;
    });
    const recipientRows: RecipientRow[] = [];
    for (const c of accepted) {
      const key = c.email.toLowerCase();
      let r = inCollector.get(key);
      if (!r) {
        const contact = c.contact ?? contacts.get(key)!;
        r = {
          id: ids[next++],
          collector_id: collector.id,
          survey_id: collector.survey_id,
          owner_id: owner,
          contact_id: contact.id,
          email: c.email,
          first_name: c.first_name ?? contact.first_name ?? '',
          last_name: c.last_name ?? contact.last_name ?? '',
          custom_fields: JSON.stringify(c.custom_fields ?? {}),
          extra_fields: JSON.stringify(c.extra_fields ?? {}),
          token: token(),
          date_created: now,
        };
        recipientRows.push(r);
      }
      out.succeeded.push(r);
    }
    for (const rows of chunks(contactRows, ROWS_PER_INSERT))
      await k.insertInto('contacts').values(rows).execute();
    for (const rows of chunks(recipientRows, ROWS_PER_INSERT))
      await k.insertInto('collector_recipients').values(rows).execute();
    for (const rows of chunks(out.succeeded, ROWS_PER_INSERT))
      await k
        .insertInto('message_recipients')
        .values(
          rows.map((r) => ({
            message_id: message.id,
            recipient_id: r.id,
            collector_id: collector.id,
            mail_status: 'not_sent',
            email_id: null,
            sent_at: null,
          })),
        )
        .execute();
  });
  return out;
}

export async function getRecipient(deps: Deps, collector: Collector, id: string): Promise<RecipientRow> {
  const row = await deps.db.kysely
    .selectFrom('collector_recipients')
    .selectAll()
    .where('id', '=', id)
    .where('collector_id', '=', collector.id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Recipients of a collector, or of one of its messages; newest last. */
export async function listRecipients(
  deps: Deps,
  collector: Collector,
  messageId: string | null,
  offset: number,
  limit: number,
): Promise<[number, RecipientRow[]]> {
  const k = deps.db.kysely;
  let base = k.selectFrom('collector_recipients as r').where('r.collector_id', '=', collector.id);
  if (messageId)
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('message_recipients as mr')
          .select('mr.recipient_id')
          .whereRef('mr.recipient_id', '=', 'r.id')
          .where('mr.message_id', '=', messageId),
      ),
    );
  const { total, rows } = await countAndPage(base, { offset, limit }, (q) =>
    q.selectAll('r').orderBy('r.id'),
  );
  return [total, rows];
}

export async function deleteRecipient(deps: Deps, r: RecipientRow): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('message_recipients').where('recipient_id', '=', r.id).execute();
    await trx.deleteFrom('collector_recipients').where('id', '=', r.id).execute();
  });
}

export type ResponseState = 'not_responded' | 'partially_responded' | 'completely_responded';

/** How each recipient has responded, and whether any message was sent to them. */
export async function recipientStates(
  deps: Deps,
  collectorId: string,
  ids: string[],
): Promise<Map<string, { response: ResponseState; mail: 'sent' | 'not_sent'; optedOut: boolean }>> {
  const out = new Map<string, { response: ResponseState; mail: 'sent' | 'not_sent'; optedOut: boolean }>();
  for (const id of ids) out.set(id, { response: 'not_responded', mail: 'not_sent', optedOut: false });
  if (ids.length === 0) return out;
  const k = deps.db.kysely;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of await k
      .selectFrom('responses')
      .select(['recipient_id', 'response_status'])
      .where('collector_id', '=', collectorId)
      .where('recipient_id', 'in', chunk)
      .execute()) {
      const s = out.get(r.recipient_id)!;
      if (r.response_status === 'completed') s.response = 'completely_responded';
      else if (s.response === 'not_responded') s.response = 'partially_responded';
    }
    for (const m of await k
      .selectFrom('message_recipients')
      .select('recipient_id')
      .where('recipient_id', 'in', chunk)
      .where('mail_status', '=', 'sent')
      .execute())
      out.get(m.recipient_id)!.mail = 'sent';
    for (const c of await k
      .selectFrom('collector_recipients as r')
      .innerJoin('contacts as c', byEmail)
      .select('r.id')
      .where('r.id', 'in', chunk)
      .where('c.status', '=', 'optout')
      .execute())
      out.get(c.id)!.optedOut = true;
  }
  return out;
}

/** The recipient a personal link names, if it belongs to this collector. */
export async function recipientByToken(
  deps: Deps,
  collectorId: string,
  t: string | null | undefined,
): Promise<RecipientRow | undefined> {
  if (!t || !/^[A-Za-z0-9_-]{10,60}$/.test(t)) return undefined;
  return deps.db.kysely
    .selectFrom('collector_recipients')
    .selectAll()
    .where('token', '=', t)
    .where('collector_id', '=', collectorId)
    .executeTakeFirst();
}
