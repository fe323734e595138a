// The builder's quotas page (/create/quotas?sm=<manage token>): the survey's quotas with their
// counts, a form to add one and a form per quota to change or delete it. Plain forms (works
// without script); every form becomes a call of the same domain functions the
// /v3/surveys/{id}/quotas routes call (domain/quotas), whose messages name the field.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TObject, Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  createQuota,
  deleteQuota,
  getQuota,
  listQuotas,
  QUOTA_ACTIONS,
  type Quota,
  type QuotaActionType,
  type QuotaInput,
  updateQuota,
} from '../../domain/quotas/quotas.js';
import { designIndex } from '../../domain/responses/design-index.js';
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { ApiError } from '../../platform/errors.js';
import { isOneOf } from '../../platform/lists.js';
import { userPage } from '../account/frame.js';
import { confirmationPage, confirmed, destructiveForm } from '../confirm.js';
import {
  errorFor,
  type FormErrorState,
  formText,
  hidden,
  invalidIf,
  type ManagedPage,
  managedFormPost,
  managedPage,
  pageMessages,
} from '../forms.js';
import { type Html, html, raw } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, formField } from '../session.js';
import { editUrl } from './editor-page.js';

type QuotaState = FormErrorState & { notice?: string };

export const quotasUrl = (token: string) => `/create/quotas?sm=${encodeURIComponent(token)}`;

const ACTION_WORDS: Record<QuotaActionType, string> = {
  end_survey: 'End the survey with a message',
  disqualify: 'Disqualify (the collector’s disqualification page)',
  redirect: 'Send them to a web address',
  close_collector: 'Show the message and close the collector they came through',
};

const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const QuotaParams = Type.Object({ quotaId: Id });
const QUOTA_FORM = {
  name: formText(1000),
  limit: formText(20),
  /** the ticked answers, each "question id:choice id" */
  condition: Type.Optional(
    Type.Union([
      Type.String({ maxLength: 50 }),
      Type.Array(Type.String({ maxLength: 50 }), { maxItems: 500 }),
    ]),
  ),
  action: formText(40),
  message: formText(5000),
  url: formText(5000),
};
type QuotaForm = Static<TObject<typeof QUOTA_FORM>>;

/** The form as the domain's input; the domain checks every rule and names the field. */
function inputOf(form: QuotaForm): QuotaInput {
  const ticked =
    form.condition === undefined ? [] : Array.isArray(form.condition) ? form.condition : [form.condition];
  const limit = (form.limit ?? '').trim();
  if (!/^[0-9]{1,10}$/.test(limit)) throw new ApiError(1002, "'limit': a whole number of at least 1.");
  const action = form.action ?? 'end_survey';
  if (!isOneOf(QUOTA_ACTIONS, action)) throw new ApiError(1002, "'action.type': choose what happens.");
  return {
    name: form.name ?? '',
    limit: Number(limit),
    conditions: ticked.map((t) => {
      const [question_id = '', choice_id = ''] = t.split(':');
      return { question_id, choice_id };
    }),
    action: {
      type: action,
      message: form.message ?? '',
      url: action === 'redirect' ? (form.url ?? '') : '',
    },
  };
}

/** A domain message in the form's words. */
function words(e: ApiError): ApiError {
  const text = (e.detail ?? e.message)
    .replace(/^'name': /, 'The name: ')
    .replace(/^'limit': /, 'The limit: ')
    .replace(/^'conditions(\[\d+\](\.\w+)?)?': /, 'The answers: ')
    .replace(/^'action\.url': /, 'The web address: ')
    .replace(/^'action\.\w+': /, 'What happens: ');
  return new ApiError(e.code, text);
}

interface ChoiceQuestion {
  id: string;
  label: string;
  choices: Array<{ id: string; text: string }>;
}

const plain = (s: string) => s.replace(/<[^>]*>/g, '').trim();

