// /v3/contact_fields: labels of the six custom contact fields (reference §12).
import type { Deps } from '../../../context.js';
import { getField, listFields, setFieldLabel } from '../../../domain/contacts/fields.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { FieldBody, FieldParams, FieldResource } from './schemas.js';

const TAGS = ['Contacts'];

export const contactFieldsRoutes: Routes = (app, deps: Deps) => {
  const present = (base: string, f: { id: string; label: string }) => ({
    id: f.id,
    label: f.label,
    href: `${base}/v3/contact_fields/${f.id}`,
  });

  app.get(
    '/contact_fields',
    {
      config: { scope: 'contacts_read' },
      schema: {
        tags: TAGS,
        summary: 'The custom contact fields',
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(FieldResource) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const all = await listFields(deps, request.auth.user.id);
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        all.length,
        all.slice(page.offset, page.offset + page.perPage).map((f) => present(base, f)),
      );
    },
  );

  app.get(
    '/contact_fields/:contact_field_id',
    {
      config: { scope: 'contacts_read' },
      schema: {
        tags: TAGS,
        summary: 'A custom contact field',
        params: FieldParams,
        response: { 200: FieldResource },
      },
    },
    async (request) =>
      present(baseUrl(request), await getField(deps, request.auth.user.id, request.params.contact_field_id)),
  );

  app.patch(
    '/contact_fields/:contact_field_id',
    {
      config: { scope: 'contacts_write' },
      schema: {
        tags: TAGS,
        summary: 'Relabel a custom contact field',
        params: FieldParams,
        body: FieldBody,
        response: { 200: FieldResource },
      },
    },
    async (request) =>
      present(
        baseUrl(request),
        await setFieldLabel(deps, request.auth.user.id, request.params.contact_field_id, request.body.label),
      ),
  );
};
