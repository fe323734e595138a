// Contact lists on the Contacts page: /contacts/lists (the lists with their sizes, create) and
// /contacts/lists/{id} (its members, add and remove members, rename, delete). Through the same
// domain functions as /v3/contact_lists.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TProperties, Type } from 'typebox';
import type { Deps } from '../../context.js';
import { listContacts } from '../../domain/contacts/contacts.js';
import {
  addMembers,
  createList,
  deleteList,
  getList,
  listLists,
  memberCounts,
  removeMember,
  renameList,
} from '../../domain/contacts/lists.js';
import { ApiError } from '../../platform/errors.js';
import { askFirst, confirmed, destructiveForm } from '../confirm.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import { type PageApp, validated } from '../page-area.js';
import { csrfToken, signedInOnly } from '../session.js';
import {
  contactsPage,
  formBody,
  fullName,
  IdParams,
  listOf,
  many,
  messages,
  text,
  userOf,
} from './common.js';

/** Lists and members shown on one page (the rest: "and N more"). */
const SHOWN = 500;
const NOTICES: Record<string, string> = {
  created: 'The list was created.',
  renamed: 'The list was renamed.',
  deleted: 'The list was deleted; its contacts stay in the address book.',
  added: 'The contacts were added to the list.',
  removed: 'The contact was taken out of the list.',
};
const Done = Type.Object({ done: text(40) });
const ListParams = IdParams('listId');

/** A list's name from a form field (also the import's "new list named …"). */
export function nameOf(value: string | undefined): string {
  const name = (value ?? '').trim();
  if (!name) throw new ApiError(1002, 'Give the list a name.');
  if (name.length > 200) throw new ApiError(1002, 'The name is longer than 200 characters.');
  return name;
}

