// The Team page (/team): the team's members and their roles, and pending invitations. An owner or
// admin invites by email (the invitation email goes through the outbox), resends or cancels an
// invitation, changes a member's role or email, removes a member and renames the team; a member
// without those rights sees none of the controls, and the domain refuses their direct POSTs. A
// user in no team creates one here. Through the same domain functions as /v3/groups and the CLI.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { checkEmail } from '../../domain/accounts/users.js';
import { changeMemberEmail, findMember, listMembers, type MemberRow } from '../../domain/teams/members.js';
import {
  createTeam,
  removeMember,
  renameTeam,
  resendInvitation,
  setMemberType,
} from '../../domain/teams/teams.js';
import { teamSurveys, transferSurvey } from '../../domain/teams/transfer.js';
import { inviteMember, placeOf, requireTeamsPlan } from '../../domain/teams/workspace.js';
import { ApiError } from '../../platform/errors.js';
import { askFirst, confirmed, destructiveForm } from '../confirm.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, signedInOnly } from '../session.js';
import {
  actorOf,
  attempt,
  Done,
  formBody,
  MemberParams,
  messages,
  ROLE_LABELS,
  RoleField,
  statusOf,
  teamPage,
  text,
  unpaidPage,
  userOf,
} from './common.js';

/** Members shown on the page (a team has at most its max_invites, 100 by default). */
const SHOWN = 1000;
const NOTICES: Record<string, string> = {
  created: 'Your team was created. Invite your colleagues below.',
  renamed: 'The team was renamed.',
  invited: 'The invitation was emailed.',
  resent: 'A new invitation was emailed; the earlier link no longer works.',
  cancelled: 'The invitation was cancelled.',
  removed: 'The member was removed from the team.',
  role: "The member's role was changed.",
  email: "The member's email address was changed; it is unconfirmed until they open the link sent to it.",
  transferred: 'The survey now belongs to its new owner, with its collectors and responses.',
};

function nameOf(m: Pick<MemberRow, 'first_name' | 'last_name'>): string {
  return [m.first_name, m.last_name].filter(Boolean).join(' ');
}

