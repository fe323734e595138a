// The opt-out link of an invitation email: /optout?sm=<recipient token>. The page asks for a
// confirming click (mail scanners follow links, they do not submit forms); the POST marks the
// recipient's contact opted out for good, so later sends skip it and bulk adds put it in opted_out.
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../context.js';
import { optOut } from '../../domain/invitations/send.js';
import { html } from '../html.js';
import { page } from '../layout.js';

function send(reply: FastifyReply, status: number, title: string, body: ReturnType<typeof html>) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .type('text/html; charset=utf-8')
    .send(page(title, body));
}

const TOKEN = /^[A-Za-z0-9_-]{10,60}$/;

export function optOutPages(deps: Deps) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(formbody, { bodyLimit: 4096 });
    app.get<{ Querystring: { sm?: string } }>(
      '/optout',
      { schema: { hide: true } },
      async (request, reply) => {
        const sm = String(request.query.sm ?? '');
        const known =
          TOKEN.test(sm) &&
          (await deps.db.kysely
            .selectFrom('collector_recipients')
            .select('id')
            .where('token', '=', sm)
            .executeTakeFirst());
        if (!known) return send(reply, 404, 'Link not found', html`<h1>This link is not valid</h1>`);
        return send(
          reply,
          200,
          'Unsubscribe',
          html`<h1>Unsubscribe</h1>
<p>Do you want to stop receiving survey invitations from this sender?</p>
<form method="post" action="/optout">
<input type="hidden" name="sm" value="${sm}">
<button type="submit">Unsubscribe me</button>
</form>`,
        );
      },
    );
    app.post<{ Body: { sm?: string } }>('/optout', { schema: { hide: true } }, async (request, reply) => {
      const r = await optOut(deps, String(request.body?.sm ?? ''));
      if (!r) return send(reply, 404, 'Link not found', html`<h1>This link is not valid</h1>`);
      return send(
        reply,
        200,
        'Unsubscribed',
        html`<h1>You are unsubscribed</h1><div role="status"><p>${r.email} will not receive survey invitations from this sender again.</p></div>`,
      );
    });
  };
}
