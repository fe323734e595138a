// The team's group activity (/team/activity): who did what and when, newest first, a page of 50 at
// a time. The same log and the same rule of who may read it as GET /v3/groups/{id}/activities:
// the team's active members (teamForCaller).
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { listActivities } from '../../domain/activity/query.js';
import { placeOf } from '../../domain/teams/workspace.js';
import { spaced } from '../../platform/dates.js';
import { html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { signedInOnly } from '../session.js';
import { ROLE_LABELS, teamPage, UNPAID, userOf } from './common.js';

const PER_PAGE = 50;

export function activityRoutes(app: PageApp, deps: Deps): void {
  app.get(
    '/team/activity',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })) }),
      },
      preHandler: signedInOnly(deps),
    },
    async (request, reply) => {
      const user = userOf(request);
      const place = await placeOf(deps, user);
      if (place.kind === 'unpaid') return teamPage(deps, reply, user, 'Team activity', null, UNPAID);
      if (place.kind !== 'member')
        return teamPage(
          deps,
          reply,
          user,
          'Team activity',
          null,
          html`<p>You are not a member of a team. <a href="/team">Go to the Team page</a>.</p>`,
        );
      const pageNo = request.query.page ?? 1;
      const { total, rows } = await listActivities(
        deps,
        place.caller.team.id,
        {},
        { limit: PER_PAGE, offset: (pageNo - 1) * PER_PAGE },
      );
      const last = Math.max(1, Math.ceil(total / PER_PAGE));
      const body = html`<p class="muted">What the members of ${place.caller.team.name} did, newest first (UTC).</p>
${
  rows.length
    ? html`<table class="cards"><caption class="visually-hidden">Team activity</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th></tr></thead>
<tbody>${rows.map(
        (
          r,
        ) => html`<tr><td data-label="When"><time datetime="${r.created_at}">${spaced(r.created_at)}</time></td>
<td data-label="Who"><strong>${r.user_name || 'someone'}</strong>${r.member_type ? html` <span class="muted">(${ROLE_LABELS[r.member_type] ?? r.member_type})</span>` : ''}</td>
<td data-label="What" class="break">${r.activity_msg}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="empty">No activity yet.</p>`
}
${
  last > 1
    ? html`<nav aria-label="Activity pages" class="actions">${pageNo > 1 ? html`<a class="button secondary" href="/team/activity?page=${pageNo - 1}">Newer</a>` : ''}
<span>Page ${pageNo} of ${last}</span>${pageNo < last ? html`<a class="button secondary" href="/team/activity?page=${pageNo + 1}">Older</a>` : ''}</nav>`
    : ''
}`;
      return teamPage(deps, reply, user, 'Team activity', 'activity', body);
    },
  );
}
