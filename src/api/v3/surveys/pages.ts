// /v3/surveys/{id}/pages and /v3/surveys/{id}/pages/{id}/questions (reference §5, §6.1).
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { requireSurvey } from '../../../domain/surveys/access.js';
import {
  createPage,
  createQuestion,
  deletePage,
  deleteQuestion,
  getPage,
  getQuestion,
  listPages,
  listQuestions,
  updatePage,
  updateQuestion,
} from '../../../domain/surveys/design.js';
import {
  NO_NUL,
  Question,
  QuestionInput,
  QuestionListItem,
  QuestionPatch,
} from '../../../domain/surveys/question-schema.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { presentPage, presentQuestion, questionHeading } from './present.js';
import {
  emptyBodyIsObject,
  Logic,
  Page,
  PageParams,
  PageSorting,
  QuestionParams,
  SurveyParams,
} from './schemas.js';
import { actorOf } from './surveys.js';

const PageBody = Type.Object(
  {
    title: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 2000, description: 'Default ""' })),
    description: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 20000, description: 'Default ""' })),
    position: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Default: after the last page' }),
    ),
    logic: Type.Optional(Type.Union([Logic, Type.Null()])),
    sorting: Type.Optional(Type.Union([PageSorting, Type.Null()])),
  },
  { additionalProperties: false },
);

const PageListItem = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  position: Type.Integer(),
  logic: Type.Optional(Logic),
  sorting: Type.Optional(PageSorting),
  href: Type.String(),
});

export const pagesRoutes: Routes = (app, deps: Deps) => {
  const pageTags = ['Survey pages'];
  const questionTags = ['Survey questions'];

  app.get(
    '/surveys/:survey_id/pages',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags: pageTags,
        summary: 'A survey’s pages',
        params: SurveyParams,
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(PageListItem) },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      const page = pageOf(request.query);
      const [total, pages] = await listPages(deps, survey.id, page.offset, page.perPage);
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        total,
        pages.map((p) => presentPage(base, p)),
      );
    },
  );

  app.post(
    '/surveys/:survey_id/pages',
    {
      preValidation: emptyBodyIsObject,
      config: { scope: 'surveys_write' },
      schema: {
        tags: pageTags,
        summary: 'Add a page (at `position`, shifting the pages after it)',
        params: SurveyParams,
        body: PageBody,
        response: { 201: Page },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
      const page = await createPage(deps, actorOf(request), survey, request.body ?? {});
      return reply.code(201).send(presentPage(baseUrl(request), page));
    },
  );

  app.get(
    '/surveys/:survey_id/pages/:page_id',
    {
      config: { scope: 'surveys_read' },
      schema: { tags: pageTags, summary: 'A page', params: PageParams, response: { 200: Page } },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      return presentPage(baseUrl(request), await getPage(deps, survey.id, request.params.page_id));
    },
  );

  for (const mode of ['patch', 'put'] as const) {
    const route = mode === 'patch' ? app.patch.bind(app) : app.put.bind(app);
    route(
      '/surveys/:survey_id/pages/:page_id',
      {
        preValidation: emptyBodyIsObject,
        config: { scope: 'surveys_write' },
        schema: {
          tags: pageTags,
          summary: mode === 'patch' ? 'Change a page' : 'Replace a page (omitted fields reset to defaults)',
          params: PageParams,
          body: PageBody,
          response: { 200: Page },
        },
      },
      async (request) => {
        const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
        const page = await updatePage(
          deps,
          actorOf(request),
          survey,
          request.params.page_id,
          request.body ?? {},
          mode,
        );
        return presentPage(baseUrl(request), page);
      },
    );
  }

  app.delete(
    '/surveys/:survey_id/pages/:page_id',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags: pageTags,
        summary: 'Delete a page and its questions; answers the deleted page',
        params: PageParams,
        response: { 200: Page },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
      return presentPage(
        baseUrl(request),
        await deletePage(deps, actorOf(request), survey, request.params.page_id),
      );
    },
  );

  // ---- questions ----

  app.get(
    '/surveys/:survey_id/pages/:page_id/questions',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags: questionTags,
        summary: 'A page’s questions',
        params: PageParams,
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(QuestionListItem) },
      },
    },
    async (request) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'read');
      await getPage(deps, survey.id, request.params.page_id);
      const page = pageOf(request.query);
      const [total, rows] = await listQuestions(deps, request.params.page_id, page.offset, page.perPage);
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        total,
        rows.map((q) => ({
          id: q.id,
          heading: questionHeading(q),
          position: q.position,
          href: presentQuestion(base, survey.id, q).href,
        })),
      );
    },
  );

  app.post(
    '/surveys/:survey_id/pages/:page_id/questions',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags: questionTags,
        summary: 'Add a question (ids are minted for every choice, row, column and other)',
        params: PageParams,
        body: QuestionInput,
        response: { 201: Question },
      },
    },
    async (request, reply) => {
      const survey = await requireSurvey(deps, request.auth, request.params.survey_id, 'design', 'write');
      const q = await createQuestion(deps, actorOf(request), survey, request.params.page_id, request.body);
      return reply.code(201).send(presentQuestion(baseUrl(request), survey.id, q));
    },
  );

  app.get(
    '/surveys/:survey_id/pages/:page_id/questions/:question_id',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags: questionTags,
        summary: 'A question',
        params: QuestionParams,
        response: { 200: Question },
      },
    },
    async (request) => {
      const { survey_id, page_id, question_id } = request.params;
      const survey = await requireSurvey(deps, request.auth, survey_id, 'design', 'read');
      return presentQuestion(
        baseUrl(request),
        survey.id,
        await getQuestion(deps, survey.id, page_id, question_id),
      );
    },
  );

  for (const [mode, body, summary] of [
    ['patch', QuestionPatch, 'Change a question (answer ids sent back are kept)'],
    ['put', QuestionInput, 'Replace a question (answer ids sent back are kept)'],
  ] as const) {
    const route = mode === 'patch' ? app.patch.bind(app) : app.put.bind(app);
    route(
      '/surveys/:survey_id/pages/:page_id/questions/:question_id',
      {
        config: { scope: 'surveys_write' },
        schema: { tags: questionTags, summary, params: QuestionParams, body, response: { 200: Question } },
      },
      async (request) => {
        const { survey_id, page_id, question_id } = request.params;
        const survey = await requireSurvey(deps, request.auth, survey_id, 'design', 'write');
        // The body schema refuses a missing body, so `?? {}` only satisfies the PATCH type.
        const q = await updateQuestion(
          deps,
          actorOf(request),
          survey,
          page_id,
          question_id,
          request.body ?? {},
          mode,
        );
        return presentQuestion(baseUrl(request), survey.id, q);
      },
    );
  }

  app.delete(
    '/surveys/:survey_id/pages/:page_id/questions/:question_id',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags: questionTags,
        summary: 'Delete a question; answers the deleted question',
        params: QuestionParams,
        response: { 200: Question },
      },
    },
    async (request) => {
      const { survey_id, page_id, question_id } = request.params;
      const survey = await requireSurvey(deps, request.auth, survey_id, 'design', 'write');
      const q = await deleteQuestion(deps, actorOf(request), survey, page_id, question_id);
      return presentQuestion(baseUrl(request), survey.id, q);
    },
  );
};
