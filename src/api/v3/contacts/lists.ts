// /v3/contact_lists: lists, copy, merge, and the contacts of a list (reference §12).
import type { Deps } from '../../../context.js';
import {
  copyList,
  createList,
  deleteList,
  getList,
  listLists,
  mergeList,
  renameList,
} from '../../../domain/contacts/lists.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { addressBookRoutes } from './address-book.js';
import { ListBody, ListNameBody, ListParams, ListResource, MergeBody, presentList } from './schemas.js';

const TAGS = ['Contacts'];

export const contactListsRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/contact_lists',
    {
      config: { scope: 'contacts_read' },
      schema: {
        tags: TAGS,
        summary: 'List contact lists',
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(ListResource) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { total, rows } = await listLists(deps, request.auth.user.id, page);
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        total,
        rows.map((l) => presentList(base, l)),
      );
    },
  );

  app.post(
    '/contact_lists',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Create a contact list',
        body: ListBody,
        response: { 201: ListResource },
      },
    },
    async (request, reply) => {
      const l = await createList(deps, request.auth.user.id, request.body?.name ?? 'New List');
      return reply.code(201).send(presentList(baseUrl(request), l));
    },
  );

  app.get(
    '/contact_lists/:contact_list_id',
    {
      config: { scope: 'contacts_read' },
      schema: { tags: TAGS, summary: 'A contact list', params: ListParams, response: { 200: ListResource } },
    },
    async (request) =>
      presentList(
        baseUrl(request),
        await getList(deps, request.auth.user.id, request.params.contact_list_id),
      ),
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/contact_lists/:contact_list_id',
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Rename a contact list',
        params: ListParams,
        body: ListNameBody,
        response: { 200: ListResource },
      },
      handler: async (request) => {
        const l = await renameList(
          deps,
          request.auth.user.id,
          request.params.contact_list_id,
          request.body.name,
        );
        return presentList(baseUrl(request), l);
      },
    });
  }

  app.delete(
    '/contact_lists/:contact_list_id',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Delete a contact list (its contacts stay)',
        params: ListParams,
        response: { 200: ListResource },
      },
    },
    async (request) =>
      presentList(
        baseUrl(request),
        await deleteList(deps, request.auth.user.id, request.params.contact_list_id),
      ),
  );

  app.post(
    '/contact_lists/:contact_list_id/copy',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Copy a contact list ("Copy of <name>", same contacts)',
        params: ListParams,
        response: { 201: ListResource },
      },
    },
    async (request, reply) => {
      const l = await copyList(deps, request.auth.user.id, request.params.contact_list_id);
      return reply.code(201).send(presentList(baseUrl(request), l));
    },
  );

  app.post(
    '/contact_lists/:contact_list_id/merge',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: "Add another list's contacts to this list",
        params: ListParams,
        body: MergeBody,
        response: { 200: ListResource },
      },
    },
    async (request) => {
      const l = await mergeList(
        deps,
        request.auth.user.id,
        request.params.contact_list_id,
        request.body.list_id,
      );
      return presentList(baseUrl(request), l);
    },
  );

  addressBookRoutes(app, deps, {
    inList: true,
    summaries: {
      list: 'The contacts of a list',
      bulkList: 'The contacts of a list with every field',
      create: 'Create a contact in a list',
      bulkCreate: 'Create many contacts in a list (existing ones are added to the list too)',
    },
  });
};
