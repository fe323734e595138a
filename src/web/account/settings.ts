// GET /account: who is signed in, the address and whether it is confirmed; forms to change the
// password (POST /account/password) and the address (POST /account/email), both asking for the
// current password, and to send the confirmation link again (POST /account/verify/resend); the
// account's first and last name (POST /account/name), which invitation previews and test sends
// greet. The plan is shown with what it allows in words; "Download everything" links to the
// account's archive (GET /account/archive, archive.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Deps } from '../../context.js';
import { changeEmail, changePassword } from '../../domain/accounts/credentials.js';
import { MAX_NAME_CHARS, setNames } from '../../domain/accounts/names.js';
import { setTimeZone } from '../../domain/accounts/preferences.js';
import type { User } from '../../domain/accounts/users.js';
import { resendVerification } from '../../domain/accounts/verification.js';
import { setAlertsOptOut } from '../../domain/alerts/alerts.js';
import { ownedTeamId } from '../../domain/audit/log.js';
import { waitText } from '../../domain/limits/attempts.js';
import { dailySendCap } from '../../domain/limits/send-limit.js';
import { ApiError } from '../../platform/errors.js';
import { planInWords } from '../../platform/plans.js';
import { errorFor, type FormErrorState, hidden, invalidIf } from '../forms.js';
import { html } from '../html.js';
import { type PageApp, validated } from '../page-area.js';
import { csrfToken, formField, sessionId, signedInOnly } from '../session.js';
import { planOf } from '../typed.js';
import { accountNav, sendPage, userPage } from './frame.js';
import { notificationSection } from './notifications.js';

const NOTICES: Record<string, string> = {
  welcome: 'Welcome! Your account is ready. We sent a link to your address: open it to confirm the address.',
  password: 'Your password is changed. Your other sessions are signed out.',
  email: 'Your address is changed. We sent a link to it: open it to confirm the address.',
  resent: 'We sent a new confirmation link to your address.',
  zone: 'Your time zone is saved.',
  alerts: 'Your alert setting is saved.',
  name: 'Your name is saved.',
};

const AccountQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  welcome: Type.Optional(Type.String({ maxLength: 10 })),
});
const Csrf = { _csrf: Type.String({ maxLength: 200 }) };
const PasswordBody = Type.Object({
  ...Csrf,
  current: Type.String({ maxLength: 1000 }),
  password: Type.String({ maxLength: 1000 }),
  password2: Type.String({ maxLength: 1000 }),
});
const ZoneBody = Type.Object({ ...Csrf, time_zone: Type.String({ maxLength: 64 }) });
const AlertsBody = Type.Object({ ...Csrf, opt_out: Type.Optional(Type.String({ maxLength: 1 })) });
const NameBody = Type.Object({
  ...Csrf,
  first_name: Type.String({ maxLength: 1000 }),
  last_name: Type.String({ maxLength: 1000 }),
});
const EmailBody = Type.Object({
  ...Csrf,
  email: Type.String({ maxLength: 300 }),
  current: Type.String({ maxLength: 1000 }),
});

type State = FormErrorState & { notice?: string; email?: string };

