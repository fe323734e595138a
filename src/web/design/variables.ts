// The builder's calculated variables page (/create/variables?sm=…): the survey's named values
// computed from answers (domain/surveys/calculated.ts), each in a plain form (name and formula,
// Save or Remove) and one form to add another, with the questions a formula may name and what to
// write for each. A refusal shows beside the field it names. Works without JavaScript.
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { type CalculatedVariable, calculatedOf } from '../../domain/surveys/calculated.js';
import {
  calculatedProblem,
  formulaReferences,
  removeCalculatedVariable,
  saveCalculatedVariable,
} from '../../domain/surveys/calculated-edit.js';
import type { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import {
  type FormErrorState,
  formText,
  hidden,
  type ManagedPage,
  managedFormPost,
  managedPage,
} from '../forms.js';
import { type Html, html, raw } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken } from '../session.js';
import { editUrl } from './editor-page.js';

export const variablesUrl = (token: string) => `/create/variables?sm=${encodeURIComponent(token)}`;

interface VariablesState extends FormErrorState {
  notice?: string;
  /** the form that failed: the variable it edited ('' for the form that adds one), as typed */
  draft?: { original: string; name: string; formula: string; removing: boolean };
}

const NOTICES = {
  saved: 'The variable was saved.',
  removed: 'The variable was removed.',
};

/** The form's id: `var-new` adds, `var-x-<name>` edits the variable of that name. */
const formId = (original: string) => (original ? `var-x-${original}` : 'var-new');

/** Where the failed form's error goes (its name or formula field) and what it says. */
function placed(
  error: ApiError,
  current: readonly CalculatedVariable[],
  original: string,
  removing: boolean,
) {
  // The refusal's index is into the list the change would have written.
  const list = removing ? current.filter((v) => v.name !== original) : current;
  const edited = removing ? -1 : original ? list.findIndex((v) => v.name === original) : list.length;
  const p = calculatedProblem(error);
  const text = error.detail ?? error.message;
  if (!p) return { field: 'formula' as const, text };
  if (p.index === edited) return { field: p.field, text: p.message };
  // another variable's formula, e.g. one that uses the variable being renamed or removed
  return { field: 'formula' as const, text: `The formula of "${list[p.index]?.name ?? ''}": ${p.message}` };
}

function variableForm(
  act: string,
  csrf: string,
  v: CalculatedVariable | undefined,
  draft: VariablesState['draft'],
  problem: { field: 'name' | 'formula'; text: string } | undefined,
): Html {
  const original = v?.name ?? '';
  const id = formId(original);
  const name = draft?.name ?? v?.name ?? '';
  const formula = draft?.formula ?? v?.formula ?? '';
  const error = (field: 'name' | 'formula') =>
    problem?.field === field
      ? html`<p class="field-error" role="alert" id="${id}-${field}-error">${problem.text}</p>`
      : '';
  const described = (field: 'name' | 'formula') =>
    problem?.field === field
      ? raw(` aria-invalid="true" aria-describedby="${id}-${field}-error ${id}-${field}-hint"`)
      : raw(` aria-describedby="${id}-${field}-hint"`);
  const heading = v
    ? html`<h3 id="${id}-heading">${v.name}</h3>`
    : html`<h3 id="${id}-heading">Add a variable</h3>`;
  return html`<form method="post" action="${act}" class="card" id="${id}" aria-labelledby="${id}-heading">${hidden(csrf)}
${heading}
<input type="hidden" name="original" value="${original}">
<label for="${id}-name">Name</label>
<p class="hint" id="${id}-name-hint">A letter, then letters, digits or _ (at most 40).</p>
${error('name')}
<input type="text" id="${id}-name" name="name" value="${name}" maxlength="40" autocomplete="off" spellcheck="false"${described('name')}>
<label for="${id}-formula">Formula</label>
<p class="hint" id="${id}-formula-hint">For example <code>score("…") + round(question("…") / 2)</code>.</p>
${error('formula')}
<textarea id="${id}-formula" name="formula" rows="2" maxlength="1000" spellcheck="false"${described('formula')}>${formula}</textarea>
<div class="actions"><button type="submit" name="intent" value="save">${v ? 'Save' : 'Add variable'}</button>${
    v ? html`<button type="submit" name="intent" value="remove" class="secondary">Remove</button>` : ''
  }</div>
</form>`;
}

