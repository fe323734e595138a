// The survey builder: the survey's edit page (its `edit_url`, /create/?sm=<manage token>). It lists
// the survey's pages and questions, with forms for the survey's settings, each page (rename,
// describe, reorder, delete) and each question (edit every field its type has, reorder, move to
// another page, copy, delete). The token only names the survey: the signed-in user must be allowed
// to design it (read to see the page, write to change anything; a Viewer sees it read-only).
//
// One model: every form becomes a call of the same domain functions the /v3 survey, page and
// question routes call, so what the builder saves is what GET /v3/surveys/{id}/details answers.
// Without script every form posts and redirects back to what it changed (?open= keeps a question's
// edit form open); with script, /assets/builder.js adds drag-and-drop reordering (SortableJS).
// This file is the routes; editor-page.ts renders the page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TObject, type TProperties, type TSchema, Type } from 'typebox';
import Value from 'typebox/value';
import { SurveyUpdateBody } from '../../api/v3/surveys/schemas.js';
import type { Deps } from '../../context.js';
import type { SurveyRow } from '../../domain/surveys/access.js';
import { QUESTION_LAYOUTS, type QuestionLayout } from '../../domain/surveys/blueprint.js';
import {
  answerCounts,
  copyQuestion,
  createPage,
  createQuestion,
  deletePage,
  deleteQuestion,
  getPage,
  getQuestion,
  moveQuestionToPage,
  updatePage,
  updateQuestion,
} from '../../domain/surveys/design.js';
import { questionNumbers } from '../../domain/surveys/piping.js';
import { loadDesign, type SettingsInput, settingsOf, updateSurvey } from '../../domain/surveys/surveys.js';
import { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import { confirmationPage, confirmed, type Destruction } from '../confirm.js';
import {
  type FormActor,
  type FormDone,
  type FormRequest,
  formText,
  type ManagedPage,
  managedFormPost,
  managedPage,
} from '../forms.js';
import type { PageApp } from '../page-area.js';
import { formField } from '../session.js';
import {
  type EditorState,
  editUrl,
  isQuiz,
  pageDestruction,
  plural,
  questionDestruction,
  questionLabel,
  renderEditor,
  rulesTo,
} from './editor-page.js';
import { conditionOf, pageOrderOf, ruleOf, whenOf } from './logic-ui.js';
import { draftFromForm, findKind, inputOf, kindOf, newDraft, QUESTION_FORM } from './question-form.js';
import { QUIZ_FORM, quizFromForm, quizWords } from './quiz-settings.js';

// home.ts sends a new survey's author here.
export { editUrl };

const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const PageParams = Type.Object({ pageId: Id });
const QuestionParams = Type.Object({ pageId: Id, questionId: Id });

/** The quick-add box: a question's kind, text and answers, and its required and validation settings. */
const ADD_FORM = {
  kind: formText(50),
  heading: formText(100_000),
  choices: formText(1_000_000),
  rows: formText(1_000_000),
  image: formText(20_000),
  required: formText(10),
  validation: formText(50),
  min: formText(200),
  max: formText(200),
};

const NOTICES: Record<string, string | ((n: number) => string)> = {
  settings: 'The survey settings were saved.',
  quiz: 'The quiz settings were saved.',
  page_added: 'A page was added.',
  page_saved: 'The page was saved.',
  page_moved: 'The page was moved.',
  page_deleted: (n) =>
    n > 0
      ? `The page was deleted. ${plural(n, 'skip-logic rule')} that went to it ${n === 1 ? 'was' : 'were'} cleared: those respondents now go on to the next page.`
      : 'The page was deleted.',
  page_logic: 'The rule after the page was saved.',
  question_added: 'The question was added.',
  question_saved: 'The question was saved.',
  question_moved: 'The question was moved.',
  question_copied: 'The question was copied.',
  question_deleted: 'The question was deleted.',
  question_display: 'When the question is shown was saved.',
};

/** A survey settings field (a schema error's path) in the form's words. */
function settingWords(path: string): string {
  const words: Record<string, string> = {
    '/title': 'The title',
    '/nickname': 'The nickname',
    '/language': 'The language',
    '/buttons_text/next_button': 'The "Next" button text',
    '/buttons_text/prev_button': 'The "Previous" button text',
    '/buttons_text/exit_button': 'The "Exit" button text',
    '/buttons_text/done_button': 'The "Done" button text',
    '/custom_variables': 'A custom variable',
  };
  return words[path] ?? 'A setting';
}

/** The layout radio's value: one of the API's choices. */
function layoutOf(v: string): QuestionLayout {
  const layout = QUESTION_LAYOUTS.find((x) => x === v);
  if (!layout) throw new ApiError(1002, 'Choose a page at a time or one question at a time.');
  return layout;
}

/** Custom variables typed one a line, "name" or "name: label" (the label defaults to the name). */
function variablesOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean)) {
    const at = line.indexOf(':');
    const name = (at < 0 ? line : line.slice(0, at)).trim();
    if (!/^[A-Za-z0-9_]{1,50}$/.test(name))
      throw new ApiError(
        1002,
        `The custom variable "${name}" may only use letters, digits and _ (at most 50), as it becomes part of the link.`,
      );
    out[name] = at < 0 ? name : line.slice(at + 1).trim() || name;
  }
  return out;
}

