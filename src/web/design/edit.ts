// The survey's edit page (its `edit_url`, /create/?sm=<manage token>): pages and questions as a
// respondent sees them, and forms to rename the survey, add, rename and delete pages, and add,
// move and delete questions. The token only names the survey: the signed-in user must be allowed
// to design it (requireSurvey: read to see the page, write to change anything; a Viewer sees it
// read-only). Every change goes through the surveys domain services (validation, events, the
// 1000-question limit); their errors are shown on the page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import {
  createPage,
  createQuestion,
  deletePage,
  deleteQuestion,
  getQuestion,
  updatePage,
  updateQuestion,
} from '../../domain/surveys/design.js';
import { type Actor, loadDesign, updateSurvey } from '../../domain/surveys/surveys.js';
import { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import {
  errorFor,
  formText,
  hidden,
  invalidIf,
  type ManagedPage,
  managedFormPost,
  managedPage,
  pageMessages,
} from '../forms.js';
import { surveyLinks } from '../home/links.js';
import { html, inlineStyle, raw } from '../html.js';
import { csrfToken } from '../session.js';
import { QUESTION_STYLE, renderQuestion } from '../surveys/render-question.js';
import { QUESTION_KINDS, type QuestionFields, questionFromForm } from './question-form.js';

const PageParams = Type.Object({ pageId: Type.String({ pattern: '^[0-9]{1,20}$' }) });
const QuestionParams = Type.Object({
  pageId: Type.String({ pattern: '^[0-9]{1,20}$' }),
  questionId: Type.String({ pattern: '^[0-9]{1,20}$' }),
});

const NOTICES: Record<string, string> = {
  title: 'The survey was renamed.',
  page_added: 'A page was added.',
  page_renamed: 'The page was renamed.',
  page_deleted: 'The page was deleted.',
  question_added: 'The question was added.',
  question_moved: 'The question was moved.',
  question_deleted: 'The question was deleted.',
};

const STYLE = inlineStyle(`
${QUESTION_STYLE.value}
.editor-links { display: flex; flex-wrap: wrap; gap: 1rem; padding: 0; list-style: none; }
section.survey-page { border: 1px solid var(--line); border-radius: 6px; padding: 0 1rem 1rem; margin: 1.5rem 0; }
ol.questions { list-style: none; padding: 0; }
ol.questions > li { border-top: 1px solid var(--line); padding-top: 1rem; margin-top: 1rem; }
fieldset.q-preview { border: 0; padding: 0; margin: 0; min-width: 0; }
.q-meta { color: var(--muted); font-size: .9rem; margin: 0 0 .25rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
.actions form { margin: 0; }
details { margin: .75rem 0; }
summary { cursor: pointer; color: var(--accent); font-weight: 600; }
button.danger { background: #fff; color: #a4000f; border-color: #a4000f; }
.notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: .5rem 1rem; margin: 1rem 0; }
.readonly { border-left-color: #8a6d00; }
`);

/** Checks text a form sent against the limits the API's schemas set (no NUL, a maximum length). */
function checkText(value: string, name: string, max: number): string {
  if (value.includes('\u0000')) throw new ApiError(1002, `${name} contains a character that is not allowed.`);
  if (value.length > max) throw new ApiError(1002, `${name} is longer than ${max} characters.`);
  return value;
}

function mayWrite(deps: Deps, user: User, survey: SurveyRow): Promise<boolean> {
  return mayAccess(deps, { user }, survey.id, 'design', 'write');
}

export const editUrl = (token: string) => `/create/?sm=${encodeURIComponent(token)}`;

interface EditorState {
  notice?: string;
  error?: ApiError;
  /** Which form the error belongs to (its id), to put the message beside it. */
  errorAt?: string;
  /** The add-question form's fields to show again after an error. */
  question?: QuestionFields & { pageId: string };
}

async function renderEditor(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: EditorState,
): Promise<string> {
  const writable = await mayWrite(deps, user, survey);
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const { pages, questions } = await loadDesign(deps, survey.id);
  // An error whose form is gone (a page or question deleted meanwhile) is shown at the top.
  const targets = new Set(['survey-title', 'add-page']);
  for (const p of pages) {
    targets.add(`page-${p.id}`).add(`add-${p.id}`);
    for (const q of questions.get(p.id) ?? []) targets.add(`q-${q.id}`);
  }
  if (state.errorAt && !targets.has(state.errorAt)) state = { ...state, errorAt: undefined };
  const base = editUrl(token);
  const act = (path: string) => `/create/${path}?sm=${encodeURIComponent(token)}`;
  const links = surveyLinks(survey);
  let number = 0;

  const sections = pages.map((p, pageIndex) => {
    const qs = questions.get(p.id) ?? [];
    const pageLabel = `Page ${pageIndex + 1}${p.title ? `: ${p.title}` : ''}`;
    const items = qs.map((q, i) => {
      const n = q.family === 'presentation' ? undefined : ++number;
      const name = n === undefined ? `text block ${i + 1}` : `question ${n}`;
      const actions = writable
        ? html`<div class="actions">
${i > 0 ? html`<form method="post" action="${act(`pages/${p.id}/questions/${q.id}/move`)}">${hidden(csrf)}<input type="hidden" name="direction" value="up"><button type="submit" class="secondary">Move up <span class="visually-hidden">${name}</span></button></form>` : ''}
${i < qs.length - 1 ? html`<form method="post" action="${act(`pages/${p.id}/questions/${q.id}/move`)}">${hidden(csrf)}<input type="hidden" name="direction" value="down"><button type="submit" class="secondary">Move down <span class="visually-hidden">${name}</span></button></form>` : ''}
<form method="post" action="${act(`pages/${p.id}/questions/${q.id}/delete`)}">${hidden(csrf)}<button type="submit" class="danger">Delete <span class="visually-hidden">${name}</span></button></form>
</div>${errorFor(state, `q-${q.id}`)}`
        : '';
      return html`<li id="item-${q.id}">
<p class="q-meta">${name[0].toUpperCase()}${name.slice(1)} · ${q.family.replace('_', ' ')} (${q.subtype})</p>
<fieldset class="q-preview" disabled aria-label="How respondents see ${name}">${renderQuestion(q, { number: n })}</fieldset>
${actions}
</li>`;
    });
    const refill = state.question?.pageId === p.id ? state.question : undefined;
    const f = `add-${p.id}`;
    const pageForms = writable
      ? html`<details${state.errorAt === `page-${p.id}` ? raw(' open') : ''}><summary>Rename or delete this page</summary>
<form method="post" action="${act(`pages/${p.id}/rename`)}">${hidden(csrf)}
<label for="page-${p.id}-title">Page title</label>
<input id="page-${p.id}-title" name="title" type="text" maxlength="2000" value="${p.title}"${invalidIf(state, `page-${p.id}`)}>
<label for="page-${p.id}-description">Page description</label>
<textarea id="page-${p.id}-description" name="description" rows="2">${p.description}</textarea>
<p><button type="submit">Save page</button></p>
</form>
<form method="post" action="${act(`pages/${p.id}/delete`)}">${hidden(csrf)}<button type="submit" class="danger">Delete page ${pageIndex + 1} and its questions</button></form>
${errorFor(state, `page-${p.id}`)}
</details>
<details${refill ? raw(' open') : ''}><summary>Add a question to page ${pageIndex + 1}</summary>
<form method="post" action="${act(`pages/${p.id}/questions`)}">${hidden(csrf)}
${errorFor(state, f)}
<label for="${f}-kind">Kind of question</label>
<select id="${f}-kind" name="kind">${QUESTION_KINDS.map((k) => html`<option value="${k.value}"${refill?.kind === k.value ? raw(' selected') : ''}>${k.label}</option>`)}</select>
<label for="${f}-heading">Question text</label>
<input id="${f}-heading" name="heading" type="text" maxlength="20000" value="${refill?.heading ?? ''}"${invalidIf(state, f)}>
<label for="${f}-choices">Answer choices</label>
<p class="muted" id="${f}-choices-help">One per line. For single choice, multiple choice and matrix questions.</p>
<textarea id="${f}-choices" name="choices" rows="4" aria-describedby="${f}-choices-help">${refill?.choices ?? ''}</textarea>
<label for="${f}-rows">Matrix rows</label>
<p class="muted" id="${f}-rows-help">One per line. Only for matrix questions: each row is answered with one of the choices.</p>
<textarea id="${f}-rows" name="rows" rows="3" aria-describedby="${f}-rows-help">${refill?.rows ?? ''}</textarea>
<p><button type="submit">Add question</button></p>
</form>
</details>`
      : '';
    return html`<section class="survey-page" id="page-${p.id}" aria-labelledby="page-${p.id}-heading">
<h2 id="page-${p.id}-heading">${pageLabel}</h2>
${p.description ? html`<p>${p.description}</p>` : ''}
${items.length ? html`<ol class="questions" aria-label="Questions on page ${pageIndex + 1}">${items}</ol>` : html`<p class="muted">This page has no questions yet.</p>`}
${pageForms}
</section>`;
  });

  const body = html`${STYLE}
<p><a href="/">← Your surveys</a></p>
<h1>Edit survey: ${survey.title}</h1>
<ul class="editor-links" aria-label="This survey's pages">
<li><a href="${links.preview}">Preview</a></li>
<li><a href="${links.collect_url}">Collect responses</a></li>
<li><a href="${links.analyze_url}">Analyze results</a></li>
<li><a href="${links.summary_url}">Summary</a></li>
</ul>
<p class="muted">${survey.page_count} page${survey.page_count === 1 ? '' : 's'}, ${survey.question_count} question${survey.question_count === 1 ? '' : 's'}, ${survey.response_count} response${survey.response_count === 1 ? '' : 's'}.</p>
${pageMessages(state, writable, 'design')}
${
  writable
    ? html`<form method="post" action="${act('title')}">${hidden(csrf)}
<label for="survey-title">Survey title</label>
${errorFor(state, 'survey-title')}
<input id="survey-title" name="title" type="text" maxlength="250" required value="${survey.title}"${invalidIf(state, 'survey-title')}>
<p><button type="submit">Rename survey</button></p>
</form>`
    : ''
}
${sections.length ? sections : html`<p class="muted">This survey has no pages.</p>`}
${
  writable
    ? html`<section aria-labelledby="add-page-heading">
<h2 id="add-page-heading">Add a page</h2>
<form method="post" action="${act('pages')}">${hidden(csrf)}
${errorFor(state, 'add-page')}
<label for="new-page-title">Page title (optional)</label>
<input id="new-page-title" name="title" type="text" maxlength="2000"${invalidIf(state, 'add-page')}>
<p><button type="submit">Add page</button></p>
</form>
</section>`
    : ''
}
<p class="muted"><a href="${base}">Reload this page</a></p>`;
  return userPage(deps, reply, user, `Edit: ${survey.title}`, body, { section: 'surveys' });
}

type Action = (survey: SurveyRow, actor: Actor) => Promise<{ done: string; anchor?: string }>;

export async function designPages(app: FastifyInstance, deps: Deps): Promise<void> {
  const page: ManagedPage<EditorState> = {
    area: 'design',
    url: editUrl,
    notices: NOTICES,
    render: (_request, reply, user, survey, token, state) =>
      renderEditor(deps, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create', page);

  /** A change: design write access, the action, then back to the edit page (or the error on it). */
  function change(
    path: string,
    body: Record<string, TSchema>,
    params: typeof PageParams | typeof QuestionParams | undefined,
    errorAt: (request: FastifyRequest) => string | undefined,
    action: (request: FastifyRequest) => Action,
  ) {
    managedFormPost(app, deps, page, {
      path,
      body,
      params,
      action: (request, survey, actor) => action(request)(survey, actor),
      failed: (request, error) => {
        const form = request.body as QuestionFields;
        const pageId = (request.params as { pageId?: string }).pageId;
        return {
          error,
          errorAt: errorAt(request),
          question: path.endsWith('/questions') && pageId ? { ...form, pageId } : undefined,
        };
      },
    });
  }

  change(
    '/create/title',
    { title: formText(100_000) },
    undefined,
    () => 'survey-title',
    (request) => async (survey, actor) => {
      const title = checkText(((request.body as { title?: string }).title ?? '').trim(), 'The title', 250);
      if (!title) throw new ApiError(1002, 'The survey needs a title.');
      await updateSurvey(deps, actor, survey.id, { title }, 'patch');
      return { done: 'title' };
    },
  );

  change(
    '/create/pages',
    { title: formText(100_000) },
    undefined,
    () => 'add-page',
    (request) => async (survey, actor) => {
      const title = checkText(
        ((request.body as { title?: string }).title ?? '').trim(),
        'The page title',
        2000,
      );
      const page = await createPage(deps, actor, survey, { title });
      return { done: 'page_added', anchor: `page-${page.id}` };
    },
  );

  change(
    '/create/pages/:pageId/rename',
    { title: formText(100_000), description: formText(100_000) },
    PageParams,
    (request) => `page-${(request.params as { pageId: string }).pageId}`,
    (request) => async (survey, actor) => {
      const { pageId } = request.params as { pageId: string };
      const form = request.body as { title?: string; description?: string };
      const title = checkText((form.title ?? '').trim(), 'The page title', 2000);
      const description = checkText((form.description ?? '').trim(), 'The page description', 20000);
      await updatePage(deps, actor, survey, pageId, { title, description }, 'patch');
      return { done: 'page_renamed', anchor: `page-${pageId}` };
    },
  );

  change(
    '/create/pages/:pageId/delete',
    {},
    PageParams,
    (request) => `page-${(request.params as { pageId: string }).pageId}`,
    (request) => async (survey, actor) => {
      await deletePage(deps, actor, survey, (request.params as { pageId: string }).pageId);
      return { done: 'page_deleted' };
    },
  );

  change(
    '/create/pages/:pageId/questions',
    {
      kind: formText(50),
      heading: formText(100_000),
      choices: formText(1_000_000),
      rows: formText(1_000_000),
    },
    PageParams,
    (request) => `add-${(request.params as { pageId: string }).pageId}`,
    (request) => async (survey, actor) => {
      const { pageId } = request.params as { pageId: string };
      const q = await createQuestion(
        deps,
        actor,
        survey,
        pageId,
        questionFromForm(request.body as QuestionFields),
      );
      return { done: 'question_added', anchor: `item-${q.id}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/move',
    { direction: Type.Union([Type.Literal('up'), Type.Literal('down')]) },
    QuestionParams,
    (request) => `q-${(request.params as { questionId: string }).questionId}`,
    (request) => async (survey, actor) => {
      const { pageId, questionId } = request.params as { pageId: string; questionId: string };
      const { direction } = request.body as { direction: 'up' | 'down' };
      const current = await getQuestion(deps, survey.id, pageId, questionId);
      const position = current.position + (direction === 'up' ? -1 : 1);
      if (position >= 1) await updateQuestion(deps, actor, survey, pageId, questionId, { position }, 'patch');
      return { done: 'question_moved', anchor: `item-${questionId}` };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/delete',
    {},
    QuestionParams,
    (request) => `q-${(request.params as { questionId: string }).questionId}`,
    (request) => async (survey, actor) => {
      const { pageId, questionId } = request.params as { pageId: string; questionId: string };
      await deleteQuestion(deps, actor, survey, pageId, questionId);
      return { done: 'question_deleted', anchor: `page-${pageId}` };
    },
  );
}
