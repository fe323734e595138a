// /integrations: the account's webhooks, whichever app made them (listed, paused and resumed,
// deleted), made from the page (the API's checks, through the same domain functions), and each
// one's delivery log with "send again". A webhook made here has no app: it is signed with its own
// Standard Webhooks secret, which its page shows to the owner (as GET /v3/webhooks/{id}/signing_secret
// does for an app's webhooks). What a webhook watches is picked by name (the account's surveys and
// their collectors, domain/webhooks/picker.ts); ids can still be typed for anything older.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { type AccountWebhook, accountWebhooks } from '../../domain/webhooks/account-view.js';
import { watchableSurveys, watchedNames } from '../../domain/webhooks/picker.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/rules.js';
import { standardSecret } from '../../domain/webhooks/signing.js';
import {
  type Caller,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  redeliver,
  setPaused,
  type Webhook,
} from '../../domain/webhooks/webhooks.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage, userPage } from '../account/frame.js';
import { askFirst, confirmed, type Destruction, destructiveForm } from '../confirm.js';
import { errorFor, type FormErrorState, hidden, invalidIf } from '../forms.js';
import { html } from '../html.js';
import { Checked, type PageApp } from '../page-area.js';
import { csrfToken, currentUser, loginUrl } from '../session.js';
import { textList } from '../typed.js';

/** Events a page-made webhook may take (app events belong to apps). */
const EVENTS = WEBHOOK_EVENT_TYPES.filter((e) => !e.startsWith('app_'));
const NOTICES: Record<string, string> = {
  created: 'The webhook is created.',
  paused: 'The webhook is paused: nothing is sent until you resume it.',
  resumed: 'The webhook is resumed.',
  deleted: 'The webhook is deleted.',
  again: 'The delivery will be sent again within a few seconds.',
};

const owner = (user: User): Caller => ({ userId: user.id, appId: null });
const hookUrl = (id: string) => `/integrations/${encodeURIComponent(id)}`;
const statusBadge = (status: string) =>
  html`<span class="badge ${status === 'delivered' || status === 'active' ? 'ok' : status === 'failed' ? 'danger' : ''}">${status}</span>`;
const deletion = (hook: Webhook): Destruction => ({
  title: `Delete the webhook "${hook.name}"?`,
  lost: ['The webhook and its delivery log.'],
  button: 'Delete webhook',
});

interface Form {
  name?: string;
  event_type?: string;
  object_type?: string;
  object_ids?: string;
  survey_ids?: string | string[];
  collector_ids?: string | string[];
  subscription_url?: string;
  format?: string;
}

const listOf = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : typeof v === 'string' ? [v] : v;

/** What a webhook watches, in words: its surveys' or collectors' names (ids of ones now gone). */
function watching(h: Pick<AccountWebhook, 'object_type' | 'object_ids'>, names: Map<string, string>) {
  const ids = textList(h.object_ids);
  if (ids.length === 0) return html`all your ${h.object_type === 'collector' ? 'collectors' : 'surveys'}`;
  return ids.map(
    (id, i) => html`${i ? ', ' : ''}${names.get(`${h.object_type}:${id}`) ?? `${h.object_type} ${id}`}`,
  );
}

async function namesFor(deps: Deps, hooks: Array<Pick<AccountWebhook, 'object_type' | 'object_ids'>>) {
  const ids = (type: string) =>
    hooks.filter((h) => h.object_type === type).flatMap((h) => textList(h.object_ids));
  return watchedNames(deps, { surveys: ids('survey'), collectors: ids('collector') });
}

