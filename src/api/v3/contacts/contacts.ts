// /v3/contacts and /v3/contacts/bulk (reference §12).
import type { Deps } from '../../../context.js';
import { deleteContact, getContact, updateContact } from '../../../domain/contacts/contacts.js';
import { baseUrl } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { addressBookRoutes } from './address-book.js';
import { ContactBody, ContactParams, ContactResource, presentContact } from './schemas.js';

const TAGS = ['Contacts'];

export const contactsRoutes: Routes = (app, deps: Deps) => {
  addressBookRoutes(app, deps, {
    inList: false,
    summaries: {
      list: 'List contacts',
      bulkList: 'All contacts with every field',
      create: 'Create a contact',
      bulkCreate: 'Create many contacts, with a result per contact',
    },
    createDescription:
      "Needs email or phone_number; 409/1026 when one is already in the address book; 403/1017 past the plan's contact limit.",
  });

  app.get(
    '/contacts/:contact_id',
    {
      config: { scope: 'contacts_read' },
      schema: { tags: TAGS, summary: 'A contact', params: ContactParams, response: { 200: ContactResource } },
    },
    async (request) =>
      presentContact(
        baseUrl(request),
        await getContact(deps, request.auth.user.id, request.params.contact_id),
      ),
  );

  for (const [method, replace] of [
    ['PATCH', false],
    ['PUT', true],
  ] as const) {
    app.route({
      method,
      url: '/contacts/:contact_id',
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: replace ? 'Replace a contact' : 'Change a contact',
        params: ContactParams,
        body: ContactBody,
        response: { 200: ContactResource },
      },
      handler: async (request) => {
        const c = await updateContact(
          deps,
          request.auth.user.id,
          request.params.contact_id,
          request.body ?? {},
          replace,
        );
        return presentContact(baseUrl(request), c);
      },
    });
  }

  app.delete(
    '/contacts/:contact_id',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Delete a contact (and its list memberships)',
        params: ContactParams,
        response: { 200: ContactResource },
      },
    },
    async (request) =>
      presentContact(
        baseUrl(request),
        await deleteContact(deps, request.auth.user.id, request.params.contact_id),
      ),
  );
};