export function listRoutes(app: PageApp, deps: Deps): void {
  const signedIn = signedInOnly(deps);

  async function renderLists(request: FastifyRequest, reply: FastifyReply, done?: string, error?: ApiError) {
    const user = userOf(request);
    const { total, rows } = await listLists(deps, user.id, { offset: 0, perPage: SHOWN });
    const counts = await memberCounts(
      deps,
      rows.map((l) => l.id),
    );
    const body = html`${messages(done ? NOTICES[done] : undefined, error)}
${
  rows.length
    ? html`<table class="cards"><caption class="visually-hidden">Contact lists</caption><thead><tr><th scope="col">List</th><th scope="col" class="num">Contacts</th></tr></thead>
<tbody>${rows.map(
        (l) =>
          html`<tr><td data-label="List"><a href="/contacts/lists/${l.id}">${l.name}</a></td><td data-label="Contacts" class="num">${counts.get(l.id) ?? 0}</td></tr>`,
      )}</tbody></table>${total > rows.length ? html`<p class="muted">Showing ${rows.length} of ${total} lists.</p>` : ''}`
    : html`<p class="empty">No contact lists yet.</p>`
}
<section class="card" aria-labelledby="new-list-heading"><h2 id="new-list-heading">Create a list</h2>
<form method="post" action="/contacts/lists">${hidden(await csrfToken(deps, reply))}
<div class="field"><label for="list-name">List name</label><input id="list-name" name="name" type="text" maxlength="200" required${
      error ? html` aria-invalid="true" aria-describedby="form-error"` : ''
    }></div>
<p><button type="submit">Create list</button></p></form></section>`;
    return contactsPage(
      deps,
      reply,
      user,
      'Contact lists',
      'lists',
      body,
      error ? Math.min(error.status, 500) : 200,
    );
  }

  app.get(
    '/contacts/lists',
    { schema: { hide: true, querystring: Done }, preHandler: signedIn },
    (request, reply) => renderLists(request, reply, request.query.done),
  );

  app.post(
    '/contacts/lists',
    {
      schema: { hide: true, body: formBody({ name: text(1000) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      try {
        const list = await createList(deps, user.id, nameOf(request.body.name));
        return reply.redirect(`/contacts/lists/${list.id}?done=created`, 303);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return renderLists(request, reply, undefined, err);
      }
    },
  );

  async function renderList(
    request: FastifyRequest,
    reply: FastifyReply,
    listId: string,
    done?: string,
    error?: ApiError,
  ) {
    const user = userOf(request);
    const list = await getList(deps, user.id, listId);
    const csrf = await csrfToken(deps, reply);
    const members = await listContacts(deps, user.id, {}, { offset: 0, perPage: SHOWN }, list.id);
    const everyone = await listContacts(deps, user.id, {}, { offset: 0, perPage: SHOWN });
    const inList = new Set(members.rows.map((c) => c.id));
    const others = everyone.rows.filter((c) => !inList.has(c.id));
    const label = (c: { email: string | null; phone_number: string | null }) =>
      c.email ?? c.phone_number ?? '';
    const body = html`<p><a href="/contacts/lists">← All lists</a></p>
${messages(done ? NOTICES[done] : undefined, error)}
<p class="muted">${members.total} contact${members.total === 1 ? '' : 's'} in this list (active contacts).</p>
${
  members.rows.length
    ? html`<ul class="member-list">${members.rows.map(
        (
          c,
        ) => html`<li><span class="break">${label(c)}${fullName(c) ? html` <span class="muted">(${fullName(c)})</span>` : ''}</span>
<form method="post" action="/contacts/lists/${list.id}/members/${c.id}/remove" class="inline">${hidden(csrf)}<button type="submit" class="secondary">Remove <span class="visually-hidden">${label(c)} from the list</span></button></form></li>`,
      )}</ul>`
    : html`<p class="empty">This list has no contacts yet.</p>`
}
<section class="card" aria-labelledby="add-members-heading"><h2 id="add-members-heading">Add contacts to the list</h2>
${
  others.length
    ? html`<form method="post" action="/contacts/lists/${list.id}/members">${hidden(csrf)}
<fieldset class="pick-list"><legend>Contacts not in this list</legend>
${others.map(
  (c) =>
    html`<div class="check"><input type="checkbox" id="add-${c.id}" name="contact_id" value="${c.id}"><label for="add-${c.id}">${label(c)}${fullName(c) ? ` (${fullName(c)})` : ''}</label></div>`,
)}</fieldset>
<p><button type="submit">Add selected contacts</button></p></form>`
    : html`<p class="muted">Every contact of the address book is in this list. <a href="/contacts">Add contacts</a> or <a href="/contacts/import">import a CSV file</a> first.</p>`
}</section>
<section class="card" aria-labelledby="rename-heading"><h2 id="rename-heading">Rename the list</h2>
<form method="post" action="/contacts/lists/${list.id}/rename">${hidden(csrf)}
<div class="field"><label for="rename-name">List name</label><input id="rename-name" name="name" type="text" maxlength="200" required value="${list.name}"></div>
<p><button type="submit">Rename list</button></p></form></section>
<section class="card" aria-labelledby="delete-heading"><h2 id="delete-heading">Delete the list</h2>
<p>The contacts stay in the address book.</p>
${destructiveForm(`/contacts/lists/${list.id}/delete`, csrf, deletion(list.name, members.total))}</section>`;
    return contactsPage(
      deps,
      reply,
      user,
      `List: ${list.name}`,
      'lists',
      body,
      error ? Math.min(error.status, 500) : 200,
    );
  }

  const deletion = (name: string, n: number) => ({
    title: `Delete the list "${name}"?`,
    lost: [`The list "${name}" and its membership of ${n} contact${n === 1 ? '' : 's'} (the contacts stay).`],
    button: 'Delete list',
  });

  app.get(
    '/contacts/lists/:listId',
    { schema: { hide: true, params: ListParams, querystring: Done }, preHandler: signedIn },
    (request, reply) => renderList(request, reply, request.params.listId, request.query.done),
  );

  /** A change to one list; an ApiError re-renders the list's page with it. */
  function change<F extends TProperties>(
    path: string,
    body: F,
    action: (
      form: Static<ReturnType<typeof formBody<F>>>,
      userId: string,
      listId: string,
      contactId: string | undefined,
    ) => Promise<string>,
  ) {
    const schema = formBody(body);
    app.post(
      path,
      {
        schema: {
          hide: true,
          params: Type.Object({
            listId: Type.String({ pattern: '^[0-9]{1,20}$' }),
            contactId: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
          }),
          body: schema,
        },
        preHandler: [signedIn, app.csrfProtection],
      },
      async (request, reply) => {
        const { listId, contactId } = request.params;
        try {
          const done = await action(validated(schema, request.body), userOf(request).id, listId, contactId);
          return reply.redirect(
            done === 'deleted' ? '/contacts/lists?done=deleted' : `/contacts/lists/${listId}?done=${done}`,
            303,
          );
        } catch (err) {
          if (!(err instanceof ApiError) || err.code === 1020) throw err;
          return renderList(request, reply, listId, undefined, err);
        }
      },
    );
  }

  change('/contacts/lists/:listId/rename', { name: text(1000) }, async (form, userId, listId) => {
    await renameList(deps, userId, listId, nameOf(form.name));
    return 'renamed';
  });
  change('/contacts/lists/:listId/members', { contact_id: many }, async (form, userId, listId) => {
    const ids = listOf(form.contact_id);
    if (ids.length === 0) throw new ApiError(1002, 'Choose the contacts to add.');
    await addMembers(deps, userId, listId, ids);
    return 'added';
  });
  change(
    '/contacts/lists/:listId/members/:contactId/remove',
    {},
    async (_form, userId, listId, contactId) => {
      await removeMember(deps, userId, listId, contactId ?? '');
      return 'removed';
    },
  );

  app.post(
    '/contacts/lists/:listId/delete',
    {
      schema: { hide: true, params: ListParams, body: formBody({ confirm: text(10) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      const list = await getList(deps, user.id, request.params.listId);
      if (!confirmed(request.body)) {
        const { total } = await listContacts(deps, user.id, {}, { offset: 0, perPage: 1 }, list.id);
        return askFirst(
          deps,
          reply,
          user,
          {
            action: `/contacts/lists/${list.id}/delete`,
            destruction: deletion(list.name, total),
            cancelHref: `/contacts/lists/${list.id}`,
          },
          { section: 'contacts' },
        );
      }
      await deleteList(deps, user.id, list.id);
      return reply.redirect('/contacts/lists?done=deleted', 303);
    },
  );
}
