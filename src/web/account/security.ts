// GET /account/security: how the account signs in. The page is a frame of sections, each with its
// own file for its rendering and forms (two-factor sign-in: security-two-factor.ts; signed-in
// sessions: security-sessions.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { preferencesOf } from '../../domain/accounts/preferences.js';
import { mustSetUpTwoFactor } from '../../domain/accounts/two-factor.js';
import type { User } from '../../domain/accounts/users.js';
import { messages } from '../forms.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, safeNext, sessionId, signedInOnly } from '../session.js';
import { accountNav, sendPage, userPage } from './frame.js';
import { SECURITY_PATH, SESSION_NOTICES, sessionsRoutes, sessionsSection } from './security-sessions.js';
import {
  TWO_FACTOR_NOTICES,
  TWO_FACTOR_SCRIPTS,
  type TwoFactorState,
  twoFactorRoutes,
  twoFactorSection,
} from './security-two-factor.js';

const SecurityQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  n: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
  next: Type.Optional(Type.String({ maxLength: 2000 })),
});

export async function securityPages(app: PageApp, deps: Deps): Promise<void> {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    twoFactor: TwoFactorState,
    status = 200,
    sessionNotice?: string,
  ) {
    const csrf = await csrfToken(deps, reply);
    const required = await mustSetUpTwoFactor(deps, user);
    const { time_zone: zone } = await preferencesOf(deps, user.id);
    const body = html`<h1>Security</h1>
${accountNav('security')}
${required ? html`<p class="notice warn" role="alert" id="two-factor-required">This server requires two-factor sign-in. Set up an authenticator app or a passkey to go on.</p>` : ''}
${messages(sessionNotice, undefined)}
${await twoFactorSection(deps, request, user, csrf, twoFactor)}
${await sessionsSection(deps, user, sessionId(request), csrf, zone)}`;
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'Security', body, {
        section: 'account',
        scripts: TWO_FACTOR_SCRIPTS,
      }),
      status,
    );
  }

  app.get(
    SECURITY_PATH,
    { schema: { hide: true, querystring: SecurityQuery }, preHandler: signedInOnly(deps) },
    async (request, reply) => {
      const { done, n, next } = request.query;
      const sessionNotice = done ? SESSION_NOTICES[done] : undefined;
      return render(
        request,
        reply,
        request.sessionUser,
        { notice: TWO_FACTOR_NOTICES[done ?? ''], next: next ? safeNext(next) : undefined },
        200,
        typeof sessionNotice === 'function' ? sessionNotice(Number(n ?? 0)) : sessionNotice,
      );
    },
  );

  await twoFactorRoutes(app, deps, render);
  await sessionsRoutes(app, deps);
}
