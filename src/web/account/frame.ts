// The frame of the signed-in pages and the error pages of every page scope.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { ApiError } from '../../platform/errors.js';
import { type Html, html } from '../html.js';
import { page, type Section, workspacePage } from '../layout.js';

/**
 * A page of the signed-in areas: the workspace header for a user, the public header for a visitor
 * (sign-in, sign-out and consent pages are seen signed out).
 */
export async function userPage(
  deps: Deps,
  reply: FastifyReply,
  user: User | null,
  title: string,
  body: Html,
  options: { section?: Section; narrow?: boolean; scripts?: string[]; styles?: string[] } = {},
): Promise<string> {
  return user ? workspacePage(deps, reply, user, title, body, options) : page(title, body, options);
}

/** The account pages' own navigation: settings, security, linked apps. */
export function accountNav(current: 'settings' | 'security' | 'apps'): Html {
  const link = (href: string, label: string, name: typeof current) =>
    html`<li><a href="${href}"${name === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Account" class="survey-tabs account-nav"><ul>
${link('/account', 'Settings', 'settings')}
${link('/account/security', 'Security', 'security')}
${link('/account/apps', 'Linked apps', 'apps')}
</ul></nav>`;
}

/**
 * Sends a page (the markup of `page`, `workspacePage`, `userPage` or a respondent layout): the one
 * way pages send HTML. Not cached unless `cacheable` (public pages the same for everyone);
 * `noindex` for pages reached by secret links (surveys, opt-out).
 */
export function sendPage(
  reply: FastifyReply,
  markup: string,
  status = 200,
  options: { noindex?: boolean; cacheable?: boolean } = {},
): FastifyReply {
  if (options.noindex) reply.header('x-robots-tag', 'noindex, nofollow');
  if (!options.cacheable) reply.header('cache-control', 'no-store');
  return reply.code(status).type('text/html; charset=utf-8').send(markup);
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
    // A page answers 403 where the API would say 401: the browser has a session, not a bad token;
    // 503 (try again later) stays itself.
    const status =
      err.code === 1020
        ? 404
        : err.status === 401
          ? 403
          : err.status === 503
            ? 503
            : Math.min(err.status, 500);
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
