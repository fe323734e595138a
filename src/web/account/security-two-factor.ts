// The two-factor section of /account/security and its forms: an authenticator app (the otpauth://
// address as text and as a QR code, confirmed by a first code), recovery codes (shown once, when
// made), passkeys (added with script: the browser library from node_modules fills a hidden field
// and submits the form), and turning two-factor off. Every removal asks for the password again.
// The app and the recovery codes work without JavaScript.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Deps } from '../../context.js';
import {
  addPasskey,
  MAX_PASSKEYS,
  passkeyRegistrationOptions,
  relyingParty,
} from '../../domain/accounts/passkeys.js';
import {
  confirmTotp,
  RECOVERY_CODE_COUNT,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
  startTotpEnrolment,
  turnOffTwoFactor,
  twoFactorStatus,
} from '../../domain/accounts/two-factor.js';
import type { User } from '../../domain/accounts/users.js';
import { ApiError } from '../../platform/errors.js';
import { SCRIPTS } from '../assets.js';
import { errorFor, type FormErrorState, hidden, invalidIf } from '../forms.js';
import { type Html, html } from '../html.js';
import { type PageApp, validated } from '../page-area.js';
import { qrcode } from '../qr.js';
import { safeNext, sessionId, signedInOnly } from '../session.js';

export const TWO_FACTOR_NOTICES: Record<string, string> = {
  'totp-started': 'Scan the code with your authenticator app, then enter the code it shows.',
  'totp-on': 'Your authenticator app is set up.',
  'totp-removed': 'Your authenticator app is removed.',
  'passkey-added': 'Your passkey is added.',
  'passkey-removed': 'The passkey is removed.',
  off: 'Two-factor sign-in is off. Your other sessions are signed out.',
};

export interface TwoFactorState extends FormErrorState {
  notice?: string;
  /** New recovery codes, shown this once. */
  codes?: string[];
  /** Where to go on once set up (REQUIRE_2FA sends people here first). */
  next?: string;
}

/** Renders the whole security page (security.ts) with the section's state. */
export type RenderSecurity = (
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  state: TwoFactorState,
  status?: number,
) => Promise<FastifyReply>;

/** The scripts the section needs (passkeys: the browser library, then the page's glue). */
export const TWO_FACTOR_SCRIPTS = [SCRIPTS.webauthn, '/assets/passkeys.js'];

const dateOf = (iso: string) => iso.slice(0, 10);

