import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { linkedApps, uninstallApp } from '../../domain/accounts/grants.js';
import { scopeInfo } from '../../platform/scopes.js';
import { html } from '../html.js';
import { Field, type PageApp } from '../page-area.js';
import { csrfToken, requireSignedIn } from '../session.js';
import { accountNav, sendPage, userPage } from './frame.js';

const AppParams = Type.Object({ appId: Type.String({ pattern: '^[0-9]{1,30}$' }) });

export async function accountPages(app: PageApp, deps: Deps): Promise<void> {
  app.get(
    '/account/apps',
    { schema: { hide: true, querystring: Type.Object({ removed: Field }) } },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      const apps = await linkedApps(deps, user.id);
      const csrf = await csrfToken(deps, reply);
      const removed = request.query.removed;
      const rows = apps.map(
        (a) => html`<tr>
<th scope="row">${a.name}</th>
<td>${a.scopes.length ? html`<ul>${a.scopes.map((s) => html`<li>${scopeInfo(s).label}</li>`)}</ul>` : 'No access'}</td>
<td>${a.created_at.slice(0, 10)}</td>
<td><form method="post" action="/account/apps/${a.app_id}/revoke"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" aria-label="Remove ${a.name}">Remove</button></form></td>
</tr>`,
      );
      const body = html`<h1>Linked apps</h1>
${accountNav('apps')}
${removed ? html`<p class="notice" role="status">The app was removed. Its access to your account is revoked.</p>` : ''}
${
  apps.length
    ? html`<table><caption class="muted">Apps that can use your account. Removing one revokes its access; it must ask you again.</caption>
<thead><tr><th scope="col">App</th><th scope="col">Access</th><th scope="col">Since</th><th scope="col">Action</th></tr></thead>
<tbody>${rows}</tbody></table>`
    : html`<p>No apps are linked to your account.</p>`
}`;
      return sendPage(reply, await userPage(deps, reply, user, 'Linked apps', body, { section: 'account' }));
    },
  );

  app.post(
    '/account/apps/:appId/revoke',
    {
      schema: { hide: true, params: AppParams, body: Type.Object({ _csrf: Type.String() }) },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await requireSignedIn(deps, request, reply);
      if (!user) return reply;
      const { appId } = request.params;
      await uninstallApp(deps, appId, user.id, request.ip ?? null);
      return reply.redirect('/account/apps?removed=1', 303);
    },
  );
}
