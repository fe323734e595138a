import type { Deps } from '../../context.js';
import { publicApps, scopeMap } from '../../domain/accounts/lifecycle.js';
import { SCOPES } from '../../platform/scopes.js';
import { sendPage, userPage } from '../account/frame.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { currentUser } from '../session.js';

export async function directoryPages(app: PageApp, deps: Deps): Promise<void> {
  app.get('/apps', { schema: { hide: true } }, async (request, reply) => {
    const user = await currentUser(deps, request);
    const apps = await publicApps(deps);
    const body = html`<h1>App directory</h1>
${
  apps.length
    ? html`<ul class="directory">${apps.map((a) => {
        const map = scopeMap(a);
        const asks = SCOPES.filter((s) => map[s.name] !== 'not_required').map((s) => s.label);
        return html`<li><strong>${a.name}</strong>${asks.length ? html` <span class="muted">asks for: ${asks.join(', ')}</span>` : ''}</li>`;
      })}</ul>`
    : html`<p>No apps are published yet.</p>`
}`;
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'App directory', body, { section: 'developer' }),
    );
  });
}