/** Checks text a form sent against the limits the API's schemas set (no NUL, a maximum length). */
function checkText(value: string, name: string, max: number): string {
  if (value.includes('\u0000')) throw new ApiError(1002, `${name} contains a character that is not allowed.`);
  if (value.length > max) throw new ApiError(1002, `${name} is longer than ${max} characters.`);
  return value;
}

type Action = (
  survey: SurveyRow,
  actor: FormActor,
  reply: FastifyReply,
) => Promise<FormDone | { markup: string }>;

export async function designPages(app: PageApp, deps: Deps): Promise<void> {
  const page: ManagedPage<EditorState> = {
    area: 'design',
    url: editUrl,
    notices: NOTICES,
    render: (request, reply, user, survey, token, state) =>
      renderEditor(deps, request, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create', page);

  /** A change: design write access, the action, then back to the edit page (or the error on it). */
  function change<B extends TProperties, P extends TSchema = TObject>(
    path: string,
    body: B,
    params: P | undefined,
    failed: (request: FormRequest<B, P>, error: ApiError) => EditorState,
    action: (request: FormRequest<B, P>) => Action,
  ) {
    managedFormPost(app, deps, page, {
      path,
      body,
      params,
      action: (request, survey, actor, reply) => action(request)(survey, actor, reply),
      failed,
    });
  }
  const at =
    (errorAt: (request: FastifyRequest) => string) => (request: FastifyRequest, error: ApiError) => ({
      error,
      errorAt: errorAt(request),
    });
  const pageOf = (request: FastifyRequest) => formField(request.params, 'pageId') ?? '';
  const questionOf = (request: FastifyRequest) => ({
    pageId: pageOf(request),
    questionId: formField(request.params, 'questionId') ?? '',
  });

  /** The no-JS confirmation of a deletion, as a page whose button posts the form again, confirmed. */
  async function confirmation(
    request: FastifyRequest,
    reply: FastifyReply,
    actor: FormActor,
    d: Destruction,
  ) {
    const token = formField(request.query, 'sm') ?? '';
    const csrf = formField(request.body, '_csrf') ?? '';
    const body = confirmationPage(request.url, csrf, d, editUrl(token));
    return {
      markup: await userPage(deps, reply, actor.user, d.title, body, { section: 'surveys', narrow: true }),
    };
  }

  change(
    '/create/settings',
    {
      title: formText(100_000),
      nickname: formText(100_000),
      language: formText(20),
      next_button: formText(100_000),
      prev_button: formText(100_000),
      exit_button: formText(100_000),
      done_button: formText(100_000),
      custom_variables: formText(100_000),
      question_layout: formText(50),
    },
    undefined,
    at(() => 'settings'),
    (request) => async (survey, actor) => {
      const form = request.body;
      const title = (form.title ?? '').trim();
      if (!title) throw new ApiError(1002, 'The survey needs a title.');
      const input: SettingsInput = {
        title,
        nickname: (form.nickname ?? '').trim(),
        language: form.language ?? 'en',
        buttons_text: {
          next_button: (form.next_button ?? '').trim(),
          prev_button: (form.prev_button ?? '').trim(),
          exit_button: (form.exit_button ?? '').trim(),
          done_button: (form.done_button ?? '').trim(),
        },
        ...(form.custom_variables === undefined
          ? {}
          : { custom_variables: variablesOf(form.custom_variables) }),
        ...(form.question_layout === undefined ? {} : { question_layout: layoutOf(form.question_layout) }),
      };
      // The API's PATCH /v3/surveys/{id} body schema, so the page accepts what the API accepts.
      const [error] = [...Value.Errors(SurveyUpdateBody, input)];
      if (error) throw new ApiError(1002, `${settingWords(error.instancePath)} ${error.message}.`);
      await updateSurvey(deps, actor, survey.id, input, 'patch');
      return { done: 'settings' };
    },
  );

  change(
    '/create/quiz',
    QUIZ_FORM,
    undefined,
    at(() => 'quiz'),
    (request) => async (survey, actor) => {
      try {
        const quiz_options = quizFromForm(request.body, settingsOf(survey).quiz_options);
        // The API's PATCH body schema, then the same updateSurvey (its range rules) as the API.
        const [error] = [...Value.Errors(SurveyUpdateBody, { quiz_options })];
        if (error) throw new ApiError(1002, `${error.instancePath} ${error.message}.`);
        await updateSurvey(deps, actor, survey.id, { quiz_options }, 'patch');
      } catch (e) {
        if (e instanceof ApiError) throw new ApiError(e.code, quizWords(e.detail ?? e.message));
        throw e;
      }
      return { done: 'quiz', anchor: 'quiz' };
    },
  );

  change(
    '/create/pages',
    { title: formText(100_000), description: formText(100_000) },
    undefined,
    at(() => 'add-page'),
    (request) => async (survey, actor) => {
      const form = request.body;
      const title = checkText((form.title ?? '').trim(), 'The page title', 2000);
      const description = checkText((form.description ?? '').trim(), 'The page description', 20000);
      const created = await createPage(deps, actor, survey, { title, description });
      return { done: 'page_added', anchor: `page-${created.id}` };
    },
  );

  change(
    '/create/pages/:pageId/save',
    { title: formText(100_000), description: formText(100_000), question_order: formText(50) },
    PageParams,
    at((request) => `page-${pageOf(request)}`),
    (request) => async (survey, actor) => {
      const form = request.body;
      const title = checkText((form.title ?? '').trim(), 'The page title', 2000);
      const description = checkText((form.description ?? '').trim(), 'The page description', 20000);
      // A form without the select (an older page) leaves the order as it was.
      const sorting = form.question_order === undefined ? undefined : pageOrderOf(form.question_order);
      await updatePage(deps, actor, survey, pageOf(request), { title, description, sorting }, 'patch');
      return { done: 'page_saved', anchor: `page-${pageOf(request)}` };
    },
  );

  change(
    '/create/pages/:pageId/move',
    { direction: Type.Union([Type.Literal('up'), Type.Literal('down')]) },
    PageParams,
    at((request) => `move-${pageOf(request)}`),
    (request) => async (survey, actor) => {
      const current = await getPage(deps, survey.id, pageOf(request));
      const { direction } = request.body;
      const position = current.position + (direction === 'up' ? -1 : 1);
      try {
        if (position >= 1) await updatePage(deps, actor, survey, current.id, { position }, 'patch');
      } catch (err) {
        // The domain refuses a move that turns a rule backward; say which move it was.
        if (err instanceof ApiError && err.code === 1002 && /logic/.test(err.message))
          throw new ApiError(1002, `Page ${current.position} cannot move ${direction}: ${err.message}`);
        throw err;
      }
      return { done: 'page_moved', anchor: `page-${current.id}` };
    },
  );

  change(
    '/create/pages/:pageId/delete',
    { confirm: formText(10) },
    PageParams,
    at((request) => `page-${pageOf(request)}`),
    (request) => async (survey, actor, reply) => {
      if (!confirmed(request.body)) {
        const { pages, questions } = await loadDesign(deps, survey.id);
        const index = pages.findIndex((p) => p.id === pageOf(request));
        if (index < 0) throw new ApiError(1020, 'Page not found.');
        const d = pageDestruction(
          pages[index],
          index,
          questions.get(pages[index].id) ?? [],
          await answerCounts(deps, survey.id),
          rulesTo(pages[index].id, pages, questions),
        );
        return confirmation(request, reply, actor, d);
      }
      const deleted = await deletePage(deps, actor, survey, pageOf(request));
      return { done: 'page_deleted', count: deleted.logic_cleared };
    },
  );

  change(
    '/create/pages/:pageId/logic',
    { logic: formText(40), when: formText(200), when_value: formText(200) },
    PageParams,
    at((request) => `logic-${pageOf(request)}`),
    (request) => async (survey, actor) => {
      const rule = ruleOf(request.body.logic);
      const when = rule && whenOf(request.body.when, request.body.when_value);
      const logic = rule && when ? { ...rule, when } : rule;
      await updatePage(deps, actor, survey, pageOf(request), { logic }, 'patch');
      return { done: 'page_logic', anchor: `page-${pageOf(request)}` };
    },
  );

  change(
    '/create/pages/:pageId/questions',
    ADD_FORM,
    PageParams,
    (request, error) => {
      const form = request.body;
      return {
        error,
        errorAt: `add-${pageOf(request)}`,
        add: {
          pageId: pageOf(request),
          kind: form.kind ?? '',
          heading: form.heading ?? '',
          choices: form.choices ?? '',
          rows: form.rows ?? '',
          image: form.image ?? '',
          required: form.required === 'yes',
          validation: form.validation ?? '',
          min: form.min ?? '',
          max: form.max ?? '',
        },
      };
    },
    (request) => async (survey, actor) => {
      const form = request.body;
      const { pages } = await loadDesign(deps, survey.id);
      const draft = newDraft(form.kind ?? '', (form.heading ?? '').trim(), form.choices, form.image, {
        rows: form.rows,
        required: form.required === 'yes',
        validation: form.validation,
        min: form.min,
        max: form.max,
        pages,
        pageIndex: pages.findIndex((p) => p.id === pageOf(request)),
      });
      const input = inputOf(draft, false);
      await createQuestion(deps, actor, survey, pageOf(request), input);
      // Back to the same add form: the new question is just above it, and the next one is typed here.
      return { done: 'question_added', anchor: `add-${pageOf(request)}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/save',
    QUESTION_FORM,
    QuestionParams,
    (request, error) => {
      const { questionId } = questionOf(request);
      // Shown again as typed; the kind posted is only used to redisplay (saving uses the stored one).
      const form = request.body;
      const kind = findKind(form.kind)?.value;
      const draft = kind ? draftFromForm(form, kind) : undefined;
      return { error, errorAt: `q-${questionId}`, draft: draft ? { questionId, draft } : undefined };
    },
    (request) => async (survey, actor, reply) => {
      const { pageId, questionId } = questionOf(request);
      const current = await getQuestion(deps, survey.id, pageId, questionId);
      const kind = kindOf(current);
      const recall = request.body.insert === 'heading' ? (request.body.recall ?? '').trim() : '';
      if (recall) {
        // "Insert answer from…" without script: the form again, the recall added to the question
        // text, nothing saved (saving checks the recall as the API does).
        const draft = draftFromForm(request.body, kind.value);
        draft.heading = draft.heading ? `${draft.heading} ${recall}` : recall;
        const token = formField(request.query, 'sm') ?? '';
        const state = { draft: { questionId, draft, inserted: true } };
        return { markup: await renderEditor(deps, request, reply, actor.user, survey, token, state) };
      }
      const body = inputOf(draftFromForm(request.body, kind.value), isQuiz(survey));
      // The form owns the first heading's text, description and image; other headings (A/B
      // variants) and display options it does not show are kept.
      const [first, ...rest] = current.doc.headings;
      const heading = {
        ...(first?.random_assignment ? { random_assignment: first.random_assignment } : {}),
        ...body.headings[0],
      };
      await updateQuestion(
        deps,
        actor,
        survey,
        pageId,
        questionId,
        {
          ...body,
          headings: [heading, ...rest],
          display_options: body.display_options
            ? { ...current.doc.display_options, ...body.display_options }
            : current.doc.display_options,
        },
        'patch',
      );
      return { done: 'question_saved', anchor: `q-${questionId}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/move',
    {
      direction: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down')])),
      to_page: Type.Optional(Id),
      position: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    },
    QuestionParams,
    at((request) => `q-${questionOf(request).questionId}`),
    (request) => async (survey, actor) => {
      const { pageId, questionId } = questionOf(request);
      const form = request.body;
      if (form.direction) {
        const current = await getQuestion(deps, survey.id, pageId, questionId);
        const position = current.position + (form.direction === 'up' ? -1 : 1);
        if (position >= 1)
          await updateQuestion(deps, actor, survey, pageId, questionId, { position }, 'patch');
      } else {
        if (!form.to_page) throw new ApiError(1002, 'Choose the page to move the question to.');
        const position = form.position === undefined ? undefined : Math.max(1, Number(form.position));
        await moveQuestionToPage(deps, actor, survey, pageId, questionId, form.to_page, position);
      }
      return { done: 'question_moved', anchor: `q-${questionId}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/display',
    { show: formText(140), value: formText(1000) },
    QuestionParams,
    at((request) => `q-${questionOf(request).questionId}`),
    (request) => async (survey, actor) => {
      const { pageId, questionId } = questionOf(request);
      const form = request.body;
      const display_logic = conditionOf(form.show, form.value);
      await updateQuestion(deps, actor, survey, pageId, questionId, { display_logic }, 'patch');
      return { done: 'question_display', anchor: `q-${questionId}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/copy',
    {},
    QuestionParams,
    at((request) => `q-${questionOf(request).questionId}`),
    (request) => async (survey, actor) => {
      const { pageId, questionId } = questionOf(request);
      const copy = await copyQuestion(deps, actor, survey, pageId, questionId);
      return { done: 'question_copied', anchor: `q-${copy.id}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/delete',
    { confirm: formText(10) },
    QuestionParams,
    at((request) => `q-${questionOf(request).questionId}`),
    (request) => async (survey, actor, reply) => {
      const { pageId, questionId } = questionOf(request);
      if (!confirmed(request.body)) {
        const q = await getQuestion(deps, survey.id, pageId, questionId);
        const { pages, questions } = await loadDesign(deps, survey.id);
        const all = pages
          .flatMap((p) => questions.get(p.id) ?? [])
          .filter((x) => x.family !== 'presentation');
        const n = q.family === 'presentation' ? undefined : all.findIndex((x) => x.id === q.id) + 1;
        const numbers = questionNumbers(pages.map((p) => ({ questions: questions.get(p.id) ?? [] })));
        const d = questionDestruction(q, questionLabel(q, n, numbers), await answerCounts(deps, survey.id));
        return confirmation(request, reply, actor, d);
      }
      await deleteQuestion(deps, actor, survey, pageId, questionId);
      return { done: 'question_deleted', anchor: `page-${pageId}` };
    },
  );
}
