// The signed-in sessions section of /account/security: each session of the account (the browser in
// words, its address, when it signed in and was last seen, the current one marked) with a form to
// sign it out, and one to sign out all the others. A session is named by its public id; ending
// one of another account's ids is 404 (the domain refuses it) and changes nothing.
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { endSessionById, listSessions, signOutOtherSessions } from '../../domain/accounts/sessions.js';
import type { User } from '../../domain/accounts/users.js';
import { localTime } from '../../platform/time-zones.js';
import { formBody, hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { sessionId, signedInOnly } from '../session.js';

export const SECURITY_PATH = '/account/security';

/** The notices of this section, by the `done` its forms redirect with. */
export const SESSION_NOTICES: Record<string, string | ((n: number) => string)> = {
  'session-ended': 'The session is signed out.',
  'others-ended': (n) =>
    n === 0
      ? 'There were no other sessions to sign out.'
      : `${n} other session${n === 1 ? ' is' : 's are'} signed out.`,
};

const SessionParams = Type.Object({ publicId: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' }) });

function when(iso: string, zone: string): Html {
  return html`<time datetime="${iso}">${localTime(iso, zone)}</time>`;
}

/** The section's markup for `user`, the current session being the cookie of this request. */
export async function sessionsSection(
  deps: Deps,
  user: User,
  currentSessionId: string | undefined,
  csrf: string,
  zone: string,
): Promise<Html> {
  const sessions = await listSessions(deps, user.id, currentSessionId);
  const others = sessions.filter((s) => !s.current).length;
  return html`<section aria-labelledby="sessions-heading" id="sessions">
<h2 id="sessions-heading">Signed-in sessions</h2>
<p class="hint">The browsers where your account is signed in. Sign out any you do not recognise, then change
your password. Times are in ${zone}.</p>
<table class="cards sessions"><caption class="visually-hidden">Signed-in sessions</caption>
<thead><tr><th scope="col">Browser</th><th scope="col">Address</th><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Action</th></tr></thead>
<tbody>${sessions.map(
    (
      s,
    ) => html`<tr${s.current ? html` class="current"` : ''}><td data-label="Browser"><strong>${s.device}</strong>${
      s.current ? html` <span class="badge ok">This browser</span>` : ''
    }</td>
<td data-label="Address" class="break">${s.ip ?? 'Unknown'}</td>
<td data-label="Signed in">${when(s.createdAt, zone)}</td>
<td data-label="Last seen">${s.current ? 'Now' : when(s.lastSeenAt, zone)}</td>
<td data-label="Action">${
      s.current
        ? html`<span class="muted">Use Sign out at the top</span>`
        : s.publicId
          ? html`<form method="post" action="${SECURITY_PATH}/sessions/${s.publicId}/end" class="inline">${hidden(csrf)}<button type="submit" class="secondary">Sign out<span class="visually-hidden"> ${s.device} (${s.ip ?? 'unknown address'}), last seen ${localTime(s.lastSeenAt, zone)}</span></button></form>`
          : html`<span class="muted">Use Sign out all other sessions</span>`
    }</td></tr>`,
  )}</tbody></table>
${
  others > 0
    ? html`<form method="post" action="${SECURITY_PATH}/sessions/end-others">${hidden(csrf)}
<div class="actions"><button type="submit" class="danger">Sign out all other sessions</button></div></form>`
    : html`<p class="empty">No other browser is signed in.</p>`
}
</section>`;
}

/** The section's forms: sign out one session, or all but this one. */
export async function sessionsRoutes(app: PageApp, deps: Deps): Promise<void> {
  app.post(
    `${SECURITY_PATH}/sessions/:publicId/end`,
    {
      schema: { hide: true, params: SessionParams, body: formBody({}) },
      preHandler: [app.csrfProtection, signedInOnly(deps)],
    },
    async (request, reply) => {
      await endSessionById(deps, request.sessionUser.id, request.params.publicId, request.ip ?? null);
      return reply.redirect(`${SECURITY_PATH}?done=session-ended#sessions`, 303);
    },
  );

  app.post(
    `${SECURITY_PATH}/sessions/end-others`,
    { schema: { hide: true, body: formBody({}) }, preHandler: [app.csrfProtection, signedInOnly(deps)] },
    async (request, reply) => {
      const current = sessionId(request);
      // signedInOnly admitted the request, so it has a session cookie
      const n = current
        ? await signOutOtherSessions(deps, request.sessionUser.id, current, request.ip ?? null)
        : 0;
      return reply.redirect(`${SECURITY_PATH}?done=others-ended&n=${n}#sessions`, 303);
    },
  );
}