export function memberRoutes(app: PageApp, deps: Deps): void {
  const signedIn = signedInOnly(deps);

  async function render(request: FastifyRequest, reply: FastifyReply, done?: string, error?: ApiError) {
    const user = userOf(request);
    const place = await placeOf(deps, user);
    const csrf = await csrfToken(deps, reply);
    if (place.kind === 'unpaid') return unpaidPage(deps, reply, user, 'Team', error);
    if (place.kind === 'none')
      return teamPage(
        deps,
        reply,
        user,
        'Team',
        null,
        html`${messages(undefined, error)}
<p>You are not in a team. A team shares surveys through <a href="/team/workgroups">workgroups</a>, and
its members see the team's activity. Create one and invite your colleagues, or ask a team admin to
invite you.</p>
<section class="card" aria-labelledby="create-heading"><h2 id="create-heading">Create a team</h2>
<form method="post" action="/team/create">${hidden(csrf)}
<div class="field"><label for="team-name">Team name</label><input id="team-name" name="name" type="text" maxlength="100" required${
          error ? html` aria-invalid="true" aria-describedby="form-error"` : ''
        }></div>
<p><button type="submit">Create team</button></p></form></section>`,
        statusOf(error),
      );
    if (place.kind === 'invited')
      return teamPage(
        deps,
        reply,
        user,
        'Team',
        null,
        html`${messages(undefined, error)}<p role="status" class="notice">You are invited to the team <strong>${place.team.name}</strong>.
Open the link in the invitation email to accept it (ask a team admin to resend it if you cannot find it).</p>`,
        statusOf(error),
      );
    const { team, admin, me } = place.caller;
    const { rows } = await listMembers(deps, team.id, { offset: 0, limit: SHOWN });
    const active = rows.filter((m) => m.status === 'active');
    const pending = rows.filter((m) => m.status === 'pending');
    const roleForm = (m: MemberRow) =>
      admin && m.type !== 'account_owner' && m.user_id !== me.user_id
        ? html`<form method="post" action="/team/members/${m.id}/role" class="actions">${hidden(csrf)}
<label for="role-${m.id}" class="visually-hidden">Role of ${m.username}</label>
<select id="role-${m.id}" name="type">${['regular', 'admin'].map(
            (t) => html`<option value="${t}"${t === m.type ? ' selected' : ''}>${ROLE_LABELS[t]}</option>`,
          )}</select>
<button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${m.username}</span></button></form>`
        : html`${ROLE_LABELS[m.type] ?? m.type}`;
    const removeForm = (m: MemberRow, label: string, what: string) =>
      destructiveForm(
        `/team/members/${m.id}/remove`,
        csrf,
        {
          title: `${label} ${m.username}?`,
          lost: [what],
          button: label,
        },
        { name: `${label} ${m.username}` },
      );
    // As changeMemberEmail and removeMember decide (the controls only mirror the domain's rule).
    const mayEmail = (m: MemberRow) => admin && (m.type !== 'account_owner' || me.type === 'account_owner');
    const mayRemove = (m: MemberRow) => admin && m.type !== 'account_owner' && m.user_id !== me.user_id;
    const emailForm = (m: MemberRow) =>
      mayEmail(m)
        ? html`<details><summary>Change email<span class="visually-hidden"> of ${m.username}</span></summary>
<form method="post" action="/team/members/${m.id}/email">${hidden(csrf)}
<div class="field"><label for="email-${m.id}">New email address of ${m.username}</label><input id="email-${m.id}" name="email" type="email" maxlength="254" required value="${m.email}"></div>
<p><button type="submit" class="secondary">Change email</button></p></form></details>`
        : '';
    const body = html`${messages(done ? NOTICES[done] : undefined, error)}
<p class="muted">${team.name}: ${active.length} member${active.length === 1 ? '' : 's'}${
      pending.length ? html`, ${pending.length} invited` : ''
    }. You are ${me.type === 'regular' ? 'a member' : me.type === 'admin' ? 'an admin' : 'the account owner'}${
      admin ? '' : '; the account owner and admins manage the team'
    }.</p>
<table class="cards"><caption class="visually-hidden">Members</caption>
<thead><tr><th scope="col">Member</th><th scope="col">Email</th><th scope="col">Role</th>${admin ? html`<th scope="col">Actions</th>` : ''}</tr></thead>
<tbody>${active.map(
      (
        m,
      ) => html`<tr><td data-label="Member"><strong>${m.username}</strong>${nameOf(m) ? html` <span class="muted">(${nameOf(m)})</span>` : ''}${
        m.user_id === me.user_id ? html` <span class="muted">(you)</span>` : ''
      }</td>
<td data-label="Email" class="break">${m.email}</td>
<td data-label="Role">${roleForm(m)}</td>
${
  admin
    ? html`<td data-label="Actions">${emailForm(m)}${
        mayRemove(m)
          ? removeForm(
              m,
              'Remove',
              `${m.username}'s membership of ${team.name} and their places in its workgroups (the surveys they own stay theirs).`,
            )
          : ''
      }${mayEmail(m) || mayRemove(m) ? '' : html`<span class="muted">None</span>`}</td>`
    : ''
}</tr>`,
    )}</tbody></table>
