// Responses in their survey and collector forms (reference §10): lists, bulk export, one response,
// details, create (collector form), PATCH/PUT/DELETE, and DELETE all of a collector.
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { type Collector, requireCollector } from '../../../domain/collectors/collectors.js';
import { quizContext } from '../../../domain/quiz/score.js';
import { designIndex } from '../../../domain/responses/design-index.js';
import { reviseResponse, submitResponse } from '../../../domain/responses/flow.js';
import { assertResponsesReadable, readableRowsBefore } from '../../../domain/responses/plan-limit.js';
import {
  allResponses,
  deleteResponses,
  getResponse,
  listResponses,
  type ResponseActor,
  type ResponseFilters,
  type ResponseInput,
  type ResponseRow,
  unfiltered,
} from '../../../domain/responses/responses.js';
import { asResponse, countFlagged, flaggedPage } from '../../../domain/screening/review.js';
import { requireSurvey, type SurveyRow } from '../../../domain/surveys/access.js';
import {
  baseUrl,
  envelope,
  envelopeJson,
  listEnvelopeSchema,
  pageOf,
  sortOrderOf,
} from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { parseApiDate } from '../../../platform/dates.js';
import { ApiError, badQuery } from '../../../platform/errors.js';
import { orJson } from '../../../platform/json.js';
import { plainShape, presentResponse, responsesJson } from './present.js';
import {
  CollectorResponseParams,
  DetailsQuery,
  Id,
  listQuery,
  Response,
  ResponseBody,
  ResponseListItem,
  SurveyResponseParams,
} from './schemas.js';

const tags = ['Responses'];
type Form = 'survey' | 'collector';
type Level = 'read' | 'write';

interface Scope {
  survey: SurveyRow;
  collector?: Collector;
}

async function resolve(
  deps: Deps,
  request: FastifyRequest,
  form: Form,
  id: string,
  level: Level,
): Promise<Scope> {
  if (form === 'survey') return { survey: await requireSurvey(deps, request.auth, id, 'analyze', level) };
  const { collector, survey } = await requireCollector(deps, request.auth, id, 'analyze', level);
  return { survey, collector };
}

function queryDate(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const iso = parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1'));
  if (!iso) throw badQuery(`'${name}' must be a date like 2026-01-31T12:00:00.`);
  return iso;
}

const UNIT = { second: 1, minute: 60, hour: 3600 } as const;

function idSet(v: string | undefined): Set<string> | undefined {
  return v === undefined ? undefined : new Set(v.split(','));
}

interface ResponseQuery {
  page?: number;
  per_page?: number;
  start_created_at?: string;
  end_created_at?: string;
  start_modified_at?: string;
  end_modified_at?: string;
  status?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  ip?: string;
  custom?: string;
  total_time_min?: number;
  total_time_max?: number;
  total_time_units?: keyof typeof UNIT;
  sort_by?: 'date_modified';
  sort_order?: 'ASC' | 'DESC' | 'asc' | 'desc';
  collector_ids?: string;
  page_ids?: string;
  question_ids?: string;
  simple?: boolean;
  include_flagged?: boolean;
}

/** With include_flagged=true: the kept-aside responses follow the counted ones (`total` of them),
 * on the pages past them; answers the flagged rows of this page and the new total. */
async function withFlagged(
  deps: Deps,
  scope: Scope,
  page: { offset: number; perPage: number },
  total: number,
  shown: number,
): Promise<{ total: number; flagged: ResponseRow[] }> {
  const where = scope.collector ? { collectorId: scope.collector.id } : { surveyId: scope.survey.id };
  const extra = await countFlagged(deps, where);
  const rows = await flaggedPage(deps, where, Math.max(0, page.offset - total), page.perPage - shown);
  return { total: total + extra, flagged: rows.map(asResponse) };
}

function filtersOf(scope: Scope, q: ResponseQuery): ResponseFilters {
  const unit = UNIT[q.total_time_units ?? 'second'];
  return {
    surveyId: scope.survey.id,
    collectorId: scope.collector?.id,
    collectorIds: q.collector_ids?.split(','),
    startCreated: queryDate('start_created_at', q.start_created_at),
    endCreated: queryDate('end_created_at', q.end_created_at),
    startModified: queryDate('start_modified_at', q.start_modified_at),
    endModified: queryDate('end_modified_at', q.end_modified_at),
    status: q.status ? [q.status] : undefined,
    email: q.email,
    firstName: q.first_name,
    lastName: q.last_name,
    ip: q.ip,
    custom: q.custom,
    totalTimeMin: q.total_time_min === undefined ? undefined : q.total_time_min * unit,
    totalTimeMax: q.total_time_max === undefined ? undefined : q.total_time_max * unit,
    sortBy: q.sort_by,
    sortOrder: sortOrderOf(q.sort_order),
  };
}

