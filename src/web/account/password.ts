// GET/POST /password/forgot (ask for a reset link) and GET/POST /password/reset (the link's page:
// choose a new password). The forgot page answers the same whether or not an account has the
// address. The token stays in the reset form (a hidden field), never in a cookie.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { findLink } from '../../domain/accounts/links.js';
import {
  FORGOT_PATH,
  RESET_PATH,
  requestPasswordReset,
  resetPassword,
} from '../../domain/accounts/password-reset.js';
import { waitText } from '../../domain/limits/attempts.js';
import { ApiError } from '../../platform/errors.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, SESSION_COOKIE, sessionCookieOptions } from '../session.js';
import { sendPage, userPage } from './frame.js';

export { FORGOT_PATH };

const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
const ForgotBody = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  email: Type.String({ maxLength: 300 }),
});
const ResetBody = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  token: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 1000 }),
  password2: Type.String({ maxLength: 1000 }),
});

const INVALID = html`<h1>This link is not valid</h1>
<p>The password reset link may have expired (links work for an hour), been replaced by a newer
one or already been used.</p>
<p><a href="${FORGOT_PATH}">Ask for a new link</a></p>`;

export async function passwordPages(app: PageApp, deps: Deps): Promise<void> {
  async function show(reply: FastifyReply, status: number, title: string, body: Html) {
    return sendPage(reply, await userPage(deps, reply, null, title, body, { narrow: true }), status);
  }

  async function forgotForm(reply: FastifyReply, email: string, error?: string) {
    return html`<h1>Forgot your password?</h1>
<p>Enter the email address of your account. We will send you a link to choose a new password.</p>
${error ? html`<p role="alert" class="error" id="forgot-error">${error}</p>` : ''}
<form method="post" action="${FORGOT_PATH}" novalidate>
${hidden(await csrfToken(deps, reply))}
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email}"${error ? html` aria-describedby="forgot-error" aria-invalid="true"` : ''}>
<div class="actions"><button type="submit">Send the link</button></div>
</form>
<p><a href="/login">Back to sign-in</a></p>`;
  }

  async function resetForm(reply: FastifyReply, token: string, error?: string) {
    return html`<h1>Choose a new password</h1>
${error ? html`<p role="alert" class="error" id="reset-error">${error}</p>` : ''}
<form method="post" action="${RESET_PATH}" novalidate>
${hidden(await csrfToken(deps, reply))}
<input type="hidden" name="token" value="${token}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-hint${error ? ' reset-error' : ''}">
<p class="hint" id="password-hint">At least 8 characters. Saving it signs you out everywhere.</p>
<label for="password2">Repeat the new password</label>
<input id="password2" name="password2" type="password" autocomplete="new-password" required minlength="8">
<div class="actions"><button type="submit">Save the new password</button></div>
</form>`;
  }

  app.get(FORGOT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    show(reply, 200, 'Forgot password', await forgotForm(reply, '')),
  );

  app.post(
    FORGOT_PATH,
    { schema: { hide: true, body: ForgotBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { email } = request.body;
      let refused: Awaited<ReturnType<typeof requestPasswordReset>>;
      try {
        refused = await requestPasswordReset(deps, email, request.ip ?? null);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 1002)) throw err;
        return show(reply, 400, 'Forgot password', await forgotForm(reply, email, 'Enter an email address.'));
      }
      if (refused) {
        reply.header('retry-after', String(refused.retryAfterSeconds));
        const wait = `Too many reset requests. Try again in ${waitText(refused.retryAfterSeconds)}.`;
        return show(reply, 429, 'Forgot password', await forgotForm(reply, email, wait));
      }
      return show(
        reply,
        200,
        'Check your email',
        html`<h1>Check your email</h1>
<p role="status">If an account uses <strong>${email.trim()}</strong>, we have sent it a link to
choose a new password. The link works for an hour.</p>
<p>Nothing arrived? Check your spam folder, or <a href="${FORGOT_PATH}">try another address</a>.</p>`,
      );
    },
  );

  app.get(RESET_PATH, { schema: { hide: true, querystring: TokenQuery } }, async (request, reply) => {
    const token = request.query.token ?? '';
    if (!(await findLink(deps, 'reset_password', token))) return show(reply, 404, 'Link not valid', INVALID);
    return show(reply, 200, 'Choose a new password', await resetForm(reply, token));
  });

  app.post(
    RESET_PATH,
    { schema: { hide: true, body: ResetBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { token, password, password2 } = request.body;
      const again = async (error: string) =>
        show(reply, 400, 'Choose a new password', await resetForm(reply, token, error));
      if (password !== password2) return again('The two passwords are not the same.');
      let done: boolean;
      try {
        done = await resetPassword(deps, token, password);
      } catch (err) {
        if (err instanceof ApiError && err.code === 1002) return again(err.detail ?? err.message);
        throw err;
      }
      if (!done) return show(reply, 404, 'Link not valid', INVALID);
      // Every session of the account ended, this browser's too.
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(deps, request));
      return show(
        reply,
        200,
        'Password changed',
        html`<h1>Password changed</h1>
<p role="status">Your new password is saved, and every session of your account is signed out.</p>
<div class="actions"><a class="button" href="/login">Sign in with your new password</a></div>`,
      );
    },
  );
}
