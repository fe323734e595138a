// The survey's collect page (its `collect_url`, /collect/list?sm=<manage token>): its collectors
// with name, type, status, responses and date created, and a web link collector's respondent URL;
// forms to create a web link collector, open or close one, set or clear its close date and response
// limit, and delete it. The token only names the survey: the signed-in user must be allowed to
// collect for it (requireSurvey 'collect': read to see the page, write to change anything; a Viewer
// sees it read-only). Every change goes through the collectors domain services (plan rules,
// validation, events); their errors are shown on the page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TProperties, type TSchema, Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  type CollectActor,
  type Collector,
  createCollector,
  deleteCollector,
  listCollectors,
  requireCollector,
  updateCollector,
} from '../../domain/collectors/collectors.js';
import { managedSurvey, mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { baseUrl } from '../../http/paging.js';
import { parseApiDate } from '../../platform/dates.js';
import { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import { askFirst, confirmed, destructiveForm } from '../confirm.js';
import {
  errorFor,
  type FormRequest,
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
import { csrfToken, currentUser, formField, formFields, loginUrl } from '../session.js';
import { planOf } from '../typed.js';
import { emailCollectorPages, emailCollectorUrl } from './email.js';
import { FINISH_FORM, finishForm, finishInput, inFormWords } from './finish.js';
import { screeningRoutes, screeningSection } from './screening.js';
import { shareRoutes, shareSection } from './share.js';

/** The most collectors the page lists (a survey with more says so and shows the first ones). */
const LIST_LIMIT = 500;
const CollectorParams = Type.Object({ collectorId: Type.String({ pattern: '^[0-9]{1,20}$' }) });

const NOTICES: Record<string, string> = {
  created: 'The web link collector was created.',
  created_email: 'The email collector was created: write its invitation.',
  opened: 'The collector was opened.',
  closed: 'The collector was closed.',
  settings: 'The close date and response limit were saved.',
  finish: 'What follows the last page was saved.',
  deleted: 'The collector and its responses were deleted.',
  embed: 'The sites allowed to show the survey were saved.',
  screening: 'The bot and duplicate settings were saved.',
};

const TYPE_LABELS: Record<string, string> = {
  weblink: 'Web link',
  email: 'Email invitation',
  sms: 'SMS invitation',
  popup_invitation: 'Website popup invitation',
  popup_survey: 'Website popup survey',
  embedded_survey: 'Embedded survey',
};

/** What deleting a collector loses, for its confirmation. */
function deletion(c: Collector) {
  const n = c.response_count;
  return {
    title: `Delete the collector "${c.name}"?`,
    lost: [`The collector "${c.name}" and its ${n} response${n === 1 ? '' : 's'}.`],
    button: 'Delete collector and responses',
  };
}

function mayWrite(deps: Deps, user: User, survey: SurveyRow): Promise<boolean> {
  return mayAccess(deps, { user }, survey.id, 'collect', 'write');
}

export const collectUrl = (token: string) => `/collect/list?sm=${encodeURIComponent(token)}`;

/** `2026-11-21 05:24 UTC` in a <time> element. */
function when(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

interface CollectState {
  notice?: string;
  error?: ApiError;
  /** Which form the error belongs to (its id), to put the message beside it. */
  errorAt?: string;
  /** What the failed form sent, to show again. */
  form?: Record<string, string | undefined>;
}

async function renderCollect(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: CollectState,
): Promise<string> {
  const writable = await mayWrite(deps, user, survey);
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const [total, collectors] = await listCollectors(deps, survey.id, {
    offset: 0,
    limit: LIST_LIMIT,
    sortBy: 'id',
    sortOrder: 'ASC',
  });
  const targets = new Set(['create', ...collectors.flatMap((c) => [`c-${c.id}`, `c-${c.id}-end`])]);
  // An error whose form is gone (a collector deleted meanwhile) is shown at the top.
  if (state.errorAt && !targets.has(state.errorAt)) state = { ...state, errorAt: undefined };
  const act = (path: string) => `/collect/${path}?sm=${encodeURIComponent(token)}`;
  const base = baseUrl(request);

  const sections = collectors.map((c, i) => {
    const at = `c-${c.id}`;
    const label = `collector ${i + 1}`;
    const url = c.url_token && c.type === 'weblink' ? `${base}/r/${c.url_token}` : null;
    const mine = state.errorAt === at ? state.form : undefined;
    const closeValue = mine ? (mine.close_date ?? '') : c.close_date ? c.close_date.slice(0, 16) : '';
    const limitValue = mine
      ? (mine.response_limit ?? '')
      : c.response_limit === null
        ? ''
        : String(c.response_limit);
    const forms = writable
      ? html`<div class="actions">
<form method="post" action="${act(`collectors/${c.id}/status`)}">${hidden(csrf)}<input type="hidden" name="status" value="${c.status === 'open' ? 'closed' : 'open'}"><button type="submit" class="secondary">${c.status === 'open' ? 'Close' : 'Open'} <span class="visually-hidden">${label}</span></button></form>
${destructiveForm(act(`collectors/${c.id}/delete`), csrf, deletion(c), {
  label: 'Delete',
  name: `Delete ${label} and its responses`,
})}
</div>
${errorFor(state, at)}
<details${state.errorAt === at ? raw(' open') : ''}><summary>Close date and response limit of ${label}</summary>
<form method="post" action="${act(`collectors/${c.id}/settings`)}">${hidden(csrf)}
<label for="${at}-close">Close date (UTC)</label>
<p class="muted" id="${at}-close-help">The collector stops taking responses at this time. Leave empty for no close date.</p>
<input id="${at}-close" name="close_date" type="datetime-local" value="${closeValue}" aria-describedby="${at}-close-help"${invalidIf(state, at)}>
<label for="${at}-limit">Response limit</label>
<p class="muted" id="${at}-limit-help">The collector stops taking responses after this many. Leave empty for no limit.</p>
<input id="${at}-limit" name="response_limit" type="number" min="1" step="1" inputmode="numeric" value="${limitValue}" aria-describedby="${at}-limit-help">
<p><button type="submit">Save close date and limit</button></p>
</form>
</details>
${finishForm(c, at, act(`collectors/${c.id}/finish`), csrf, label, errorFor(state, `${at}-end`), state.errorAt === `${at}-end` ? state.form : undefined)}`
      : '';
    return html`<section class="collector card" id="${at}" aria-labelledby="${at}-heading">
<h2 id="${at}-heading">${c.name}</h2>
<dl class="facts">
<dt>Type</dt><dd>${TYPE_LABELS[c.type] ?? c.type}</dd>
<dt>Status</dt><dd data-status="${c.status}">${c.status[0].toUpperCase()}${c.status.slice(1)}</dd>
<dt>Responses</dt><dd>${c.response_count}${c.response_limit !== null ? html` of at most ${c.response_limit}` : ''}</dd>
<dt>Created</dt><dd>${when(c.date_created)}</dd>
<dt>Close date</dt><dd>${c.close_date ? when(c.close_date) : 'None'}</dd>
${url ? html`<dt>Respondent link</dt><dd><a href="${url}">${url}</a></dd>` : ''}
</dl>
${url && c.type === 'weblink' ? html`<label for="${at}-url">Copy the link of ${c.name}</label><input id="${at}-url" class="copy" type="text" readonly value="${url}">` : ''}
${url ? shareSection(c, url, base, { at, csrf, writable, action: act(`collectors/${c.id}/embed`), state }) : ''}
${screeningSection(deps, c, { at, label, csrf, writable, action: act(`collectors/${c.id}/screening`), state })}
${c.type === 'email' ? html`<p><a class="button" href="${emailCollectorUrl(token, c.id)}">Messages, recipients and stats<span class="visually-hidden"> of ${c.name}</span></a></p>` : ''}
${forms}
</section>`;
  });

  const createForm = writable
    ? html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a collector</h2>
<form method="post" action="${act('collectors')}" class="card">${hidden(csrf)}
${errorFor(state, 'create')}
<fieldset><legend>Type</legend>
<div class="check"><input type="radio" id="create-weblink" name="type" value="weblink"${(state.form?.type ?? 'weblink') === 'weblink' ? raw(' checked') : ''}><label for="create-weblink">Web link: one link to share anywhere</label></div>
<div class="check"><input type="radio" id="create-email" name="type" value="email"${state.form?.type === 'email' ? raw(' checked') : ''}><label for="create-email">Email invitation: personal links emailed to your contacts</label></div>
</fieldset>
<div class="field"><label for="create-name">Collector name (optional)</label>
<input id="create-name" name="name" type="text" maxlength="500" value="${state.errorAt === 'create' ? (state.form?.name ?? '') : ''}"${invalidIf(state, 'create')}></div>
<p><button type="submit">Create collector</button></p>
</form>
</section>`
    : '';

  const body = html`${surveyHeader(survey, 'collect')}
<p class="muted">${total} collector${total === 1 ? '' : 's'}, ${survey.response_count} response${survey.response_count === 1 ? '' : 's'}.</p>
${pageMessages(state, writable, 'collectors')}
<p><a href="/collect/alerts?sm=${encodeURIComponent(token)}">Response alerts</a>: be told when responses arrive.</p>
${sections.length ? sections : html`<p class="muted">This survey has no collectors yet.</p>`}
${total > collectors.length ? html`<p class="muted">Showing the first ${collectors.length} of ${total} collectors.</p>` : ''}
${createForm}`;
  return userPage(deps, reply, user, `Collect: ${survey.title}`, body, { section: 'surveys' });
}

/** The collector `id` of `survey` for a change (404/1020 when it is another survey's or gone). */
async function collectorOf(deps: Deps, user: User, survey: SurveyRow, id: string): Promise<Collector> {
  const { collector } = await requireCollector(deps, { user }, id, 'collect', 'write');
  if (collector.survey_id !== survey.id) throw new ApiError(1020, 'Collector not found.');
  return collector;
}

/** A close date from a datetime-local field (UTC), or null when empty. */
function closeDateOf(value: string | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v) ? parseApiDate(v) : null;
  if (!iso) throw new ApiError(1002, 'The close date must be a date and time like 2038-01-01T00:00.');
  return iso;
}

/** A response limit from a number field, or null when empty. */
function responseLimitOf(value: string | undefined): number | null {
  const v = (value ?? '').trim();
  if (!v) return null;
  if (!/^-?\d{1,9}$/.test(v)) throw new ApiError(1002, 'The response limit must be a whole number.');
  return Number(v);
}

type Action = (
  survey: SurveyRow,
  actor: CollectActor,
  user: User,
) => Promise<{ done: string; anchor?: string }>;

export async function collectPages(app: PageApp, deps: Deps): Promise<void> {
  const page: ManagedPage<CollectState> = {
    area: 'collect',
    url: collectUrl,
    notices: NOTICES,
    render: (request, reply, user, survey, token, state) =>
      renderCollect(deps, request, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/collect/list', page);
  await shareRoutes(app, deps, page);
  screeningRoutes(app, deps, page);

  /** A change: collect write access, the action, then back to the page (or the error on it). */
  function change<B extends TProperties, P extends TSchema>(
    path: string,
    body: B,
    params: P,
    action: (request: FormRequest<B, P>) => Action,
  ) {
    managedFormPost(app, deps, page, {
      path,
      body,
      params,
      action: (request, survey, actor) => action(request)(survey, actor, actor.user),
      failed: (request, error) => {
        // A collector of another survey (or one deleted meanwhile) is 404/1020: its form is not on
        // the page, so the message is shown at the top.
        const id = formField(request.params, 'collectorId');
        const end = request.url.split('?')[0].endsWith('/finish') ? '-end' : '';
        return {
          error,
          errorAt: id ? `c-${id}${end}` : 'create',
          form: formFields(request.body),
        };
      },
    });
  }

  change(
    '/collect/collectors',
    {
      name: formText(100_000),
      type: Type.Optional(Type.Union([Type.Literal('weblink'), Type.Literal('email')])),
    },
    Type.Object({}),
    (request) => async (survey, actor) => {
      const { type = 'weblink' } = request.body;
      const name = (request.body.name ?? '').trim();
      if (name.includes('\u0000'))
        throw new ApiError(1002, 'The name contains a character that is not allowed.');
      if (name.length > 500) throw new ApiError(1002, 'The name is longer than 500 characters.');
      const c = await createCollector(deps, actor, survey, { type, ...(name ? { name } : {}) }, null);
      return { done: type === 'email' ? 'created_email' : 'created', anchor: `c-${c.id}` };
    },
  );

  change(
    '/collect/collectors/:collectorId/status',
    { status: Type.Union([Type.Literal('open'), Type.Literal('closed')]) },
    CollectorParams,
    (request) => async (survey, actor, user) => {
      const { collectorId } = request.params;
      const { status } = request.body;
      const c = await collectorOf(deps, user, survey, collectorId);
      await updateCollector(deps, actor, c, { status }, undefined, 'patch');
      return { done: status === 'open' ? 'opened' : 'closed', anchor: `c-${collectorId}` };
    },
  );

  change(
    '/collect/collectors/:collectorId/settings',
    { close_date: formText(100), response_limit: formText(100) },
    CollectorParams,
    (request) => async (survey, actor, user) => {
      const { collectorId } = request.params;
      const form = request.body;
      const c = await collectorOf(deps, user, survey, collectorId);
      const closeDate = closeDateOf(form.close_date);
      const responseLimit = responseLimitOf(form.response_limit);
      await updateCollector(
        deps,
        actor,
        c,
        { response_limit: responseLimit, close_date: closeDate },
        closeDate,
        'patch',
      );
      return { done: 'settings', anchor: `c-${collectorId}` };
    },
  );

  change(
    '/collect/collectors/:collectorId/finish',
    FINISH_FORM,
    CollectorParams,
    (request) => async (survey, actor, user) => {
      const { collectorId } = request.params;
      const c = await collectorOf(deps, user, survey, collectorId);
      const input = finishInput(c, request.body);
      try {
        // The same domain function as PATCH /v3/collectors/{id}.
        if (Object.keys(input).length > 0) await updateCollector(deps, actor, c, input, undefined, 'patch');
      } catch (err) {
        throw err instanceof ApiError ? inFormWords(err) : err;
      }
      return { done: 'finish', anchor: `c-${collectorId}` };
    },
  );

  // Deleting loses the collector's responses: it asks first (confirm.ts), by a dialog with script or
  // by a confirmation page without.
  app.post(
    '/collect/collectors/:collectorId/delete',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ sm: Type.Optional(Type.String({ maxLength: 100 })) }),
        params: CollectorParams,
        body: Type.Object(
          { _csrf: Type.String({ maxLength: 200 }), confirm: formText(10) },
          { additionalProperties: false },
        ),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const token = request.query.sm ?? '';
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(collectUrl(token)), 303);
      const survey = await managedSurvey(deps, { user }, token, 'collect', 'write');
      const c = await collectorOf(deps, user, survey, request.params.collectorId);
      if (!confirmed(request.body)) {
        return askFirst(deps, reply, user, {
          action: `/collect/collectors/${c.id}/delete?sm=${encodeURIComponent(token)}`,
          destruction: deletion(c),
          cancelHref: `${collectUrl(token)}#c-${c.id}`,
        });
      }
      await deleteCollector(deps, { user, plan: planOf(user), ip: request.ip ?? null }, c);
      return reply.redirect(`${collectUrl(token)}&done=deleted`, 303);
    },
  );
  emailCollectorPages(app, deps);
}