function knownTotal(scope: Scope, f: ResponseFilters): number | undefined {
  if (!unfiltered(f)) return undefined;
  return scope.collector ? scope.collector.response_count : scope.survey.response_count;
}

function bodyInput(body: Static<typeof ResponseBody>): { input: ResponseInput; created?: string } {
  const { date_created, recipient_id, ...rest } = body;
  let created: string | undefined;
  if (date_created !== undefined) {
    created = parseApiDate(date_created.replace(/ (\d{2}:?\d{2})$/, '+$1')) ?? undefined;
    if (!created) throw new ApiError(1002, `'date_created' must be a date like 2026-01-31T12:00:00+00:00.`);
  }
  return {
    input: { ...rest, ...(recipient_id !== undefined ? { recipient_id: String(recipient_id) } : {}) },
    created,
  };
}

function actorOf(request: FastifyRequest): ResponseActor {
  return { userId: request.auth.user.id, ip: request.ip };
}

export const responsesRoutes: Routes = (app, deps: Deps) => {
  for (const form of ['survey', 'collector'] as const) {
    const prefix = form === 'survey' ? '/surveys/:survey_id' : '/collectors/:collector_id';
    const Params = form === 'survey' ? Type.Object({ survey_id: Id }) : Type.Object({ collector_id: Id });
    const OneParams = form === 'survey' ? SurveyResponseParams : CollectorResponseParams;
    /** The survey's or collector's id, whichever this form's path names. */
    const parentId = (p: { survey_id: string } | { collector_id: string }) =>
      'survey_id' in p ? p.survey_id : p.collector_id;
    const of = form === 'survey' ? 'a survey' : 'a collector';

    app.get(
      `${prefix}/responses`,
      {
        config: { scope: 'responses_read' },
        schema: {
          tags,
          summary: `Responses of ${of} (ids)`,
          params: Params,
          querystring: listQuery('list', form),
          response: { 200: listEnvelopeSchema(ResponseListItem) },
        },
      },
      async (request) => {
        const q: ResponseQuery = request.query;
        const scope = await resolve(deps, request, form, parentId(request.params), 'read');
        const page = pageOf(q);
        const [total, rows] = await listResponses(
          deps,
          filtersOf(scope, q),
          page.offset,
          page.perPage,
          'ids',
        );
        const base = baseUrl(request);
        const item = (r: ResponseRow) => ({
          id: r.id,
          href:
            form === 'survey'
              ? `${base}/v3/surveys/${r.survey_id}/responses/${r.id}`
              : `${base}/v3/collectors/${r.collector_id}/responses/${r.id}`,
        });
        if (q.include_flagged) {
          const more = await withFlagged(deps, scope, page, total, rows.length);
          const data = [
            ...rows.map((r) => ({ ...item(r), flagged: false })),
            ...more.flagged.map((r) => ({ ...item(r), flagged: true })),
          ];
          return envelope(request, page, more.total, data);
        }
        return envelope(request, page, total, rows.map(item));
      },
    );

    app.get(
      `${prefix}/responses/bulk`,
      {
        config: { scope: 'responses_read_detail' },
        schema: {
          tags,
          summary: `Full responses of ${of}, paged (at most 100 per page)`,
          params: Params,
          querystring: listQuery('bulk', form),
          response: { 200: orJson(listEnvelopeSchema(Response)) },
        },
      },
      async (request, reply) => {
        const q: ResponseQuery = request.query;
        const scope = await resolve(deps, request, form, parentId(request.params), 'read');
        const filters = filtersOf(scope, q);
        const page = pageOf(q);
        const [total, rows] = await listResponses(
          deps,
          filters,
          page.offset,
          page.perPage,
          'all',
          knownTotal(scope, filters),
        );
        assertResponsesReadable(request.auth.paid, rows);
        // The basic plan: links never lead to a page that would answer 402/1005.
        const before = await readableRowsBefore(deps, request.auth.paid, filters, total);
        const lastPage = before === null ? undefined : Math.floor(before / page.perPage);
        const base = baseUrl(request);
        const index = q.simple ? await designIndex(deps, scope.survey) : undefined;
        const options = {
          base,
          form: 'survey' as const,
          survey: scope.survey,
          quiz: await quizContext(deps, scope.survey),
          pages: true,
          simple: index,
          pageIds: idSet(q.page_ids),
          questionIds: idSet(q.question_ids),
        };
        if (q.include_flagged) {
          const more = await withFlagged(deps, scope, page, total, rows.length);
          const data = [
            ...rows.map((r) => ({ ...presentResponse(r, options), flagged: false })),
            ...more.flagged.map((r) => ({ ...presentResponse(r, options), flagged: true })),
          ];
          return envelope(request, page, more.total, data, lastPage);
        }
        if (plainShape(options))
          return reply
            .type('application/json; charset=utf-8')
            .send(envelopeJson(request, page, total, responsesJson(rows, options), lastPage));
        return envelope(
          request,
          page,
          total,
          rows.map((r) => presentResponse(r, options)),
          lastPage,
        );
      },
    );

    type OneParams = Static<typeof SurveyResponseParams> | Static<typeof CollectorResponseParams>;
    const one = async (request: FastifyRequest, p: OneParams, level: Level) => {
      const scope = await resolve(deps, request, form, parentId(p), level);
      const row = await getResponse(
        deps,
        form === 'survey' ? { surveyId: scope.survey.id } : { collectorId: scope.collector!.id },
        p.response_id,
      );
      return { scope, row };
    };

    app.get(
      `${prefix}/responses/:response_id`,
      {
        config: { scope: 'responses_read' },
        schema: {
          tags,
          summary: 'A response (without pages)',
          params: OneParams,
          response: { 200: Response },
        },
      },
      async (request) => {
        const { scope, row } = await one(request, request.params, 'read');
        return presentResponse(row, {
          base: baseUrl(request),
          form,
          survey: scope.survey,
          quiz: await quizContext(deps, scope.survey),
          pages: false,
        });
      },
    );

    app.get(
      `${prefix}/responses/:response_id/details`,
      {
        config: { scope: 'responses_read_detail' },
        schema: {
          tags,
          summary: 'A response with its pages and answers',
          params: OneParams,
          querystring: DetailsQuery,
          response: { 200: Response },
        },
      },
      async (request) => {
        const { scope, row } = await one(request, request.params, 'read');
        assertResponsesReadable(request.auth.paid, [row]);
        const q = request.query;
        return presentResponse(row, {
          base: baseUrl(request),
          form,
          survey: scope.survey,
          quiz: await quizContext(deps, scope.survey),
          pages: true,
          details: true,
          simple: q.simple ? await designIndex(deps, scope.survey) : undefined,
          pageIds: idSet(q.page_ids),
          questionIds: idSet(q.question_ids),
        });
      },
    );

    for (const mode of ['patch', 'put'] as const) {
      const route = mode === 'patch' ? app.patch.bind(app) : app.put.bind(app);
      route(
        `${prefix}/responses/:response_id`,
        {
          config: { scope: 'responses_write' },
          schema: {
            tags,
            summary: mode === 'patch' ? 'Modify a response' : 'Replace a response',
            params: OneParams,
            body: ResponseBody,
            response: { 200: Response },
          },
        },
        async (request) => {
          const { scope, row } = await one(request, request.params, 'write');
          const { input, created } = bodyInput(request.body ?? {});
          const index = await designIndex(deps, scope.survey);
          const next = await reviseResponse(deps, actorOf(request), row, index, input, created, mode);
          return presentResponse(next, {
            base: baseUrl(request),
            form,
            survey: scope.survey,
            quiz: await quizContext(deps, scope.survey),
            pages: true,
            details: true,
          });
        },
      );
    }

    app.delete(
      `${prefix}/responses/:response_id`,
      {
        config: { scope: 'responses_write' },
        schema: { tags, summary: 'Delete a response', params: OneParams, response: { 200: Response } },
      },
      async (request) => {
        const { scope, row } = await one(request, request.params, 'write');
        await deleteResponses(deps, actorOf(request), [row]);
        return presentResponse(row, {
          base: baseUrl(request),
          form,
          survey: scope.survey,
          quiz: await quizContext(deps, scope.survey),
          pages: false,
        });
      },
    );
  }

  app.post(
    '/collectors/:collector_id/responses',
    {
      config: { scope: 'responses_write' },
      schema: {
        tags,
        summary: 'Create a response in a collector',
        params: Type.Object({ collector_id: Id }),
        body: ResponseBody,
        response: { 201: Response },
      },
    },
    async (request, reply) => {
      const { input, created } = bodyInput(request.body ?? {});
      const { survey, collector } = await resolve(
        deps,
        request,
        'collector',
        request.params.collector_id,
        'write',
      );
      const index = await designIndex(deps, survey);
      const row = await submitResponse(deps, actorOf(request), survey, collector!, index, input, created);
      return reply.code(201).send(
        presentResponse(row, {
          base: baseUrl(request),
          form: 'collector',
          survey,
          quiz: await quizContext(deps, survey),
          pages: true,
          details: true,
        }),
      );
    },
  );

  app.delete(
    '/collectors/:collector_id/responses',
    {
      config: { scope: 'responses_write' },
      schema: {
        tags,
        summary: 'Delete every response of a collector',
        params: Type.Object({ collector_id: Id }),
        response: { 200: Type.Object({}) },
      },
    },
    async (request) => {
      const { survey, collector } = await resolve(
        deps,
        request,
        'collector',
        request.params.collector_id,
        'write',
      );
      const rows = await allResponses(deps, { surveyId: survey.id, collectorId: collector!.id });
      for (let i = 0; i < rows.length; i += 5000)
        await deleteResponses(deps, actorOf(request), rows.slice(i, i + 5000));
      return {};
    },
  );
};
