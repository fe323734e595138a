// The opt-out link of an invitation email: /optout?sm=<recipient token>. The page asks for a
// confirming click (mail scanners follow links, they do not submit forms); the POST, CSRF-protected
// like every form, marks the recipient's contact opted out for good, so later sends skip it and
// bulk adds put it in opted_out.
// The one-click link of List-Unsubscribe (RFC 8058): /unsubscribe/<recipient token>.<MAC>. A mail
// provider POSTs `List-Unsubscribe=One-Click` to it without cookies, so the POST needs no CSRF
// token: the MAC in the URL (the server key's) is what proves the link came in the email. A GET (a
// person, or a scanner following the link) only shows a confirming form.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { isOptOutToken, optOut, unsubscribeToken } from '../../domain/invitations/send.js';
import { sendPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import { page } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pageArea } from '../page-area.js';
import { csrfToken } from '../session.js';

function send(reply: FastifyReply, status: number, title: string, body: Html) {
  return sendPage(reply, page(title, body, { narrow: true }), status, { noindex: true });
}

const OptOutBody = Type.Object({
  sm: Type.String({ maxLength: 100 }),
  _csrf: Type.String({ maxLength: 200 }),
});

export function optOutPages(deps: Deps) {
  return pageArea('opt-out-pages', deps, [optOutRoutes]);
}

const OneClickParams = Type.Object({ token: Type.String({ maxLength: 200 }) });

function optOutRoutes(app: PageApp, deps: Deps): void {
  const notFound = (reply: FastifyReply) =>
    send(reply, 404, 'Link not found', html`<h1>This link is not valid</h1>`);
  app.get<{ Params: { token: string } }>(
    '/unsubscribe/:token',
    { schema: { hide: true, params: OneClickParams } },
    async (request, reply) => {
      const token = unsubscribeToken(deps, request.params.token);
      if (token === null || !(await isOptOutToken(deps, token))) return notFound(reply);
      return send(
        reply,
        200,
        'Unsubscribe',
        html`<h1>Unsubscribe</h1>
<p>Do you want to stop receiving survey invitations from this sender?</p>
<form method="post" action="/unsubscribe/${request.params.token}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe me</button>
</form>`,
      );
    },
  );
  app.post<{ Params: { token: string } }>(
    '/unsubscribe/:token',
    { schema: { hide: true, params: OneClickParams } },
    async (request, reply) => {
      const token = unsubscribeToken(deps, request.params.token);
      const r = token === null ? undefined : await optOut(deps, token);
      if (!r) return notFound(reply);
      return send(
        reply,
        200,
        'Unsubscribed',
        html`<h1>You are unsubscribed</h1><div role="status"><p>${r.email} will not receive survey invitations from this sender again.</p></div>`,
      );
    },
  );
  app.get<{ Querystring: { sm?: string } }>('/optout', { schema: { hide: true } }, async (request, reply) => {
    const sm = String(request.query.sm ?? '');
    if (!(await isOptOutToken(deps, sm)))
      return send(reply, 404, 'Link not found', html`<h1>This link is not valid</h1>`);
    return send(
      reply,
      200,
      'Unsubscribe',
      html`<h1>Unsubscribe</h1>
<p>Do you want to stop receiving survey invitations from this sender?</p>
<form method="post" action="/optout">
${hidden(await csrfToken(deps, reply))}
<input type="hidden" name="sm" value="${sm}">
<button type="submit">Unsubscribe me</button>
</form>`,
    );
  });
  app.post(
    '/optout',
    { schema: { hide: true, body: OptOutBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const r = await optOut(deps, request.body.sm);
      if (!r) return send(reply, 404, 'Link not found', html`<h1>This link is not valid</h1>`);
      return send(
        reply,
        200,
        'Unsubscribed',
        html`<h1>You are unsubscribed</h1><div role="status"><p>${r.email} will not receive survey invitations from this sender again.</p></div>`,
      );
    },
  );
}