<section aria-labelledby="pending-heading"><h2 id="pending-heading">Pending invitations</h2>
${
  pending.length
    ? html`<ul class="member-list">${pending.map(
        (m) =>
          html`<li><span class="break"><strong>${m.username}</strong> ${m.email} <span class="muted">(${ROLE_LABELS[m.type] ?? m.type})</span></span>${
            admin
              ? html`<span class="actions"><form method="post" action="/team/members/${m.id}/resend" class="inline">${hidden(csrf)}<button type="submit" class="secondary">Resend<span class="visually-hidden"> the invitation to ${m.username}</span></button></form>
${removeForm(m, 'Cancel invitation', `The invitation of ${m.username} to ${team.name} (its link stops working).`)}</span>`
              : ''
          }</li>`,
      )}</ul>`
    : html`<p class="empty">No pending invitations.</p>`
}</section>
${
  admin
    ? html`<section class="card" aria-labelledby="invite-heading"><h2 id="invite-heading">Invite someone</h2>
<p class="hint" id="invite-hint">They get an email with a link to accept. The address must belong to an account on this service.</p>
<form method="post" action="/team/invite">${hidden(csrf)}
<div class="field"><label for="invite-who">Email address or username</label><input id="invite-who" name="who" type="text" maxlength="254" required autocomplete="off" aria-describedby="invite-hint"></div>
<div class="field"><label for="invite-type">Role</label><select id="invite-type" name="type"><option value="regular">Member</option><option value="admin">Admin</option></select></div>
<p><button type="submit">Send invitation</button></p></form></section>
${await transferSection(team.id, active, csrf)}
<section class="card" aria-labelledby="rename-heading"><h2 id="rename-heading">Rename the team</h2>
<form method="post" action="/team/rename">${hidden(csrf)}
<div class="field"><label for="rename-name">Team name</label><input id="rename-name" name="name" type="text" maxlength="100" required value="${team.name}"></div>
<p><button type="submit" class="secondary">Rename team</button></p></form></section>`
    : ''
}`;
    return teamPage(deps, reply, user, 'Team', 'members', body, statusOf(error));
  }

  /** The admins' transfer form: any survey a member owns, to another member. */
  async function transferSection(teamId: string, active: MemberRow[], csrf: string) {
    const surveys = await teamSurveys(deps, teamId);
    return html`<section class="card" aria-labelledby="transfer-heading"><h2 id="transfer-heading">Transfer a survey</h2>
