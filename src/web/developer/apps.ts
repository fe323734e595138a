// Developer pages: register an app (as `app create` does), see its credentials, edit its settings,
// regenerate its client secret and deploy it (private at once; public after the operator's review).
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import {
  type App,
  clientSecret,
  createApp,
  findAppById,
  type ScopeRequirement,
} from '../../domain/accounts/apps.js';
import {
  appsOwnedBy,
  effectiveStatus,
  findReview,
  findRevision,
  ownerDeploy,
  regenerateSecret,
  scopeMap,
  updateSettings,
  validateSettings,
} from '../../domain/accounts/lifecycle.js';
import type { User } from '../../domain/accounts/users.js';
import { ApiError } from '../../platform/errors.js';
import { OPERATOR_APPROVED_SCOPES, SCOPES, type Scope } from '../../platform/scopes.js';
import { errorPage, sendPage, userPage } from '../account/frame.js';
import { type Html, html } from '../html.js';
import { Field, type PageApp } from '../page-area.js';
import { csrfToken, requireSignedIn } from '../session.js';
import { textList } from '../typed.js';

const AppParams = Type.Object({ appId: Type.String({ pattern: '^[0-9]{1,30}$' }) });
const SettingsBody = Type.Object(
  {
    _csrf: Type.String(),
    name: Type.String({ maxLength: 1000 }),
    redirect_uris: Type.Optional(Type.String({ maxLength: 20000 })),
  },
  { additionalProperties: Type.String({ maxLength: 20 }) },
);
const REQUIREMENTS: [ScopeRequirement, string][] = [
  ['not_required', 'Not required'],
  ['optional', 'Optional'],
  ['required', 'Required'],
];

interface SettingsInput {
  name: string;
  redirectUris: string[];
  scopes: Partial<Record<Scope, ScopeRequirement>>;
}

