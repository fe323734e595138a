// Rollups and trends of a survey, a page or a question (reference §11).
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  type QuestionSummary,
  rollups,
  TREND_BY,
  type TrendBy,
  trends,
} from '../../../domain/analysis/rollups.js';
import { designIndex, type IndexedQuestion } from '../../../domain/responses/design-index.js';
import { assertAllResponsesReadable } from '../../../domain/responses/plan-limit.js';
import { RESPONSE_STATUSES, type ResponseFilters } from '../../../domain/responses/responses.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { parseApiDate, withOffset } from '../../../platform/dates.js';
import { ApiError, badQuery } from '../../../platform/errors.js';
import { Id } from './schemas.js';

const tags = ['Rollups and trends'];
const Count = Type.Object({ id: Type.String(), count: Type.Integer() });
const StatsSchema = Type.Object({
  min: Type.Number(),
  max: Type.Number(),
  mean: Type.Number(),
  median: Type.Number(),
  std: Type.Number(),
});
const Summary = Type.Object({
  answered: Type.Integer(),
  skipped: Type.Integer(),
  choices: Type.Optional(Type.Array(Count)),
  other: Type.Optional(Type.Array(Count)),
  other_answered: Type.Optional(Type.Integer()),
  stats: Type.Optional(StatsSchema),
  rows: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        answered: Type.Optional(Type.Integer()),
        total: Type.Optional(Type.Integer()),
        max: Type.Optional(Type.Integer()),
        choices: Type.Optional(Type.Array(Count)),
        cols: Type.Optional(Type.Array(Type.Object({ id: Type.String(), choices: Type.Array(Count) }))),
        stats: Type.Optional(StatsSchema),
      }),
    ),
  ),
});
const Rollup = Type.Object({
  id: Type.String(),
  family: Type.String(),
  subtype: Type.String(),
  href: Type.String(),
  summary: Type.Array(Summary),
});
const Trend = Type.Object({
  id: Type.String(),
  family: Type.String(),
  subtype: Type.String(),
  href: Type.String(),
  answered: Type.Integer(),
  skipped: Type.Integer(),
  trend_by: Type.String(),
  trends: Type.Array(
    Type.Object({
      start: Type.String(),
      end: Type.String(),
      choices: Type.Optional(Type.Array(Count)),
      other: Type.Optional(Type.Array(Count)),
      rows: Type.Optional(
        Type.Array(
          Type.Object({
            id: Type.String(),
            total: Type.Integer(),
            max: Type.Integer(),
            choices: Type.Optional(Type.Array(Count)),
          }),
        ),
      ),
    }),
  ),
});

const STATUS_LIST = `^(${RESPONSE_STATUSES.join('|')})(,(${RESPONSE_STATUSES.join('|')}))*$`;
function filterQuery() {
  return {
    collector_ids: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}(,[0-9]{1,20})*$', maxLength: 20000 })),
    start_created_at: Type.Optional(Type.String({ maxLength: 40 })),
    end_created_at: Type.Optional(Type.String({ maxLength: 40 })),
    start_modified_at: Type.Optional(Type.String({ maxLength: 40 })),
    end_modified_at: Type.Optional(Type.String({ maxLength: 40 })),
    status: Type.Optional(Type.String({ pattern: STATUS_LIST, description: 'Comma list of statuses' })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    custom: Type.Optional(Type.String({ maxLength: 5000 })),
    ip: Type.Optional(Type.String({ maxLength: 100 })),
    total_time_min: Type.Optional(Type.Integer({ minimum: 0 })),
    total_time_max: Type.Optional(Type.Integer({ minimum: 0 })),
    total_time_units: Type.Optional(Type.Enum(['second', 'minute', 'hour'])),
  };
}
const RollupQuery = Type.Object({ ...pagingQuery(), ...filterQuery() });
const OneRollupQuery = Type.Object(filterQuery());
const trendFields = {
  trend_by: Type.Optional(Type.Enum(TREND_BY)),
  first_respondent: Type.Optional(Type.Boolean()),
  last_respondent: Type.Optional(Type.Boolean()),
};
const TrendQuery = Type.Object({ ...pagingQuery(), ...filterQuery(), ...trendFields });
const OneTrendQuery = Type.Object({ ...filterQuery(), ...trendFields });

type FilterQ = Static<typeof OneRollupQuery>;
type DateName = 'start_created_at' | 'end_created_at' | 'start_modified_at' | 'end_modified_at';
const UNIT = { second: 1, minute: 60, hour: 3600 } as const;

function date(q: FilterQ, name: DateName): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  const iso = parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1'));
  if (!iso) throw badQuery(`'${name}' must be a date like 2026-01-31T12:00:00.`);
  return iso;
}

export function rollupFilters(surveyId: string, q: FilterQ): ResponseFilters {
  const unit = UNIT[q.total_time_units ?? 'second'];
  const num = (k: 'total_time_min' | 'total_time_max') =>
    q[k] === undefined ? undefined : Number(q[k]) * unit;
  return {
    surveyId,
    collectorIds: q.collector_ids ? String(q.collector_ids).split(',') : undefined,
    startCreated: date(q, 'start_created_at'),
    endCreated: date(q, 'end_created_at'),
    startModified: date(q, 'start_modified_at'),
    endModified: date(q, 'end_modified_at'),
    status: q.status ? String(q.status).split(',') : undefined,
    email: q.email,
    firstName: q.first_name,
    lastName: q.last_name,
    custom: q.custom,
    ip: q.ip,
    totalTimeMin: num('total_time_min'),
    totalTimeMax: num('total_time_max'),
  };
}

