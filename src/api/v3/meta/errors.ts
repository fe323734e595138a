// GET /v3/errors and /v3/errors/{id}: the error catalogue itself (reference §16.2).
import { Type } from 'typebox';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { ApiError, errorCatalogue, errorDocsUrl } from '../../../platform/errors.js';

const ErrorItem = Type.Object({ id: Type.String(), name: Type.String(), href: Type.String() });
const ErrorDetail = Type.Object({
  id: Type.String(),
  name: Type.String(),
  message: Type.String(),
  http_status_code: Type.Integer(),
  docs: Type.String(),
  href: Type.String(),
});

export const errorsRoutes: Routes = (app, deps) => {
  const all = [...errorCatalogue.values()];

  app.get(
    '/errors',
    {
      config: { scope: null },
      schema: {
        tags: ['Errors'],
        summary: 'The error catalogue',
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(ErrorItem) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const base = baseUrl(request);
      const data = all
        .slice(page.offset, page.offset + page.perPage)
        .map((e) => ({ id: e.id, name: e.name, href: `${base}/v3/errors/${e.id}` }));
      return envelope(request, page, all.length, data);
    },
  );

  app.get(
    '/errors/:error_id',
    {
      config: { scope: null },
      schema: {
        tags: ['Errors'],
        summary: 'One error code',
        params: Type.Object({ error_id: Type.String({ pattern: '^[0-9]{1,9}$' }) }),
        response: { 200: ErrorDetail },
      },
    },
    async (request) => {
      const entry = errorCatalogue.get(Number(request.params.error_id));
      if (!entry) throw new ApiError(1020, 'No such error code.');
      return {
        id: entry.id,
        name: entry.name,
        message: entry.message,
        http_status_code: entry.status,
        docs: errorDocsUrl(deps.config.regionUrls.us, entry.id),
        href: `${baseUrl(request)}/v3/errors/${entry.id}`,
      };
    },
  );
};
