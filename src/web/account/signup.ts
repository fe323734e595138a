// GET/POST /signup (a new account, as SIGNUP_MODE allows) and GET /account/verify (the link of a
// verification email). An open sign-up lands on /signup/sent ("check your email"), whether the
// address was free or already had an account; the person signs in afterwards. An invited sign-up
// (its address proven) is signed in at once and lands on its account page.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { SESSION_DAYS, startSession } from '../../domain/accounts/sessions.js';
import { invitedAddress, SIGNUP_PATH, signUp } from '../../domain/accounts/signup.js';
import type { User } from '../../domain/accounts/users.js';
import { VERIFY_PATH, verifyEmail } from '../../domain/accounts/verification.js';
import { waitText } from '../../domain/limits/attempts.js';
import { ApiError } from '../../platform/errors.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, currentUser, SESSION_COOKIE, sessionCookieOptions } from '../session.js';
import { sendPage, userPage } from './frame.js';

const SENT_PATH = `${SIGNUP_PATH}/sent`;
const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
const SignUpBody = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  username: Type.String({ maxLength: 200 }),
  email: Type.Optional(Type.String({ maxLength: 300 })),
  password: Type.String({ maxLength: 1000 }),
  password2: Type.String({ maxLength: 1000 }),
  invite: Type.Optional(Type.String({ maxLength: 200 })),
});
const INVALID_INVITATION = html`<h1>Invitation not valid</h1>
<p>This invitation link is not valid: it may have expired, been replaced by a newer invitation
or already been used. Ask for a new invitation.</p>`;

type SignUpFields = { username: string; email?: string; invite?: string };

