// GET /users/{user_id}/workgroups: the workgroups a user belongs to. Callers may ask about
// themselves ("me" or their id), and a team's owner or admins about the team's members; anyone
// else is 404/1020.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { isTeamAdmin, membershipOf } from '../../../domain/teams/membership.js';
import { viewerOf } from '../../../domain/workgroups/access.js';
import { listWorkgroups, viewsOf } from '../../../domain/workgroups/workgroups.js';
import { envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { ApiError } from '../../../platform/errors.js';
import { WorkgroupSchema, workgroupJson } from '../workgroups/schemas.js';

export function userWorkgroupsRoutes(app: Api, deps: Deps): void {
  app.get(
    '/users/:user_id/workgroups',
    {
      config: { scope: 'workgroups_read' },
      schema: {
        tags: ['Users and teams'],
        summary: 'The workgroups a user belongs to',
        params: Type.Object({ user_id: Type.String({ pattern: '^(me|[0-9]{1,20})$' }) }),
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(WorkgroupSchema) },
      },
    },
    async (request) => {
      const me = request.auth.user.id;
      const target = request.params.user_id === 'me' ? me : request.params.user_id;
      if (target !== me) {
        const m = await membershipOf(deps, target);
        if (!m || !(await isTeamAdmin(deps, me, m.team_id))) throw new ApiError(1020, 'User not found.');
      }
      const page = pageOf(request.query);
      const viewer = await viewerOf(deps, me);
      const { total, rows } = await listWorkgroups(
        deps,
        viewer,
        { offset: page.offset, limit: page.perPage },
        target,
      );
      const views = await viewsOf(deps, rows);
      return envelope(
        request,
        page,
        total,
        views.map((v) => workgroupJson(v, me)),
      );
    },
  );
}
