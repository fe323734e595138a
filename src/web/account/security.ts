// GET /account/security: the account's security settings, one section each (signed-in sessions:
// security-sessions.ts, with its forms). This file is only the page and its frame.
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { preferencesOf } from '../../domain/accounts/preferences.js';
import { messages } from '../forms.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, sessionId, signedInOnly } from '../session.js';
import { accountNav, sendPage, userPage } from './frame.js';
import { SECURITY_PATH, SESSION_NOTICES, sessionsRoutes, sessionsSection } from './security-sessions.js';

const NOTICES: Record<string, string | ((n: number) => string)> = { ...SESSION_NOTICES };

const SecurityQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  n: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
});

export async function securityPages(app: PageApp, deps: Deps): Promise<void> {
  app.get(
    SECURITY_PATH,
    { schema: { hide: true, querystring: SecurityQuery }, preHandler: signedInOnly(deps) },
    async (request, reply) => {
      const user = request.sessionUser;
      const { done, n } = request.query;
      const notice = done ? NOTICES[done] : undefined;
      const csrf = await csrfToken(deps, reply);
      const { time_zone: zone } = await preferencesOf(deps, user.id);
      const body = html`<h1>Security</h1>
${accountNav('security')}
${messages(typeof notice === 'function' ? notice(Number(n ?? 0)) : notice, undefined)}
${await sessionsSection(deps, user, sessionId(request), csrf, zone)}`;
      return sendPage(reply, await userPage(deps, reply, user, 'Security', body, { section: 'account' }));
    },
  );

  await sessionsRoutes(app, deps);
}
