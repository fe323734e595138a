// GET/POST /oauth/authorize: the authorization code flow's browser half (spec "OAuth 2.0
// authorization code flow"). An unknown client or a redirect URI that is not registered exactly
// never redirects: it shows an error page. Otherwise the visitor signs in if needed, sees a consent
// page naming the app and the scopes it asks for, and is sent back with a code or access_denied.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../context.js';
import { type App, isDisabled } from '../domain/accounts/apps.js';
import { createCode } from '../domain/accounts/grants.js';
import { findReview, scopeMap, usableScopes } from '../domain/accounts/lifecycle.js';
import type { User } from '../domain/accounts/users.js';
import { sameTeam } from '../domain/teams/membership.js';
import { availableScopes, isPaid } from '../platform/plans.js';
import { SCOPE_NAMES, type Scope, scopeInfo } from '../platform/scopes.js';
import { errorPage, sendPage, userPage } from '../web/account/frame.js';
import { html } from '../web/html.js';
import type { PageApp } from '../web/page-area.js';
import { csrfToken, currentUser, loginUrl } from '../web/session.js';
import { planOf, textList } from '../web/typed.js';

const str = (max = 2000) => Type.Optional(Type.String({ maxLength: max }));
const AuthorizeQuery = Type.Object(
  {
    response_type: str(),
    client_id: str(),
    redirect_uri: str(),
    state: str(),
    scope: str(),
    code_challenge: str(),
    code_challenge_method: str(),
  },
  { additionalProperties: true },
);
const DecisionBody = Type.Object(
  {
    _csrf: Type.String(),
    decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
    response_type: str(),
    client_id: str(),
    redirect_uri: str(),
    state: str(),
    code_challenge: str(),
    code_challenge_method: str(),
    scope: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 100 }),
        Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 }),
      ]),
    ),
  },
  { additionalProperties: false },
);

type Params = {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
};

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const DENIED = 'Resource owner canceled the request';

function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>) {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.redirect(url.toString(), 302);
}

interface Checked {
  app: App;
  redirectUri: string;
  codeChallenge: string | null;
}

/** Steps that never redirect (client and redirect URI), then those answered at the redirect URI. */
async function checkClient(deps: Deps, p: Params, reply: FastifyReply): Promise<Checked | null> {
  const app = p.client_id
    ? await deps.db.kysely
        .selectFrom('apps')
        .selectAll()
        .where('client_id', '=', p.client_id)
        .executeTakeFirst()
    : undefined;
  if (!app) {
    errorPage(
      reply,
      400,
      'Unknown app',
      'The app that sent you here is not registered (unknown client_id). No access was granted.',
    );
    return null;
  }
  const uris = textList(app.redirect_uris);
  if (!p.redirect_uri || !uris.includes(p.redirect_uri)) {
    errorPage(
      reply,
      400,
      'Invalid redirect address',
      html`The app <strong>${app.name}</strong> sent you here with a redirect address it has not registered, so you were not sent on. No access was granted.`,
    );
    return null;
  }
  const base = { state: p.state };
  if (p.response_type !== 'code') {
    redirectWith(reply, p.redirect_uri, {
      error: 'unsupported_response_type',
      error_description: 'response_type must be code',
      ...base,
    });
    return null;
  }
  if (p.code_challenge !== undefined || p.code_challenge_method !== undefined) {
    if ((p.code_challenge_method ?? 'plain') !== 'S256' || !PKCE_CHALLENGE.test(p.code_challenge ?? '')) {
      redirectWith(reply, p.redirect_uri, {
        error: 'invalid_request',
        error_description: 'PKCE requires code_challenge_method=S256 and a 43-character code_challenge',
        ...base,
      });
      return null;
    }
  }
  if (isDisabled(app, deps.clock.now())) {
    errorPage(
      reply,
      403,
      'App disabled',
      html`The app <strong>${app.name}</strong> is disabled: its development period ended before it was deployed. No access was granted.`,
    );
    return null;
  }
  return { app, redirectUri: p.redirect_uri, codeChallenge: p.code_challenge ?? null };
}

interface ScopePlan {
  required: Scope[];
  optional: Scope[];
  /** optional scopes the user's plan does not include: shown, not granted */
  unavailable: Scope[];
}

