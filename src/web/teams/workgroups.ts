// Workgroups on the Team pages: /team/workgroups (the workgroups the user may see, create one) and
// /team/workgroups/{id} (its members; add, remove, make owner; rename, visibility, default role;
// delete). Who may do what is the domain's (workgroupFor, requireManage), as for /v3/workgroups:
// a workgroup's owners and the team's owner and admins manage it; any member may leave it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { listMembers } from '../../domain/teams/members.js';
import { hasTeams, requireTeamsPlan } from '../../domain/teams/workspace.js';
import {
  requireManage,
  viewerOf,
  type WorkgroupAccess,
  workgroupFor,
} from '../../domain/workgroups/access.js';
import {
  addWorkgroupMembers,
  listWorkgroupMembers,
  removeWorkgroupMember,
  setWorkgroupOwner,
} from '../../domain/workgroups/members.js';
import { listRoles } from '../../domain/workgroups/roles.js';
import {
  createWorkgroup,
  deleteWorkgroup,
  listWorkgroups,
  updateWorkgroup,
  viewsOf,
} from '../../domain/workgroups/workgroups.js';
import { ApiError } from '../../platform/errors.js';
import { askFirst, confirmed, destructiveForm } from '../confirm.js';
import { hidden } from '../forms.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, signedInOnly } from '../session.js';
import { attempt, Done, formBody, messages, statusOf, teamPage, text, unpaidPage, userOf } from './common.js';

const SHOWN = 500;
const NOTICES: Record<string, string> = {
  created: 'The workgroup was created; you are its owner.',
  updated: 'The workgroup was changed.',
  deleted: 'The workgroup was deleted; what was shared with it is no longer shared.',
  added: 'The members were added.',
  removed: 'The member was taken out of the workgroup.',
  left: 'You left the workgroup.',
  owner: 'The ownership was changed.',
};
const WgParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{32}$' }) });
const WgMemberParams = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f]{32}$' }),
  userId: Type.String({ pattern: '^[0-9]{1,20}$' }),
});
const UserId = Type.String({ pattern: '^[0-9]{1,20}$' });
/** The chosen team members: one checkbox arrives as a string, several as a list. */
const UserIds = Type.Optional(Type.Union([UserId, Type.Array(UserId, { maxItems: 1000 })]));
const WorkgroupForm = {
  name: text(100),
  description: text(1000),
  is_visible: text(10),
  default_role_id: Type.Optional(Type.String({ maxLength: 40 })),
};

