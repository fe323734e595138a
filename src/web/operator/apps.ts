// GET /operator/apps: the operator's page, with the same actions as the `app review`,
// `app extend` and `app deploy` command verbs; /operator/erase does what `erase` does. Only users
// flagged as operators may use them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import {
  allAppsWithReviews,
  effectiveStatus,
  extendDraft,
  operatorDeploy,
  reviewApp,
  scopeMap,
} from '../../domain/accounts/lifecycle.js';
import { findUserByUsername, isOperator, type User } from '../../domain/accounts/users.js';
import { type ErasureReport, erasePerson, erasureAddress } from '../../domain/privacy/erase.js';
import { errorPage, sendPage, userPage } from '../account/frame.js';
import { type Html, html } from '../html.js';
import { Field, type PageApp } from '../page-area.js';
import { csrfToken, requireSignedIn } from '../session.js';
import { textList } from '../typed.js';
import { operatorAccountPages } from './accounts.js';
import { operatorAuditPages } from './audit.js';

const AppParams = Type.Object({ appId: Type.String({ pattern: '^[0-9]{1,30}$' }) });

const scopeList = (json: string) =>
  Object.entries(scopeMap({ scopes: json }))
    .filter(([, req]) => req !== 'not_required')
    .map(([scope, req]) => `${scope} (${req})`)
    .join(', ') || 'none';
const uriList = (json: string) => textList(json).join(', ') || 'none';

/** The approved and the pending value of each setting a public app's revision changes. */
function changeRows(
  name: string,
  newName: string,
  uris: string,
  newUris: string | null,
  scopes: string,
  newScopes: string | null,
): Html[] {
  return [
    ['Name', name, newName],
    ['Redirect URIs', uriList(uris), uriList(newUris ?? uris)],
    ['Scopes', scopeList(scopes), scopeList(newScopes ?? scopes)],
  ]
    .filter(([, now, next]) => now !== next)
    .map(([label, now, next]) => html`<dt>${label}</dt><dd>${now} → <strong>${next}</strong></dd>`);
}

const OPERATOR_NAV = html`<p><a href="/operator/apps">Apps</a> · <a href="/operator/accounts">Accounts</a> · <a href="/operator/erase">Erase a person's data</a> · <a href="/operator/audit">Audit log</a></p>`;

const EraseBody = Type.Object({
  _csrf: Type.String(),
  email: Type.String({ maxLength: 320 }),
  owner: Type.Optional(Type.String({ maxLength: 200 })),
  confirm: Type.Optional(Type.Literal('1')),
});

function eraseForm(csrf: string, values: { email?: string; owner?: string }, error?: string): Html {
  return html`<h1>Erase a person's data</h1>
${OPERATOR_NAV}
<p>When someone asks for their data to be deleted: their contact records, invitation recipients,
responses and emails under this address are deleted for good, and response counts and results are
kept consistent. The same as <code>survey-service erase</code>.</p>
${error ? html`<p class="error" role="alert" id="erase-error">${error}</p>` : ''}
<form method="post" action="/operator/erase">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" required value="${values.email ?? ''}"${error ? html` aria-describedby="erase-error"` : ''}>
<label for="owner">Only in this account (username; empty: every account)</label>
<input id="owner" name="owner" value="${values.owner ?? ''}" autocomplete="off">
<div class="check"><input type="checkbox" id="confirm" name="confirm" value="1" required> <label for="confirm">I understand that this person's contacts, recipients, responses and emails are deleted and cannot be restored</label></div>
<p><button type="submit">Erase</button></p>
</form>`;
}

function eraseReport(r: ErasureReport): Html {
  return html`<h1>Erased</h1>
${OPERATOR_NAV}
<p role="status">Erased <strong>${r.email}</strong>:</p>
<ul id="erase-report">
<li>${r.contacts} contact record(s)</li>
<li>${r.recipients} invitation recipient(s)</li>
<li>${r.responses} response(s) in ${r.surveys} survey(s)</li>
<li>${r.emails} email(s)</li>
</ul>
<p><a href="/operator/erase">Erase another</a></p>`;
}

