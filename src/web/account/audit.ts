// GET /account/audit: the audit log of the team the signed-in user owns (the rows of its members'
// changes, sign-ins and refusals); anyone else gets a 404.
import type { Deps } from '../../context.js';
import { ownedTeamId } from '../../domain/audit/log.js';
import { AuditQuery, auditLogBody } from '../audit-log.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { requireSignedIn } from '../session.js';
import { errorPage, sendPage, userPage } from './frame.js';

export function accountAuditPages(app: PageApp, deps: Deps): void {
  app.get('/account/audit', { schema: { hide: true, querystring: AuditQuery } }, async (request, reply) => {
    const user = await requireSignedIn(deps, request, reply);
    if (!user) return reply;
    const teamId = await ownedTeamId(deps, user.id);
    if (!teamId)
      return errorPage(reply, 404, 'Not found', 'The audit log is for the owner of a team: you own none.');
    const body = html`<h1>Audit log</h1>
<p class="muted">Every change your team's members made (through pages, the API or their apps), their sign-ins and the changes refused to them.</p>
${await auditLogBody(deps, '/account/audit', request.query, { teamId })}`;
    return sendPage(reply, await userPage(deps, reply, user, 'Audit log', body, { section: 'account' }));
  });
}
