// /v3/surveys/{id}/languages and /v3/surveys/{id}/languages/{code} (reference §4.7).
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import { NO_NUL } from '../../../domain/surveys/question-schema.js';
import {
  CONTEXTS,
  deleteTranslation,
  getTranslation,
  listTranslations,
  type SurveyTranslation,
  saveTranslation,
} from '../../../domain/surveys/translations.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { Id } from './schemas.js';

const tags = ['Survey translations'];
const Params = Type.Object({
  survey_id: Id,
  language_code: Type.String({ pattern: '^[a-zA-Z]{2}(-[a-zA-Z]{2,4})?$' }),
});
const TranslationItem = Type.Object({
  default: Type.String(),
  translation: Type.String(),
  context: Type.String(),
  resource_id: Type.String(),
});
const TranslationResource = Type.Object({
  id: Type.String({ description: 'Language code' }),
  enabled: Type.Boolean(),
  href: Type.String(),
  translations: Type.Array(TranslationItem),
});
const LanguageItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  native_name: Type.String(),
  enabled: Type.Boolean(),
  string_count: Type.Integer(),
  translated_string_count: Type.Integer(),
  stale_string_count: Type.Integer(),
  inherited_string_count: Type.Integer(),
  href: Type.String(),
});
const Body = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    translations: Type.Array(
      Type.Object(
        {
          default: Type.Optional(
            Type.String({
              maxLength: 20000,
              description: 'The source text (ignored: the survey’s current text is used)',
            }),
          ),
          translation: Type.String({ pattern: NO_NUL, maxLength: 20000 }),
          context: Type.Enum(CONTEXTS),
          resource_id: Type.String({ pattern: NO_NUL, maxLength: 20 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20000 },
    ),
  },
  { additionalProperties: false },
);

export const translationsRoutes: Routes = (app, deps: Deps) => {
  const href = (base: string, surveyId: string, code: string) =>
    `${base}/v3/surveys/${surveyId}/languages/${code}`;
  const resource = (base: string, surveyId: string, t: SurveyTranslation) => ({
    id: t.language.id,
    enabled: t.enabled,
    href: href(base, surveyId, t.language.id),
    translations: t.translations,
  });

  app.get(
    '/surveys/:survey_id/languages',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'The languages a survey is translated into',
        params: Type.Object({ survey_id: Id }),
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(LanguageItem) },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      const all = await listTranslations(deps, survey);
      const page = pageOf(request.query);
      const base = baseUrl(request);
      const data = all.slice(page.offset, page.offset + page.perPage).map((t) => ({
        id: t.language.id,
        name: t.language.name,
        native_name: t.language.native_name,
        enabled: t.enabled,
        ...t.counts,
        href: href(base, survey.id, t.language.id),
      }));
      return envelope(request, page, all.length, data);
    },
  );

  app.get(
    '/surveys/:survey_id/languages/:language_code',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'A translation (every translatable string, translated or "")',
        params: Params,
        response: { 200: TranslationResource },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      return resource(
        baseUrl(request),
        survey.id,
        await getTranslation(deps, survey, request.params.language_code),
      );
    },
  );

  for (const mode of ['post', 'patch'] as const) {
    const route = mode === 'post' ? app.post.bind(app) : app.patch.bind(app);
    route(
      '/surveys/:survey_id/languages/:language_code',
      {
        config: { scope: 'surveys_write' },
        schema: {
          tags,
          summary:
            mode === 'post' ? 'Create or replace a translation' : 'Change some strings of a translation',
          params: Params,
          body: Body,
          response: { 200: TranslationResource },
        },
      },
      async (request) => {
        const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
        const t = await saveTranslation(deps, survey, request.params.language_code, request.body, mode);
        return resource(baseUrl(request), survey.id, t);
      },
    );
  }

  app.delete(
    '/surveys/:survey_id/languages/:language_code',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Delete a translation; answers the deleted translation',
        params: Params,
        response: { 200: TranslationResource },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
      return resource(
        baseUrl(request),
        survey.id,
        await deleteTranslation(deps, survey, request.params.language_code),
      );
    },
  );
};