export async function operatorPages(app: PageApp, deps: Deps): Promise<void> {
  async function operator(request: FastifyRequest, reply: FastifyReply): Promise<User | null> {
    const user = await requireSignedIn(deps, request, reply);
    if (!user) return null;
    if (!(await isOperator(deps, user.id))) {
      errorPage(reply, 403, 'Operators only', 'This page is for the operators of this service.');
      return null;
    }
    return user;
  }
  operatorAccountPages(app, deps, operator, OPERATOR_NAV);
  operatorAuditPages(app, deps, operator, OPERATOR_NAV);

  app.get(
    '/operator/apps',
    { schema: { hide: true, querystring: Type.Object({ done: Field }) } },
    async (request, reply) => {
      const user = await operator(request, reply);
      if (!user) return reply;
      const now = deps.clock.now();
      const csrf = await csrfToken(deps, reply);
      const done = request.query.done;
      const apps = await allAppsWithReviews(deps);
      const rows = apps.map((a) => {
        const status = effectiveStatus(a, now);
        const base = `/operator/apps/${a.id}`;
        return html`<tr id="app-${a.id}">
<th scope="row">${a.name}<br><span class="muted">id ${a.id}, owner ${a.owner_username}</span></th>
<td>${status}${status === 'draft' || status === 'disabled' ? html`<br><span class="muted">window ends ${a.draft_expires_at.slice(0, 10)}</span>` : ''}</td>
<td>${a.review_status ?? 'none'}${a.write_scopes_approved ? html`<br><span class="muted">write scopes approved</span>` : ''}${
          a.pending_name !== null
            ? html`<div class="pending-change" id="pending-${a.id}"><strong>Change to review</strong> (users see the approved version until you approve):
<dl>${changeRows(a.name, a.pending_name, a.redirect_uris, a.pending_redirect_uris, a.scopes, a.pending_scopes)}</dl></div>`
            : ''
        }</td>
<td>
<form method="post" action="${base}/review">
<input type="hidden" name="_csrf" value="${csrf}">
<div class="check"><input type="checkbox" name="approve_write_scopes" value="1" id="write-${a.id}"${a.write_scopes_approved ? html` checked` : ''}> <label for="write-${a.id}">Approve Create/Modify Surveys and Responses</label></div>
<button type="submit" name="decision" value="approve" aria-label="Approve ${a.name}">Approve</button>
<button type="submit" name="decision" value="reject" class="secondary" aria-label="Reject ${a.name}">Reject</button>
</form>
${
  status === 'draft' || status === 'disabled'
    ? html`<form method="post" action="${base}/extend">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="days-${a.id}">Extend the draft window by days</label>
<input id="days-${a.id}" name="days" type="number" min="1" max="3650" value="90" class="narrow">
<button type="submit" aria-label="Extend ${a.name}">Extend</button>
</form>
<form method="post" action="${base}/deploy">
<input type="hidden" name="_csrf" value="${csrf}">
<button type="submit" name="target" value="private" class="secondary" aria-label="Deploy private: ${a.name}">Deploy private</button>
</form>`
    : ''
}
</td></tr>`;
      });
      const body = html`<h1>Operator: apps</h1>
${OPERATOR_NAV}
${done ? html`<p class="notice" role="status">Done: ${done}.</p>` : ''}
<table><thead><tr><th scope="col">App</th><th scope="col">Status</th><th scope="col">Review</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table>`;
      return sendPage(reply, await userPage(deps, reply, user, 'Operator', body, { section: 'operator' }));
    },
  );

  app.post(
    '/operator/apps/:appId/review',
    {
      schema: {
        hide: true,
        params: AppParams,
        body: Type.Object({
          _csrf: Type.String(),
          decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
          approve_write_scopes: Type.Optional(Type.Literal('1')),
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await operator(request, reply);
      if (!user) return reply;
      const body = request.body;
      const { app: reviewed } = await reviewApp(deps, request.params.appId, {
        approve: body.decision === 'approve',
        approveWriteScopes: body.approve_write_scopes === '1',
        operatorId: user.id,
      });
      return reply.redirect(
        `/operator/apps?done=${encodeURIComponent(`${body.decision} ${reviewed.id}`)}`,
        303,
      );
    },
  );

  app.post(
    '/operator/apps/:appId/extend',
    {
      schema: {
        hide: true,
        params: AppParams,
        body: Type.Object({ _csrf: Type.String(), days: Type.String({ pattern: '^[0-9]{1,4}$' }) }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await operator(request, reply);
      if (!user) return reply;
      const days = Number(request.body.days);
      const extended = await extendDraft(deps, request.params.appId, days);
      return reply.redirect(`/operator/apps?done=${encodeURIComponent(`extend ${extended.id}`)}`, 303);
    },
  );

  app.post(
    '/operator/apps/:appId/deploy',
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
      const user = await operator(request, reply);
      if (!user) return reply;
      const target = request.body.target;
      const deployed = await operatorDeploy(deps, request.params.appId, target, user.id);
      return reply.redirect(
        `/operator/apps?done=${encodeURIComponent(`deploy ${deployed.id} ${target}`)}`,
        303,
      );
    },
  );

  app.get('/operator/erase', { schema: { hide: true } }, async (request, reply) => {
    const user = await operator(request, reply);
    if (!user) return reply;
    const body = eraseForm(await csrfToken(deps, reply), {});
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'Erase a person', body, { section: 'operator' }),
    );
  });

  app.post(
    '/operator/erase',
    { schema: { hide: true, body: EraseBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const user = await operator(request, reply);
      if (!user) return reply;
      const form = request.body;
      const values = { email: form.email.trim(), owner: form.owner?.trim() ?? '' };
      const again = async (error: string) =>
        sendPage(
          reply,
          await userPage(
            deps,
            reply,
            user,
            'Erase a person',
            eraseForm(await csrfToken(deps, reply), values, error),
            { section: 'operator' },
          ),
          400,
        );
      if (!erasureAddress(values.email)) return again('Enter the email address to erase.');
      if (form.confirm !== '1') return again('Tick the box to confirm that the data is deleted for good.');
      const owner = values.owner ? await findUserByUsername(deps, values.owner) : undefined;
      if (values.owner && !owner) return again(`There is no account named ${values.owner}.`);
      const report = await erasePerson(deps, values.email, owner?.id);
      return sendPage(
        reply,
        await userPage(deps, reply, user, 'Erased', eraseReport(report), { section: 'operator' }),
      );
    },
  );
}
