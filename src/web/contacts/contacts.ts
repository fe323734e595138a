import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import {
  CONTACT_STATUSES,
  type ContactStatus,
  createContact,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
} from '../../domain/contacts/contacts.js';
import { contactsCsv } from '../../domain/contacts/export.js';
import { listFields, setFieldLabel } from '../../domain/contacts/fields.js';
import type { ApiError } from '../../platform/errors.js';
import { askFirst, confirmed, destructiveForm } from '../confirm.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, signedInOnly } from '../session.js';
import { planOf } from '../typed.js';
import {
  attempt,
  CONTACT_FIELDS,
  contactFields,
  contactInput,
  contactsPage,
  contactValues,
  formBody,
  fullName,
  IdParams,
  messages,
  text,
  userOf,
} from './common.js';

const PER_PAGE = 50;
const NOTICES: Record<string, string> = {
  added: 'The contact was added.',
  saved: 'The contact was saved.',
  deleted: 'The contact was deleted.',
  fields: 'The custom field labels were saved.',
};
const STATUS_LABELS: Partial<Record<string, string>> & Record<ContactStatus, string> = {
  active: 'Active',
  optout: 'Opted out',
  bounced: 'Bounced',
};
const SEARCH_IN: [string, string][] = [
  ['email', 'Email'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
];

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  by: Type.Optional(Type.Union(SEARCH_IN.map(([v]) => Type.Literal(v)))),
  status: Type.Optional(Type.Union(CONTACT_STATUSES.map((s) => Type.Literal(s)))),
  page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
  done: Type.Optional(Type.String({ maxLength: 40 })),
});
type ListQuery = { q?: string; by?: string; status?: ContactStatus; page?: string; done?: string };