function questionHref(base: string, surveyId: string, q: IndexedQuestion, what: 'rollups' | 'trends') {
  return `${base}/v3/surveys/${surveyId}/pages/${q.pageId}/questions/${q.id}/${what}`;
}

function trendPeriod(s: QuestionSummary): Omit<Static<typeof Trend>['trends'][number], 'start' | 'end'> {
  const out: ReturnType<typeof trendPeriod> = {};
  if (s.choices) out.choices = s.choices;
  if (s.other) out.other = s.other;
  if (s.rows?.some((r) => r.choices))
    out.rows = s.rows.map((r) => ({
      id: r.id,
      total: r.answered,
      max: Math.max(0, ...(r.choices ?? []).map((c) => c.count)),
      choices: r.choices,
    }));
  return out;
}

export const rollupsRoutes: Routes = (app, deps: Deps) => {
  type Target = 'survey' | 'page' | 'question';
  const paths: Record<Target, string> = {
    survey: '/surveys/:survey_id',
    page: '/surveys/:survey_id/pages/:page_id',
    question: '/surveys/:survey_id/pages/:page_id/questions/:question_id',
  };
  const params = {
    survey: Type.Object({ survey_id: Id }),
    page: Type.Object({ survey_id: Id, page_id: Id }),
    question: Type.Object({ survey_id: Id, page_id: Id, question_id: Id }),
  };

  /** What a query's paging asks for (a single question's query has none: the first page). */
  const pagingOf = (q: FilterQ | { page?: number; per_page?: number }) =>
    pageOf('page' in q || 'per_page' in q ? q : {});

  async function target(
    request: FastifyRequest,
    p: { survey_id: string; page_id?: string; question_id?: string },
    kind: Target,
  ) {
    const survey = await requireSurvey(deps, request.auth, p.survey_id, 'analyze', 'read');
    assertAllResponsesReadable(request.auth.paid, survey);
    const index = await designIndex(deps, survey);
    let questions: IndexedQuestion[];
    if (kind === 'survey') questions = index.pages.flatMap((pg) => pg.questions);
    else {
      const page = p.page_id === undefined ? undefined : index.pageById.get(p.page_id);
      if (!page) throw new ApiError(1020, 'Page not found.');
      questions = page.questions;
      if (kind === 'question') {
        const q = page.questions.find((x) => x.id === p.question_id);
        if (!q) throw new ApiError(1020, 'Question not found.');
        questions = [q];
      }
    }
    return { survey, index, questions: questions.filter((q) => q.family !== 'presentation') };
  }

  for (const kind of ['survey', 'page', 'question'] as const) {
    const single = kind === 'question';
    app.get(
      `${paths[kind]}/rollups`,
      {
        config: { scope: 'responses_read_detail' },
        schema: {
          tags,
          summary: `Rollups of ${single ? 'a question' : `every question of a ${kind}`}`,
          params: params[kind],
          querystring: single ? OneRollupQuery : RollupQuery,
          response: { 200: single ? Rollup : listEnvelopeSchema(Rollup) },
        },
      },
      async (request) => {
        const q = request.query;
        const { survey, index, questions } = await target(request, request.params, kind);
        const filters = rollupFilters(survey.id, q);
        const page = pagingOf(q);
        const slice = single ? questions : questions.slice(page.offset, page.offset + page.perPage);
        const { items } = await rollups(deps, index, filters, slice);
        const base = baseUrl(request);
        const data = items.map((it) => ({
          id: it.question.id,
          family: it.question.family,
          subtype: it.question.subtype,
          href: questionHref(base, survey.id, it.question, 'rollups'),
          summary: [it.summary],
        }));
        return single ? data[0] : envelope(request, page, questions.length, data);
      },
    );

    app.get(
      `${paths[kind]}/trends`,
      {
        config: { scope: 'responses_read_detail' },
        schema: {
          tags,
          summary: `Trends of ${single ? 'a question' : `every question of a ${kind}`}`,
          params: params[kind],
          querystring: single ? OneTrendQuery : TrendQuery,
          response: { 200: single ? Trend : listEnvelopeSchema(Trend) },
        },
      },
      async (request) => {
        const q = request.query;
        const { survey, index, questions } = await target(request, request.params, kind);
        const filters = rollupFilters(survey.id, q);
        const by: TrendBy = q.trend_by ?? 'day';
        const page = pagingOf(q);
        const slice = single ? questions : questions.slice(page.offset, page.offset + page.perPage);
        const result = await trends(deps, index, filters, slice, by);
        const base = baseUrl(request);
        const data = result.map((t) => ({
          id: t.question.id,
          family: t.question.family,
          subtype: t.question.subtype,
          href: questionHref(base, survey.id, t.question, 'trends'),
          answered: t.answered,
          skipped: t.skipped,
          trend_by: by,
          trends: t.periods.map((p) => ({
            start: withOffset(p.start),
            end: withOffset(p.end),
            ...trendPeriod(p.summary),
          })),
        }));
        return single ? data[0] : envelope(request, page, questions.length, data);
      },
    );
  }
};