async function choiceQuestions(deps: Deps, survey: SurveyRow): Promise<ChoiceQuestion[]> {
  const index = await designIndex(deps, survey);
  const out: ChoiceQuestion[] = [];
  for (const q of index.questions.values())
    if (q.choices.size > 0 && q.rows.size === 0)
      out.push({
        id: q.id,
        label: plain(q.label) || `Question ${q.id}`,
        choices: [...q.choices.values()].map((c) => ({ id: c.id, text: plain(c.text) || c.id })),
      });
  return out;
}

/** A quota's conditions in words; a condition the design no longer has is said so. */
function conditionWords(q: Quota, questions: ChoiceQuestion[]): Html {
  return html`<ul>${q.conditions.map((c) => {
    const question = questions.find((x) => x.id === c.question_id);
    const choice = question?.choices.find((x) => x.id === c.choice_id);
    return question && choice
      ? html`<li>${question.label}: <strong>${choice.text}</strong></li>`
      : html`<li class="error">An answer that is no longer in the survey (it was deleted): this quota counts nobody until you change it.</li>`;
  })}</ul>`;
}

function quotaFields(prefix: string, q: Quota | undefined, questions: ChoiceQuestion[], invalid: Html): Html {
  const chosen = new Set((q?.conditions ?? []).map((c) => `${c.question_id}:${c.choice_id}`));
  const type = q?.action.type ?? 'end_survey';
  return html`<label for="${prefix}-name">Name</label>
<input id="${prefix}-name" name="name" type="text" maxlength="200" required value="${q?.name ?? ''}"${invalid}>
<label for="${prefix}-limit">Limit (completed responses)</label>
<input id="${prefix}-limit" name="limit" type="number" min="1" step="1" required inputmode="numeric" value="${q ? String(q.limit) : ''}">
<fieldset class="pick-list"><legend>Count respondents who gave every answer ticked</legend>
${questions.map(
  (question) => html`<fieldset><legend>${question.label}</legend>
${question.choices.map((c) => {
  const id = `${prefix}-c-${question.id}-${c.id}`;
  const value = `${question.id}:${c.id}`;
  return html`<div class="check"><input type="checkbox" id="${id}" name="condition" value="${value}"${chosen.has(value) ? raw(' checked') : ''}><label for="${id}">${c.text}</label></div>`;
})}</fieldset>`,
)}
</fieldset>
<fieldset><legend>When the quota is full, a respondent it would count</legend>
${QUOTA_ACTIONS.map(
  (a) =>
    html`<div class="check"><input type="radio" id="${prefix}-a-${a}" name="action" value="${a}"${a === type ? raw(' checked') : ''}><label for="${prefix}-a-${a}">${ACTION_WORDS[a]}</label></div>`,
)}
</fieldset>
<label for="${prefix}-message">Message (for the end and close actions; optional)</label>
<textarea id="${prefix}-message" name="message" rows="2" maxlength="2000">${q?.action.message ?? ''}</textarea>
<label for="${prefix}-url">Web address (for the redirect: http:// or https://)</label>
<input id="${prefix}-url" name="url" type="url" maxlength="2000" value="${q?.action.url ?? ''}">`;
}

