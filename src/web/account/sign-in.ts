import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { endSession } from '../../domain/accounts/sessions.js';
import { SSO_REQUIRED_TEXT, signIn } from '../../domain/accounts/sign-in.js';
import { SIGNUP_PATH } from '../../domain/accounts/signup.js';
import { hasTwoFactor, pendingProof } from '../../domain/accounts/two-factor.js';
import { waitText } from '../../domain/limits/attempts.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import {
  beginSession,
  csrfToken,
  currentUser,
  deviceCookie,
  SESSION_COOKIE,
  safeNext,
  sessionCookieOptions,
  sessionId,
  setPendingCookie,
} from '../session.js';
import { OIDC_LOGIN_PATH, SAML_LOGIN_PATH } from '../sso/paths.js';
import { sendPage, userPage } from './frame.js';
import { FORGOT_PATH } from './password.js';
import { SECOND_FACTOR_PATH } from './sign-in-two-factor.js';

const LoginQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });
const LoginBody = Type.Object({
  username: Type.String({ maxLength: 200 }),
  password: Type.String({ maxLength: 1000 }),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
  _csrf: Type.String(),
});

export async function signInPages(app: PageApp, deps: Deps): Promise<void> {
  async function form(
    reply: import('fastify').FastifyReply,
    next: string,
    username: string,
    error: string | null,
  ) {
    const { oidc, saml } = deps.config.sso;
    const providers =
      oidc || saml
        ? html`<div class="actions sso">
${oidc ? html`<a class="button" href="${OIDC_LOGIN_PATH}?next=${encodeURIComponent(next)}">${oidc.name}</a>` : ''}
${saml ? html`<a class="button${oidc ? ' secondary' : ''}" href="${SAML_LOGIN_PATH}?next=${encodeURIComponent(next)}">${saml.name}</a>` : ''}
</div>
<p>${deps.config.sso.required ? 'Password sign-in is for operators only.' : 'Or sign in with your username and password:'}</p>`
        : '';
    const body = html`<h1>Sign in</h1>
${error ? html`<p role="alert" class="error" id="login-error">${error}</p>` : ''}
${providers}
<form method="post" action="/login" novalidate>
<input type="hidden" name="_csrf" value="${await csrfToken(deps, reply)}">
<input type="hidden" name="next" value="${next}">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" required value="${username}" ${error ? html`aria-describedby="login-error"` : ''} autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<ul class="links">
<li><a href="${FORGOT_PATH}">Forgot password?</a></li>
${deps.config.signupMode === 'closed' ? '' : html`<li><a href="${SIGNUP_PATH}">Create an account</a></li>`}
</ul>`;
    return userPage(deps, reply, null, 'Sign in', body, { narrow: true });
  }

  app.get('/login', { schema: { hide: true, querystring: LoginQuery } }, async (request, reply) => {
    const next = safeNext(request.query.next);
    if (await currentUser(deps, request)) return reply.redirect(next, 303);
    return sendPage(reply, await form(reply, next, '', null));
  });

  app.post(
    '/login',
    { schema: { hide: true, body: LoginBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { username, password, next: rawNext } = request.body;
      const next = safeNext(rawNext);
      const result = await signIn(deps, username.trim(), password, request.ip ?? null, deviceCookie(request));
      if (!result.ok) {
        const message =
          result.reason === 'locked'
            ? `Too many failed sign-ins. Sign-in is locked for ${waitText(result.retryAfterSeconds)}.`
            : result.reason === 'sso_required'
              ? SSO_REQUIRED_TEXT
              : result.reason === 'slow'
                ? `Too many failed sign-ins. Wait ${waitText(result.retryAfterSeconds)} before trying again.`
                : 'The username or password is not correct.';
        if (result.reason === 'slow' || result.reason === 'locked')
          reply.header('retry-after', String(result.retryAfterSeconds));
        const status = result.reason === 'invalid' ? 401 : result.reason === 'sso_required' ? 403 : 429;
        return sendPage(reply, await form(reply, next, username, message), status);
      }
      // An account with two-factor sign-in holds a proof of its password until the second factor.
      if (await hasTwoFactor(deps, result.user.id)) {
        setPendingCookie(deps, request, reply, pendingProof(deps, result.user));
        return reply.redirect(`${SECOND_FACTOR_PATH}?next=${encodeURIComponent(next)}`, 303);
      }
      await beginSession(deps, request, reply, result.user, result.device, { method: 'password' });
      return reply.redirect(next, 303);
    },
  );

  app.post(
    '/logout',
    { schema: { hide: true, body: Type.Object({ _csrf: Type.String() }) }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const id = sessionId(request);
      if (id) await endSession(deps, id, request.ip ?? null);
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(deps, request));
      return sendPage(
        reply,
        await userPage(
          deps,
          reply,
          null,
          'Signed out',
          html`<h1>Signed out</h1><p>You are signed out. <a href="/login">Sign in again</a></p>`,
        ),
      );
    },
  );
}
