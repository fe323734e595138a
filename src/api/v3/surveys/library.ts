// The library listings (reference §4.5): survey categories, templates, team templates, languages.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { findLanguage, LANGUAGES } from '../../../domain/surveys/languages.js';
import { NO_NUL } from '../../../domain/surveys/question-schema.js';
import { listTeamTemplates } from '../../../domain/surveys/team-templates.js';
import { CATEGORIES, TEMPLATES, templateQuestionCount } from '../../../domain/surveys/templates/index.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { badQuery } from '../../../platform/errors.js';

const tags = ['Survey library'];
const LanguageQuery = Type.Optional(
  Type.String({
    maxLength: 10,
    description: 'Language of the listing (default en; the library is written in English)',
  }),
);

function checkLanguage(language: string | undefined): void {
  if (language !== undefined && !findLanguage(language))
    throw badQuery(`'language' ${language} is not a known language.`);
}

const Category = Type.Object({ id: Type.String(), name: Type.String() });
const Template = Type.Object({
  id: Type.String(),
  name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  category: Type.String(),
  available: Type.Boolean(),
  num_questions: Type.Integer(),
  preview_link: Type.String(),
});
const TeamTemplate = Type.Object({
  name: Type.String(),
  team_template_id: Type.String(),
  survey_id: Type.String(),
});
const Language = Type.Object({ id: Type.String(), name: Type.String(), native_name: Type.String() });

export const libraryRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/survey_categories',
    {
      config: { scope: 'library_read' },
      schema: {
        tags,
        summary: 'Template categories',
        querystring: Type.Object({ ...pagingQuery(), language: LanguageQuery }),
        response: { 200: listEnvelopeSchema(Category) },
      },
    },
    async (request) => {
      checkLanguage(request.query.language);
      const page = pageOf(request.query);
      return envelope(
        request,
        page,
        CATEGORIES.length,
        CATEGORIES.slice(page.offset, page.offset + page.perPage),
      );
    },
  );

  app.get(
    '/survey_templates',
    {
      config: { scope: 'library_read' },
      schema: {
        tags,
        summary: 'Survey templates (copy one with POST /surveys from_template_id)',
        querystring: Type.Object({
          ...pagingQuery(),
          language: LanguageQuery,
          category: Type.Optional(
            Type.String({ pattern: NO_NUL, maxLength: 100, description: 'A category id; omitted: all' }),
          ),
        }),
        response: { 200: listEnvelopeSchema(Template) },
      },
    },
    async (request) => {
      const { category, language } = request.query;
      checkLanguage(language);
      if (category !== undefined && !CATEGORIES.some((c) => c.id === category))
        throw badQuery(`'category' ${category} is not a category id (see GET /v3/survey_categories).`);
      const page = pageOf(request.query);
      const all = TEMPLATES.filter((t) => category === undefined || t.category === category);
      const base = baseUrl(request);
      const data = all.slice(page.offset, page.offset + page.perPage).map((t) => ({
        id: t.id,
        name: t.name,
        title: t.title,
        description: t.description,
        category: t.category,
        available: true,
        num_questions: templateQuestionCount(t),
        preview_link: `${base}/r/Template/${t.id}`,
      }));
      return envelope(request, page, all.length, data);
    },
  );

  app.get(
    '/team_survey_templates',
    {
      config: { scope: 'library_read' },
      schema: {
        tags,
        summary: 'The team’s survey templates',
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(TeamTemplate) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const [total, rows] = await listTeamTemplates(deps, request.auth.user.id, page.offset, page.perPage);
      return envelope(
        request,
        page,
        total,
        rows.map((t) => ({ name: t.name, team_template_id: t.id, survey_id: t.survey_id })),
      );
    },
  );

  app.get(
    '/survey_languages',
    {
      config: { scope: null },
      schema: {
        tags,
        summary: 'Languages a survey can be written or translated in',
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(Language) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      return envelope(
        request,
        page,
        LANGUAGES.length,
        LANGUAGES.slice(page.offset, page.offset + page.perPage),
      );
    },
  );
};
