// /v3/surveys/{id}/collectors and /v3/collectors/{id} (reference §7).
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  type CollectActor,
  type Collector,
  createCollector,
  deleteCollector,
  listCollectors,
  requireCollector,
  updateCollector,
} from '../../../domain/collectors/collectors.js';
import { DEFAULT_SCREENING } from '../../../domain/collectors/options.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import {
  baseUrl,
  envelope,
  listEnvelopeSchema,
  pageOf,
  pagingQuery,
  sortOrderOf,
} from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { parseApiDate, withOffset } from '../../../platform/dates.js';
import { ApiError, badQuery } from '../../../platform/errors.js';
import { isOneOf } from '../../../platform/lists.js';
import {
  COLLECTOR_INCLUDES,
  CollectorCreateBody,
  CollectorListItem,
  CollectorParams,
  Collector as CollectorSchema,
  CollectorUpdateBody,
  Id,
} from './schemas.js';

const tags = ['Collectors'];

export function collectActor(request: FastifyRequest): CollectActor {
  return { user: request.auth.user, plan: request.auth.plan, ip: request.ip };
}

export function collectorUrl(base: string, c: Pick<Collector, 'url_token' | 'type'>): string | null {
  // Email collectors get a token for their recipients' personal links only.
  return c.url_token && c.type === 'weblink' ? `${base}/r/${c.url_token}` : null;
}

export function presentCollector(base: string, c: Collector): Static<typeof CollectorSchema> {
  const o = c.options;
  const out: Record<string, unknown> = {
    id: c.id,
    name: c.name,
    type: c.type,
    status: c.status,
    survey_id: c.survey_id,
    url: collectorUrl(base, c),
    open: c.status === 'open',
    date_created: withOffset(c.date_created),
    date_modified: withOffset(c.date_modified),
    response_count: c.response_count,
    password_enabled: c.password_hash !== null,
    ...o,
    close_date: c.close_date ? withOffset(c.close_date) : null,
    response_limit: c.response_limit,
    href: `${base}/v3/collectors/${c.id}`,
  };
  if (c.type === 'email') out.is_sender_email_verified = true;
  if (c.type === 'weblink') out.embed_origins = o.embed_origins ?? [];
  out.screening = { ...DEFAULT_SCREENING, ...o.screening };
  return out as Static<typeof CollectorSchema>;
}

function closeDate(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const iso = parseApiDate(value.replace(/ (\d{2}:?\d{2})$/, '+$1'));
  if (!iso) throw new ApiError(1002, `'close_date' must be a date like 2038-01-01T00:00:00+00:00.`);
  return iso;
}

