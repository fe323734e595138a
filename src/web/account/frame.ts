// The frame of the signed-in pages (account, developer, operator, consent): a navigation bar with
// a sign-out form, and the error pages of these areas.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { ApiError } from '../../platform/errors.js';
import { type Html, html, inlineStyle } from '../html.js';
import { page } from '../layout.js';
import { csrfToken } from '../session.js';

const FRAME_STYLE = inlineStyle(
  'ul.nav{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0;margin:0 0 1rem;align-items:center}form.inline{display:inline;margin:0}.notice{border:1px solid var(--line);border-left:4px solid var(--accent);padding:.5rem 1rem;margin:1rem 0}.secret{font-family:monospace;word-break:break-all;background:#f1f3f5;padding:.25rem .5rem}fieldset{border:1px solid var(--line);margin:1rem 0}input[type=checkbox]{width:auto;margin:0 .5rem 0 0;transform:scale(1.2)}.check{display:flex;align-items:center;margin:.35rem 0}.check label{margin:0;font-weight:normal}',
);

export async function userPage(
  deps: Deps,
  reply: FastifyReply,
  user: User | null,
  title: string,
  body: Html,
  options: { operator?: boolean } = {},
): Promise<string> {
  const nav = user
    ? html`<nav aria-label="Account"><ul class="nav">
<li><a href="/account">Account</a></li>
<li><a href="/account/apps">Linked apps</a></li>
<li><a href="/developer/apps">Developer apps</a></li>
<li><a href="/apps">App directory</a></li>
${options.operator ? html`<li><a href="/operator/apps">Operator</a></li>` : ''}
<li><form method="post" action="/logout" class="inline"><input type="hidden" name="_csrf" value="${await csrfToken(deps, reply)}"><button type="submit" class="secondary">Sign out ${user.username}</button></form></li>
</ul></nav>`
    : html`<nav aria-label="Account"><ul class="nav"><li><a href="/login">Sign in</a></li><li><a href="/apps">App directory</a></li></ul></nav>`;
  return page(
    title,
    html`${FRAME_STYLE}
${nav}
${body}`,
  );
}

export function sendPage(reply: FastifyReply, markup: string, status = 200): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(markup);
}

export function errorPage(
  reply: FastifyReply,
  status: number,
  title: string,
  message: string | Html,
): FastifyReply {
  return sendPage(
    reply,
    page(
      title,
      html`<h1>${title}</h1><p role="alert" class="error">${message}</p><p><a href="/account">Back to your account</a></p>`,
    ),
    status,
  );
}

/** Error handler of the page scopes: a readable page, never JSON or a stack trace. */
export function pageErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_CSRF_INVALID_TOKEN' || err.code === 'FST_CSRF_MISSING_SECRET')
    return errorPage(
      reply,
      403,
      'Form expired',
      'This form could not be verified (it may have expired or come from another site). Go back, reload the page and try again.',
    );
  if (err instanceof ApiError) {
    // A page answers 403 where the API would say 401: the browser has a session, not a bad token.
    const status = err.code === 1020 ? 404 : err.status === 401 ? 403 : Math.min(err.status, 500);
    return errorPage(
      reply,
      status,
      err.code === 1020 ? 'Not found' : 'Request refused',
      err.detail ?? err.message,
    );
  }
  if (err.validation && err.validationContext === 'params')
    return errorPage(reply, 404, 'Not found', 'There is nothing at this address.');
  if (err.validation)
    return errorPage(reply, 400, 'Invalid form', 'Some fields of the form are missing or invalid.');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
    return errorPage(reply, 400, 'Bad request', 'The request could not be understood.');
  request.log.error({ err, reqId: request.id }, 'unexpected page error');
  return errorPage(reply, 500, 'Something went wrong', `Please try again. Request id: ${request.id}.`);
}
