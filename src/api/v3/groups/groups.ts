// GET /groups and GET /groups/{id}: the caller's team (spec "Group", reference §3.2). Owners and
// admins see the team's size and limits; plain members see its owner's email.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { findUserById } from '../../../domain/accounts/users.js';
import { countMembers, teamForCaller } from '../../../domain/teams/members.js';
import { activeTeamOf } from '../../../domain/teams/membership.js';
import { requireTeam } from '../../../domain/teams/teams.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { withOffset } from '../../../platform/dates.js';
import { GroupParams } from './schemas.js';

const GroupItem = Type.Object({ id: Type.String(), name: Type.String(), href: Type.String() });

const GroupSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    member_count: Type.Optional(Type.Integer({ description: 'Active members (owners and admins only)' })),
    max_invites: Type.Optional(Type.Integer({ description: 'Members allowed (owners and admins only)' })),
    date_created: Type.Optional(Type.String({ description: 'Owners and admins only' })),
    owner_email: Type.Optional(Type.String({ description: 'Plain members only' })),
    href: Type.String(),
  },
  { $id: 'Group' },
);

export function groupsRoutes(app: Api, deps: Deps): void {
  app.get(
    '/groups',
    {
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Users and teams'],
        summary: "The caller's team (a user belongs to at most one)",
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(GroupItem) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const teamId = await activeTeamOf(deps, request.auth.user.id);
      const teams = teamId ? [await requireTeam(deps, teamId)] : [];
      const data = teams.slice(page.offset, page.offset + page.perPage).map((t) => ({
        id: t.id,
        name: t.name,
        href: `${baseUrl(request)}/v3/groups/${t.id}`,
      }));
      return envelope(request, page, teams.length, data);
    },
  );

  app.get(
    '/groups/:group_id',
    {
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Users and teams'],
        summary: 'A team',
        params: GroupParams,
        response: { 200: GroupSchema },
      },
    },
    async (request) => {
      const caller = await teamForCaller(deps, request.auth.user.id, request.params.group_id);
      const { team } = caller;
      const href = `${baseUrl(request)}/v3/groups/${team.id}`;
      if (caller.admin)
        return {
          id: team.id,
          name: team.name,
          member_count: await countMembers(deps, team.id, 'active'),
          max_invites: team.max_invites,
          date_created: withOffset(team.date_created),
          href,
        };
      const owner = await findUserById(deps, team.owner_id);
      return { id: team.id, name: team.name, owner_email: owner?.email ?? '', href };
    },
  );
}
