// The survey's collect page (its `collect_url`, /collect/list?sm=<manage token>): its collectors
// with name, type, status, responses and date created, and a web link collector's respondent URL;
// forms to create a web link collector, open or close one, set or clear its close date and response
// limit, and delete it. The token only names the survey: the signed-in user must be allowed to
// collect for it (requireSurvey 'collect': read to see the page, write to change anything; a Viewer
// sees it read-only). Every change goes through the collectors domain services (plan rules,
// validation, events); their errors are shown on the page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
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
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { parseApiDate } from '../../platform/dates.js';
import { ApiError } from '../../platform/errors.js';
import { baseUrl } from '../../platform/paging.js';
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
import { type Html, html, inlineStyle, raw } from '../html.js';
import { csrfToken } from '../session.js';

/** The most collectors the page lists (a survey with more says so and shows the first ones). */
const LIST_LIMIT = 500;
const CollectorParams = Type.Object({ collectorId: Type.String({ pattern: '^[0-9]{1,20}$' }) });

const NOTICES: Record<string, string> = {
  created: 'The web link collector was created.',
  opened: 'The collector was opened.',
  closed: 'The collector was closed.',
  settings: 'The close date and response limit were saved.',
  deleted: 'The collector and its responses were deleted.',
};

const TYPE_LABELS: Record<string, string> = {
  weblink: 'Web link',
  email: 'Email invitation',
  sms: 'SMS invitation',
  popup_invitation: 'Website popup invitation',
  popup_survey: 'Website popup survey',
  embedded_survey: 'Embedded survey',
};

