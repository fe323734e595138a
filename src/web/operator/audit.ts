// GET /operator/audit: the whole audit log for operators, with the same filters as the team
// owner's page; `survey-service audit --json` gives the same rows to a SIEM.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { sendPage, userPage } from '../account/frame.js';
import { AuditQuery, auditLogBody } from '../audit-log.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<User | null>;

export function operatorAuditPages(app: PageApp, deps: Deps, operator: Guard, nav: Html): void {
  app.get('/operator/audit', { schema: { hide: true, querystring: AuditQuery } }, async (request, reply) => {
    const user = await operator(request, reply);
    if (!user) return reply;
    const body = html`<h1>Operator: audit log</h1>
${nav}
<p class="muted">Every change, sign-in and refused change of every account and of the command line. For a SIEM: <code>survey-service audit --json --since 2026-01-01T00:00:00Z</code>.</p>
${await auditLogBody(deps, '/operator/audit', request.query, {})}`;
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'Operator: audit log', body, { section: 'operator' }),
    );
  });
}
