// GET /operator/apps: the operator's page, with the same actions as the `app review`,
// `app extend` and `app deploy` command verbs. Only users flagged as operators may use it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { isOperator, type User } from '../../domain/accounts/users.js';
import { errorPage, sendPage, userPage } from '../account/frame.js';
import { type Html, html } from '../html.js';
import { csrfToken, requireSignedIn } from '../session.js';

const AppParams = Type.Object({ appId: Type.String({ pattern: '^[0-9]{1,30}$' }) });

const scopeList = (json: string) =>
  Object.entries(scopeMap({ scopes: json }))
    .filter(([, req]) => req !== 'not_required')
    .map(([scope, req]) => `${scope} (${req})`)
    .join(', ') || 'none';
const uriList = (json: string) => (JSON.parse(json) as string[]).join(', ') || 'none';

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

export async function operatorPages(app: FastifyInstance, deps: Deps): Promise<void> {
  async function operator(request: FastifyRequest, reply: FastifyReply): Promise<User | null> {
    const user = await requireSignedIn(deps, request, reply);
    if (!user) return null;
    if (!(await isOperator(deps, user.id))) {
      errorPage(reply, 403, 'Operators only', 'This page is for the operators of this service.');
      return null;
    }
    return user;
  }

  app.get('/operator/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = await operator(request, reply);
    if (!user) return reply;
    const now = deps.clock.now();
    const csrf = await csrfToken(deps, reply);
    const done = (request.query as { done?: string }).done;
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
<button type="submit" name="target" value="private" class="secondary" aria-label="Deploy ${a.name} as private">Deploy private</button>
</form>`
    : ''
}
</td></tr>`;
    });
    const body = html`<h1>Operator: apps</h1>
${done ? html`<p class="notice" role="status">Done: ${done}.</p>` : ''}
<table><thead><tr><th scope="col">App</th><th scope="col">Status</th><th scope="col">Review</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table>`;
    return sendPage(reply, await userPage(deps, reply, user, 'Operator', body, { operator: true }));
  });

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
      const body = request.body as { decision: string; approve_write_scopes?: string };
      const { app: reviewed } = await reviewApp(deps, (request.params as { appId: string }).appId, {
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
      const days = Number((request.body as { days: string }).days);
      const extended = await extendDraft(deps, (request.params as { appId: string }).appId, days);
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
      const target = (request.body as { target: 'private' | 'public' }).target;
      const deployed = await operatorDeploy(
        deps,
        (request.params as { appId: string }).appId,
        target,
        user.id,
      );
      return reply.redirect(
        `/operator/apps?done=${encodeURIComponent(`deploy ${deployed.id} ${target}`)}`,
        303,
      );
    },
  );
}
