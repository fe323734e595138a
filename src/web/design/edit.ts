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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import Value from 'typebox/value';
import { SurveyUpdateBody } from '../../api/v3/surveys/schemas.js';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
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
import { LANGUAGES } from '../../domain/surveys/languages.js';
import {
  loadDesign,
  type DesignPage as PageRow,
  type DesignQuestion as QuestionRow,
  type SettingsInput,
  settingsOf,
  updateSurvey,
} from '../../domain/surveys/surveys.js';
import { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import { SCRIPTS } from '../assets.js';
import { confirmationPage, confirmed, type Destruction, destructiveForm } from '../confirm.js';
import {
  errorFor,
  type FormActor,
  type FormDone,
  formText,
  hidden,
  invalidIf,
  type ManagedPage,
  managedFormPost,
  managedPage,
  pageMessages,
} from '../forms.js';
import { type Html, html, raw } from '../html.js';
import { surveyHeader, surveyPaths } from '../layout.js';
import { csrfToken } from '../session.js';
import { richText } from '../surveys/render-question.js';
import { explainRuleError, type PageChoice, ruleMarker, ruleOf, ruleSelect, ruleValue } from './logic-ui.js';
import {
  type Draft,
  draftFromForm,
  draftOf,
  findKind,
  inputOf,
  kindOf,
  newDraft,
  QUESTION_FORM,
  QUESTION_KINDS,
  type QuestionForm,
} from './question-form.js';
import { questionFields } from './question-view.js';

const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const PageParams = Type.Object({ pageId: Id });
const QuestionParams = Type.Object({ pageId: Id, questionId: Id });
type QParams = { pageId: string; questionId: string };

const NOTICES: Record<string, string | ((n: number) => string)> = {
  settings: 'The survey settings were saved.',
  page_added: 'A page was added.',
  page_saved: 'The page was saved.',
  page_moved: 'The page was moved.',
  page_deleted: (n) =>
    n > 0
      ? `The page was deleted. ${plural(n, 'skip-logic rule')} that went to it ${n === 1 ? 'was' : 'were'} cleared: those respondents now go on to the next page.`
      : 'The page was deleted.',
  page_logic: 'The rule after the page was saved.',
  question_added: 'The question was added. Fill in its details below.',
  question_saved: 'The question was saved.',
  question_moved: 'The question was moved.',
  question_copied: 'The question was copied.',
  question_deleted: 'The question was deleted.',
};

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
  /** A question's edit form shown again with what was typed (after an error). */
  draft?: { questionId: string; draft: Draft };
  /** The add-question form's fields to show again after an error. */
  add?: { pageId: string; kind: string; heading: string; choices: string; image: string };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const isQuiz = (survey: SurveyRow) => settingsOf(survey).quiz_options?.is_quiz_mode === true;

function pageLabel(p: PageRow, index: number): string {
  return `Page ${index + 1}${p.title ? `: ${p.title}` : ''}`;
}

function questionLabel(q: QuestionRow, number: number | undefined): string {
  const heading = q.doc.headings[0]?.heading.replace(/<[^>]*>/g, '') ?? '';
  const short = heading.length > 60 ? `${heading.slice(0, 60)}…` : heading;
  return `${number === undefined ? 'Text block' : `Question ${number}`}${short ? ` "${short}"` : ''}`;
}

/** How many skip-logic rules of the design go to `pageId` (what deleting it clears). */
function rulesTo(pageId: string, pages: PageRow[], questions: Map<string, QuestionRow[]>): number {
  let n = pages.filter((p) => p.logic?.page_id === pageId).length;
  for (const qs of questions.values())
    for (const q of qs) n += (q.doc.answers?.choices ?? []).filter((c) => c.logic?.page_id === pageId).length;
  return n;
}

function pageDestruction(
  p: PageRow,
  index: number,
  questions: QuestionRow[],
  answers: Map<string, number>,
  rules: number,
): Destruction {
  const n = questions.reduce((sum, q) => sum + (answers.get(q.id) ?? 0), 0);
  return {
    title: `Delete ${pageLabel(p, index)}?`,
    lost: [
      `${pageLabel(p, index)} and its ${plural(questions.length, 'question')}.`,
      `${plural(n, 'answer')} to those questions in the collected responses.`,
      ...(rules > 0
        ? [
            `${plural(rules, 'skip-logic rule')} that ${rules === 1 ? 'goes' : 'go'} to this page (those respondents will go on to the next page instead).`,
          ]
        : []),
    ],
    button: 'Delete page',
  };
}

/** The rules on a single choice question's choices, as markers for the question list. */
function choiceRules(q: QuestionRow, pages: readonly PageChoice[]): Html {
  const ruled = (q.doc.answers?.choices ?? []).filter((c) => c.logic);
  if (ruled.length === 0) return html``;
  return html`<ul class="logic-rules" aria-label="Skip logic">${ruled.map(
    (c) => html`<li><span class="badge accent">Logic</span> "${c.text}": ${ruleMarker(c.logic!, pages)}</li>`,
  )}</ul>`;
}

function questionDestruction(q: QuestionRow, label: string, answers: Map<string, number>): Destruction {
  return {
    title: `Delete ${label}?`,
    lost: [`${label}.`, `${plural(answers.get(q.id) ?? 0, 'answer')} to it in the collected responses.`],
    button: 'Delete question',
  };
}

/** A few lines that tell questions apart in the list: the answers' texts. */
function answerSummary(q: QuestionRow): Html {
  const a = q.doc.answers;
  const texts = [
    ...(a?.rows ?? []).filter((r) => r.visible && r.text).map((r) => r.text),
    ...(a?.choices ?? []).filter((c) => c.text).map((c) => c.text),
    ...(a?.cols ?? []).map((c) => c.text),
  ];
  if (texts.length === 0) return html``;
  const shown = texts.slice(0, 6);
  return html`<p class="q-answers">${shown.join(' · ')}${texts.length > shown.length ? ` · and ${texts.length - shown.length} more` : ''}</p>`;
}

async function renderEditor(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: EditorState,
): Promise<string> {
  const writable = await mayWrite(deps, user, survey);
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const { pages, questions } = await loadDesign(deps, survey.id);
  const answers = writable ? await answerCounts(deps, survey.id) : new Map<string, number>();
  const open = state.draft?.questionId ?? (request.query as { open?: string }).open;
  const quiz = isQuiz(survey);
  const settings = settingsOf(survey);
  // An error whose form is gone (a page or question deleted meanwhile) is shown at the top.
  const targets = new Set(['settings', 'add-page']);
  for (const p of pages) {
    targets.add(`page-${p.id}`).add(`add-${p.id}`).add(`logic-${p.id}`).add(`move-${p.id}`);
    for (const q of questions.get(p.id) ?? []) targets.add(`q-${q.id}`);
  }
  if (state.errorAt && !targets.has(state.errorAt)) state = { ...state, errorAt: undefined };
  const pageChoices: PageChoice[] = pages.map((p) => ({ id: p.id, title: p.title }));
  if (state.error) state = { ...state, error: explainRuleError(state.error, pageChoices) };
  const base = editUrl(token);
  const act = (path: string) => `/create/${path}?sm=${encodeURIComponent(token)}`;
  let number = 0;

  const sections = pages.map((p, pageIndex) => {
    const qs = questions.get(p.id) ?? [];
    const items = qs.map((q, i) => {
      const n = q.family === 'presentation' ? undefined : ++number;
      const label = questionLabel(q, n);
      const kind = kindOf(q);
      const qAct = (verb: string) => act(`pages/${p.id}/questions/${q.id}/${verb}`);
      const editing = writable && open === q.id;
      const draft = state.draft?.questionId === q.id ? state.draft.draft : draftOf(q);
      const f = `q-${q.id}`;
      const tools = writable
        ? editing
          ? html`<form method="post" action="${qAct('save')}" class="q-edit" aria-label="Edit ${label}">${hidden(csrf)}
${errorFor(state, f)}
${questionFields(f, draft, { quiz, logic: { pages: pageChoices, pageIndex } })}
<div class="actions"><button type="submit">Save question</button><a class="button secondary" href="${base}#${f}">Cancel</a></div>
</form>`
          : html`<div class="actions q-tools">
<a class="button secondary" href="${base}&open=${q.id}#${f}" aria-label="Edit ${label}">Edit</a>
${i > 0 ? html`<form method="post" action="${qAct('move')}" class="inline">${hidden(csrf)}<input type="hidden" name="direction" value="up"><button type="submit" class="secondary" aria-label="Move ${label} up">Up</button></form>` : ''}
${i < qs.length - 1 ? html`<form method="post" action="${qAct('move')}" class="inline">${hidden(csrf)}<input type="hidden" name="direction" value="down"><button type="submit" class="secondary" aria-label="Move ${label} down">Down</button></form>` : ''}
<form method="post" action="${qAct('copy')}" class="inline">${hidden(csrf)}<button type="submit" class="secondary" aria-label="Copy ${label}">Copy</button></form>
${destructiveForm(qAct('delete'), csrf, questionDestruction(q, label, answers), { label: 'Delete', name: `Delete ${label}` })}
${
  pages.length > 1
    ? html`<form method="post" action="${qAct('move')}" class="inline move-to">${hidden(csrf)}
<label for="${f}-to" class="visually-hidden">Move ${label} to page</label>
<select id="${f}-to" name="to_page">${pages.map((o, oi) => (o.id === p.id ? '' : html`<option value="${o.id}">To page ${oi + 1}</option>`))}</select>
<button type="submit" class="secondary" aria-label="Move ${label} to the chosen page">Move</button></form>`
    : ''
}
</div>${errorFor(state, f)}`
        : '';
      return html`<li id="${f}" class="question${editing ? ' editing' : ''}" data-move="${qAct('move')}">
<div class="q-head">${writable && !editing ? html`<span class="drag-handle" aria-hidden="true" title="Drag to reorder">⠿</span>` : ''}
<div class="q-title"><p class="q-meta">${n === undefined ? 'Text block' : `Q${n}`} · ${kind.label}${q.doc.required ? ' · Required' : ''}${q.doc.sorting?.type === 'random' ? ' · Random order' : ''}</p>
<h3 class="q-heading">${richText(q.doc.headings[0]?.heading ?? '')}</h3>
${answerSummary(q)}
${choiceRules(q, pageChoices)}</div></div>
${tools}
</li>`;
    });

    const pageTools = writable
      ? html`<details class="page-tools"${state.errorAt === `page-${p.id}` || state.errorAt === `move-${p.id}` ? raw(' open') : ''}><summary>Page ${pageIndex + 1} settings</summary>
<form method="post" action="${act(`pages/${p.id}/save`)}">${hidden(csrf)}
${errorFor(state, `page-${p.id}`)}
<label for="page-${p.id}-title">Page title</label>
<input id="page-${p.id}-title" name="title" type="text" maxlength="2000" value="${p.title}"${invalidIf(state, `page-${p.id}`)}>
<label for="page-${p.id}-description">Page description</label>
<textarea id="page-${p.id}-description" name="description" rows="2">${p.description}</textarea>
<div class="actions"><button type="submit">Save page</button></div>
</form>
${errorFor(state, `move-${p.id}`)}
<div class="actions">
${pageIndex > 0 ? html`<form method="post" action="${act(`pages/${p.id}/move`)}" class="inline">${hidden(csrf)}<input type="hidden" name="direction" value="up"><button type="submit" class="secondary">Move page ${pageIndex + 1} up</button></form>` : ''}
${pageIndex < pages.length - 1 ? html`<form method="post" action="${act(`pages/${p.id}/move`)}" class="inline">${hidden(csrf)}<input type="hidden" name="direction" value="down"><button type="submit" class="secondary">Move page ${pageIndex + 1} down</button></form>` : ''}
${destructiveForm(act(`pages/${p.id}/delete`), csrf, pageDestruction(p, pageIndex, qs, answers, rulesTo(p.id, pages, questions)), { label: `Delete page ${pageIndex + 1}` })}
</div>
</details>`
      : '';

    const last = pageIndex === pages.length - 1;
    const lf = `logic-${p.id}`;
    const pageRule = writable
      ? html`<form method="post" action="${act(`pages/${p.id}/logic`)}" class="page-logic">${hidden(csrf)}
${errorFor(state, lf)}
<span class="field"><label for="${lf}-then">After this page<span class="visually-hidden"> (page ${pageIndex + 1})</span></label>
${ruleSelect(`${lf}-then`, 'logic', ruleValue(p.logic), pageChoices, pageIndex, last ? 'Finish the survey (no rule)' : `Continue to page ${pageIndex + 2} (no rule)`, `${lf}-help`)}</span>
<button type="submit" class="secondary" aria-label="Save rule after page ${pageIndex + 1}">Save rule</button>
<p class="hint" id="${lf}-help">Applies when no choice on this page has a rule that fires.</p>
</form>`
      : '';
    const refill = state.add?.pageId === p.id ? state.add : undefined;
    const f = `add-${p.id}`;
    const addForm = writable
      ? html`<form method="post" action="${act(`pages/${p.id}/questions`)}" class="add-question" aria-labelledby="${f}-heading">${hidden(csrf)}
<h3 id="${f}-heading">Add a question to page ${pageIndex + 1}</h3>
${errorFor(state, f)}
<div class="row">
<span class="field"><label for="${f}-kind">Type</label>
<select id="${f}-kind" name="kind">${QUESTION_KINDS.map((x) => html`<option value="${x.value}"${refill?.kind === x.value ? raw(' selected') : ''}>${x.label}</option>`)}</select></span>
<span class="field grow"><label for="${f}-heading-text">Question text</label>
<input id="${f}-heading-text" name="heading" type="text" maxlength="20000" value="${refill?.heading ?? ''}"${invalidIf(state, f)}></span>
</div>
<label for="${f}-image">Image URL (optional; needed for an image)</label>
<input id="${f}-image" name="image" type="url" maxlength="20000" value="${refill?.image ?? ''}">
<label for="${f}-choices">Choices (optional)</label>
<p class="hint" id="${f}-choices-help">One per line, for choice and matrix questions (image choice: the image URL, a space, then its label). Everything else is set in the question's form after adding it.</p>
<textarea id="${f}-choices" name="choices" rows="3" aria-describedby="${f}-choices-help">${refill?.choices ?? ''}</textarea>
<div class="actions"><button type="submit">Add question</button></div>
</form>`
      : '';

    return html`<section class="survey-page" id="page-${p.id}" aria-labelledby="page-${p.id}-heading">
<h2 id="page-${p.id}-heading">${pageLabel(p, pageIndex)}</h2>
${p.description ? html`<p class="page-description">${p.description}</p>` : ''}
${p.logic ? html`<p class="logic-note"><span class="badge accent">Logic</span> After this page: ${ruleMarker(p.logic, pageChoices)}</p>` : ''}
${pageTools}
<ol class="questions" data-page="${p.id}" aria-label="Questions on page ${pageIndex + 1}">${items}</ol>
${items.length ? '' : html`<p class="empty">This page has no questions yet.</p>`}
${pageRule}
${addForm}
</section>`;
  });

  const b = settings.buttons_text;
  const settingsForm = writable
    ? html`<details class="card survey-settings"${state.errorAt === 'settings' ? raw(' open') : ''}><summary>Survey settings</summary>
<form method="post" action="${act('settings')}">${hidden(csrf)}
${errorFor(state, 'settings')}
<label for="settings-title">Title</label>
<input id="settings-title" name="title" type="text" maxlength="250" required value="${settings.title}"${invalidIf(state, 'settings')}>
<label for="settings-nickname">Nickname (only you see it)</label>
<input id="settings-nickname" name="nickname" type="text" maxlength="250" value="${settings.nickname}">
<label for="settings-language">Language</label>
<select id="settings-language" name="language">${LANGUAGES.map((l) => html`<option value="${l.id}"${l.id === settings.language ? raw(' selected') : ''}>${l.name} (${l.native_name})</option>`)}</select>
<fieldset><legend>Button texts</legend>
<div class="row">
<span class="field"><label for="settings-next">Next</label><input id="settings-next" name="next_button" type="text" maxlength="250" value="${b.next_button}"></span>
<span class="field"><label for="settings-prev">Previous</label><input id="settings-prev" name="prev_button" type="text" maxlength="250" value="${b.prev_button}"></span>
<span class="field"><label for="settings-exit">Exit (empty hides it)</label><input id="settings-exit" name="exit_button" type="text" maxlength="250" value="${b.exit_button}"></span>
<span class="field"><label for="settings-done">Done</label><input id="settings-done" name="done_button" type="text" maxlength="250" value="${b.done_button}"></span>
</div></fieldset>
<p class="hint">The thank-you message and the redirect after the last page belong to each way of collecting responses: set them on the <a href="${surveyPaths(survey).collect}">Collect</a> page.</p>
<div class="actions"><button type="submit">Save settings</button></div>
</form></details>`
    : '';

  const body = html`${surveyHeader(survey, 'edit')}
<div class="builder">
${pageMessages(state, writable, 'design')}
<div class="spread builder-bar">
<p class="muted">${plural(survey.page_count, 'page')}, ${plural(survey.question_count, 'question')}, ${plural(survey.response_count, 'response')}.</p>
<a class="button secondary" href="${surveyPaths(survey).preview}">Preview as a respondent</a>
</div>
${settingsForm}
${sections.length ? sections : html`<p class="empty">This survey has no pages.</p>`}
${
  writable
    ? html`<section class="card add-page" aria-labelledby="add-page-heading">
<h2 id="add-page-heading">Add a page</h2>
<form method="post" action="${act('pages')}">${hidden(csrf)}
${errorFor(state, 'add-page')}
<label for="new-page-title">Page title (optional)</label>
<input id="new-page-title" name="title" type="text" maxlength="2000"${invalidIf(state, 'add-page')}>
<label for="new-page-description">Page description (optional)</label>
<textarea id="new-page-description" name="description" rows="2"></textarea>
<div class="actions"><button type="submit">Add page</button></div>
</form>
</section>`
    : ''
}
</div>`;
  return userPage(deps, reply, user, `Design: ${survey.title}`, body, {
    section: 'surveys',
    scripts: writable ? [SCRIPTS.sortable, '/assets/builder.js'] : [],
  });
}

type Action = (
  survey: SurveyRow,
  actor: FormActor,
  reply: FastifyReply,
) => Promise<FormDone | { markup: string }>;

export async function designPages(app: FastifyInstance, deps: Deps): Promise<void> {
  const page: ManagedPage<EditorState> = {
    area: 'design',
    url: editUrl,
    notices: NOTICES,
    render: (request, reply, user, survey, token, state) =>
      renderEditor(deps, request, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create', page);

  /** A change: design write access, the action, then back to the edit page (or the error on it). */
  function change(
    path: string,
    body: Record<string, TSchema>,
    params: TSchema | undefined,
    failed: (request: FastifyRequest, error: ApiError) => EditorState,
    action: (request: FastifyRequest) => Action,
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
  const pageOf = (request: FastifyRequest) => (request.params as { pageId: string }).pageId;
  const questionOf = (request: FastifyRequest) => request.params as QParams;

  /** The no-JS confirmation of a deletion, as a page whose button posts the form again, confirmed. */
  async function confirmation(
    request: FastifyRequest,
    reply: FastifyReply,
    actor: FormActor,
    d: Destruction,
  ) {
    const token = (request.query as { sm?: string }).sm ?? '';
    const csrf = (request.body as { _csrf: string })._csrf;
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
    },
    undefined,
    at(() => 'settings'),
    (request) => async (survey, actor) => {
      const form = request.body as Record<string, string | undefined>;
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
      };
      // The API's PATCH /v3/surveys/{id} body schema, so the page accepts what the API accepts.
      const [error] = [...Value.Errors(SurveyUpdateBody, input)];
      if (error)
        throw new ApiError(1002, `${error.instancePath.slice(1).replaceAll('/', '.')}: ${error.message}.`);
      await updateSurvey(deps, actor, survey.id, input, 'patch');
      return { done: 'settings' };
    },
  );

  change(
    '/create/pages',
    { title: formText(100_000), description: formText(100_000) },
    undefined,
    at(() => 'add-page'),
    (request) => async (survey, actor) => {
      const form = request.body as { title?: string; description?: string };
      const title = checkText((form.title ?? '').trim(), 'The page title', 2000);
      const description = checkText((form.description ?? '').trim(), 'The page description', 20000);
      const created = await createPage(deps, actor, survey, { title, description });
      return { done: 'page_added', anchor: `page-${created.id}` };
    },
  );

  change(
    '/create/pages/:pageId/save',
    { title: formText(100_000), description: formText(100_000) },
    PageParams,
    at((request) => `page-${pageOf(request)}`),
    (request) => async (survey, actor) => {
      const form = request.body as { title?: string; description?: string };
      const title = checkText((form.title ?? '').trim(), 'The page title', 2000);
      const description = checkText((form.description ?? '').trim(), 'The page description', 20000);
      await updatePage(deps, actor, survey, pageOf(request), { title, description }, 'patch');
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
      const { direction } = request.body as { direction: 'up' | 'down' };
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
    { logic: formText(40) },
    PageParams,
    at((request) => `logic-${pageOf(request)}`),
    (request) => async (survey, actor) => {
      const logic = ruleOf((request.body as { logic?: string }).logic);
      await updatePage(deps, actor, survey, pageOf(request), { logic }, 'patch');
      return { done: 'page_logic', anchor: `page-${pageOf(request)}` };
    },
  );

  change(
    '/create/pages/:pageId/questions',
    { kind: formText(50), heading: formText(100_000), choices: formText(1_000_000), image: formText(20_000) },
    PageParams,
    (request, error) => {
      const form = request.body as { kind?: string; heading?: string; choices?: string; image?: string };
      return {
        error,
        errorAt: `add-${pageOf(request)}`,
        add: {
          pageId: pageOf(request),
          kind: form.kind ?? '',
          heading: form.heading ?? '',
          choices: form.choices ?? '',
          image: form.image ?? '',
        },
      };
    },
    (request) => async (survey, actor) => {
      const form = request.body as { kind?: string; heading?: string; choices?: string; image?: string };
      const draft = newDraft(form.kind ?? '', (form.heading ?? '').trim(), form.choices, form.image);
      const input = inputOf(draft, false);
      const q = await createQuestion(deps, actor, survey, pageOf(request), input);
      return { done: 'question_added', anchor: `q-${q.id}`, open: q.id };
    },
  );

  change(
    '/create/pages/:pageId/questions/:questionId/save',
    QUESTION_FORM,
    QuestionParams,
    (request, error) => {
      const { questionId } = questionOf(request);
      // Shown again as typed; the kind posted is only used to redisplay (saving uses the stored one).
      const form = request.body as QuestionForm;
      const kind = findKind(form.kind)?.value;
      const draft = kind ? draftFromForm(form, kind) : undefined;
      return { error, errorAt: `q-${questionId}`, draft: draft ? { questionId, draft } : undefined };
    },
    (request) => async (survey, actor) => {
      const { pageId, questionId } = questionOf(request);
      const current = await getQuestion(deps, survey.id, pageId, questionId);
      const kind = kindOf(current);
      const body = inputOf(draftFromForm(request.body as QuestionForm, kind.value), isQuiz(survey));
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
      const form = request.body as { direction?: 'up' | 'down'; to_page?: string; position?: string };
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
        const d = questionDestruction(q, questionLabel(q, n), await answerCounts(deps, survey.id));
        return confirmation(request, reply, actor, d);
      }
      await deleteQuestion(deps, actor, survey, pageId, questionId);
      return { done: 'question_deleted', anchor: `page-${pageId}` };
    },
  );
}