const STYLE = inlineStyle(`
.collect-links { display: flex; flex-wrap: wrap; gap: 1rem; padding: 0; list-style: none; }
section.collector { border: 1px solid var(--line); border-radius: 6px; padding: 0 1rem 1rem; margin: 1.5rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
.actions form { margin: 0; }
details { margin: .75rem 0; }
summary { cursor: pointer; color: var(--accent); font-weight: 600; }
button.danger { background: #fff; color: #a4000f; border-color: #a4000f; }
.notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: .5rem 1rem; margin: 1rem 0; }
.readonly { border-left-color: #8a6d00; }
input.copy { font-family: monospace; }
`);

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
  const targets = new Set(['create', ...collectors.map((c) => `c-${c.id}`)]);
  // An error whose form is gone (a collector deleted meanwhile) is shown at the top.
  if (state.errorAt && !targets.has(state.errorAt)) state = { ...state, errorAt: undefined };
  const act = (path: string) => `/collect/${path}?sm=${encodeURIComponent(token)}`;
  const links = surveyLinks(survey);
  const base = baseUrl(request);

  const sections = collectors.map((c, i) => {
    const at = `c-${c.id}`;
    const label = `collector ${i + 1}`;
    const url = c.url_token ? `${base}/r/${c.url_token}` : null;
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
<form method="post" action="${act(`collectors/${c.id}/delete`)}">${hidden(csrf)}<button type="submit" class="danger">Delete <span class="visually-hidden">${label}</span> and its responses</button></form>
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
</details>`
      : '';
    return html`<section class="collector" id="${at}" aria-labelledby="${at}-heading">
<h2 id="${at}-heading">${c.name}</h2>
<dl class="facts">
<dt>Type</dt><dd>${TYPE_LABELS[c.type] ?? c.type}</dd>
<dt>Status</dt><dd data-status="${c.status}">${c.status[0].toUpperCase()}${c.status.slice(1)}</dd>
<dt>Responses</dt><dd>${c.response_count}${c.response_limit !== null ? html` of at most ${c.response_limit}` : ''}</dd>
<dt>Created</dt><dd>${when(c.date_created)}</dd>
<dt>Close date</dt><dd>${c.close_date ? when(c.close_date) : 'None'}</dd>
${url ? html`<dt>Respondent link</dt><dd><a href="${url}">${url}</a></dd>` : ''}
</dl>
${url ? html`<label for="${at}-url">Web link of ${c.name} to copy</label><input id="${at}-url" class="copy" type="text" readonly value="${url}">` : ''}
${forms}
</section>`;
  });

  const createForm = writable
    ? html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a web link collector</h2>
<form method="post" action="${act('collectors')}">${hidden(csrf)}
${errorFor(state, 'create')}
<label for="create-name">Collector name (optional)</label>
<input id="create-name" name="name" type="text" maxlength="500" value="${state.errorAt === 'create' ? (state.form?.name ?? '') : ''}"${invalidIf(state, 'create')}>
<p><button type="submit">Create web link collector</button></p>
</form>
</section>`
    : '';

  const body = html`${STYLE}
<p><a href="/">← Your surveys</a></p>
<h1>Collect responses: ${survey.title}</h1>
<ul class="collect-links" aria-label="This survey's pages">
<li><a href="${links.edit_url}">Edit survey</a></li>
<li><a href="${links.preview}">Preview</a></li>
<li><a href="${links.analyze_url}">Analyze results</a></li>
<li><a href="${links.summary_url}">Summary</a></li>
</ul>
<p class="muted">${total} collector${total === 1 ? '' : 's'}, ${survey.response_count} response${survey.response_count === 1 ? '' : 's'}.</p>
${pageMessages(state, writable, 'collectors')}
${sections.length ? sections : html`<p class="muted">This survey has no collectors yet.</p>`}
${total > collectors.length ? html`<p class="muted">Showing the first ${collectors.length} of ${total} collectors.</p>` : ''}
${createForm}
<p class="muted"><a href="${collectUrl(token)}">Reload this page</a></p>`;
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

export async function collectPages(app: FastifyInstance, deps: Deps): Promise<void> {
  const page: ManagedPage<CollectState> = {
    area: 'collect',
    url: collectUrl,
    notices: NOTICES,
    render: (request, reply, user, survey, token, state) =>
      renderCollect(deps, request, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/collect/list', page);

  /** A change: collect write access, the action, then back to the page (or the error on it). */
  function change(
    path: string,
    body: Record<string, TSchema>,
    withCollector: boolean,
    action: (request: FastifyRequest) => Action,
  ) {
    managedFormPost(app, deps, page, {
      path,
      body,
      params: withCollector ? CollectorParams : undefined,
      action: (request, survey, actor) => action(request)(survey, actor, actor.user),
      failed: (request, error) => {
        // A collector of another survey (or one deleted meanwhile) is 404/1020: its form is not on
        // the page, so the message is shown at the top.
        const id = (request.params as { collectorId?: string }).collectorId;
        return {
          error,
          errorAt: id ? `c-${id}` : 'create',
          form: request.body as Record<string, string | undefined>,
        };
      },
    });
  }

  change('/collect/collectors', { name: formText(100_000) }, false, (request) => async (survey, actor) => {
    const name = ((request.body as { name?: string }).name ?? '').trim();
    if (name.includes('\u0000'))
      throw new ApiError(1002, 'The name contains a character that is not allowed.');
    if (name.length > 500) throw new ApiError(1002, 'The name is longer than 500 characters.');
    const c = await createCollector(
      deps,
      actor,
      survey,
      { type: 'weblink', ...(name ? { name } : {}) },
      null,
    );
    return { done: 'created', anchor: `c-${c.id}` };
  });

  change(
    '/collect/collectors/:collectorId/status',
    { status: Type.Union([Type.Literal('open'), Type.Literal('closed')]) },
    true,
    (request) => async (survey, actor, user) => {
      const { collectorId } = request.params as { collectorId: string };
      const { status } = request.body as { status: 'open' | 'closed' };
      const c = await collectorOf(deps, user, survey, collectorId);
      await updateCollector(deps, actor, c, { status }, undefined, 'patch');
      return { done: status === 'open' ? 'opened' : 'closed', anchor: `c-${collectorId}` };
    },
  );

  change(
    '/collect/collectors/:collectorId/settings',
    { close_date: formText(100), response_limit: formText(100) },
    true,
    (request) => async (survey, actor, user) => {
      const { collectorId } = request.params as { collectorId: string };
      const form = request.body as { close_date?: string; response_limit?: string };
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

  change('/collect/collectors/:collectorId/delete', {}, true, (request) => async (survey, actor, user) => {
    const { collectorId } = request.params as { collectorId: string };
    const c = await collectorOf(deps, user, survey, collectorId);
    await deleteCollector(deps, actor, c);
    return { done: 'deleted' };
  });
}
