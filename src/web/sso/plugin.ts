// Single sign-on pages: OpenID Connect (/auth/oidc/login, its callback) and SAML (/auth/saml/login,
// the SP metadata, the assertion consumer). Each turns a request into a call of
// domain/accounts/oidc.ts or saml.ts and its answer into a session, or into an error page that
// says what was wrong (nothing is changed then). The consumer takes the IdP's cross-site POST, so it
// has no CSRF token: the signed assertion, answering a request of ours, once, is the proof.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { finishOidc, OIDC_CALLBACK_PATH, startOidc } from '../../domain/accounts/oidc.js';
import {
  finishSaml,
  SAML_ACS_PATH,
  SAML_METADATA_PATH,
  spMetadata,
  startSaml,
} from '../../domain/accounts/saml.js';
import { dropSession, SESSION_DAYS, startSession } from '../../domain/accounts/sessions.js';
import { PENDING_MINUTES, SsoError, type SsoReason } from '../../domain/accounts/sso.js';
import type { User } from '../../domain/accounts/users.js';
import { sendPage } from '../account/frame.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import { type PageApp, pageArea } from '../page-area.js';
import { SESSION_COOKIE, safeNext, sessionCookieOptions, sessionId } from '../session.js';
import { OIDC_LOGIN_PATH, SAML_LOGIN_PATH } from './paths.js';

/** The cookie binding an OIDC sign-in to the browser that started it. */
const BROWSER_COOKIE = 'ss_sso';

const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });
const CallbackQuery = Type.Record(Type.String(), Type.String({ maxLength: 4000 }));
const AcsBody = Type.Object({
  SAMLResponse: Type.String({ minLength: 1, maxLength: 1_000_000 }),
  RelayState: Type.Optional(Type.String({ maxLength: 2000 })),
});

const STATUS: Record<SsoReason, number> = {
  not_configured: 404,
  invalid_response: 400,
  expired: 400,
  replayed: 400,
  no_email: 403,
  domain: 403,
  unverified: 403,
  unconfirmed: 403,
  inactive: 403,
  provider_unavailable: 503,
};

function failed(reply: FastifyReply, err: SsoError): FastifyReply {
  return sendPage(
    reply,
    page(
      'Single sign-on failed',
      html`<h1>Single sign-on failed</h1>
<p role="alert" class="error">${err.message}</p>
<p>You are not signed in, and nothing was changed.</p>
<p><a href="/login">Back to sign in</a></p>`,
      { narrow: true },
    ),
    STATUS[err.reason],
  );
}

/** The browser's new session, replacing any it had. */
async function signedIn(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  method: 'oidc' | 'saml',
  next: string,
): Promise<FastifyReply> {
  const old = sessionId(request);
  if (old) await dropSession(deps, old);
  const id = await startSession(deps, user, request.ip ?? null, {
    userAgent: request.headers['user-agent'] ?? null,
    method,
    // The identity provider asks for its own second factor: none is asked here.
    secondFactor: null,
  });
  reply.setCookie(SESSION_COOKIE, id, {
    ...sessionCookieOptions(deps, request),
    maxAge: SESSION_DAYS * 86_400,
  });
  return reply.redirect(safeNext(next), 303);
}

async function ssoRoutes(app: PageApp, deps: Deps): Promise<void> {
  const handle = async (reply: FastifyReply, work: () => Promise<FastifyReply>) => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof SsoError) return failed(reply, err);
      throw err;
    }
  };

  app.get(OIDC_LOGIN_PATH, { schema: { hide: true, querystring: NextQuery } }, (request, reply) =>
    handle(reply, async () => {
      const redirectUri = `${deps.config.regionUrls.us}${OIDC_CALLBACK_PATH}`;
      const { url, browser } = await startOidc(deps, redirectUri, safeNext(request.query.next));
      reply.setCookie(BROWSER_COOKIE, browser, {
        ...sessionCookieOptions(deps, request),
        path: '/auth/oidc',
        maxAge: PENDING_MINUTES * 60,
      });
      return reply.redirect(url, 303);
    }),
  );

  app.get(OIDC_CALLBACK_PATH, { schema: { hide: true, querystring: CallbackQuery } }, (request, reply) =>
    handle(reply, async () => {
      const url = new URL(`${deps.config.regionUrls.us}${OIDC_CALLBACK_PATH}`);
      for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
      const browser = request.cookies[BROWSER_COOKIE] ?? null;
      reply.clearCookie(BROWSER_COOKIE, { ...sessionCookieOptions(deps, request), path: '/auth/oidc' });
      const { user, next } = await finishOidc(deps, url, browser);
      return signedIn(deps, request, reply, user, 'oidc', next);
    }),
  );

  app.get(SAML_LOGIN_PATH, { schema: { hide: true, querystring: NextQuery } }, (request, reply) =>
    handle(reply, async () => reply.redirect(await startSaml(deps, safeNext(request.query.next)), 303)),
  );

  app.get(SAML_METADATA_PATH, { schema: { hide: true } }, (_request, reply) =>
    handle(reply, async () => {
      if (!deps.config.sso.saml)
        throw new SsoError('not_configured', 'SAML sign-in is not set up on this service.');
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(await spMetadata(deps));
    }),
  );

  app.post(SAML_ACS_PATH, { schema: { hide: true, body: AcsBody } }, (request, reply) =>
    handle(reply, async () => {
      const { user, next } = await finishSaml(deps, request.body.SAMLResponse);
      return signedIn(deps, request, reply, user, 'saml', next);
    }),
  );
}

export function ssoArea(deps: Deps) {
  return pageArea('sso-pages', deps, [ssoRoutes]);
}
