// The contact routes that stand both over the whole address book (/contacts) and over one list
// (/contact_lists/{id}/contacts): list, list with every field (bulk), create one, create many.
// Over a list, the list must be the caller's (else 404/1020) and what is created joins it.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../context.js';
import { bulkCreateContacts } from '../../../domain/contacts/bulk.js';
import { createContact, listContacts } from '../../../domain/contacts/contacts.js';
import { getList } from '../../../domain/contacts/lists.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import {
  BulkBody,
  BulkResult,
  ContactBody,
  ContactItem,
  ContactQuery,
  ContactResource,
  ListParams,
  presentContact,
  presentItem,
} from './schemas.js';

const TAGS = ['Contacts'];

export interface AddressBookScope {
  /** Over one list (/contact_lists/{contact_list_id}/contacts) rather than the address book. */
  inList: boolean;
  summaries: { list: string; bulkList: string; create: string; bulkCreate: string };
  /** The create route's description, if it has one. */
  createDescription?: string;
}

export function addressBookRoutes(app: Api, deps: Deps, scope: AddressBookScope): void {
  const path = scope.inList ? '/contact_lists/:contact_list_id/contacts' : '/contacts';
  const params = scope.inList ? { params: ListParams } : {};
  /** The list the request names (checked to be the caller's), or undefined over the address book. */
  const listOf = async (request: FastifyRequest) => {
    if (!scope.inList) return undefined;
    // One handler serves both paths, so its params are typed by neither schema: read the one field.
    const params: unknown = request.params;
    const id =
      params && typeof params === 'object' && 'contact_list_id' in params ? params.contact_list_id : '';
    return (await getList(deps, request.auth.user.id, String(id))).id;
  };

  for (const bulk of [false, true]) {
    app.get(
      bulk ? `${path}/bulk` : path,
      {
        config: { scope: 'contacts_read' },
        schema: {
          tags: TAGS,
          summary: bulk ? scope.summaries.bulkList : scope.summaries.list,
          ...params,
          querystring: ContactQuery,
          response: { 200: listEnvelopeSchema(bulk ? ContactResource : ContactItem) },
        },
      },
      async (request) => {
        const listId = await listOf(request);
        const page = pageOf(request.query);
        const { total, rows } = await listContacts(deps, request.auth.user.id, request.query, page, listId);
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
    path,
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: scope.summaries.create,
        ...(scope.createDescription ? { description: scope.createDescription } : {}),
        ...params,
        body: ContactBody,
        response: { 201: ContactResource },
      },
    },
    async (request, reply) => {
      const listId = await listOf(request);
      const c = await createContact(deps, request.auth.user.id, request.auth.plan, request.body, listId);
      return reply.code(201).send(presentContact(baseUrl(request), c));
    },
  );

  app.post(
    `${path}/bulk`,
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: scope.summaries.bulkCreate,
        ...params,
        body: BulkBody,
        response: { 200: BulkResult },
      },
    },
    async (request) => {
      const listId = await listOf(request);
      const r = await bulkCreateContacts(
        deps,
        request.auth.user.id,
        request.auth.plan,
        request.body.contacts,
        request.body.update_existing ?? false,
        listId,
      );
      const base = baseUrl(request);
      return {
        succeeded: r.succeeded.map((c) => presentContact(base, c)),
        invalids: r.invalids,
        existing: r.existing.map((c) => presentContact(base, c)),
      };
    },
  );
}