/** The two-factor section of the security page. */
export async function twoFactorSection(
  deps: Deps,
  request: FastifyRequest,
  user: User,
  csrf: string,
  state: TwoFactorState,
): Promise<Html> {
  const status = await twoFactorStatus(deps, user);
  const next = state.next ? html`<input type="hidden" name="next" value="${state.next}">` : '';
  const password = (at: string, id: string) => html`<label for="${id}">Your password</label>
<input id="${id}" name="password" type="password" autocomplete="current-password" required${invalidIf(state, at)}>`;
  const options = await passkeyRegistrationOptions(deps, user, relyingParty(deps, request.headers.host));

  const codes = state.codes
    ? html`<div class="notice warn recovery" role="status" id="recovery-codes">
<h3>Your recovery codes</h3>
<p>Keep these somewhere safe, away from your password. Each code signs you in once if you cannot use your app or passkey. They are shown only now.</p>
<ol class="recovery-codes">${state.codes.map((c) => html`<li><code>${c}</code></li>`)}</ol>
${state.next ? html`<p><a class="button" href="${state.next}">Continue</a></p>` : ''}
</div>`
    : '';

  let app: Html;
  if (status.totp) {
    app = html`<p>Your authenticator app is set up.</p>
<details><summary>Remove the authenticator app</summary>
${errorFor(state, 'totp-remove')}
<form method="post" action="/account/security/totp/remove" novalidate>
${hidden(csrf)}
${password('totp-remove', 'totp-remove-password')}
<div class="actions"><button type="submit" class="danger">Remove the app</button></div>
</form></details>`;
  } else if (status.pendingUri && status.pendingSecret) {
    const qr = await (await qrcode()).toDataURL(status.pendingUri, {
      margin: 2,
      errorCorrectionLevel: 'M',
      width: 240,
    });
    app = html`<ol class="steps" id="totp-setup">
<li><p>Scan this code with your authenticator app (or open the address on this device):</p>
<figure class="qr"><img src="${qr}" width="240" height="240" alt="QR code of the set-up address below"></figure>
<p class="hint">Set-up address</p>
<p class="setup-uri"><code id="totp-uri">${status.pendingUri}</code></p>
<p class="hint">Or type the key: <code id="totp-secret">${status.pendingSecret}</code></p></li>
<li><p>Enter the 6-digit code the app shows to confirm.</p>
${errorFor(state, 'totp-confirm')}
<form method="post" action="/account/security/totp/confirm" novalidate>
${hidden(csrf)}${next}
<label for="totp-code">Code from the app</label>
<input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required${invalidIf(state, 'totp-confirm')}>
<div class="actions"><button type="submit">Turn on</button></div>
</form></li></ol>`;
  } else {
    app = html`<p>Use an app such as a password manager or an authenticator to make a new code every 30 seconds.</p>
${errorFor(state, 'totp-start')}
<form method="post" action="/account/security/totp/start">
${hidden(csrf)}${next}
<div class="actions"><button type="submit">Set up an authenticator app</button></div>
</form>`;
  }

  const passkeys = html`${
    status.passkeys.length
      ? html`<ul class="plain passkeys">${status.passkeys.map(
          (p) =>
            html`<li><strong>${p.name}</strong> <span class="muted">added ${dateOf(p.created_at)}${p.last_used_at ? `, last used ${dateOf(p.last_used_at)}` : ''}</span></li>`,
        )}</ul>`
      : html`<p>No passkeys yet.</p>`
  }
${errorFor(state, 'passkey-add')}
${
  status.passkeys.length < MAX_PASSKEYS
    ? html`<p class="hint" data-passkey-noscript>Adding a passkey needs JavaScript.</p>
<form method="post" action="/account/security/passkeys/add" data-passkey="register" data-passkey-options="${JSON.stringify(options)}" hidden>
${hidden(csrf)}${next}
<input type="hidden" name="response" value="">
<label for="passkey-name">Name of the passkey</label>
<input id="passkey-name" name="name" type="text" maxlength="100" value="Passkey" aria-describedby="passkey-name-hint">
<p class="hint" id="passkey-name-hint">So you can tell your passkeys apart, such as “Laptop” or “Phone”.</p>
<p class="passkey-status" role="alert" data-passkey-status></p>
<div class="actions"><button type="submit">Add a passkey</button></div>
</form>`
    : ''
}
${
  status.passkeys.length
    ? html`<details><summary>Remove a passkey</summary>
${errorFor(state, 'passkey-remove')}
<form method="post" action="/account/security/passkeys/remove" novalidate>
${hidden(csrf)}
<label for="passkey-remove-id">Passkey</label>
<select id="passkey-remove-id" name="id">${status.passkeys.map((p) => html`<option value="${p.id}">${p.name} (added ${dateOf(p.created_at)})</option>`)}</select>
${password('passkey-remove', 'passkey-remove-password')}
<div class="actions"><button type="submit" class="danger">Remove the passkey</button></div>
</form></details>`
    : ''
}`;

  const recovery = status.on
    ? html`<h3>Recovery codes</h3>
<p id="recovery-left">${status.recoveryCodesLeft} of ${RECOVERY_CODE_COUNT} recovery codes left.</p>
<details><summary>Make new recovery codes</summary>
<p class="hint">The old codes stop working.</p>
${errorFor(state, 'recovery')}
<form method="post" action="/account/security/recovery-codes" novalidate>
${hidden(csrf)}
${password('recovery', 'recovery-password')}
<div class="actions"><button type="submit" class="secondary">Make new codes</button></div>
</form></details>
${
  deps.config.require2fa
    ? html`<p class="muted">This server requires two-factor sign-in, so it cannot be turned off.</p>`
    : html`<h3>Turn off</h3>
<details><summary>Turn off two-factor sign-in</summary>
<p class="hint">Removes your app, passkeys and recovery codes, and signs out your other sessions.</p>
${errorFor(state, 'off')}
<form method="post" action="/account/security/two-factor/off" novalidate>
${hidden(csrf)}
${password('off', 'off-password')}
<div class="actions"><button type="submit" class="danger">Turn off two-factor sign-in</button></div>
</form></details>`
}`
    : '';

  return html`<section aria-labelledby="two-factor-heading" id="two-factor" class="two-factor">
<h2 id="two-factor-heading">Two-factor sign-in ${status.on ? html`<span class="badge ok" id="two-factor-state">on</span>` : html`<span class="badge" id="two-factor-state">off</span>`}</h2>
<p>After your password, signing in asks for a code from your app, a passkey or a recovery code.</p>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${codes}
<h3>Authenticator app</h3>
${app}
<h3>Passkeys</h3>
${passkeys}
${recovery}
</section>`;
}

