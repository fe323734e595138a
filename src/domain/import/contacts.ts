// The contacts phases of an import: the contact fields' labels, the contact lists, the contacts
// (each read by its own request: the listing leaves out custom field values) with their status,
// and the lists' membership. A contact copied before is updated when its listing changed.
import type { Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import {
  type Contact,
  type ContactStatus,
  createContact,
  findExisting,
  getContact,
  setContactStatus,
  updateContact,
} from '../contacts/contacts.js';
import { setFieldLabel } from '../contacts/fields.js';
import { addMembers, createList, renameList } from '../contacts/lists.js';
import { type Mapped, mapped, record, reserve, stamp } from './jobs.js';
import type { RunContext } from './run-context.js';
import { ContactField, ContactList, ListedContact, SourceContact } from './source.js';

export const CONTACT_STATUSES: ContactStatus[] = ['active', 'optout', 'bounced'];

export async function copyFields(run: RunContext) {
  const fields = await run.api.all(ContactField, '/contact_fields?per_page=1000', 'contact fields');
  for (const f of fields) {
    await setFieldLabel(run.deps, run.owner.id, String(f.id), f.label).catch((err) => {
      if (!(err instanceof ApiError)) throw err;
      run.skip({ kind: 'contact_field', name: f.label, reason: err.message });
    });
  }
}

export async function copyLists(run: RunContext) {
  const lists = await run.api.all(ContactList, '/contact_lists?per_page=1000', 'contact lists');
  const known = await mapped(
    run.deps,
    run.job.id,
    'list',
    lists.map((l) => String(l.id)),
  );
  for (const l of lists) {
    const local = await reserve(run.deps, run.job.id, 'list', String(l.id));
    const exists = await run.deps.db.kysely
      .selectFrom('contact_lists')
      .select(['id', 'name'])
      .where('id', '=', local)
      .executeTakeFirst();
    if (!exists) {
      await createList(run.deps, run.owner.id, l.name, local);
      run.count('contact_lists');
    } else if (exists.name !== l.name && known.has(String(l.id))) {
      await renameList(run.deps, run.owner.id, local, l.name);
      run.count('contact_lists');
    }
  }
}

export async function copyContacts(run: RunContext) {
  for (const status of CONTACT_STATUSES) {
    let listed = 0;
    for await (const page of run.api.pages(
      ListedContact,
      `/contacts?per_page=1000&status=${status}`,
      'contacts',
      run.badItem('contact'),
    )) {
      listed += page.length;
      const known = await mapped(
        run.deps,
        run.job.id,
        'contact',
        page.map((c) => String(c.id)),
      );
      run.pendingRequests += page.filter((c) => !known.has(String(c.id))).length;
      for (const c of page) {
        const m = known.get(String(c.id));
        if (m) {
          await contactChanged(run, c, m, status);
          continue;
        }
        // The list leaves out custom field values: one GET per new contact brings them.
        const full = await run.readItem(SourceContact, `/contacts/${c.id}`, 'contact', String(c.id));
        run.pendingRequests -= 1;
        if (!full) continue;
        const input = contactInput(full);
        let local: Contact;
        try {
          // The address book is unique by email and phone number: a contact written by a run
          // killed before recording it is found again here, never created twice.
          local =
            (await findExisting(run.deps.db.kysely, run.owner.id, input)) ??
            (await createContact(run.deps, run.owner.id, run.plan, input));
        } catch (err) {
          skipContact(run, full, String(c.id), err);
          continue;
        }
        if (status !== 'active' && local.email)
          await setContactStatus(run.deps, run.owner.id, local.email, status);
        await record(run.deps, run.job.id, 'contact', [
          { source: String(c.id), local: local.id, stamp: contactStamp(full, status) },
        ]);
        run.count('contacts');
        await run.report();
      }
    }
    if (status === 'active') run.totals.contacts = listed;
  }
  // Membership: each list's contacts, added to the copied list.
  const lists = await run.deps.db.kysely
    .selectFrom('import_ids')
    .select(['source_id', 'local_id'])
    .where('job_id', '=', run.job.id)
    .where('kind', '=', 'list')
    .execute();
  for (const l of lists) {
    const members: string[] = [];
    for (const status of CONTACT_STATUSES)
      for await (const page of run.api.pages(
        ListedContact,
        `/contact_lists/${l.source_id}/contacts?per_page=1000&status=${status}`,
        'list members',
        run.badItem('contact'),
      ))
        members.push(...page.map((c) => String(c.id)));
    const locals = await mapped(run.deps, run.job.id, 'contact', members);
    await addMembers(
      run.deps,
      run.owner.id,
      l.local_id,
      [...locals.values()].map((m) => m.local_id),
    );
  }
}

/**
 * A contact copied before: when its listing (names, email, phone, status) differs from what was
 * copied, it is read again and the copy updated (the source wins: the address book keeps no
 * history to tell a local edit from the copy). A change to custom fields alone does not show in
 * the listing and is not seen (reading every contact each run would cost a request apiece).
 */
async function contactChanged(
  run: RunContext,
  c: Static<typeof ListedContact>,
  m: Mapped,
  status: ContactStatus,
) {
  const now = contactStamp(c, status);
  if (m.source_stamp === now) return;
  // Copied by a run that kept no stamp: taken as unchanged from here on.
  if (m.source_stamp === '') return stamp(run.deps, run.job.id, 'contact', String(c.id), now);
  const local = await getContact(run.deps, run.owner.id, m.local_id).catch(() => undefined);
  // Deleted here since the copy: the owner's choice stands.
  if (!local) return stamp(run.deps, run.job.id, 'contact', String(c.id), now);
  const full = await run.readItem(SourceContact, `/contacts/${c.id}`, 'contact', String(c.id));
  if (!full) return;
  try {
    await updateContact(run.deps, run.owner.id, local.id, contactInput(full), true);
    const email = full.email ?? local.email;
    if (email && local.status !== status) await setContactStatus(run.deps, run.owner.id, email, status);
  } catch (err) {
    skipContact(run, full, String(c.id), err);
    return;
  }
  await stamp(run.deps, run.job.id, 'contact', String(c.id), now);
  run.count('contacts_updated');
}

/** A contact this service refused (an ApiError) is reported as not copied; anything else throws. */
function skipContact(run: RunContext, full: SourceContact, sourceId: string, err: unknown) {
  if (!(err instanceof ApiError)) throw err;
  run.skip({ kind: 'contact', name: full.email ?? full.phone_number ?? sourceId, reason: err.message });
}

const contactInput = (c: SourceContact) => ({
  first_name: c.first_name ?? '',
  last_name: c.last_name ?? '',
  email: c.email ?? null,
  phone_number: c.phone_number ?? null,
  custom_fields: c.custom_fields ?? {},
});

/** What a contact's listing shows, as copied: a different one means "changed at the source". */
const contactStamp = (c: Static<typeof ListedContact>, status: string) =>
  JSON.stringify([c.first_name ?? '', c.last_name ?? '', c.email ?? null, c.phone_number ?? null, status]);
