// The local mail outbox page: /outbox/mail lists the emails the worker has queued and sent, and
// /outbox/mail/{id} shows one (text, HTML in a sandboxed frame, and the raw .eml file written by
// the local transport). Local only (`localOnly`: a loopback peer naming a loopback host, through
// no proxy); any other caller gets a 404. It needs no account, so it is meant for a developer's laptop.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { outboxEmail, outboxPage } from '../../outbox/emails.js';
import { emlFileName } from '../../platform/mail-files.js';
import { sendPage } from '../account/frame.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { localOnly } from '../local-only.js';
import { Field, type PageApp, pageArea } from '../page-area.js';

function notFound(reply: FastifyReply) {
  return sendPage(reply, page('Not found', html`<h1>Not found</h1>`), 404);
}

const PER_PAGE = 50;

export function mailOutboxPages(deps: Deps) {
  return pageArea('mail-outbox-pages', deps, [outboxRoutes]);
}

/** The id is checked by the handler (anything else is the page's own 404). */
const IdParams = Type.Object({ id: Type.String() });

function outboxRoutes(app: PageApp, deps: Deps): void {
  app.get(
    '/outbox/mail',
    { schema: { hide: true, querystring: Type.Object({ page: Field }) }, preHandler: localOnly },
    async (request, reply) => {
      const q = request.query;
      const pageNo = Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1);
      const { total, rows } = await outboxPage(deps, pageNo, PER_PAGE);
      const transport = deps.config.mail.smtpUrl
        ? html`<p>Mail is sent over SMTP (<code>SMTP_URL</code>); this page shows the outbox queue.</p>`
        : html`<p>No <code>SMTP_URL</code> is set: mail is written as .eml files to <code>${deps.config.mail.dir}</code>.</p>`;
      const body = html`<h1>Mail outbox</h1>
${transport}
<p class="muted">${total} email(s). This page answers local connections only.</p>
<table><caption class="muted">Newest first</caption>
<thead><tr><th scope="col">Queued</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Attempts</th></tr></thead>
<tbody>${rows.map(
        (r) =>
          html`<tr><td>${r.created_at.slice(0, 19).replace('T', ' ')}</td><td>${r.to_address}</td><td><a href="/outbox/mail/${r.id}">${r.subject || '(no subject)'}</a></td><td>${r.status}${r.last_error ? html`<br><span class="muted">${r.last_error}</span>` : ''}</td><td>${r.attempts}</td></tr>`,
      )}</tbody></table>
<nav aria-label="Pages">${pageNo > 1 ? html`<a href="/outbox/mail?page=${pageNo - 1}">Newer</a> ` : ''}${
        pageNo * PER_PAGE < total ? html`<a href="/outbox/mail?page=${pageNo + 1}">Older</a>` : ''
      }</nav>`;
      return sendPage(reply, page('Mail outbox', body));
    },
  );

  app.get(
    '/outbox/mail/:id',
    { schema: { hide: true, params: IdParams }, preHandler: localOnly },
    async (request, reply) => {
      const { id } = request.params;
      if (!/^\d{1,20}$/.test(id)) return notFound(reply);
      const e = await outboxEmail(deps, id);
      if (!e) return notFound(reply);
      const hasFile = e.transport_id === emlFileName(e.id);
      const body = html`<p><a href="/outbox/mail">All mail</a></p>
<h1>${e.subject || '(no subject)'}</h1>
<dl>
<dt>From</dt><dd>${e.from_address}</dd>
<dt>To</dt><dd>${e.to_address}</dd>
<dt>Status</dt><dd>${e.status} after ${e.attempts} attempt(s)${e.last_error ? html` — <span class="error">${e.last_error}</span>` : ''}</dd>
<dt>Queued</dt><dd>${e.created_at}</dd>
${e.sent_at ? html`<dt>Sent</dt><dd>${e.sent_at}</dd>` : ''}
</dl>
${hasFile ? html`<p><a href="/outbox/mail/${e.id}/raw">Download the .eml file</a></p>` : ''}
<h2>Text</h2>
<pre class="wrap">${e.text_body}</pre>
${
  e.html_body
    ? html`<h2>HTML</h2>
<iframe title="HTML body of the email" sandbox="" srcdoc="${e.html_body}" class="mail-frame"></iframe>`
    : ''
}`;
      return sendPage(reply, page(e.subject || 'Email', body));
    },
  );

  app.get(
    '/outbox/mail/:id/raw',
    { schema: { hide: true, params: IdParams }, preHandler: localOnly },
    async (request, reply) => {
      const { id } = request.params;
      if (!/^\d{1,20}$/.test(id)) return notFound(reply);
      let raw: Buffer;
      try {
        raw = readFileSync(join(deps.config.mail.dir, emlFileName(id)));
      } catch {
        return notFound(reply);
      }
      return reply
        .type('message/rfc822')
        .header('content-disposition', `attachment; filename="${emlFileName(id)}"`)
        .send(raw);
    },
  );
}