export async function settingsPages(app: PageApp, deps: Deps): Promise<void> {
  async function render(reply: FastifyReply, user: User, state: State, status = 200) {
    const csrf = await csrfToken(deps, reply);
    const plan = planOf(user);
    const sendCap = await dailySendCap(deps, user);
    const body = html`<h1>Your account</h1>
${accountNav('settings')}
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
<dl class="facts">
<dt>Username</dt><dd>${user.username}</dd>
<dt>Email</dt><dd>${user.email} ${user.email_verified ? html`<span class="badge ok">confirmed</span>` : html`<span class="badge danger">not confirmed yet</span>`}</dd>
<dt>Plan</dt><dd>${user.account_type}<ul class="plan-limits" id="plan-limits">${planInWords(plan, {
      contacts: deps.config.contactLimits[plan],
      recipients: deps.config.invitationLimits.recipients[plan],
      dailySends: deps.config.invitationLimits.dailySends[plan],
    }).map((line) => html`<li>${line}</li>`)}</ul></dd>
<dt>Daily send cap</dt><dd id="send-cap">${
      sendCap
        ? `Email invitations, reminders and test sends reach at most ${sendCap.perDay.toLocaleString('en')} recipients in 24 hours (${sendCap.source}); a send that would pass it is refused whole. The operator of this server can raise it.`
        : 'No cap on the recipients you mail a day.'
    }</dd>
<dt>Datacenter</dt><dd>${user.region}</dd>
</dl>
${
  user.email_verified
    ? ''
    : html`<section class="notice warn" aria-labelledby="confirm-heading">
<h2 id="confirm-heading">Confirm your address</h2>
<p>Open the link we emailed to ${user.email}. Sending survey invitations needs a confirmed address.</p>
${errorFor(state, 'resent')}
<form method="post" action="/account/verify/resend">${hidden(csrf)}<div class="actions"><button type="submit" class="secondary">Send the link again</button></div></form>
</section>`
}
<section aria-labelledby="name-heading">
<h2 id="name-heading">Your name</h2>
<p class="hint" id="name-hint">Shown to your team, and used for <code>[FirstName]</code> and <code>[LastName]</code> when you preview or test an invitation.</p>
${errorFor(state, 'name')}
<form method="post" action="/account/name">
${hidden(csrf)}
<label for="name-first">First name</label>
<input id="name-first" name="first_name" type="text" autocomplete="given-name" maxlength="${MAX_NAME_CHARS}" value="${user.first_name ?? ''}" aria-describedby="name-hint"${invalidIf(state, 'name')}>
<label for="name-last">Last name</label>
<input id="name-last" name="last_name" type="text" autocomplete="family-name" maxlength="${MAX_NAME_CHARS}" value="${user.last_name ?? ''}">
<div class="actions"><button type="submit">Save name</button></div>
</form>
</section>
<section aria-labelledby="password-heading">
<h2 id="password-heading">Change password</h2>
${errorFor(state, 'password')}
<form method="post" action="/account/password" novalidate>
${hidden(csrf)}
<label for="password-current">Current password</label>
<input id="password-current" name="current" type="password" autocomplete="current-password" required${invalidIf(state, 'password')}>
<label for="password-new">New password</label>
<input id="password-new" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-new-hint">
<p class="hint" id="password-new-hint">At least 8 characters. Your other sessions are signed out.</p>
<label for="password-repeat">Repeat the new password</label>
<input id="password-repeat" name="password2" type="password" autocomplete="new-password" required minlength="8">
<div class="actions"><button type="submit">Change password</button></div>
</form>
</section>
<section aria-labelledby="email-heading">
<h2 id="email-heading">Change email address</h2>
${errorFor(state, 'email')}
<form method="post" action="/account/email" novalidate>
${hidden(csrf)}
<label for="email-new">New email address</label>
<input id="email-new" name="email" type="email" autocomplete="email" required value="${state.email ?? ''}"${invalidIf(state, 'email')}>
<label for="email-current">Current password</label>
<input id="email-current" name="current" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Change email address</button></div>
</form>
</section>
${await notificationSection(deps, user.id, csrf, state)}
<section aria-labelledby="apps-heading">
<h2 id="apps-heading">Apps</h2>
<ul class="plain">
<li><a href="/account/apps">Linked apps</a>: the apps you have allowed to use your account</li>
<li><a href="/developer/apps">Developer apps</a>: apps you have registered</li>
</ul>
</section>
${
  (await ownedTeamId(deps, user.id))
    ? html`<section aria-labelledby="audit-heading">
<h2 id="audit-heading">Your team</h2>
<p><a href="/account/audit">Audit log</a>: every change your team's members made, their sign-ins and the changes refused to them.</p>
</section>`
    : ''
}
<section aria-labelledby="import-heading">
<h2 id="import-heading">Moving in</h2>
<p><a href="/import">Import from SurveyMonkey</a>: copy your surveys, responses and contacts into this account.</p>
</section>
<section aria-labelledby="archive-heading">
<h2 id="archive-heading">Taking everything with you</h2>
<p>One zip file with your surveys and their designs, collectors, responses and uploaded files, your contacts and lists, webhooks and folders. Another server imports it as it is.</p>
<p><a class="button secondary" href="/account/archive" download>Download everything</a></p>
</section>`;
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'Your account', body, { section: 'account' }),
      status,
    );
  }

  /** Runs a form's change: a 303 back with its notice, or the page again with the error by its form. */
  function post<S extends TSchema>(
    path: string,
    schema: S,
    at: string,
    action: (body: Static<S>, request: FastifyRequest, user: User) => Promise<void>,
  ) {
    app.post(
      path,
      { schema: { hide: true, body: schema }, preHandler: [app.csrfProtection, signedInOnly(deps)] },
      async (request, reply) => {
        const user = request.sessionUser;
        try {
          await action(validated(schema, request.body), request, user);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err;
          const email = formField(request.body, 'email');
          return render(reply, user, { error: err, errorAt: at, email }, err.status);
        }
        return reply.redirect(`/account?done=${at}`, 303);
      },
    );
  }

  app.get(
    '/account',
    { schema: { hide: true, querystring: AccountQuery }, preHandler: signedInOnly(deps) },
    async (request, reply) => {
      const { done, welcome } = request.query;
      return render(reply, request.sessionUser, { notice: NOTICES[welcome ? 'welcome' : (done ?? '')] });
    },
  );

  post('/account/name', NameBody, 'name', async (body, _request, user) => {
    await setNames(deps, user.id, body.first_name, body.last_name);
  });

  post('/account/password', PasswordBody, 'password', async (body, request, user) => {
    const { current, password, password2 } = body;
    if (password !== password2) throw new ApiError(1002, 'The two new passwords are not the same.');
    await changePassword(deps, user, current, password, request.ip ?? null, sessionId(request) ?? null);
  });

  post('/account/email', EmailBody, 'email', async (body, request, user) => {
    const { email, current } = body;
    await changeEmail(deps, user, current, email, request.ip ?? null);
  });

  post('/account/verify/resend', Type.Object(Csrf), 'resent', async (_body, _request, user) => {
    const refused = await resendVerification(deps, user);
    if (refused)
      throw new ApiError(
        1040,
        `Too many links were sent. Try again in ${waitText(refused.retryAfterSeconds)}.`,
      );
  });

  post('/account/time-zone', ZoneBody, 'zone', async (body, _request, user) => {
    await setTimeZone(deps, user.id, body.time_zone);
  });

  post('/account/alerts', AlertsBody, 'alerts', async (body, _request, user) => {
    await setAlertsOptOut(deps, user.id, body.opt_out === '1');
  });
}
