// /v3/surveys, /v3/surveys/{id} and /v3/surveys/{id}/details (reference §4.1–4.4).
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { collectStats } from '../../../domain/collectors/collectors.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import { findLanguage } from '../../../domain/surveys/languages.js';
import { NO_NUL } from '../../../domain/surveys/question-schema.js';
import {
  type Actor,
  createSurvey,
  deleteSurvey,
  type ListColumn,
  loadDesignRaw,
  surveyListAnswer,
  updateSurvey,
} from '../../../domain/surveys/surveys.js';
import { surveyUrls } from '../../../domain/surveys/urls.js';
import {
  baseUrl,
  envelopeJson,
  listEnvelopeSchema,
  pageOf,
  pagingQuery,
  sortOrderOf,
} from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { minuteNoOffset, parseApiDate } from '../../../platform/dates.js';
import { ApiError, badQuery } from '../../../platform/errors.js';
import { orJson, stringifyAs } from '../../../platform/json.js';
import { isOneOf } from '../../../platform/lists.js';
import { detailsJson, presentSurvey } from './present.js';
import {
  emptyBodyIsObject,
  SURVEY_FILTERS,
  SURVEY_INCLUDES,
  Survey,
  SurveyCreateBody,
  SurveyDetails,
  SurveyList,
  SurveyListItem,
  SurveyParams,
  SurveyUpdateBody,
} from './schemas.js';

const tags = ['Surveys'];

export function actorOf(request: FastifyRequest): Actor {
  return { user: request.auth.user, plan: request.auth.plan, ip: request.ip };
}

function checkLanguage(language: string | undefined): void {
  if (language !== undefined && !findLanguage(language))
    throw new ApiError(
      1002,
      `'language' ${language} is not a known language (see GET /v3/survey_languages).`,
    );
}

const ListQuery = Type.Object({
  ...pagingQuery(),
  sort_by: Type.Optional(Type.Enum(['title', 'date_modified', 'num_responses'])),
  sort_order: Type.Optional(Type.Enum(['ASC', 'DESC', 'asc', 'desc'])),
  include: Type.Optional(
    Type.String({
      maxLength: 500,
      description: `Comma-separated: filters ${SURVEY_FILTERS.join(', ')}; extra fields ${SURVEY_INCLUDES.join(', ')}`,
    }),
  ),
  title: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 250 })),
  start_modified_at: Type.Optional(
    Type.String({
      pattern: NO_NUL,
      maxLength: 40,
      description: 'YYYY-MM-DDTHH:MM:SS (a trailing Z or offset is accepted)',
    }),
  ),
  end_modified_at: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 40 })),
  folder_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
});

/** The column each list `include` value reads. */
const INCLUDE_COLUMNS: Partial<Record<string, ListColumn>> = {
  response_count: 'response_count',
  date_created: 'date_created',
  date_modified: 'date_modified',
  language: 'language',
  question_count: 'question_count',
  analyze_url: 'manage_token',
  preview: 'preview_token',
};

/** A cell of listSurveyRows' rows as its column's type: texts (ids, titles, dates, tokens, all NOT
 * NULL) and counts. */
const cellText = (v: unknown): string => (typeof v === 'string' ? v : String(v));
const cellCount = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