async function render(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: VariablesState,
): Promise<string> {
  const writable = await mayAccess(deps, { user }, survey.id, 'design', 'write');
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const list = calculatedOf(survey);
  const refs = await formulaReferences(deps, survey.id);
  const act = variablesUrl(token);
  const failed = state.draft;
  const problem = (original: string) =>
    state.error && failed && failed.original === original
      ? placed(state.error, list, original, failed.removing)
      : undefined;
  const draftOf = (original: string) => (failed && failed.original === original ? failed : undefined);
  const forms = writable
    ? html`${list.map((v) => variableForm(act, csrf, v, draftOf(v.name), problem(v.name)))}
${variableForm(act, csrf, undefined, draftOf(''), problem(''))}`
    : html`<ul>${list.map((v) => html`<li><strong>${v.name}</strong> = <code>${v.formula}</code></li>`)}</ul>`;
  const body = html`${surveyHeader(survey, 'edit')}
<p><a href="${editUrl(token)}">Back to the questions</a></p>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
${writable ? '' : html`<p class="notice readonly" role="status">You can view this survey's variables, but your access to it does not allow changes.</p>`}
<h2>Calculated variables</h2>
<p>A calculated variable is a number worked out from a respondent's answers, such as a total score. Show it in a question's or page's text with <code>[variable("name")]</code>, show a question only when it is greater or less than a value, pass it on in the redirect after the survey (<code>?score=[variable("name")]</code>), and find it as a column of the exports.</p>
<details><summary>How to write a formula</summary>
<ul>
<li>Numbers, <code>+</code> <code>-</code> <code>*</code> <code>/</code> (or × and ÷) and parentheses; <code>*</code> and <code>/</code> come before <code>+</code> and <code>-</code>.</li>
<li><code>question("id")</code>: the number typed, or the sum of the weights of the choices picked (a choice without a weight counts its quiz score).</li>
<li><code>score("id")</code>: the sum of the quiz scores of the choices picked (0 when unanswered).</li>
<li>Another variable by its name, and <code>custom_variable("name")</code> for a number in the survey link.</li>
<li><code>min(a, b, …)</code>, <code>max(a, b, …)</code>, <code>round(x)</code> and <code>round(x, digits)</code>.</li>
<li>A question left unanswered, text that is not a number, or a division by zero makes the value empty; <code>min</code> and <code>max</code> skip empty values.</li>
</ul></details>
${forms}
<section class="card" aria-labelledby="refs-heading"><h2 id="refs-heading">Questions a formula can use</h2>
${
  refs.length
    ? html`<div class="scroll-x"><table><thead><tr><th scope="col">Question</th><th scope="col">Its number</th><th scope="col">Its quiz score</th></tr></thead><tbody>${refs.map(
        (r) =>
          html`<tr><td>${r.label}</td><td><code>${r.value}</code></td><td>${r.score ? html`<code>${r.score}</code>` : html`<span class="muted">none</span>`}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="empty">This survey has no questions yet.</p>`
}</section>`;
  return userPage(deps, reply, user, `Calculated variables: ${survey.title}`, body, { section: 'surveys' });
}

export async function variablesPages(app: PageApp, deps: Deps): Promise<void> {
  const page: ManagedPage<VariablesState> = {
    area: 'design',
    url: variablesUrl,
    notices: NOTICES,
    render: (_request, reply, user, survey, token, state) => render(deps, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create/variables', page);
  managedFormPost(app, deps, page, {
    path: '/create/variables',
    body: { original: formText(100), name: formText(100), formula: formText(5000), intent: formText(10) },
    failed: (request, error) => ({
      error,
      errorAt: formId(request.body.original ?? ''),
      draft: {
        original: request.body.original ?? '',
        name: request.body.name ?? '',
        formula: request.body.formula ?? '',
        removing: request.body.intent === 'remove',
      },
    }),
    action: async (request, survey, actor) => {
      const { original, name, formula, intent } = request.body;
      if (intent === 'remove' && original) {
        await removeCalculatedVariable(deps, actor, survey, original);
        return { done: 'removed' };
      }
      await saveCalculatedVariable(deps, actor, survey, original || undefined, {
        name: name ?? '',
        formula: formula ?? '',
      });
      return { done: 'saved', anchor: formId((name ?? '').trim()) };
    },
  });
}