const Csrf = { _csrf: Type.String({ maxLength: 200 }) };
const Next = { next: Type.Optional(Type.String({ maxLength: 2000 })) };
const PasswordBody = Type.Object({ ...Csrf, password: Type.String({ maxLength: 1000 }) });

/** The section's forms: each a domain call, then a 303 back with a notice, or the page with new
 * recovery codes, or the page with the error beside its form. */
export async function twoFactorRoutes(app: PageApp, deps: Deps, render: RenderSecurity): Promise<void> {
  function post<S extends TSchema>(
    path: string,
    schema: S,
    at: string,
    action: (
      body: Static<S>,
      request: FastifyRequest,
      user: User,
    ) => Promise<{ done: string } | { codes: string[] }>,
  ) {
    app.post(
      path,
      { schema: { hide: true, body: schema }, preHandler: [app.csrfProtection, signedInOnly(deps)] },
      async (request, reply) => {
        const user = request.sessionUser;
        const body = validated(schema, request.body);
        const rawNext = typeof body === 'object' && body && 'next' in body ? body.next : undefined;
        const next = typeof rawNext === 'string' && rawNext ? safeNext(rawNext) : undefined;
        let result: { done: string } | { codes: string[] };
        try {
          result = await action(body, request, user);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err;
          return render(request, reply, user, { error: err, errorAt: at, next }, err.status);
        }
        if ('codes' in result)
          return render(request, reply, user, { codes: result.codes, next: next ?? '/' });
        const back = next ? `&next=${encodeURIComponent(next)}` : '';
        return reply.redirect(`/account/security?done=${result.done}${back}#two-factor`, 303);
      },
    );
  }
  const ip = (request: FastifyRequest) => request.ip ?? null;
  const keep = (request: FastifyRequest) => sessionId(request) ?? null;

  post(
    '/account/security/totp/start',
    Type.Object({ ...Csrf, ...Next }),
    'totp-start',
    async (_b, _r, user) => {
      await startTotpEnrolment(deps, user);
      return { done: 'totp-started' };
    },
  );

  post(
    '/account/security/totp/confirm',
    Type.Object({ ...Csrf, ...Next, code: Type.String({ maxLength: 20 }) }),
    'totp-confirm',
    async (body, request, user) => {
      const codes = await confirmTotp(deps, user, body.code, keep(request));
      return codes ? { codes } : { done: 'totp-on' };
    },
  );

  post('/account/security/totp/remove', PasswordBody, 'totp-remove', async (body, request, user) => {
    await removeTotp(deps, user, body.password, ip(request), keep(request));
    return { done: 'totp-removed' };
  });

  post(
    '/account/security/passkeys/add',
    Type.Object({
      ...Csrf,
      ...Next,
      name: Type.Optional(Type.String({ maxLength: 100 })),
      response: Type.String({ maxLength: 20_000 }),
    }),
    'passkey-add',
    async (body, request, user) => {
      const rp = relyingParty(deps, request.headers.host);
      const codes = await addPasskey(deps, user, rp, body.response, body.name ?? '', keep(request));
      return codes ? { codes } : { done: 'passkey-added' };
    },
  );

  post(
    '/account/security/passkeys/remove',
    Type.Object({
      ...Csrf,
      id: Type.String({ maxLength: 1000 }),
      password: Type.String({ maxLength: 1000 }),
    }),
    'passkey-remove',
    async (body, request, user) => {
      await removePasskey(deps, user, body.id, body.password, ip(request), keep(request));
      return { done: 'passkey-removed' };
    },
  );

  post('/account/security/recovery-codes', PasswordBody, 'recovery', async (body, request, user) => ({
    codes: await regenerateRecoveryCodes(deps, user, body.password, ip(request)),
  }));

  post('/account/security/two-factor/off', PasswordBody, 'off', async (body, request, user) => {
    await turnOffTwoFactor(deps, user, body.password, ip(request), keep(request));
    return { done: 'off' };
  });
}