export const surveysRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/surveys',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'Surveys owned by or shared with the user',
        querystring: ListQuery,
        response: { 200: orJson(listEnvelopeSchema(SurveyListItem)) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const page = pageOf(q);
      const include = new Set<string>();
      const filters: Array<(typeof SURVEY_FILTERS)[number]> = [];
      for (const raw of (q.include ?? '').split(',')) {
        const v = raw.trim();
        if (!v) continue;
        if (isOneOf(SURVEY_FILTERS, v)) filters.push(v);
        else if (isOneOf(SURVEY_INCLUDES, v)) include.add(v);
        else
          throw badQuery(
            `'include' value ${v} is not one of ${[...SURVEY_FILTERS, ...SURVEY_INCLUDES].join(', ')}.`,
          );
      }
      const date = (name: 'start_modified_at' | 'end_modified_at') => {
        const v = q[name];
        if (v === undefined) return undefined;
        // A '+' left unencoded in a query string arrives as a space: read it as the offset it was.
        const iso = parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1'));
        if (!iso) throw badQuery(`'${name}' must be a date like 2026-01-31T12:00:00.`);
        return iso;
      };
      const columns: ListColumn[] = ['title', 'nickname'];
      for (const name of include) {
        const column = INCLUDE_COLUMNS[name];
        if (column) columns.push(column);
      }
      const base = baseUrl(request);
      // The answer is remembered per user and request (domain/surveys surveyListAnswer) unless it
      // carries collector statistics, which change with collectors and responses.
      const text = await surveyListAnswer(
        deps,
        request.auth.user.id,
        {
          offset: page.offset,
          limit: page.perPage,
          sortBy: q.sort_by,
          sortOrder: sortOrderOf(q.sort_order),
          filters,
          title: q.title,
          startModified: date('start_modified_at'),
          endModified: date('end_modified_at'),
          folderId: q.folder_id,
        },
        columns,
        include.has('collect_stats') ? null : `${base}${request.url}`,
        async ({ total, columns: names, rows }) => {
          const at = (name: ListColumn) => names.indexOf(name);
          const [title, nickname, responses, created, modified, language, questions, manage, preview] = [
            at('title'),
            at('nickname'),
            at('response_count'),
            at('date_created'),
            at('date_modified'),
            at('language'),
            at('question_count'),
            at('manage_token'),
            at('preview_token'),
          ];
          const stats = include.has('collect_stats')
            ? await collectStats(
                deps,
                rows.map((s) => cellText(s[0])),
              )
            : undefined;
          // Items built in the schema's field order and sent as text through JSON.stringify (V8's,
          // cheaper than the schema serializer for a page of rows); the schema still documents it.
          const data = rows.map((s) => {
            const id = cellText(s[0]);
            const item: Static<typeof SurveyListItem> = {
              id,
              title: cellText(s[title]),
              nickname: cellText(s[nickname]),
              href: `${base}/v3/surveys/${id}`,
            };
            if (include.has('response_count')) item.response_count = cellCount(s[responses]);
            if (include.has('date_created')) item.date_created = minuteNoOffset(cellText(s[created]));
            if (include.has('date_modified')) item.date_modified = minuteNoOffset(cellText(s[modified]));
            if (include.has('language')) item.language = cellText(s[language]);
            if (include.has('question_count')) item.question_count = cellCount(s[questions]);
            const urls =
              include.has('analyze_url') || include.has('preview')
                ? surveyUrls(base, { manage_token: cellText(s[manage]), preview_token: cellText(s[preview]) })
                : undefined;
            if (include.has('analyze_url')) item.analyze_url = urls?.analyze_url;
            if (include.has('preview')) item.preview = urls?.preview;
            // Collector statistics come from the collecting area.
            if (stats)
              item.collect_stats = stats.get(id) ?? { total_count: 0, status_list: {}, type_list: {} };
            return item;
          });
          return envelopeJson(request, page, total, stringifyAs(SurveyList, data));
        },
      );
      return reply.type('application/json; charset=utf-8').send(text);
    },
  );

  app.post(
    '/surveys',
    {
      preValidation: emptyBodyIsObject,
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary:
          'Create a survey: Blank, Copy (from_survey_id, from_template_id, from_team_template_id) or Bulk (pages[].questions[])',
        body: SurveyCreateBody,
        response: { 201: Survey },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      checkLanguage(body.language);
      const survey = await createSurvey(deps, actorOf(request), body);
      return reply.code(201).send(presentSurvey(request, survey));
    },
  );

  app.get(
    '/surveys/:survey_id',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'A survey',
        params: SurveyParams,
        querystring: Type.Object({
          include: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 100 })),
        }),
        response: { 200: Survey },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      return presentSurvey(request, survey);
    },
  );

  for (const mode of ['patch', 'put'] as const) {
    const route = mode === 'patch' ? app.patch.bind(app) : app.put.bind(app);
    route(
      '/surveys/:survey_id',
      {
        preValidation: emptyBodyIsObject,
        config: { scope: 'surveys_write' },
        schema: {
          tags,
          summary:
            mode === 'patch'
              ? 'Change some fields of a survey'
              : 'Replace a survey’s settings (omitted fields reset to defaults)',
          params: SurveyParams,
          body: SurveyUpdateBody,
          response: { 200: Survey },
        },
      },
      async (request) => {
        const body = request.body ?? {};
        checkLanguage(body.language);
        const survey = await updateSurvey(deps, actorOf(request), request.params.survey_id, body, mode);
        return presentSurvey(request, survey);
      },
    );
  }

  app.delete(
    '/surveys/:survey_id',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Delete a survey with its pages and questions; answers the deleted survey',
        params: SurveyParams,
        response: { 200: Survey },
      },
    },
    async (request) => {
      const survey = await deleteSurvey(deps, actorOf(request), request.params.survey_id);
      return presentSurvey(request, survey);
    },
  );

  app.get(
    '/surveys/:survey_id/details',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'A survey with its pages and their questions',
        params: SurveyParams,
        response: { 200: orJson(SurveyDetails) },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      const { pages, questions } = await loadDesignRaw(deps, survey.id);
      // Sent as text: see detailsJson. The response schema still documents the shape.
      return reply
        .type('application/json; charset=utf-8')
        .send(detailsJson(request, survey, pages, questions));
    },
  );
};