<p class="hint" id="transfer-hint">When someone leaves, give their surveys to another member first: the survey moves with its collectors and responses, out of its old owner's folders.</p>
${
  surveys.length && active.length > 1
    ? html`<form method="post" action="/team/transfer">${hidden(csrf)}
<div class="field"><label for="transfer-survey">Survey</label><select id="transfer-survey" name="survey" aria-describedby="transfer-hint">${surveys.map(
        (sv) => html`<option value="${sv.id}-${sv.owner_id}">${sv.title} (${sv.owner_username})</option>`,
      )}</select></div>
<div class="field"><label for="transfer-to">New owner</label><select id="transfer-to" name="to">${active.map(
        (m) => html`<option value="${m.user_id}">${m.username}</option>`,
      )}</select></div>
<p><button type="submit" class="secondary">Transfer survey</button></p></form>`
    : html`<p class="muted">No survey of the team's members to transfer.</p>`
}</section>`;
  }

  app.get('/team', { schema: { hide: true, querystring: Done }, preHandler: signedIn }, (request, reply) =>
    render(request, reply, request.query.done),
  );

  const refused = (request: FastifyRequest, reply: FastifyReply) => (err: ApiError) =>
    render(request, reply, undefined, err);

  /** The signed-in user in their team (a plan without teams: 403/1015; no team: 404/1020). */
  async function callerOf(request: FastifyRequest) {
    const user = userOf(request);
    requireTeamsPlan(user);
    const place = await placeOf(deps, user);
    if (place.kind !== 'member') throw new ApiError(1020, 'You are not a member of a team.');
    return place.caller;
  }

  /** The team the signed-in user actively belongs to. */
  async function myTeamId(request: FastifyRequest): Promise<string> {
    return (await callerOf(request)).team.id;
  }

  app.post(
    '/team/create',
    {
      schema: { hide: true, body: formBody({ name: text(1000) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          requireTeamsPlan(userOf(request));
          await createTeam(deps, userOf(request), { name: request.body.name ?? '' });
          return '/team?done=created';
        },
        reply,
        refused(request, reply),
      ),
  );

  app.post(
    '/team/rename',
    {
      schema: { hide: true, body: formBody({ name: text(1000) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          await renameTeam(deps, await myTeamId(request), request.body.name ?? '', actorOf(request));
          return '/team?done=renamed';
        },
        reply,
        refused(request, reply),
      ),
  );

  app.post(
    '/team/transfer',
    {
      schema: {
        hide: true,
        body: formBody({
          // "<survey id>-<its owner's id>": the owner the form showed
          survey: Type.String({ pattern: '^[0-9]{1,20}-[0-9]{1,20}$' }),
          to: Type.String({ pattern: '^[0-9]{1,20}$' }),
        }),
      },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const [surveyId, fromUserId] = request.body.survey.split('-');
          await transferSurvey(
            deps,
            await myTeamId(request),
            { surveyId, fromUserId, toUserId: request.body.to },
            actorOf(request),
          );
          return '/team?done=transferred';
        },
        reply,
        refused(request, reply),
      ),
  );

  app.post(
    '/team/invite',
    {
      schema: { hide: true, body: formBody({ who: text(1000), type: RoleField }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          await inviteMember(
            deps,
            await myTeamId(request),
            { who: request.body.who ?? '', type: request.body.type ?? 'regular' },
            actorOf(request),
          );
          return '/team?done=invited';
        },
        reply,
        refused(request, reply),
      ),
  );

  /** The member a form names, in the signed-in user's team. */
  async function memberOf(request: FastifyRequest, memberId: string) {
    const teamId = await myTeamId(request);
    return { teamId, member: await findMember(deps, teamId, memberId) };
  }

  app.post(
    '/team/members/:memberId/resend',
    {
      schema: { hide: true, params: MemberParams, body: formBody({}) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const { teamId, member } = await memberOf(request, request.params.memberId);
          await resendInvitation(deps, teamId, member.username, actorOf(request));
          return '/team?done=resent';
        },
        reply,
        refused(request, reply),
      ),
  );

  app.post(
    '/team/members/:memberId/remove',
    {
      schema: { hide: true, params: MemberParams, body: formBody({ confirm: text(10) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      let found: Awaited<ReturnType<typeof memberOf>>;
      try {
        found = await memberOf(request, request.params.memberId);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return render(request, reply, undefined, err);
      }
      const { teamId, member } = found;
      const pending = member.status === 'pending';
      if (!confirmed(request.body))
        return askFirst(
          deps,
          reply,
          user,
          {
            action: `/team/members/${member.id}/remove`,
            destruction: {
              title: pending ? `Cancel the invitation of ${member.username}?` : `Remove ${member.username}?`,
              lost: [
                pending
                  ? `The invitation of ${member.username} (its link stops working).`
                  : `${member.username}'s membership of the team and their places in its workgroups.`,
              ],
              button: pending ? 'Cancel invitation' : 'Remove',
            },
            cancelHref: '/team',
          },
          { section: 'team' },
        );
      return attempt(
        async () => {
          await removeMember(deps, teamId, member.username, actorOf(request));
          return `/team?done=${pending ? 'cancelled' : 'removed'}`;
        },
        reply,
        refused(request, reply),
      );
    },
  );

  app.post(
    '/team/members/:memberId/role',
    {
      schema: { hide: true, params: MemberParams, body: formBody({ type: RoleField }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const { teamId, member } = await memberOf(request, request.params.memberId);
          if (!request.body.type) throw new ApiError(1002, 'Choose a role.');
          await setMemberType(deps, teamId, member.username, request.body.type, actorOf(request));
          return '/team?done=role';
        },
        reply,
        refused(request, reply),
      ),
  );

  app.post(
    '/team/members/:memberId/email',
    {
      schema: {
        hide: true,
        params: MemberParams,
        body: formBody({ email: Type.Optional(Type.String({ maxLength: 254 })) }),
      },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const caller = await callerOf(request);
          const email = (request.body.email ?? '').trim();
          checkEmail(email);
          await changeMemberEmail(deps, caller, request.params.memberId, email);
          return '/team?done=email';
        },
        reply,
        refused(request, reply),
      ),
  );
}