export async function signUpPages(app: PageApp, deps: Deps): Promise<void> {
  async function show(
    reply: FastifyReply,
    status: number,
    title: string,
    body: Html,
    viewer: User | null = null,
  ) {
    return sendPage(reply, await userPage(deps, reply, viewer, title, body, { narrow: true }), status);
  }

  /** Why no form is shown, or null when this visitor may sign up (with `invited`, the address). */
  function unavailable(invited: string | null): Html | null {
    if (deps.config.signupMode === 'closed')
      return html`<h1>Sign-up is closed</h1>
<p>New accounts cannot be created here. Ask the people who run this service for an account.</p>
<p>Already have one? <a href="/login">Sign in</a></p>`;
    if (deps.config.signupMode === 'invite-only' && !invited)
      return html`<h1>Sign-up is by invitation</h1>
<p>Accounts are created with an invitation link. Open the link in your invitation email; if it
has expired or was already used, ask for a new invitation.</p>
<p>Already have an account? <a href="/login">Sign in</a></p>`;
    return null;
  }

  async function form(reply: FastifyReply, fields: SignUpFields, invited: string | null, error?: ApiError) {
    const describedBy = (hint: string) =>
      error ? html`aria-describedby="${hint} signup-error"` : html`aria-describedby="${hint}"`;
    return html`<h1>Create your account</h1>
${error ? html`<p role="alert" class="error" id="signup-error">${error.detail ?? error.message}</p>` : ''}
<form method="post" action="${SIGNUP_PATH}" novalidate>
${hidden(await csrfToken(deps, reply))}
${fields.invite ? html`<input type="hidden" name="invite" value="${fields.invite}">` : ''}
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" required maxlength="64" value="${fields.username}" ${describedBy('username-hint')}>
<p class="hint" id="username-hint">Letters, digits and _ . @ + - (up to 64).</p>
<label for="email">Email address</label>
${
  invited
    ? html`<input id="email" name="email" type="email" value="${invited}" readonly aria-describedby="email-hint">
<p class="hint" id="email-hint">The address your invitation was sent to.</p>`
    : html`<input id="email" name="email" type="email" autocomplete="email" required value="${fields.email ?? ''}" ${describedBy('email-hint')}>
<p class="hint" id="email-hint">We send a link to this address to confirm it is yours.</p>`
}
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" ${describedBy('password-hint')}>
<p class="hint" id="password-hint">At least 8 characters.</p>
<label for="password2">Repeat the password</label>
<input id="password2" name="password2" type="password" autocomplete="new-password" required minlength="8">
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p>Already have an account? <a href="/login">Sign in</a></p>`;
  }

  const invitedOf = async (invite: string | undefined) => (invite ? invitedAddress(deps, invite) : null);

  app.get(SIGNUP_PATH, { schema: { hide: true, querystring: TokenQuery } }, async (request, reply) => {
    if (await currentUser(deps, request)) return reply.redirect('/', 303);
    const invite = request.query.token;
    const invited = await invitedOf(invite);
    if (invite && !invited && deps.config.signupMode !== 'closed')
      return show(reply, 404, 'Invitation not valid', INVALID_INVITATION);
    const closed = unavailable(invited);
    if (closed) return show(reply, 403, 'Sign up', closed);
    return show(reply, 200, 'Sign up', await form(reply, { username: '', invite }, invited));
  });

  app.post(
    SIGNUP_PATH,
    { schema: { hide: true, body: SignUpBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const body = request.body;
      const invited = await invitedOf(body.invite);
      const closed = unavailable(invited);
      if (closed) return show(reply, 403, 'Sign up', closed);
      const again = (status: number, error: ApiError) =>
        form(reply, body, invited, error).then((markup) => show(reply, status, 'Sign up', markup));
      if (body.password !== body.password2)
        return again(400, new ApiError(1002, 'The two passwords are not the same.'));
      const result = await signUp(
        deps,
        { username: body.username, email: body.email ?? '', password: body.password, invite: body.invite },
        request.ip ?? null,
      ).catch((err) => (err instanceof ApiError && err.status < 500 ? err : Promise.reject(err)));
      if (result instanceof ApiError) return again(result.status, result);
      if (!result.ok) {
        if (!('retryAfterSeconds' in result))
          return result.reason === 'closed'
            ? show(reply, 403, 'Sign up', unavailable(null)!)
            : show(reply, 404, 'Invitation not valid', INVALID_INVITATION);
        reply.header('retry-after', String(result.retryAfterSeconds));
        return again(
          429,
          new ApiError(
            1040,
            `Too many sign-ups from your network. Try again in ${waitText(result.retryAfterSeconds)}.`,
          ),
        );
      }
      // Without an invitation, a new account and an address that already has one get the same
      // answer (no session either way), so the form does not tell who has an account.
      if (!invited || !result.user) return reply.redirect(SENT_PATH, 303);
      const id = await startSession(deps, result.user, request.ip ?? null, {
        userAgent: request.headers['user-agent'],
        method: 'password',
      });
      reply.setCookie(SESSION_COOKIE, id, {
        ...sessionCookieOptions(deps, request),
        maxAge: SESSION_DAYS * 86_400,
      });
      return reply.redirect('/account?welcome=1', 303);
    },
  );

  app.get(SENT_PATH, { schema: { hide: true } }, async (request, reply) =>
    show(
      reply,
      200,
      'Check your email',
      html`<h1>Check your email</h1>
<p role="status">We sent a link to the address you gave. Open it to confirm the address, then
<a href="/login">sign in</a> with your username and password.</p>
<p class="muted">Nothing arrived? Check your spam folder. If the address already has an account, its
owner got an email about it instead.</p>`,
      await currentUser(deps, request),
    ),
  );

  app.get(VERIFY_PATH, { schema: { hide: true, querystring: TokenQuery } }, async (request, reply) => {
    const user = await verifyEmail(deps, request.query.token ?? '');
    if (!user)
      return show(
        reply,
        404,
        'Link not valid',
        html`<h1>This link is not valid</h1>
<p>The confirmation link may have expired, been replaced by a newer one or already been used.
Your <a href="/account">account page</a> can send a new link.</p>`,
      );
    return show(
      reply,
      200,
      'Address confirmed',
      html`<h1>Address confirmed</h1>
<p role="status">Thank you: <strong>${user.email}</strong> is confirmed as the address of ${user.username}.</p>
<div class="actions"><a class="button" href="/">Go to your surveys</a></div>`,
      await currentUser(deps, request),
    );
  });
}