export function integrationPages(app: PageApp, deps: Deps): void {
  async function listPage(
    reply: FastifyReply,
    user: User,
    state: FormErrorState & { notice?: string; form?: Form },
  ) {
    const csrf = await csrfToken(deps, reply);
    const hooks = await accountWebhooks(deps, user.id);
    const [names, surveys] = await Promise.all([namesFor(deps, hooks), watchableSurveys(deps, user.id)]);
    const f = state.form ?? {};
    const pickedSurveys = new Set(listOf(f.survey_ids));
    const pickedCollectors = new Set(listOf(f.collector_ids));
    const withCollectors = surveys.filter((sv) => sv.collectors.length > 0);
    const body = html`<h1>Integrations</h1>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
<p>Webhooks send an HTTP POST to an address of yours when something happens in your surveys.</p>
<h2>Your webhooks</h2>
${
  hooks.length
    ? html`<table class="cards"><thead><tr><th scope="col">Name</th><th scope="col">Event</th><th scope="col">Sends to</th><th scope="col">Made by</th><th scope="col">Status</th></tr></thead><tbody>
${hooks.map(
  (h) =>
    html`<tr><td><a href="${hookUrl(h.id)}">${h.name}</a></td><td data-label="Event">${h.event_type} <span class="hint">(${watching(h, names)})</span></td><td data-label="Sends to"><code>${h.subscription_url}</code>${h.format === 'slack' ? html` <span class="badge accent">Slack</span>` : ''}</td><td data-label="Made by">${h.app_id === '' ? 'This page' : (h.app_name ?? 'An app')}</td><td data-label="Status">${statusBadge(h.paused_at ? 'paused' : 'active')}</td></tr>`,
)}
</tbody></table>`
    : html`<p>You have no webhooks yet.</p>`
}
<h2 id="new">New webhook</h2>
${errorFor(state, 'create')}
<form method="post" action="/integrations" class="stack">${hidden(csrf)}
<label for="wh-name">Name</label>
<input id="wh-name" name="name" required maxlength="200" value="${f.name ?? ''}"${invalidIf(state, 'create')}>
<label for="wh-event">Event</label>
<select id="wh-event" name="event_type">${EVENTS.map((e) => html`<option value="${e}"${e === (f.event_type ?? 'response_completed') ? html` selected` : ''}>${e}</option>`)}</select>
<label for="wh-object">For</label>
<select id="wh-object" name="object_type" aria-describedby="wh-object-hint">
<option value="survey"${f.object_type !== 'collector' ? html` selected` : ''}>Surveys</option>
<option value="collector"${f.object_type === 'collector' ? html` selected` : ''}>Collectors</option>
</select>
<p class="hint" id="wh-object-hint">survey_created always watches all your surveys.</p>
<fieldset class="pick-list"><legend>Which surveys</legend>
<p class="hint">For “Surveys”. Tick none to watch all of yours.</p>
${
  surveys.length
    ? surveys.map(
        (sv) =>
          html`<div class="check"><input type="checkbox" id="wh-survey-${sv.id}" name="survey_ids" value="${sv.id}"${pickedSurveys.has(sv.id) ? html` checked` : ''}><label for="wh-survey-${sv.id}">${sv.title}</label></div>`,
      )
    : html`<p>You have no surveys yet.</p>`
}
</fieldset>
${
  withCollectors.length
    ? html`<fieldset class="pick-list"><legend>Which collectors</legend>
<p class="hint">For “Collectors”. Tick none to watch all of yours.</p>
${withCollectors.map(
  (sv) =>
    html`<fieldset class="picker-group"><legend>${sv.title}</legend>${sv.collectors.map(
      (c) =>
        html`<div class="check"><input type="checkbox" id="wh-collector-${c.id}" name="collector_ids" value="${c.id}"${pickedCollectors.has(c.id) ? html` checked` : ''}><label for="wh-collector-${c.id}">${c.name}</label></div>`,
    )}</fieldset>`,
)}</fieldset>`
    : ''
}
<details${f.object_ids ? html` open` : ''}><summary>Give ids instead</summary>
<label for="wh-ids">Survey or collector ids</label>
<input id="wh-ids" name="object_ids" maxlength="2000" value="${f.object_ids ?? ''}" aria-describedby="wh-ids-hint">
<p class="hint" id="wh-ids-hint">Separated by commas, added to what is ticked above.</p>
</details>
<label for="wh-url">URL</label>
<input id="wh-url" name="subscription_url" type="url" required maxlength="2000" value="${f.subscription_url ?? ''}" aria-describedby="wh-url-hint">
<p class="hint" id="wh-url-hint">A public https address. For the standard format it must answer a HEAD request with 200.</p>
<fieldset><legend>Format</legend>
<div class="check"><input type="radio" id="wh-format-sm" name="format" value="surveymonkey"${f.format !== 'slack' ? html` checked` : ''} aria-describedby="wh-format-sm-hint"><label for="wh-format-sm">Standard (SurveyMonkey-compatible JSON)</label></div>
<p class="hint" id="wh-format-sm-hint">Signed with the webhook's own secret (Standard Webhooks headers), shown on its page.</p>
<div class="check"><input type="radio" id="wh-format-slack" name="format" value="slack"${f.format === 'slack' ? html` checked` : ''} aria-describedby="wh-format-slack-hint"><label for="wh-format-slack">Slack-compatible message</label></div>
<p class="hint" id="wh-format-slack-hint">A <code>{"text": …}</code> body naming the survey, with the first answers and a link to the response, for a Slack or Microsoft Teams incoming webhook (or Mattermost, Discord /slack).</p>
</fieldset>
<div class="actions"><button type="submit">Create webhook</button></div>
</form>`;
    const status = state.error ? Math.min(state.error.status, 500) : 200;
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'Integrations', body, { section: 'integrations' }),
      status,
    );
  }

  async function hookPage(reply: FastifyReply, user: User, id: string, notice?: string) {
    const csrf = await csrfToken(deps, reply);
    const hook = await getWebhook(deps, owner(user), id);
    const { rows, total } = await listDeliveries(deps, owner(user), id, { offset: 0, perPage: 50 });
    const paused = hook.paused_at !== null;
    const body = html`<p><a href="/integrations">← Integrations</a></p>
<h1>${hook.name}</h1>
${notice ? html`<p class="notice ok" role="status">${notice}</p>` : ''}
<dl class="facts">
<dt>Event</dt><dd>${hook.event_type}</dd>
<dt>Watches</dt><dd>${watching(hook, await namesFor(deps, [hook]))}</dd>
<dt>Sends to</dt><dd><code>${hook.subscription_url}</code></dd>
<dt>Format</dt><dd>${hook.format === 'slack' ? 'Slack-compatible message' : 'Standard (SurveyMonkey-compatible JSON)'}</dd>
<dt>Status</dt><dd>${statusBadge(paused ? 'paused' : 'active')}</dd>
<dt>Signing</dt><dd>${
      hook.app_id === ''
        ? html`Standard Webhooks headers with the secret <code id="secret">${standardSecret(deps, hook.id)}</code>`
        : html`The app that made it signs it (Sm-Signature), and Standard Webhooks headers`
    }</dd>
</dl>
<div class="actions">
<form method="post" action="${hookUrl(hook.id)}/pause" class="inline">${hidden(csrf)}
<input type="hidden" name="paused" value="${paused ? 'no' : 'yes'}">
<button type="submit" class="secondary">${paused ? 'Resume' : 'Pause'}</button></form>
${destructiveForm(`${hookUrl(hook.id)}/delete`, csrf, deletion(hook), { label: 'Delete', name: 'Delete webhook' })}
</div>
<h2>Deliveries</h2>
${
  rows.length
    ? html`<p>${total > rows.length ? `The latest ${rows.length} of ${total}.` : `${total} in all.`}</p><table class="cards"><thead><tr><th scope="col">Made</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead><tbody>
${rows.map(
  (d) =>
    html`<tr><td data-label="Made"><time datetime="${d.created_at}">${d.created_at.slice(0, 19).replace('T', ' ')} UTC</time></td><td data-label="Status">${statusBadge(d.status)}</td><td data-label="Attempts">${d.attempts}</td><td data-label="Last answer">${d.last_status_code ?? ''}${d.last_error && d.last_error !== `HTTP ${d.last_status_code}` ? html` ${d.last_error}` : ''}</td><td><form method="post" action="${hookUrl(hook.id)}/deliveries/${d.id}/again" class="inline">${hidden(csrf)}<button type="submit" class="secondary" aria-label="Send again the delivery of ${d.created_at.slice(0, 19).replace('T', ' ')}">Send again</button></form></td></tr>`,
)}
</tbody></table>`
    : html`<p>Nothing has been sent yet.</p>`
}`;
    return sendPage(
      reply,
      await userPage(deps, reply, user, `Webhook: ${hook.name}`, body, { section: 'integrations' }),
    );
  }

  const Id = Type.Object({ id: Type.String({ maxLength: 40 }) });
  const Done = Type.Object({ done: Type.Optional(Type.String({ maxLength: 10 })) });
  const Csrf = { _csrf: Type.String({ maxLength: 200 }) };

  app.get('/integrations', { schema: { hide: true, querystring: Done } }, async (request, reply) => {
    const user = await currentUser(deps, request);
    if (!user) return reply.redirect(loginUrl('/integrations'), 303);
    const { done } = request.query;
    return listPage(reply, user, { notice: done ? NOTICES[done] : undefined });
  });

  app.post(
    '/integrations',
    {
      schema: {
        hide: true,
        body: Type.Object({
          ...Csrf,
          name: Type.String({ maxLength: 200 }),
          event_type: Type.String({ maxLength: 40 }),
          object_type: Type.String({ maxLength: 20 }),
          object_ids: Type.Optional(Type.String({ maxLength: 2000 })),
          survey_ids: Checked,
          collector_ids: Checked,
          subscription_url: Type.String({ maxLength: 2000 }),
          format: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl('/integrations'), 303);
      const form = request.body;
      try {
        const hook = await createWebhook(deps, owner(user), {
          name: form.name,
          event_type: form.event_type,
          object_type: form.event_type === 'survey_created' ? null : form.object_type,
          object_ids: [
            ...new Set([
              ...listOf(form.object_type === 'collector' ? form.collector_ids : form.survey_ids),
              ...(form.object_ids ?? '')
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            ]),
          ],
          subscription_url: form.subscription_url.trim(),
          format: form.format ?? 'surveymonkey',
        });
        return reply.redirect(`${hookUrl(hook.id)}?done=created`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return listPage(reply, user, { error: err, errorAt: 'create', form });
      }
    },
  );

  app.get(
    '/integrations/:id',
    { schema: { hide: true, params: Id, querystring: Done } },
    async (request, reply) => {
      const { id } = request.params;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(hookUrl(id)), 303);
      const { done } = request.query;
      return hookPage(reply, user, id, done ? NOTICES[done] : undefined);
    },
  );

  app.post(
    '/integrations/:id/pause',
    {
      schema: {
        hide: true,
        params: Id,
        body: Type.Object({ ...Csrf, paused: Type.String({ maxLength: 3 }) }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const { id } = request.params;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(hookUrl(id)), 303);
      const paused = request.body.paused === 'yes';
      await setPaused(deps, owner(user), id, paused);
      return reply.redirect(`${hookUrl(id)}?done=${paused ? 'paused' : 'resumed'}`, 303);
    },
  );

  app.post(
    '/integrations/:id/delete',
    {
      schema: {
        hide: true,
        params: Id,
        body: Type.Object({ ...Csrf, confirm: Type.Optional(Type.String({ maxLength: 3 })) }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const { id } = request.params;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(hookUrl(id)), 303);
      const hook = await getWebhook(deps, owner(user), id);
      if (!confirmed(request.body))
        return askFirst(
          deps,
          reply,
          user,
          { action: `${hookUrl(id)}/delete`, destruction: deletion(hook), cancelHref: hookUrl(id) },
          { section: 'integrations' },
        );
      await deleteWebhook(deps, owner(user), id);
      return reply.redirect('/integrations?done=deleted', 303);
    },
  );

  app.post(
    '/integrations/:id/deliveries/:delivery/again',
    {
      schema: {
        hide: true,
        params: Type.Object({ id: Type.String({ maxLength: 40 }), delivery: Type.String({ maxLength: 40 }) }),
        body: Type.Object(Csrf),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const { id, delivery } = request.params;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(hookUrl(id)), 303);
      await redeliver(deps, owner(user), id, delivery);
      return reply.redirect(`${hookUrl(id)}?done=again`, 303);
    },
  );
}