export function contactRoutes(app: PageApp, deps: Deps): void {
  const signedIn = signedInOnly(deps);

  async function renderList(
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
    query: ListQuery,
    state: { error?: ApiError; form?: Record<string, string | undefined> } = {},
  ) {
    const user = userOf(request);
    const csrf = await csrfToken(deps, reply);
    const pageNo = Math.max(1, Number(query.page ?? '1'));
    const status = query.status ?? 'active';
    const { total, rows } = await listContacts(
      deps,
      user.id,
      { status, search: query.q, search_by: query.by ?? 'email' },
      { offset: (pageNo - 1) * PER_PAGE, perPage: PER_PAGE },
    );
    const fields = await listFields(deps, user.id);
    const pageLink = (n: number) => {
      const p = new URLSearchParams();
      if (query.q) p.set('q', query.q);
      if (query.by) p.set('by', query.by);
      if (query.status) p.set('status', query.status);
      p.set('page', String(n));
      return `/contacts?${p}`;
    };
    const table = rows.length
      ? html`<table class="cards contacts-table"><caption class="visually-hidden">Contacts</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows.map(
          (
            c,
          ) => html`<tr><td data-label="Email" class="break">${c.email ?? ''}</td><td data-label="Name">${fullName(c)}</td><td data-label="Phone">${c.phone_number ?? ''}</td><td data-label="Status">${STATUS_LABELS[c.status] ?? c.status}</td>
<td><div class="actions"><a class="button secondary" href="/contacts/${c.id}" aria-label="Edit ${c.email ?? c.phone_number ?? ''}">Edit</a>
${destructiveForm(
  `/contacts/${c.id}/delete`,
  csrf,
  {
    title: `Delete the contact ${c.email ?? c.phone_number ?? ''}?`,
    lost: [`The contact ${c.email ?? c.phone_number ?? ''} and its place in every contact list.`],
    button: 'Delete contact',
  },
  { label: 'Delete', name: `Delete ${c.email ?? c.phone_number ?? ''}` },
)}</div></td></tr>`,
        )}</tbody></table>`
      : html`<p class="empty">${query.q ? 'No contact matches this search.' : 'No contacts yet. Add one below or import a CSV file.'}</p>`;
    const body = html`${messages(query.done ? NOTICES[query.done] : undefined, state.error)}
<form method="get" action="/contacts" class="row contacts-search" role="search" aria-label="Contacts">
<div class="field"><label for="search-q">Search</label><input id="search-q" name="q" type="search" value="${query.q ?? ''}"></div>
<div class="field"><label for="search-by">Search in</label><select id="search-by" name="by">${SEARCH_IN.map(
      ([v, l]) =>
        html`<option value="${v}"${(query.by ?? 'email') === v ? html` selected` : ''}>${l}</option>`,
    )}</select></div>
<div class="field"><label for="search-status">Status</label><select id="search-status" name="status">${CONTACT_STATUSES.map(
      (s) => html`<option value="${s}"${status === s ? html` selected` : ''}>${STATUS_LABELS[s]}</option>`,
    )}</select></div>
<button type="submit">Search</button>
</form>
<p class="muted" id="contact-count">${total} contact${total === 1 ? '' : 's'}${total > PER_PAGE ? html`, page ${pageNo} of ${Math.ceil(total / PER_PAGE)}` : ''}.</p>
${table}
<nav aria-label="Pages of contacts" class="row">${pageNo > 1 ? html`<a href="${pageLink(pageNo - 1)}">Previous page</a>` : ''}${
      pageNo * PER_PAGE < total ? html`<a href="${pageLink(pageNo + 1)}">Next page</a>` : ''
    }</nav>
<section class="card" aria-labelledby="add-heading"><h2 id="add-heading">Add a contact</h2>
<form method="post" action="/contacts">${hidden(csrf)}
${contactFields('add', fields, state.form ?? {}, !!state.error)}
<p><button type="submit">Add contact</button></p>
</form></section>`;
    return contactsPage(
      deps,
      reply,
      user,
      'Contacts',
      'contacts',
      body,
      state.error ? Math.min(state.error.status, 500) : 200,
    );
  }

  app.get(
    '/contacts',
    { schema: { hide: true, querystring: ListQuery }, preHandler: signedIn },
    (request, reply) => renderList(request, reply, request.query),
  );

  app.post(
    '/contacts',
    { schema: { hide: true, body: formBody(CONTACT_FIELDS) }, preHandler: [signedIn, app.csrfProtection] },
    async (request, reply) => {
      const user = userOf(request);
      const form = request.body;
      const error = await attempt(() => createContact(deps, user.id, planOf(user), contactInput(form)));
      if (!error) return reply.redirect('/contacts?done=added', 303);
      return renderList(request, reply, {}, { error, form });
    },
  );

  app.get(
    '/contacts/export.csv',
    { schema: { hide: true }, preHandler: signedIn },
    async (request, reply) => {
      const csv = await contactsCsv(deps, userOf(request).id);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="contacts.csv"')
        .type('text/csv; charset=utf-8')
        .send(csv);
    },
  );

  app.get(
    '/contacts/fields',
    { schema: { hide: true, querystring: Type.Object({ done: text(40) }) }, preHandler: signedIn },
    async (request, reply) => renderFields(request, reply, request.query.done),
  );

  async function renderFields(
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
    done?: string,
    error?: ApiError,
  ) {
    const user = userOf(request);
    const fields = await listFields(deps, user.id);
    const body = html`${messages(done ? NOTICES[done] : undefined, error)}
<p>Each contact has six custom fields. Name them here; the names show on the contact forms, the import and the export.</p>
<form method="post" action="/contacts/fields" class="card">${hidden(await csrfToken(deps, reply))}
${fields.map(
  (f) => html`<div class="field"><label for="field-${f.id}">Label of custom field ${f.id}</label>
<input id="field-${f.id}" name="label_${f.id}" type="text" maxlength="200" required value="${f.label}"></div>`,
)}
<p><button type="submit">Save labels</button></p></form>`;
    return contactsPage(
      deps,
      reply,
      user,
      'Custom fields',
      'fields',
      body,
      error ? Math.min(error.status, 500) : 200,
    );
  }

  app.post(
    '/contacts/fields',
    {
      schema: {
        hide: true,
        body: formBody(
          Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((s) => [`label_${s}`, text(200)])),
        ),
      },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      const form = request.body;
      for (const f of await listFields(deps, user.id)) {
        const label = form[`label_${f.id}`]?.trim();
        if (label && label !== f.label) await setFieldLabel(deps, user.id, f.id, label);
      }
      return reply.redirect('/contacts/fields?done=fields', 303);
    },
  );

  async function renderEdit(
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
    id: string,
    state: { error?: ApiError; form?: Record<string, string | undefined> } = {},
  ) {
    const user = userOf(request);
    const c = await getContact(deps, user.id, id);
    const fields = await listFields(deps, user.id);
    const name = c.email ?? c.phone_number ?? '';
    const body = html`<p><a href="/contacts">← All contacts</a></p>
${messages(undefined, state.error)}
<section class="card" aria-labelledby="edit-heading"><h2 id="edit-heading">Edit ${name}</h2>
<p class="muted">Status: ${STATUS_LABELS[c.status] ?? c.status}</p>
<form method="post" action="/contacts/${c.id}">${hidden(await csrfToken(deps, reply))}
${contactFields('edit', fields, state.form ?? contactValues(c), !!state.error)}
<p><button type="submit">Save contact</button></p>
</form></section>`;
    return contactsPage(
      deps,
      reply,
      user,
      'Edit contact',
      null,
      body,
      state.error ? Math.min(state.error.status, 500) : 200,
    );
  }

  app.get(
    '/contacts/:contactId',
    { schema: { hide: true, params: IdParams('contactId') }, preHandler: signedIn },
    (request, reply) => renderEdit(request, reply, request.params.contactId),
  );

  app.post(
    '/contacts/:contactId',
    {
      schema: { hide: true, params: IdParams('contactId'), body: formBody(CONTACT_FIELDS) },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      const { contactId } = request.params;
      const form = request.body;
      const error = await attempt(() => updateContact(deps, user.id, contactId, contactInput(form), true));
      if (!error) return reply.redirect('/contacts?done=saved', 303);
      if (error.code === 1020) throw error;
      return renderEdit(request, reply, contactId, { error, form });
    },
  );

  app.post(
    '/contacts/:contactId/delete',
    {
      schema: { hide: true, params: IdParams('contactId'), body: formBody({ confirm: text(10) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      const { contactId } = request.params;
      const c = await getContact(deps, user.id, contactId);
      if (!confirmed(request.body)) {
        const name = c.email ?? c.phone_number ?? '';
        return askFirst(
          deps,
          reply,
          user,
          {
            action: `/contacts/${c.id}/delete`,
            destruction: {
              title: `Delete the contact ${name}?`,
              lost: [`The contact ${name} and its place in every contact list.`],
              button: 'Delete contact',
            },
            cancelHref: '/contacts',
          },
          { section: 'contacts' },
        );
      }
      await deleteContact(deps, user.id, c.id);
      return reply.redirect('/contacts?done=deleted', 303);
    },
  );
}
