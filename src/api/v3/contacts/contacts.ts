// /v3/contacts and /v3/contacts/bulk (reference §12).
import type { Deps } from '../../../context.js';
import { bulkCreateContacts } from '../../../domain/contacts/bulk.js';
import {
  type ContactInput,
  createContact,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
} from '../../../domain/contacts/contacts.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf } from '../../../platform/paging.js';
import type { Routes } from '../../../platform/types.js';
import {
  BulkBody,
  BulkResult,
  ContactBody,
  ContactItem,
  ContactParams,
  ContactQuery,
  ContactResource,
  presentContact,
  presentItem,
} from './schemas.js';

const TAGS = ['Contacts'];

export const contactsRoutes: Routes = (app, deps: Deps) => {
  for (const bulk of [false, true]) {
    app.get(
      bulk ? '/contacts/bulk' : '/contacts',
      {
        config: { scope: 'contacts_read' },
        schema: {
          tags: TAGS,
          summary: bulk ? 'All contacts with every field' : 'List contacts',
          querystring: ContactQuery,
          response: { 200: listEnvelopeSchema(bulk ? ContactResource : ContactItem) },
        },
      },
      async (request) => {
        const page = pageOf(request.query);
        const { total, rows } = await listContacts(deps, request.auth.user.id, request.query, page);
        const base = baseUrl(request);
        return envelope(
          request,
          page,
          total,
          rows.map((c) => (bulk ? presentContact(base, c) : presentItem(base, c))),
        );
      },
    );
  }

  app.post(
    '/contacts',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Create a contact',
        description:
          "Needs email or phone_number; 409/1026 when one is already in the address book; 403/1017 past the plan's contact limit.",
        body: ContactBody,
        response: { 201: ContactResource },
      },
    },
    async (request, reply) => {
      const c = await createContact(
        deps,
        request.auth.user.id,
        request.auth.plan,
        request.body as ContactInput,
      );
      return reply.code(201).send(presentContact(baseUrl(request), c));
    },
  );

  app.post(
    '/contacts/bulk',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Create many contacts, with a result per contact',
        body: BulkBody,
        response: { 200: BulkResult },
      },
    },
    async (request) => {
      const r = await bulkCreateContacts(
        deps,
        request.auth.user.id,
        request.auth.plan,
        request.body.contacts as ContactInput[],
        request.body.update_existing ?? false,
      );
      const base = baseUrl(request);
      return {
        succeeded: r.succeeded.map((c) => presentContact(base, c)),
        invalids: r.invalids,
        existing: r.existing.map((c) => presentContact(base, c)),
      };
    },
  );

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
          (request.body ?? {}) as ContactInput,
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
