// The survey builder's page (edit.ts serves it and its forms): the survey's settings, its pages
// and their questions, each with the forms a writer may use, or read-only for a Viewer. What
// deleting a page or question loses is worded here too, for the page and the confirmations.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { calculatedOf } from '../../domain/surveys/calculated.js';
import { answerCounts } from '../../domain/surveys/design.js';
import { LANGUAGES } from '../../domain/surveys/languages.js';
import { questionNumbers, readableRecalls, recallChoices } from '../../domain/surveys/piping.js';
import {
  loadDesign,
  type DesignPage as PageRow,
  type DesignQuestion as QuestionRow,
  settingsOf,
} from '../../domain/surveys/surveys.js';
import { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import { SCRIPTS } from '../assets.js';
import { type Destruction, destructiveForm } from '../confirm.js';
import { hidden, invalidIf, pageMessages } from '../forms.js';
import { type Html, html, raw } from '../html.js';
import { surveyHeader, surveyPaths } from '../layout.js';
import { csrfToken, formField } from '../session.js';
import { richText } from '../surveys/render-question.js';
import {
  type ConditionChoice,
  conditionChoices,
  conditionMarker,
  conditionValue,
  explainRuleError,
  type PageChoice,
  pageOrderField,
  ruleMarker,
  ruleSelect,
  ruleValue,
  ruleWhenFields,
} from './logic-ui.js';
import { type Draft, draftOf, kindOf, QUESTION_KINDS } from './question-form.js';
import { findKind, validationsFor } from './question-kinds.js';
import { questionFields, recallField, recallMessage } from './question-view.js';
import { QUICK_ADD_HINT, QUICK_ADD_ROWS_HINT } from './quick-add.js';
import { quizForm } from './quiz-settings.js';

/** The checks the quick-add box offers: a textbox's (other kinds refuse one, in words). */
const TEXT_CHECKS = validationsFor(findKind('single_textbox')!) ?? [];

function mayWrite(deps: Deps, user: User, survey: SurveyRow): Promise<boolean> {
  return mayAccess(deps, { user }, survey.id, 'design', 'write');
}

export const editUrl = (token: string) => `/create/?sm=${encodeURIComponent(token)}`;

export interface EditorState {
  notice?: string;
  error?: ApiError;
  /** Which form the error belongs to (its id), to put the message beside it. */
  errorAt?: string;
  /** A question's edit form shown again with what was typed (after an error, or with a recall
   * inserted by "Insert answer from…" without script: `inserted`). */
  draft?: { questionId: string; draft: Draft; inserted?: boolean };
  /** The add-question form's fields to show again after an error. */
  add?: {
    pageId: string;
    kind: string;
    heading: string;
    choices: string;
    rows: string;
    image: string;
    required: boolean;
    validation: string;
    min: string;
    max: string;
  };
}

/**
 * The error beside the form that caused it, focused (and so scrolled to) when the page loads, with
 * or without script. The forms' actions have no #fragment: a page with one skips autofocus.
 */
function errorHere(state: EditorState, at: string): Html {
  return state.error && state.errorAt === at
    ? html`<p role="alert" class="error" id="${at}-error" tabindex="-1" autofocus>${state.error.detail ?? state.error.message}</p>`
    : html``;
}

/** Which field of the quick-add box an error is about (marked invalid). */
function addField(message: string): string {
  if (/question text/i.test(message)) return 'heading';
  if (/image/i.test(message)) return 'image';
  if (/\b(rows?|items?|boxes)\b/i.test(message)) return 'rows';
  if (/minimum|maximum|limit|check its answers|must be a number/i.test(message)) return 'validation';
  if (/choice|column/i.test(message)) return 'choices';
  return 'heading';
}

/** The web link a survey's custom variables make, e.g. `…/r/<key>?ref=[ref_value]`. */
function variableLink(vars: Record<string, string> | undefined): Html {
  const names = Object.keys(vars ?? {});
  if (names.length === 0) return html`none yet.`;
  return html`<code>…/r/&lt;key&gt;?${names.map((n) => `${n}=[${n}_value]`).join('&')}</code>`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const isQuiz = (survey: SurveyRow) => settingsOf(survey).quiz_options?.is_quiz_mode === true;

function pageLabel(p: PageRow, index: number): string {
  return `Page ${index + 1}${p.title ? `: ${p.title}` : ''}`;
}

export function questionLabel(
  q: QuestionRow,
  number: number | undefined,
  numbers: ReadonlyMap<string, number>,
): string {
  const heading = readableRecalls(q.doc.headings[0]?.heading ?? '', numbers).replace(/<[^>]*>/g, '');
  const short = heading.length > 60 ? `${heading.slice(0, 60)}…` : heading;
  return `${number === undefined ? 'Text block' : `Question ${number}`}${short ? ` "${short}"` : ''}`;
}

/** How many skip-logic rules of the design go to `pageId` (what deleting it clears). */
export function rulesTo(pageId: string, pages: PageRow[], questions: Map<string, QuestionRow[]>): number {
  let n = pages.filter((p) => p.logic?.page_id === pageId).length;
  for (const qs of questions.values())
    for (const q of qs) n += (q.doc.answers?.choices ?? []).filter((c) => c.logic?.page_id === pageId).length;
  return n;
}

export function pageDestruction(
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

/** "Show this question": always, or when an earlier choice or a custom variable says so. */
function displayForm(
  action: string,
  csrf: string,
  id: string,
  label: string,
  value: string,
  typed: string,
  conditions: readonly ConditionChoice[],
): Html {
  const opt = (v: string, text: string) =>
    html`<option value="${v}"${value === v ? raw(' selected') : ''}>${text}</option>`;
  return html`<form method="post" action="${action}" class="display-logic">${hidden(csrf)}
<span class="field"><label for="${id}">Show ${label}</label>
<select id="${id}" name="show">${opt('', 'Always')}${conditions.map((c) => opt(c.value, `Only if ${c.label}`))}</select></span>
${
  conditions.some((c) => /^(var|calc-[a-z]+):/.test(c.value))
    ? html`<span class="field"><label for="${id}-value">Value (for a variable)</label>
<input id="${id}-value" name="value" type="text" maxlength="1000" value="${typed}"></span>`
    : ''
}
<button type="submit" class="secondary" aria-label="Save condition for ${label}">Save condition</button></form>`;
}

export function questionDestruction(
  q: QuestionRow,
  label: string,
  answers: Map<string, number>,
): Destruction {
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

export async function renderEditor(
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
  const open = state.draft?.questionId ?? formField(request.query, 'open');
  const quiz = isQuiz(survey);
  const settings = settingsOf(survey);
  // An error whose form is gone (a page or question deleted meanwhile) is shown at the top.
  const targets = new Set(['settings', 'quiz', 'add-page']);
  for (const p of pages) {
    targets.add(`page-${p.id}`).add(`add-${p.id}`).add(`logic-${p.id}`).add(`move-${p.id}`);
    for (const q of questions.get(p.id) ?? []) targets.add(`q-${q.id}`);
  }
  if (state.errorAt && !targets.has(state.errorAt)) state = { ...state, errorAt: undefined };
  const numbers = questionNumbers(pages.map((p) => ({ questions: questions.get(p.id) ?? [] })));
  const pageChoices: PageChoice[] = pages.map((p) => ({
    id: p.id,
    title: readableRecalls(p.title, numbers),
  }));
  if (state.error) state = { ...state, error: explainRuleError(state.error, pageChoices) };
  // A refused recall names its field by its API path: marked at that field, worded by its label.
  const recallAt = recallField(state.error?.detail);
  if (state.error?.detail && recallAt)
    state = { ...state, error: new ApiError(1002, recallMessage(state.error.detail)) };
  const base = editUrl(token);
  const act = (path: string) => `/create/${path}?sm=${encodeURIComponent(token)}`;
  let number = 0;

  const variables = Object.keys(settings.custom_variables);
  const calculatedNames = calculatedOf(survey).map((v) => v.name);
  const sections = pages.map((p, pageIndex) => {
    const qs = questions.get(p.id) ?? [];
    const conditions = conditionChoices(
      pages.slice(0, pageIndex).flatMap((x) => questions.get(x.id) ?? []),
      variables,
      numbers,
      // a variable counts the answers of earlier pages: on page 1 it is always empty
      pageIndex > 0 ? calculatedNames : [],
    );
    const recalls = recallChoices(
      pages
        .map((x) =>
          (questions.get(x.id) ?? []).map((q) => ({
            id: q.id,
            family: q.family,
            heading: q.doc.headings[0]?.heading ?? '',
          })),
        )
        .map((qs) => ({ questions: qs })),
      pageIndex,
      variables,
      calculatedNames,
    );
    const items = qs.map((q, i) => {
      const n = q.family === 'presentation' ? undefined : ++number;
      const label = questionLabel(q, n, numbers);
      const kind = kindOf(q);
      const qAct = (verb: string) => act(`pages/${p.id}/questions/${q.id}/${verb}`);
      const editing = writable && open === q.id;
      const draft = state.draft?.questionId === q.id ? state.draft.draft : draftOf(q);
      const f = `q-${q.id}`;
      const tools = writable
        ? editing
          ? html`<form method="post" action="${qAct('save')}" class="q-edit" aria-label="Edit ${label}">${hidden(csrf)}
${errorHere(state, f)}
${questionFields(f, draft, {
  quiz,
  logic: { pages: pageChoices, pageIndex },
  recalls,
  invalid: state.errorAt === f ? recallAt : undefined,
  focusHeading: state.draft?.questionId === q.id && state.draft.inserted === true,
})}
<div class="actions"><button type="submit">Save question</button><a class="button secondary" href="${base}#${f}">Cancel</a></div>
</form>`
          : html`<div class="actions q-tools">
<a class="button secondary" href="${base}&open=${q.id}#${f}" aria-label="Edit ${label}">Edit</a>
${i > 0 ? html`<form method="post" action="${qAct('move')}" class="inline">${hidden(csrf)}<input type="hidden" name="direction" value="up"><button type="submit" class="secondary" aria-label="Move ${label} up">Up</button></form>` : ''}
${i < qs.length - 1 ? html`<form method="post" action="${qAct('move')}" class="inline">${hidden(csrf)}<input type="hidden" name="direction" value="down"><button type="submit" class="secondary" aria-label="Move ${label} down">Down</button></form>` : ''}
<form method="post" action="${qAct('copy')}" class="inline">${hidden(csrf)}<button type="submit" class="secondary" aria-label="Copy ${label}">Copy</button></form>
${conditions.length > 0 || q.doc.display_logic ? displayForm(qAct('display'), csrf, `${f}-show`, label, conditionValue(q.doc.display_logic), q.doc.display_logic?.value ?? '', conditions) : ''}
${destructiveForm(qAct('delete'), csrf, questionDestruction(q, label, answers), { label: 'Delete', name: `Delete ${label}` })}
${
  pages.length > 1
    ? html`<form method="post" action="${qAct('move')}" class="inline move-to">${hidden(csrf)}
<label for="${f}-to" class="visually-hidden">Move ${label} to page</label>
<select id="${f}-to" name="to_page">${pages.map((o, oi) => (o.id === p.id ? '' : html`<option value="${o.id}">To page ${oi + 1}</option>`))}</select>
<button type="submit" class="secondary" aria-label="Move ${label} to the chosen page">Move</button></form>`
    : ''
}
</div>${errorHere(state, f)}`
        : '';
      return html`<li id="${f}" class="question${editing ? ' editing' : ''}" data-move="${qAct('move')}">
<div class="q-head">${writable && !editing ? html`<span class="drag-handle" aria-hidden="true" title="Drag to reorder">⠿</span>` : ''}
<div class="q-title"><p class="q-meta">${n === undefined ? 'Text block' : `Q${n}`} · ${kind.label}${q.doc.required ? ' · Required' : ''}${q.doc.sorting?.type === 'random' ? ' · Random order' : ''}</p>
<h3 class="q-heading">${richText(readableRecalls(q.doc.headings[0]?.heading ?? '', numbers))}</h3>
${answerSummary(q)}
${choiceRules(q, pageChoices)}
${conditionMarker(q.doc.display_logic, conditions)}</div></div>
${tools}
</li>`;
    });

    const pageTools = writable
      ? html`<details class="page-tools"${state.errorAt === `page-${p.id}` || state.errorAt === `move-${p.id}` ? raw(' open') : ''}><summary>Page ${pageIndex + 1} settings</summary>
<form method="post" action="${act(`pages/${p.id}/save`)}">${hidden(csrf)}
${errorHere(state, `page-${p.id}`)}
<label for="page-${p.id}-title">Page title</label>
<input id="page-${p.id}-title" name="title" type="text" maxlength="2000" value="${p.title}"${invalidIf(state, `page-${p.id}`)}>
<label for="page-${p.id}-description">Page description</label>
<textarea id="page-${p.id}-description" name="description" rows="2">${p.description}</textarea>
${pageOrderField(p.id, p.sorting)}
<div class="actions"><button type="submit">Save page</button></div>
</form>
${errorHere(state, `move-${p.id}`)}
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
      ? html`<form method="post" action="${act(`pages/${p.id}/logic`)}" id="${lf}" class="page-logic">${hidden(csrf)}
${errorHere(state, lf)}
<span class="field"><label for="${lf}-then">After this page<span class="visually-hidden"> (page ${pageIndex + 1})</span></label>
${ruleSelect(`${lf}-then`, 'logic', ruleValue(p.logic), pageChoices, pageIndex, last ? 'Finish the survey (no rule)' : `Continue to page ${pageIndex + 2} (no rule)`, `${lf}-help`)}</span>
${ruleWhenFields(lf, calculatedNames, p.logic)}
<button type="submit" class="secondary" aria-label="Save rule after page ${pageIndex + 1}">Save rule</button>
<p class="hint" id="${lf}-help">Applies when no choice on this page has a rule that fires.</p>
</form>`
      : '';
    const refill = state.add?.pageId === p.id ? state.add : undefined;
    const f = `add-${p.id}`;
    const bad = (field: string) =>
      state.error && state.errorAt === f && addField(state.error.message) === field
        ? invalidIf(state, f)
        : html``;
    const addForm = writable
      ? html`<form method="post" action="${act(`pages/${p.id}/questions`)}" id="${f}" class="add-question" aria-labelledby="${f}-heading">${hidden(csrf)}
<h3 id="${f}-heading">Add a question to page ${pageIndex + 1}</h3>
${errorHere(state, f)}
<div class="row">
<span class="field"><label for="${f}-kind">Type</label>
<select id="${f}-kind" name="kind">${QUESTION_KINDS.map((x) => html`<option value="${x.value}"${refill?.kind === x.value ? raw(' selected') : ''}>${x.label}</option>`)}</select></span>
<span class="field grow"><label for="${f}-heading-text">Question text</label>
<input id="${f}-heading-text" name="heading" type="text" maxlength="20000" value="${refill?.heading ?? ''}"${bad('heading')}></span>
</div>
<div class="row">
<span class="field grow"><label for="${f}-choices">Choices or columns (optional)</label>
<p class="hint" id="${f}-choices-help">${QUICK_ADD_HINT}</p>
<textarea id="${f}-choices" name="choices" rows="4" aria-describedby="${f}-choices-help"${bad('choices')}>${refill?.choices ?? ''}</textarea></span>
<span class="field grow"><label for="${f}-rows">Rows, items or boxes (optional)</label>
<p class="hint" id="${f}-rows-help">${QUICK_ADD_ROWS_HINT}</p>
<textarea id="${f}-rows" name="rows" rows="4" aria-describedby="${f}-rows-help"${bad('rows')}>${refill?.rows ?? ''}</textarea></span>
</div>
<div class="row add-options">
<label class="check"><input type="checkbox" name="required" value="yes"${refill?.required ? raw(' checked') : ''}> An answer is required</label>
<span class="field"><label for="${f}-validation">Accept only (textboxes)</label>
<select id="${f}-validation" name="validation"${bad('validation')}><option value="">Anything</option>${TEXT_CHECKS.map(([v, label]) => html`<option value="${v}"${refill?.validation === v ? raw(' selected') : ''}>${label}</option>`)}</select></span>
<span class="field small"><label for="${f}-min">Minimum</label><input id="${f}-min" name="min" type="text" maxlength="200" value="${refill?.min ?? ''}"></span>
<span class="field small"><label for="${f}-max">Maximum</label><input id="${f}-max" name="max" type="text" maxlength="200" value="${refill?.max ?? ''}"></span>
</div>
<label for="${f}-image">Image URL (optional; needed for an image)</label>
<input id="${f}-image" name="image" type="url" maxlength="20000" value="${refill?.image ?? ''}"${bad('image')}>
<div class="actions"><button type="submit">Add question</button></div>
</form>`
      : '';

    return html`<section class="survey-page" id="page-${p.id}" aria-labelledby="page-${p.id}-heading">
<h2 id="page-${p.id}-heading">${pageLabel(p, pageIndex)}</h2>
${p.description ? html`<p class="page-description">${p.description}</p>` : ''}
${p.logic ? html`<p class="logic-note"><span class="badge accent">Logic</span> After this page: ${ruleMarker(p.logic, pageChoices)}${p.logic.when ? ` (only if "${p.logic.when.variable}" ${p.logic.when.operator.replace('_', ' ')} ${p.logic.when.value})` : ''}</p>` : ''}
${pageTools}
<ol class="questions" data-page="${p.id}" aria-label="Questions on page ${pageIndex + 1}">${items}</ol>
${items.length ? '' : html`<p class="empty">This page has no questions yet.</p>`}
${pageRule}
${addForm}
</section>`;
  });

  const b = settings.buttons_text;
  const settingsForm = writable
    ? html`<details id="settings" class="card survey-settings"${state.errorAt === 'settings' ? raw(' open') : ''}><summary>Survey settings</summary>
<form method="post" action="${act('settings')}">${hidden(csrf)}
${errorHere(state, 'settings')}
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
<label for="settings-variables">Custom variables (hidden fields from the link)</label>
<p class="hint" id="settings-variables-help">One a line: a name (letters, digits, _), optionally a colon and a label. Each becomes part of the survey's web link, stored with the response: ${variableLink(settings.custom_variables)}</p>
<textarea id="settings-variables" name="custom_variables" rows="2" aria-describedby="settings-variables-help">${Object.entries(
        settings.custom_variables ?? {},
      )
        .map(([k, v]) => (v && v !== k ? `${k}: ${v}` : k))
        .join('\n')}</textarea>
<fieldset><legend>How respondents see the questions</legend><div class="choices">
${(
  [
    ['page', 'A page at a time'],
    ['one_at_a_time', 'One question at a time (each on its own screen, with progress; Enter goes on)'],
  ] as const
).map(
  ([v, text]) =>
    html`<div class="choice"><input type="radio" id="settings-layout-${v}" name="question_layout" value="${v}"${settings.question_layout === v ? raw(' checked') : ''}><label for="settings-layout-${v}">${text}</label></div>`,
)}
</div></fieldset>
<p class="hint">The thank-you message and the redirect after the last page belong to each way of collecting responses: set them on the <a href="${surveyPaths(survey).collect}">Collect</a> page.</p>
<div class="actions"><button type="submit">Save settings</button></div>
</form></details>
${quizForm({ action: act('quiz'), csrf, options: settings.quiz_options, error: errorHere(state, 'quiz'), invalid: invalidIf(state, 'quiz'), open: state.errorAt === 'quiz' })}`
    : '';

  const body = html`${surveyHeader(survey, 'edit')}
<div class="builder">
${pageMessages(state, writable, 'design')}
<div class="spread builder-bar">
<p class="muted">${plural(survey.page_count, 'page')}, ${plural(survey.question_count, 'question')}, ${plural(survey.response_count, 'response')}.</p>
<a class="button secondary" href="${surveyPaths(survey).preview}">Preview as a respondent</a>
<a class="button secondary" href="/create/theme?sm=${encodeURIComponent(token)}">Theme and logo</a>
<a class="button secondary" href="/create/quotas?sm=${encodeURIComponent(token)}">Quotas</a>
<a class="button secondary" href="/create/translate?sm=${encodeURIComponent(token)}">Translations</a>
<a class="button secondary" href="/create/variables?sm=${encodeURIComponent(token)}">Calculated variables</a>
</div>
${settingsForm}
${sections.length ? sections : html`<p class="empty">This survey has no pages.</p>`}
${
  writable
    ? html`<section class="card add-page" id="add-page" aria-labelledby="add-page-heading">
<h2 id="add-page-heading">Add a page</h2>
<form method="post" action="${act('pages')}">${hidden(csrf)}
${errorHere(state, 'add-page')}
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
    scripts: writable ? [SCRIPTS.sortable, '/assets/builder.js', '/assets/piping.js'] : [],
  });
}