function listOf(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function workgroupRoutes(app: PageApp, deps: Deps): void {
  const signedIn = signedInOnly(deps);

  /** Usernames of the viewer's team (the only people a team workgroup can hold). */
  async function peopleOf(teamId: string | null): Promise<Map<string, { username: string; status: string }>> {
    if (!teamId) return new Map();
    const { rows } = await listMembers(deps, teamId, { offset: 0, limit: 1000 });
    return new Map(rows.map((m) => [m.user_id, { username: m.username, status: m.status }]));
  }

  async function renderList(request: FastifyRequest, reply: FastifyReply, done?: string, error?: ApiError) {
    const user = userOf(request);
    if (!hasTeams(user)) return unpaidPage(deps, reply, user, 'Workgroups', error);
    const viewer = await viewerOf(deps, user.id);
    const { total, rows } = await listWorkgroups(deps, viewer, { offset: 0, limit: SHOWN });
    const views = await viewsOf(deps, rows);
    const csrf = await csrfToken(deps, reply);
    const body = html`${messages(done ? NOTICES[done] : undefined, error)}
<p class="muted">A workgroup is a set of people a survey can be shared with, each with a role. ${
      viewer.team
        ? ''
        : 'You are in no team, so a workgroup you create holds only you until you create or join one.'
    }</p>
${
  views.length
    ? html`<table class="cards"><caption class="visually-hidden">Workgroups</caption><thead><tr><th scope="col">Workgroup</th><th scope="col" class="num">Members</th><th scope="col" class="num">Shared</th><th scope="col">Visible to the team</th></tr></thead>
<tbody>${views.map(
        (v) =>
          html`<tr><td data-label="Workgroup"><a href="/team/workgroups/${v.workgroup.id}">${v.workgroup.name}</a></td><td data-label="Members" class="num">${v.members.length}</td><td data-label="Shared" class="num">${v.sharesCount}</td><td data-label="Visible to the team">${v.workgroup.is_visible ? 'Yes' : 'No'}</td></tr>`,
      )}</tbody></table>${total > rows.length ? html`<p class="muted">Showing ${rows.length} of ${total} workgroups.</p>` : ''}`
    : html`<p class="empty">No workgroups yet.</p>`
}
<section class="card" aria-labelledby="new-wg-heading"><h2 id="new-wg-heading">Create a workgroup</h2>
<form method="post" action="/team/workgroups">${hidden(csrf)}
<div class="field"><label for="wg-name">Name</label><input id="wg-name" name="name" type="text" maxlength="100" required${
      error ? html` aria-invalid="true" aria-describedby="form-error"` : ''
    }></div>
<div class="field"><label for="wg-description">Description (optional)</label><input id="wg-description" name="description" type="text" maxlength="1000"></div>
<div class="check"><input type="checkbox" id="wg-visible" name="is_visible" value="yes" checked><label for="wg-visible">Visible to everyone in the team</label></div>
<p><button type="submit">Create workgroup</button></p></form></section>`;
    return teamPage(deps, reply, user, 'Workgroups', 'workgroups', body, statusOf(error));
  }

  app.get(
    '/team/workgroups',
    { schema: { hide: true, querystring: Done }, preHandler: signedIn },
    (request, reply) => renderList(request, reply, request.query.done),
  );

  app.post(
    '/team/workgroups',
    {
      schema: {
        hide: true,
        body: formBody({ name: text(100), description: text(1000), is_visible: text(10) }),
      },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const b = request.body;
          requireTeamsPlan(userOf(request));
          const wg = await createWorkgroup(deps, userOf(request).id, {
            name: b.name ?? '',
            description: b.description ?? '',
            is_visible: b.is_visible === 'yes',
          });
          return `/team/workgroups/${wg.id}?done=created`;
        },
        reply,
        (err) => renderList(request, reply, undefined, err),
      ),
  );

  async function accessOf(request: FastifyRequest, id: string): Promise<WorkgroupAccess> {
    requireTeamsPlan(userOf(request));
    return workgroupFor(deps, await viewerOf(deps, userOf(request).id), id);
  }

  async function renderOne(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    done?: string,
    error?: ApiError,
  ) {
    const user = userOf(request);
    if (!hasTeams(user)) return unpaidPage(deps, reply, user, 'Workgroups', error);
    let access: WorkgroupAccess;
    try {
      access = await accessOf(request, id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return teamPage(
        deps,
        reply,
        user,
        'Workgroup not found',
        'workgroups',
        messages(undefined, err),
        err.status,
      );
    }
    const wg = access.workgroup;
    const csrf = await csrfToken(deps, reply);
    const { rows: members } = await listWorkgroupMembers(deps, access, { offset: 0, limit: SHOWN });
    const people = await peopleOf(wg.team_id);
    if (!wg.team_id) people.set(user.id, { username: user.username, status: 'active' });
    const inWg = new Set(members.map((m) => m.user_id));
    const others = [...people.entries()].filter(([uid]) => !inWg.has(uid));
    const roles = access.canManage ? (await listRoles(deps, wg.team_id, { offset: 0, limit: 200 })).rows : [];
    const nameOf = (uid: string) => people.get(uid)?.username ?? `user ${uid}`;
    const body = html`<p><a href="/team/workgroups">← All workgroups</a></p>
${messages(done ? NOTICES[done] : undefined, error)}
${wg.description ? html`<p>${wg.description}</p>` : ''}
<p class="muted">${wg.is_visible ? 'Visible to everyone in the team.' : 'Visible only to its members and the team admins.'}${
      access.canManage ? '' : ' Its owners and the team admins manage it.'
    }</p>
<h2>Members</h2>
<ul class="member-list">${members.map(
      (m) =>
        html`<li><span class="break"><strong>${nameOf(m.user_id)}</strong>${m.is_owner ? html` <span class="muted">(owner)</span>` : ''}${
          m.status === 'pending' ? html` <span class="muted">(invited to the team)</span>` : ''
        }</span>${
          access.canManage
            ? html`<span class="actions"><form method="post" action="/team/workgroups/${wg.id}/members/${m.user_id}/owner" class="inline">${hidden(csrf)}<input type="hidden" name="owner" value="${m.is_owner ? 'no' : 'yes'}"><button type="submit" class="secondary">${m.is_owner ? 'Make member' : 'Make owner'}<span class="visually-hidden"> ${nameOf(m.user_id)}</span></button></form>
<form method="post" action="/team/workgroups/${wg.id}/members/${m.user_id}/remove" class="inline">${hidden(csrf)}<button type="submit" class="secondary">Remove<span class="visually-hidden"> ${nameOf(m.user_id)} from the workgroup</span></button></form></span>`
            : m.user_id === user.id
              ? html`<form method="post" action="/team/workgroups/${wg.id}/members/${m.user_id}/remove" class="inline">${hidden(csrf)}<button type="submit" class="secondary">Leave the workgroup</button></form>`
              : ''
        }</li>`,
    )}</ul>
${
  access.canManage
    ? html`<section class="card" aria-labelledby="add-heading"><h2 id="add-heading">Add members</h2>
${
  others.length
    ? html`<form method="post" action="/team/workgroups/${wg.id}/members">${hidden(csrf)}
<fieldset class="pick-list"><legend>Team members not in this workgroup</legend>
${others.map(
  ([uid, p]) =>
    html`<div class="check"><input type="checkbox" id="add-${uid}" name="user_id" value="${uid}"><label for="add-${uid}">${p.username}${p.status === 'pending' ? ' (invited)' : ''}</label></div>`,
)}</fieldset>
<p><button type="submit">Add selected members</button></p></form>`
    : html`<p class="muted">Everyone in the team is in this workgroup.${wg.team_id ? '' : ' Create or join a team to add people.'}</p>`
}</section>
<section class="card" aria-labelledby="edit-heading"><h2 id="edit-heading">Change the workgroup</h2>
<form method="post" action="/team/workgroups/${wg.id}/edit">${hidden(csrf)}
<div class="field"><label for="edit-name">Name</label><input id="edit-name" name="name" type="text" maxlength="100" required value="${wg.name}"></div>
<div class="field"><label for="edit-description">Description</label><input id="edit-description" name="description" type="text" maxlength="1000" value="${wg.description}"></div>
<div class="field"><label for="edit-role">Role new members get</label><select id="edit-role" name="default_role_id">${roles.map(
        (r) =>
          html`<option value="${r.id}"${r.id === wg.default_role_id ? ' selected' : ''}>${r.name}</option>`,
      )}</select></div>
<div class="check"><input type="checkbox" id="edit-visible" name="is_visible" value="yes"${wg.is_visible ? ' checked' : ''}><label for="edit-visible">Visible to everyone in the team</label></div>
<p><button type="submit" class="secondary">Save changes</button></p></form></section>
<section class="card" aria-labelledby="delete-heading"><h2 id="delete-heading">Delete the workgroup</h2>
${destructiveForm(`/team/workgroups/${wg.id}/delete`, csrf, deletion(wg.name))}</section>`
    : ''
}`;
    return teamPage(deps, reply, user, `Workgroup: ${wg.name}`, 'workgroups', body, statusOf(error));
  }

  const deletion = (name: string) => ({
    title: `Delete the workgroup "${name}"?`,
    lost: [`The workgroup "${name}", its members' places in it and what is shared with it.`],
    button: 'Delete workgroup',
  });

  app.get(
    '/team/workgroups/:id',
    { schema: { hide: true, params: WgParams, querystring: Done }, preHandler: signedIn },
    (request, reply) => renderOne(request, reply, request.params.id, request.query.done),
  );

  const back = (request: FastifyRequest, reply: FastifyReply, id: string) => (err: ApiError) =>
    renderOne(request, reply, id, undefined, err);

  app.post(
    '/team/workgroups/:id/members',
    {
      schema: { hide: true, params: WgParams, body: formBody({ user_id: UserIds }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const access = await accessOf(request, request.params.id);
          requireManage(access);
          const ids = listOf(request.body.user_id);
          if (ids.length === 0) throw new ApiError(1002, 'Choose at least one member to add.');
          if (ids.some((id) => !/^[0-9]{1,20}$/.test(id)))
            throw new ApiError(1002, 'A chosen member is not a user.');
          await addWorkgroupMembers(
            deps,
            access,
            ids.map((user_id) => ({ user_id, is_workgroup_owner: false })),
          );
          return `/team/workgroups/${access.workgroup.id}?done=added`;
        },
        reply,
        back(request, reply, request.params.id),
      ),
  );

  app.post(
    '/team/workgroups/:id/members/:userId/remove',
    {
      schema: { hide: true, params: WgMemberParams, body: formBody({}) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const access = await accessOf(request, request.params.id);
          const self = request.params.userId === userOf(request).id;
          // Anyone may leave; taking someone else out is the managers'.
          if (!self) requireManage(access);
          await removeWorkgroupMember(deps, access, request.params.userId);
          return self && !access.canManage
            ? '/team/workgroups?done=left'
            : `/team/workgroups/${access.workgroup.id}?done=removed`;
        },
        reply,
        back(request, reply, request.params.id),
      ),
  );

  app.post(
    '/team/workgroups/:id/members/:userId/owner',
    {
      schema: { hide: true, params: WgMemberParams, body: formBody({ owner: text(5) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const access = await accessOf(request, request.params.id);
          requireManage(access);
          await setWorkgroupOwner(deps, access, request.params.userId, request.body.owner === 'yes');
          return `/team/workgroups/${access.workgroup.id}?done=owner`;
        },
        reply,
        back(request, reply, request.params.id),
      ),
  );

  app.post(
    '/team/workgroups/:id/edit',
    {
      schema: { hide: true, params: WgParams, body: formBody(WorkgroupForm) },
      preHandler: [signedIn, app.csrfProtection],
    },
    (request, reply) =>
      attempt(
        async () => {
          const access = await accessOf(request, request.params.id);
          requireManage(access);
          const b = request.body;
          await updateWorkgroup(deps, access, {
            name: b.name ?? '',
            description: b.description ?? '',
            is_visible: b.is_visible === 'yes',
            default_role_id: b.default_role_id || undefined,
          });
          return `/team/workgroups/${access.workgroup.id}?done=updated`;
        },
        reply,
        back(request, reply, request.params.id),
      ),
  );

  app.post(
    '/team/workgroups/:id/delete',
    {
      schema: { hide: true, params: WgParams, body: formBody({ confirm: text(10) }) },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      let access: WorkgroupAccess;
      try {
        access = await accessOf(request, request.params.id);
        requireManage(access);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return renderOne(request, reply, request.params.id, undefined, err);
      }
      if (!confirmed(request.body))
        return askFirst(
          deps,
          reply,
          user,
          {
            action: `/team/workgroups/${access.workgroup.id}/delete`,
            destruction: deletion(access.workgroup.name),
            cancelHref: `/team/workgroups/${access.workgroup.id}`,
          },
          { section: 'team' },
        );
      await deleteWorkgroup(deps, access);
      return reply.redirect('/team/workgroups?done=deleted', 303);
    },
  );
}