/** Who may authorize the app, and which scopes the consent page offers; null after an error page. */
async function checkUser(deps: Deps, app: App, user: User, reply: FastifyReply): Promise<ScopePlan | null> {
  const plan = planOf(user);
  // An unconfirmed address may be someone else's: such an account grants nothing until confirmed.
  if (!user.email_verified) {
    errorPage(
      reply,
      403,
      'Confirm your address first',
      html`Your account's email address is not confirmed yet, so it cannot allow apps to use it. Open the link we emailed you (your <a href="/account">account page</a> can send it again), then try again. No access was granted.`,
    );
    return null;
  }
  if (app.status === 'draft' && app.owner_id !== user.id) {
    errorPage(
      reply,
      403,
      'App not available',
      html`<strong>${app.name}</strong> is still in development: only its developer can authorize it. No access was granted.`,
    );
    return null;
  }
  // A private app serves its owner and the members of the owner's team, on a paid plan.
  const inTeam = app.owner_id === user.id || (await sameTeam(deps, app.owner_id, user.id));
  if (app.status === 'private' && (!inTeam || !isPaid(plan))) {
    errorPage(
      reply,
      403,
      'App not available',
      html`<strong>${app.name}</strong> is a private app: it can only be used by members of its developer's team who have a paid plan. No access was granted.`,
    );
    return null;
  }
  const map = scopeMap(app);
  const usable = usableScopes(app, await findReview(deps, app.id));
  const available = new Set(availableScopes(plan));
  const required = SCOPE_NAMES.filter((s) => map[s] === 'required' && usable.has(s));
  const missing = required.filter((s) => !available.has(s));
  if (missing.length > 0) {
    errorPage(
      reply,
      403,
      'Upgrade needed',
      html`<strong>${app.name}</strong> needs ${missing.map((s, i) => html`${i ? ', ' : ''}“${scopeInfo(s).label}”`)}, which your ${plan} plan does not include. Upgrade to a paid plan to use this app. No access was granted.`,
    );
    return null;
  }
  const optionalAll = SCOPE_NAMES.filter((s) => map[s] === 'optional' && usable.has(s));
  return {
    required,
    optional: optionalAll.filter((s) => available.has(s)),
    unavailable: optionalAll.filter((s) => !available.has(s)),
  };
}

export async function authorizeRoutes(app: PageApp, deps: Deps): Promise<void> {
  app.get(
    '/oauth/authorize',
    { schema: { hide: true, querystring: AuthorizeQuery } },
    async (request, reply) => {
      const p = request.query;
      const checked = await checkClient(deps, p, reply);
      if (!checked) return reply;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(request.url), 303);
      const scopes = await checkUser(deps, checked.app, user, reply);
      if (!scopes) return reply;
      return sendPage(reply, await consentPage(deps, reply, user, checked.app, p, scopes));
    },
  );

  app.post(
    '/oauth/authorize',
    { schema: { hide: true, body: DecisionBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const body = request.body;
      const checked = await checkClient(deps, body, reply);
      if (!checked) return reply;
      const user = await currentUser(deps, request);
      if (!user) {
        const again = new URLSearchParams(
          Object.entries(body).flatMap(([k, v]): [string, string][] =>
            !['_csrf', 'decision', 'scope'].includes(k) && typeof v === 'string' ? [[k, v]] : [],
          ),
        );
        return reply.redirect(loginUrl(`/oauth/authorize?${again}`), 303);
      }
      const scopes = await checkUser(deps, checked.app, user, reply);
      if (!scopes) return reply;
      if (body.decision === 'deny')
        return redirectWith(reply, checked.redirectUri, {
          error: 'access_denied',
          error_description: DENIED,
          state: body.state,
        });
      const chosen = new Set([body.scope ?? []].flat());
      const granted = [...scopes.required, ...scopes.optional.filter((s) => chosen.has(s))];
      const code = await createCode(deps, {
        app: checked.app,
        userId: user.id,
        redirectUri: checked.redirectUri,
        scopes: SCOPE_NAMES.filter((s) => granted.includes(s)),
        codeChallenge: checked.codeChallenge,
      });
      return redirectWith(reply, checked.redirectUri, { code, state: body.state });
    },
  );
}

async function consentPage(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  app: App,
  p: Params,
  scopes: ScopePlan,
) {
  const hidden = (
    [
      'response_type',
      'client_id',
      'redirect_uri',
      'state',
      'code_challenge',
      'code_challenge_method',
    ] as const
  )
    .filter((k) => p[k] !== undefined)
    .map((k) => html`<input type="hidden" name="${k}" value="${p[k]}">`);
  const host = new URL(p.redirect_uri!).host;
  const body = html`<h1>Allow <span id="app-name">${app.name}</span> to use your account?</h1>
<p>Signed in as <strong>${user.username}</strong>. After you decide you will be sent back to <strong>${host || p.redirect_uri}</strong>.</p>
<form method="post" action="/oauth/authorize">
<input type="hidden" name="_csrf" value="${await csrfToken(deps, reply)}">
${hidden}
${
  scopes.required.length
    ? html`<fieldset><legend>Required access</legend>
<p class="muted">The app cannot work without these.</p>
<ul class="scopes">${scopes.required.map((s) => html`<li data-scope="${s}">${scopeInfo(s).label}</li>`)}</ul></fieldset>`
    : ''
}
${
  scopes.optional.length
    ? html`<fieldset><legend>Optional access</legend>
<p class="muted">Clear any you do not want to allow.</p>
${scopes.optional.map(
  (s) =>
    html`<div class="check"><input type="checkbox" name="scope" value="${s}" id="scope-${s}" checked> <label for="scope-${s}">${scopeInfo(s).label}</label></div>`,
)}</fieldset>`
    : ''
}
${
  scopes.unavailable.length
    ? html`<p class="muted">Not included in your plan, so not allowed: ${scopes.unavailable.map((s, i) => html`${i ? ', ' : ''}${scopeInfo(s).label}`)}.</p>`
    : ''
}
${!scopes.required.length && !scopes.optional.length ? html`<p>The app asks for no access to your data.</p>` : ''}
<p><button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></p>
</form>`;
  return userPage(deps, reply, user, `Authorize ${app.name}`, body);
}
