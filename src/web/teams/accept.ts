// The invitation accept page, reached by the link in an invitation. The signed token in the link
// is the capability: the form posts it back with the invited user's password (the username is
// fixed by the invitation). No cookie or session is involved, so a forged cross-site POST has
// nothing to ride on: without the token it does nothing.
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../context.js';
import { findUserById } from '../../domain/accounts/users.js';
import { recordEvent } from '../../domain/events.js';
import { ACCEPT_PATH, invitationByToken } from '../../domain/teams/invitations.js';
import type { TeamMember } from '../../domain/teams/membership.js';
import { findTeam, joinTeam } from '../../domain/teams/teams.js';
import { ApiError } from '../../platform/errors.js';
import { verifyPassword } from '../../platform/secrets.js';
import { html } from '../html.js';
import { page } from '../layout.js';

function send(reply: FastifyReply, status: number, title: string, body: ReturnType<typeof html>) {
  return (
    reply
      .code(status)
      // The token is in the URL: never cached (and, as every page, never framed nor sent as Referer).
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page(title, body))
  );
}

const INVALID = html`<h1>Invitation not found</h1>
<p>This invitation link is not valid. It may have expired, been replaced by a newer invitation, or
already been accepted. Ask a team admin to send you a new one.</p>`;

/** Failed password checks per account before the page stops trying, and over how long. */
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * 60_000;

async function recentFailures(deps: Deps, userId: string): Promise<number> {
  const since = new Date(deps.clock.now().getTime() - FAILURE_WINDOW_MS).toISOString();
  const row = await deps.db.kysely
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', 'authentication_failed')
    .where('actor_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function describe(deps: Deps, member: TeamMember) {
  const team = await findTeam(deps, member.team_id);
  const user = await findUserById(deps, member.user_id);
  return {
    teamName: team?.name ?? '',
    username: user?.username ?? '',
    hash: user?.password_hash ?? '',
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

export async function teamPages(app: FastifyInstance, options: { deps: Deps }): Promise<void> {
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
      const body = (request.body ?? {}) as { token?: unknown; password?: unknown };
      const token = typeof body.token === 'string' ? body.token : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const member = await invitationByToken(deps, token);
      if (!member) return send(reply, 404, 'Invitation not found', INVALID);
      const { teamName, username, hash, active } = await describe(deps, member);
      if (!active) return send(reply, 404, 'Invitation not found', INVALID);
      if ((await recentFailures(deps, member.user_id)) >= MAX_FAILURES)
        return send(
          reply,
          429,
          'Too many attempts',
          html`<h1>Too many attempts</h1><p>The password was wrong too many times. Try again in 15 minutes.</p>`,
        );
      if (!password || !(await verifyPassword(password, hash))) {
        // A failed password check is a failed authentication of that account (an event; not yet
        // team activity, since the invitee has not joined).
        await recordEvent(deps, deps.db.kysely, await deps.ids.one(), {
          type: 'authentication_failed',
          ownerId: member.user_id,
          actorId: member.user_id,
          ip: request.ip,
          resourceType: 'user',
          resourceId: member.user_id,
          data: { via: 'team_invitation' },
        });
        return send(
          reply,
          401,
          `Join ${teamName}`,
          form(token, teamName, username, member.type, 'That password is not right. Try again.'),
        );
      }
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
        html`<h1>Welcome to ${teamName}</h1><p role="status">You, ${username}, are now a member of the team <strong>${teamName}</strong>.</p>`,
      );
    },
  );
}
