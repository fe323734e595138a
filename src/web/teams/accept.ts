// The invitation accept page, reached by the link in an invitation. The signed token in the link
// is the capability: the form posts it back with the invited user's password (the username is
// fixed by the invitation). No cookie or session is involved, so a forged cross-site POST has
// nothing to ride on: without the token it does nothing.
import formbody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../context.js';
import { SSO_REQUIRED_TEXT, signIn } from '../../domain/accounts/sign-in.js';
import { findUserById } from '../../domain/accounts/users.js';
import { waitText } from '../../domain/limits/attempts.js';
import { ACCEPT_PATH, invitationByToken } from '../../domain/teams/invitations.js';
import type { TeamMember } from '../../domain/teams/membership.js';
import { findTeam, joinTeam } from '../../domain/teams/teams.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage } from '../account/frame.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pagePlugin } from '../page-area.js';
import { deviceCookie } from '../session.js';

function send(reply: FastifyReply, status: number, title: string, body: ReturnType<typeof html>) {
  // The token is in the URL: never cached (and, as every page, never framed nor sent as Referer).
  return sendPage(reply, page(title, body), status);
}

const INVALID = html`<h1>Invitation not found</h1>
<p>This invitation link is not valid. It may have expired, been replaced by a newer invitation, or
already been accepted. Ask a team admin to send you a new one.</p>`;

async function describe(deps: Deps, member: TeamMember) {
  const team = await findTeam(deps, member.team_id);
  const user = await findUserById(deps, member.user_id);
  return {
    teamName: team?.name ?? '',
    username: user?.username ?? '',
    active: user?.status === 'active',
  };
}

function form(token: string, teamName: string, username: string, type: string, error?: string) {
  return html`<h1>Join the team ${teamName}</h1>
<p>You have been invited to join <strong>${teamName}</strong> as ${type === 'admin' ? 'an admin' : 'a member'}.
Enter your password to accept.</p>
${error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : ''}
<form method="post" action="${ACCEPT_PATH}">
<input type="hidden" name="token" value="${token}">
<label for="username">Username</label>
<input id="username" name="username" value="${username}" readonly autocomplete="username">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password"${error ? html` aria-describedby="form-error" aria-invalid="true"` : ''}>
<p><button type="submit">Accept invitation</button></p>
</form>`;
}

async function teamRoutes(app: PageApp, options: { deps: Deps }): Promise<void> {
  const { deps } = options;
  await app.register(formbody);

  app.get<{ Querystring: { token?: string } }>(
    ACCEPT_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      const member = await invitationByToken(deps, token);
      if (!member) return send(reply, 404, 'Invitation not found', INVALID);
      const { teamName, username } = await describe(deps, member);
      return send(reply, 200, `Join ${teamName}`, form(token, teamName, username, member.type));
    },
  );

  app.post<{ Body: { token?: unknown; password?: unknown } }>(
    ACCEPT_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      const body = request.body ?? {};
      const token = typeof body.token === 'string' ? body.token : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const member = await invitationByToken(deps, token);
      if (!member) return send(reply, 404, 'Invitation not found', INVALID);
      const { teamName, username, active } = await describe(deps, member);
      if (!active) return send(reply, 404, 'Invitation not found', INVALID);
      // The same reserve-then-verify throttle as /login (per account and per address, or per
      // device for a browser that signed in before), so concurrent guesses check no more
      // passwords than sequential ones would.
      const checked = await signIn(deps, username, password, request.ip, deviceCookie(request));
      if (!checked.ok && checked.reason === 'sso_required')
        return send(
          reply,
          403,
          `Join ${teamName}`,
          form(token, teamName, username, member.type, SSO_REQUIRED_TEXT),
        );
      if (!checked.ok && checked.reason !== 'invalid')
        return send(
          reply.header('retry-after', String(checked.retryAfterSeconds)),
          429,
          'Too many attempts',
          html`<h1>Too many attempts</h1><p>The password was wrong too many times. Try again in ${waitText(checked.retryAfterSeconds)}.</p>`,
        );
      if (!checked.ok)
        return send(
          reply,
          401,
          `Join ${teamName}`,
          form(token, teamName, username, member.type, 'That password is not right. Try again.'),
        );
      try {
        await joinTeam(deps, member, request.ip);
      } catch (err) {
        if (err instanceof ApiError && err.code === 1025)
          return send(reply, 404, 'Invitation not found', INVALID);
        throw err;
      }
      return send(
        reply,
        200,
        `Joined ${teamName}`,
        html`<h1>Welcome to ${teamName}</h1><p role="status">You, ${username}, are now a member of the team <strong>${teamName}</strong>.</p>
<p><a href="/team">Open the Team page</a> to see its members and workgroups.</p>`,
      );
    },
  );
}

export const teamPages = pagePlugin('team-pages', teamRoutes);
