// /v3/surveys/{id}/quotas and /v3/surveys/{id}/quotas/{quota_id}: an extension (docs/api.md).
// Quotas belong to the survey's design: reading takes surveys_read, changing surveys_write, and
// the survey's design access (requireSurvey) as pages and questions do. The rules are
// domain/quotas.
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  createQuota,
  deleteQuota,
  getQuota,
  listQuotas,
  QUOTA_ACTIONS,
  type Quota,
  updateQuota,
} from '../../../domain/quotas/quotas.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import { NO_NUL } from '../../../domain/surveys/question-schema.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { withOffset } from '../../../platform/dates.js';
import { Id, SurveyParams } from './schemas.js';

const tags = ['Survey quotas'];
const QuotaParams = Type.Object({ survey_id: Id, quota_id: Id });
const Condition = Type.Object(
  { question_id: Id, choice_id: Id },
  { additionalProperties: false, description: 'The respondent chose `choice_id` at `question_id`' },
);
const Action = Type.Object(
  {
    type: Type.Union(
      QUOTA_ACTIONS.map((a) => Type.Literal(a)),
      { description: 'What a respondent beyond the limit gets' },
    ),
    message: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 2000 })),
    url: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const fields = {
  name: Type.String({ pattern: NO_NUL, minLength: 1, maxLength: 200 }),
  limit: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  conditions: Type.Array(Condition, { minItems: 1, maxItems: 20, description: 'Every one must be met' }),
  action: Action,
};
const CreateBody = Type.Object(fields, { additionalProperties: false });
const PatchBody = Type.Partial(Type.Object(fields), { additionalProperties: false });
const QuotaResource = Type.Object({
  id: Type.String(),
  name: Type.String(),
  limit: Type.Integer(),
  count: Type.Integer({ description: 'Completed responses counted (at most limit)' }),
  conditions: Type.Array(Type.Object({ question_id: Type.String(), choice_id: Type.String() })),
  action: Type.Object({ type: Type.String(), message: Type.String(), url: Type.String() }),
  href: Type.String(),
  date_created: Type.String(),
  date_modified: Type.String(),
});
type QuotaResource = Static<typeof QuotaResource>;

const present = (base: string, q: Quota): QuotaResource => ({
  id: q.id,
  name: q.name,
  limit: q.limit,
  count: q.count,
  conditions: q.conditions,
  action: q.action,
  href: `${base}/v3/surveys/${q.surveyId}/quotas/${q.id}`,
  date_created: withOffset(q.dateCreated),
  date_modified: withOffset(q.dateModified),
});

export const quotasRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/surveys/:survey_id/quotas',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: "A survey's quotas",
        params: SurveyParams,
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(QuotaResource) },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      const all = await listQuotas(deps, survey);
      const page = pageOf(request.query);
      const base = baseUrl(request);
      const data = all.slice(page.offset, page.offset + page.perPage).map((q) => present(base, q));
      return envelope(request, page, all.length, data);
    },
  );

  app.post(
    '/surveys/:survey_id/quotas',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Add a quota',
        params: SurveyParams,
        body: CreateBody,
        response: { 201: QuotaResource },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
      const q = await createQuota(deps, survey, request.body);
      return reply.code(201).send(present(baseUrl(request), q));
    },
  );

  app.get(
    '/surveys/:survey_id/quotas/:quota_id',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'A quota with its count',
        params: QuotaParams,
        response: { 200: QuotaResource },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      return present(baseUrl(request), await getQuota(deps, survey, request.params.quota_id));
    },
  );

  for (const mode of ['patch', 'put'] as const) {
    const route = mode === 'patch' ? app.patch.bind(app) : app.put.bind(app);
    route(
      '/surveys/:survey_id/quotas/:quota_id',
      {
        config: { scope: 'surveys_write' },
        schema: {
          tags,
          summary: mode === 'patch' ? 'Change some fields of a quota' : 'Replace a quota (its count stays)',
          params: QuotaParams,
          body: mode === 'patch' ? PatchBody : CreateBody,
          response: { 200: QuotaResource },
        },
      },
      async (request) => {
        const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
        const q = await updateQuota(deps, survey, request.params.quota_id, request.body, mode);
        return present(baseUrl(request), q);
      },
    );
  }

  app.delete(
    '/surveys/:survey_id/quotas/:quota_id',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Delete a quota; answers the deleted quota',
        params: QuotaParams,
        response: { 200: QuotaResource },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
      return present(baseUrl(request), await deleteQuota(deps, survey, request.params.quota_id));
    },
  );
};