function parseSettings(body: Record<string, string>): SettingsInput {
  const redirectUris = (body.redirect_uris ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  const scopes: Partial<Record<Scope, ScopeRequirement>> = {};
  for (const s of SCOPES) {
    const value = body[`scope_${s.name}`] ?? 'not_required';
    if (!['required', 'optional', 'not_required'].includes(value))
      throw new ApiError(1002, `Choose required, optional or not required for ${s.label}.`);
    if (value !== 'not_required') scopes[s.name] = value as ScopeRequirement;
  }
  return { name: body.name ?? '', redirectUris, scopes };
}

function settingsFields(values: SettingsInput): Html {
  const rows = SCOPES.map((s) => {
    const current = values.scopes[s.name] ?? 'not_required';
    const notes = [
      s.paid === 'yes' ? 'paid plan' : s.paid === 'partly' ? 'partly paid plan' : '',
      OPERATOR_APPROVED_SCOPES.includes(s.name) ? 'public apps: operator approval' : '',
    ].filter(Boolean);
    return html`<tr>
<td><label for="scope_${s.name}">${s.label}</label> <code>${s.name}</code>${notes.length ? html` <span class="muted">(${notes.join('; ')})</span>` : ''}</td>
<td><select id="scope_${s.name}" name="scope_${s.name}">${REQUIREMENTS.map(
      ([v, label]) => html`<option value="${v}"${v === current ? html` selected` : ''}>${label}</option>`,
    )}</select></td></tr>`;
  });
  return html`<label for="name">App name</label>
<input id="name" name="name" type="text" required maxlength="100" value="${values.name}">
<label for="redirect_uris">Redirect URIs</label>
<p class="muted" id="redirect_uris_help">One per line. The authorization request's redirect_uri must match one exactly.</p>
<textarea id="redirect_uris" name="redirect_uris" rows="3" aria-describedby="redirect_uris_help">${values.redirectUris.join('\n')}</textarea>
<fieldset><legend>Scopes</legend>
<p class="muted">Required scopes must be approved by every user; optional ones may be declined.</p>
<table><thead><tr><th scope="col">Scope</th><th scope="col">Requirement</th></tr></thead><tbody>${rows}</tbody></table>
</fieldset>`;
}

function credentials(items: [string, string, string][]): Html {
  return html`<dl>${items.map(([id, label, value]) => html`<dt id="${id}-label">${label}</dt><dd><code class="secret" id="${id}" aria-labelledby="${id}-label">${value}</code></dd>`)}</dl>`;
}

export async function developerPages(app: PageApp, deps: Deps): Promise<void> {
  async function frame(reply: FastifyReply, user: User, title: string, body: Html, status = 200) {
    return sendPage(reply, await userPage(deps, reply, user, title, body, { section: 'developer' }), status);
  }

  async function ownApp(user: User, appId: string): Promise<App> {
    const found = await findAppById(deps, appId);
    if (!found || found.owner_id !== user.id) throw new ApiError(1020, 'There is no such app among yours.');
    return found;
  }

  async function newForm(
    reply: FastifyReply,
    user: User,
    values: SettingsInput,
    error: string | null,
    status = error ? 400 : 200,
  ) {
    const body = html`<h1>Register an app</h1>
${error ? html`<p role="alert" class="error">${error}</p>` : ''}
<p>A new app starts as a draft: it works for your own account for 90 days, until you deploy it.</p>
<form method="post" action="/developer/apps">
<input type="hidden" name="_csrf" value="${await csrfToken(deps, reply)}">
${settingsFields(values)}
<p><button type="submit">Register app</button></p>
</form>`;
    return frame(reply, user, 'Register an app', body, status);
  }

  app.get('/developer/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = await requireSignedIn(deps, request, reply);
    if (!user) return reply;
    const now = deps.clock.now();
    const apps = await appsOwnedBy(deps, user.id);
    const body = html`<h1>Developer apps</h1>
<p><a class="button" href="/developer/apps/new">Register an app</a></p>
${
  apps.length
    ? html`<table><thead><tr><th scope="col">App</th><th scope="col">Status</th><th scope="col">Client id</th></tr></thead><tbody>
${apps.map((a) => html`<tr><td><a href="/developer/apps/${a.id}">${a.name}</a></td><td>${effectiveStatus(a, now)}</td><td><code>${a.client_id}</code></td></tr>`)}
</tbody></table>`
    : html`<p>You have not registered any apps.</p>`
}`;
    return frame(reply, user, 'Developer apps', body);
  });

  app.get('/developer/apps/new', { schema: { hide: true } }, async (request, reply) => {
    const user = await requireSignedIn(deps, request, reply);
    if (!user) return reply;
    return newForm(reply, user, { name: '', redirectUris: [], scopes: { users_read: 'required' } }, null);
  });

  app.post(
    '/developer/apps',
    { schema: { hide: true, body: SettingsBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      let values: SettingsInput | undefined;
      let created: Awaited<ReturnType<typeof createApp>>;
      try {
        values = parseSettings(request.body);
        validateSettings(values);
        created = await createApp(deps, user, values);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return newForm(
          reply,
          user,
          values ?? { name: '', redirectUris: [], scopes: {} },
          err.detail ?? err.message,
          err.status,
        );
      }
      const body = html`<h1>App registered: ${created.app.name}</h1>
<p class="notice" role="status">Copy the client secret and access token now: they are shown only once.
You can regenerate the secret later; the token is the draft app's token for your own account.</p>
${credentials([
  ['client-id', 'Client id', created.app.client_id],
  ['client-secret', 'Client secret', created.clientSecret],
  ['access-token', 'Access token (your account)', created.accessToken],
])}
<p><a href="/developer/apps/${created.app.id}">App settings</a></p>`;
      return frame(reply, user, 'App registered', body, 201);
    },
  );

  app.get(
    '/developer/apps/:appId',
    {
      schema: { hide: true, params: AppParams, querystring: Type.Object({ saved: Field, deployed: Field }) },
    },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      const target = await ownApp(user, request.params.appId);
      const query = request.query;
      const now = deps.clock.now();
      const status = effectiveStatus(target, now);
      const review = await findReview(deps, target.id);
      const revision = await findRevision(deps, target.id);
      const csrf = await csrfToken(deps, reply);
      // The form edits the pending revision when there is one; the approved version is shown beside it.
      const shown = revision ?? target;
      const values: SettingsInput = {
        name: shown.name,
        redirectUris: JSON.parse(shown.redirect_uris),
        scopes: scopeMap(shown),
      };
      const notice = query.saved
        ? query.saved === 'pending_review'
          ? 'Your changes are submitted for review. Users keep seeing the approved version until the operator approves them.'
          : 'Settings saved.'
        : query.deployed === 'private'
          ? 'The app is deployed as private.'
          : query.deployed === 'pending_review'
            ? 'The app is submitted for review. It becomes public once the operator approves it.'
            : null;
      const deploy =
        status === 'draft'
          ? html`<h2>Deploy</h2>
<p>Deploy within the development window (until ${target.draft_expires_at.slice(0, 10)}).
A private app may be used by members of your team who have a paid plan. A public app is listed in the app directory after the operator reviews and approves it.</p>
${review?.review_status === 'pending' ? html`<p class="notice">Review requested on ${review.requested_at.slice(0, 10)}; waiting for the operator.</p>` : ''}
${review?.review_status === 'rejected' ? html`<p class="notice">The operator did not approve the app${review.note ? html`: ${review.note}` : ''}.</p>` : ''}
<form method="post" action="/developer/apps/${target.id}/deploy">
<input type="hidden" name="_csrf" value="${csrf}">
<button type="submit" name="target" value="private">Deploy as private</button>
<button type="submit" name="target" value="public" class="secondary">Submit for public review</button>
</form>`
          : status === 'disabled'
            ? html`<h2>Disabled</h2><p class="notice">The 90-day development window ended on ${target.draft_expires_at.slice(0, 10)} before the app was deployed, so it stopped working. Ask the operator to extend the window or deploy the app.</p>`
            : html`<h2>Deployed</h2><p>The app is ${status}.${status === 'public' && review?.write_scopes_approved !== 1 ? " Create/Modify Surveys and Create/Modify Responses need the operator's approval before this public app may use them." : ''}</p>`;
      const body = html`<h1>${target.name}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<dl>
<dt>Status</dt><dd id="app-status">${status}</dd>
<dt>App id</dt><dd>${target.id}</dd>
<dt>Client id</dt><dd><code id="client-id">${target.client_id}</code></dd>
<dt>Client secret</dt><dd>Shown once when created or regenerated.
<form method="post" action="/developer/apps/${target.id}/secret" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="secondary">Regenerate client secret</button></form></dd>
</dl>
${deploy}
<h2>Settings</h2>
${
  revision
    ? html`<p class="notice" id="pending-revision">Changes submitted on ${revision.requested_at.slice(0, 10)} wait for the operator's review. Until they are approved, users see the approved version: <strong>${target.name}</strong>, redirect URIs ${textList(target.redirect_uris).join(', ') || 'none'}.</p>`
    : status === 'public'
      ? html`<p class="muted">This app is public: changes to its name, redirect URIs or scopes go to the operator for review first.</p>`
      : ''
}
<form method="post" action="/developer/apps/${target.id}">
<input type="hidden" name="_csrf" value="${csrf}">
${settingsFields(values)}
<p><button type="submit">Save settings</button></p>
</form>`;
      return frame(reply, user, target.name, body);
    },
  );

  app.post(
    '/developer/apps/:appId',
    { schema: { hide: true, params: AppParams, body: SettingsBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      const target = await ownApp(user, request.params.appId);
      let outcome: string;
      try {
        outcome = await updateSettings(deps, target, parseSettings(request.body));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return errorPage(
          reply,
          400,
          'Settings not saved',
          html`${err.detail ?? err.message} <a href="/developer/apps/${target.id}">Back to the app</a>`,
        );
      }
      return reply.redirect(`/developer/apps/${target.id}?saved=${outcome}`, 303);
    },
  );

  app.post(
    '/developer/apps/:appId/secret',
    {
      schema: { hide: true, params: AppParams, body: Type.Object({ _csrf: Type.String() }) },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      const target = await regenerateSecret(deps, await ownApp(user, request.params.appId));
      const body = html`<h1>New client secret for ${target.name}</h1>
<p class="notice" role="status">The previous secret no longer works. Copy this one now: it is shown only once.</p>
${credentials([
  ['client-id', 'Client id', target.client_id],
  ['client-secret', 'Client secret', clientSecret(deps, target)],
])}
<p><a href="/developer/apps/${target.id}">App settings</a></p>`;
      return frame(reply, user, 'New client secret', body);
    },
  );

  app.post(
    '/developer/apps/:appId/deploy',
    {
      schema: {
        hide: true,
        params: AppParams,
        body: Type.Object({
          _csrf: Type.String(),
          target: Type.Union([Type.Literal('private'), Type.Literal('public')]),
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      const target = await ownApp(user, request.params.appId);
      const outcome = await ownerDeploy(deps, target, request.body.target);
      return reply.redirect(`/developer/apps/${target.id}?deployed=${outcome}`, 303);
    },
  );
}
