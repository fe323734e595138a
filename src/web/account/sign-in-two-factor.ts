// GET/POST /login/two-factor: the second step of signing in to an account with two-factor sign-in.
// The sign-in page (and so the OAuth consent flow, which signs in there) sends such an account here
// holding a signed, expiring proof of its password (a cookie; no server keeps state). The page
// takes the app's code or a recovery code without script, and a passkey with it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { issueDevice } from '../../domain/accounts/devices.js';
import { passkeySignInOptions, relyingParty, verifyPasskeySignIn } from '../../domain/accounts/passkeys.js';
import {
  checkSecondFactor,
  type Pending,
  pendingSignIn,
  signInFactors,
  verifyCode,
} from '../../domain/accounts/two-factor.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import {
  beginSession,
  clearPendingCookie,
  csrfToken,
  deviceCookie,
  loginUrl,
  pendingCookie,
  safeNext,
} from '../session.js';
import { sendPage, userPage } from './frame.js';
import { TWO_FACTOR_SCRIPTS } from './security-two-factor.js';

export const SECOND_FACTOR_PATH = '/login/two-factor';

const Query = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });
const Body = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
  code: Type.Optional(Type.String({ maxLength: 40 })),
  response: Type.Optional(Type.String({ maxLength: 20_000 })),
});

export async function secondFactorPages(app: PageApp, deps: Deps): Promise<void> {
  async function form(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: Pending,
    next: string,
    error?: string,
  ) {
    const csrf = await csrfToken(deps, reply);
    const { app, passkeys } = await signInFactors(deps, pending.user.id);
    const options = passkeys
      ? await passkeySignInOptions(deps, pending, relyingParty(deps, request.headers.host))
      : null;
    const body = html`<h1>Two-factor sign-in</h1>
<p>Signing in as <strong>${pending.user.username}</strong>.</p>
${error ? html`<p role="alert" class="error" id="code-error">${error}</p>` : ''}
${
  options
    ? html`<form method="post" action="${SECOND_FACTOR_PATH}" data-passkey="sign-in" data-passkey-options="${JSON.stringify(options)}" hidden>
${hidden(csrf)}
<input type="hidden" name="next" value="${next}">
<input type="hidden" name="response" value="">
<p class="passkey-status" role="alert" data-passkey-status></p>
<div class="actions"><button type="submit">Use a passkey</button></div>
</form>`
    : ''
}
<form method="post" action="${SECOND_FACTOR_PATH}" novalidate>
${hidden(csrf)}
<input type="hidden" name="next" value="${next}">
<label for="code">${app ? 'Code from your authenticator app' : 'Recovery code'}</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="20" required aria-describedby="code-hint${error ? ' code-error' : ''}"${error ? html` aria-invalid="true"` : ''}${options ? '' : html` autofocus`}>
<p class="hint" id="code-hint">${app ? 'The 6-digit code your app shows now, or one of your recovery codes.' : 'One of the recovery codes you saved.'}</p>
<div class="actions"><button type="submit"${options ? html` class="secondary"` : ''}>Verify</button></div>
</form>
<p><a href="${loginUrl(next)}">Sign in again</a></p>`;
    return userPage(deps, reply, null, 'Two-factor sign-in', body, {
      narrow: true,
      scripts: options ? TWO_FACTOR_SCRIPTS : [],
    });
  }

  app.get(SECOND_FACTOR_PATH, { schema: { hide: true, querystring: Query } }, async (request, reply) => {
    const next = safeNext(request.query.next);
    const pending = await pendingSignIn(deps, pendingCookie(request));
    if (!pending) return reply.redirect(loginUrl(next), 303);
    return sendPage(reply, await form(request, reply, pending, next));
  });

  app.post(
    SECOND_FACTOR_PATH,
    { schema: { hide: true, body: Body }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { code, response } = request.body;
      const next = safeNext(request.body.next);
      const pending = await pendingSignIn(deps, pendingCookie(request));
      if (!pending) return reply.redirect(loginUrl(next), 303);
      const rp = relyingParty(deps, request.headers.host);
      const result = await checkSecondFactor(deps, pending, request.ip ?? null, deviceCookie(request), () =>
        response
          ? verifyPasskeySignIn(deps, pending, rp, response)
          : verifyCode(deps, pending.user, code ?? ''),
      );
      if (!result.ok) {
        if (result.reason !== 'invalid') reply.header('retry-after', String(result.retryAfterSeconds));
        const status = result.reason === 'invalid' ? 401 : 429;
        return sendPage(reply, await form(request, reply, pending, next, result.message), status);
      }
      clearPendingCookie(deps, request, reply);
      const device = issueDevice(deps, deviceCookie(request), result.user.id);
      await beginSession(deps, request, reply, result.user, device, {
        method: 'password',
        secondFactor: result.method,
      });
      return reply.redirect(next, 303);
    },
  );
}