async function render(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: QuotaState,
): Promise<string> {
  const writable = await mayAccess(deps, { user }, survey.id, 'design', 'write');
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const [quotas, questions] = await Promise.all([listQuotas(deps, survey), choiceQuestions(deps, survey)]);
  const act = (path: string) => `/create/quotas${path}?sm=${encodeURIComponent(token)}`;
  const list = quotas.map((q) => {
    const at = `quota-${q.id}`;
    return html`<section class="card" id="${at}" aria-labelledby="${at}-heading">
<h2 id="${at}-heading">${q.name}</h2>
<p><strong>${q.count} of ${q.limit}</strong> completed responses counted.${q.count >= q.limit ? html` <span class="badge">Full</span>` : ''}</p>
${conditionWords(q, questions)}
<p class="muted">When full: ${ACTION_WORDS[q.action.type]}${q.action.type === 'redirect' ? html` (${q.action.url})` : ''}.</p>
${
  writable
    ? html`<details${state.errorAt === at ? raw(' open') : ''}><summary>Change this quota</summary>
<form method="post" action="${act(`/${q.id}/save`)}">${hidden(csrf)}
${errorFor(state, at)}
${quotaFields(at, q, questions, invalidIf(state, at))}
<div class="actions"><button type="submit">Save quota</button></div>
</form></details>
${destructiveForm(act(`/${q.id}/delete`), csrf, destruction(q), { label: 'Delete quota', name: `Delete quota ${q.name}` })}`
    : ''
}
</section>`;
  });
  const add = writable
    ? questions.length === 0
      ? html`<p class="empty">Add a single- or multiple-choice question first: a quota counts respondents by their choices.</p>`
      : html`<section class="card" id="add-quota" aria-labelledby="add-quota-heading">
<h2 id="add-quota-heading">Add a quota</h2>
<form method="post" action="${act('')}">${hidden(csrf)}
${errorFor(state, 'add-quota')}
${quotaFields('add-quota', undefined, questions, invalidIf(state, 'add-quota'))}
<div class="actions"><button type="submit">Add quota</button></div>
</form></section>`
    : '';
  const body = html`${surveyHeader(survey, 'edit')}
<p><a href="${editUrl(token)}">Back to the questions</a></p>
<h1>Quotas</h1>
${pageMessages(state, writable, 'quotas')}
<p>A quota lets at most a number of respondents with given answers complete the survey. Respondents beyond it are kept as <em>over quota</em> and get the quota's action. A response is counted when it is completed.</p>
${quotas.length ? list : html`<p class="empty">This survey has no quotas.</p>`}
${add}`;
  return userPage(deps, reply, user, `Quotas: ${survey.title}`, body, { section: 'surveys' });
}

const destruction = (q: Quota) => ({
  title: `Delete the quota "${q.name}"?`,
  lost: [`Its count (${q.count} of ${q.limit}) goes with it; respondents it would stop can complete.`],
  button: 'Delete quota',
});

export async function quotaPages(app: PageApp, deps: Deps): Promise<void> {
  const page: ManagedPage<QuotaState> = {
    area: 'design',
    url: quotasUrl,
    notices: {
      added: 'The quota was added.',
      saved: 'The quota was saved.',
      deleted: 'The quota was deleted.',
    },
    render: (_request, reply, user, survey, token, state) => render(deps, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create/quotas', page);
  const quotaOf = (request: FastifyRequest) => formField(request.params, 'quotaId') ?? '';

  managedFormPost(app, deps, page, {
    path: '/create/quotas',
    body: QUOTA_FORM,
    failed: (_request, error) => ({ error: words(error), errorAt: 'add-quota' }),
    action: async (request, survey) => {
      const q = await createQuota(deps, survey, inputOf(request.body));
      return { done: 'added', anchor: `quota-${q.id}` };
    },
  });

  managedFormPost(app, deps, page, {
    path: '/create/quotas/:quotaId/save',
    body: QUOTA_FORM,
    params: QuotaParams,
    failed: (request, error) => ({ error: words(error), errorAt: `quota-${quotaOf(request)}` }),
    action: async (request, survey) => {
      const id = quotaOf(request);
      await updateQuota(deps, survey, id, inputOf(request.body), 'put');
      return { done: 'saved', anchor: `quota-${id}` };
    },
  });

  managedFormPost(app, deps, page, {
    path: '/create/quotas/:quotaId/delete',
    body: { confirm: formText(10) },
    params: QuotaParams,
    failed: (_request, error) => ({ error }),
    action: async (request, survey, actor, reply) => {
      const id = quotaOf(request);
      if (!confirmed(request.body)) {
        const q = await getQuota(deps, survey, id);
        const token = formField(request.query, 'sm') ?? '';
        const body = confirmationPage(request.url, request.body._csrf, destruction(q), quotasUrl(token));
        return {
          markup: await userPage(deps, reply, actor.user, destruction(q).title, body, {
            section: 'surveys',
            narrow: true,
          }),
        };
      }
      await deleteQuota(deps, survey, id);
      return { done: 'deleted' };
    },
  });
}