const ListQuery = Type.Object({
  ...pagingQuery(),
  sort_by: Type.Optional(Type.Enum(['id', 'date_modified', 'type', 'status', 'name'])),
  sort_order: Type.Optional(Type.Enum(['ASC', 'DESC', 'asc', 'desc'])),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  start_date: Type.Optional(
    Type.String({ maxLength: 40, description: 'Created after, YYYY-MM-DDTHH:MM:SS' }),
  ),
  end_date: Type.Optional(Type.String({ maxLength: 40, description: 'Created before, YYYY-MM-DDTHH:MM:SS' })),
  include: Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Comma-separated extra fields: ${COLLECTOR_INCLUDES.join(', ')}`,
    }),
  ),
});

export const collectorsRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/surveys/:survey_id/collectors',
    {
      config: { scope: 'collectors_read' },
      schema: {
        tags,
        summary: "A survey's collectors",
        params: Type.Object({ survey_id: Id }),
        querystring: ListQuery,
        response: { 200: listEnvelopeSchema(CollectorListItem) },
      },
    },
    async (request) => {
      const q = request.query;
      const include = new Set<string>();
      for (const raw of (q.include ?? '').split(',')) {
        const v = raw.trim();
        if (!v) continue;
        if (!isOneOf(COLLECTOR_INCLUDES, v))
          throw badQuery(`'include' value ${v} is not one of ${COLLECTOR_INCLUDES.join(', ')}.`);
        include.add(v);
      }
      const date = (name: 'start_date' | 'end_date') => {
        const v = q[name];
        if (v === undefined) return undefined;
        const iso = parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1'));
        if (!iso) throw badQuery(`'${name}' must be a date like 2026-01-31T12:00:00.`);
        return iso;
      };
      const start = date('start_date');
      const end = date('end_date');
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'collect', 'read');
      const page = pageOf(q);
      const [total, rows] = await listCollectors(deps, survey.id, {
        offset: page.offset,
        limit: page.perPage,
        sortBy: q.sort_by,
        sortOrder: sortOrderOf(q.sort_order),
        name: q.name,
        start,
        end,
      });
      const base = baseUrl(request);
      const data = rows.map((c) => {
        const item: Static<typeof CollectorListItem> = {
          id: c.id,
          name: c.name,
          href: `${base}/v3/collectors/${c.id}`,
        };
        if (include.has('type')) item.type = c.type;
        if (include.has('status')) item.status = c.status;
        if (include.has('response_count')) item.response_count = c.response_count;
        if (include.has('date_created')) item.date_created = withOffset(c.date_created);
        if (include.has('date_modified')) item.date_modified = withOffset(c.date_modified);
        if (include.has('url')) item.url = collectorUrl(base, c);
        return item;
      });
      return envelope(request, page, total, data);
    },
  );

  app.post(
    '/surveys/:survey_id/collectors',
    {
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary: 'Create a collector (or copy one with from_collector_id)',
        params: Type.Object({ survey_id: Id }),
        body: CollectorCreateBody,
        response: { 201: CollectorSchema },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'collect', 'write');
      const c = await createCollector(deps, collectActor(request), survey, body, closeDate(body.close_date));
      return reply.code(201).send(presentCollector(baseUrl(request), c));
    },
  );

  app.get(
    '/collectors/:collector_id',
    {
      config: { scope: 'collectors_read' },
      schema: { tags, summary: 'A collector', params: CollectorParams, response: { 200: CollectorSchema } },
    },
    async (request) => {
      const { collector } = await requireCollector(
        deps,
        request.auth,
        request.params.collector_id,
        'collect',
        'read',
      );
      return presentCollector(baseUrl(request), collector);
    },
  );

  const update = async (
    request: FastifyRequest,
    collectorId: string,
    body: Static<typeof CollectorUpdateBody>,
    mode: 'patch' | 'put',
  ) => {
    const { collector } = await requireCollector(deps, request.auth, collectorId, 'collect', 'write');
    const next = await updateCollector(
      deps,
      collectActor(request),
      collector,
      body,
      closeDate(body.close_date),
      mode,
    );
    return presentCollector(baseUrl(request), next);
  };
  const updateSchema = (summary: string) => ({
    tags,
    summary,
    params: CollectorParams,
    body: CollectorUpdateBody,
    response: { 200: CollectorSchema },
  });
  app.patch(
    '/collectors/:collector_id',
    { config: { scope: 'collectors_write' }, schema: updateSchema('Modify a collector') },
    async (request) => update(request, request.params.collector_id, request.body ?? {}, 'patch'),
  );
  app.put(
    '/collectors/:collector_id',
    { config: { scope: 'collectors_write' }, schema: updateSchema('Replace a collector') },
    async (request) => update(request, request.params.collector_id, request.body ?? {}, 'put'),
  );

  app.delete(
    '/collectors/:collector_id',
    {
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary: 'Delete a collector and its responses',
        params: CollectorParams,
        response: { 200: CollectorSchema },
      },
    },
    async (request) => {
      const { collector } = await requireCollector(
        deps,
        request.auth,
        request.params.collector_id,
        'collect',
        'write',
      );
      await deleteCollector(deps, collectActor(request), collector);
      return presentCollector(baseUrl(request), collector);
    },
  );
};
