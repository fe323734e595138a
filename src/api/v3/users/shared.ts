// GET /users/{user_id}/shared: the resources shared with a user through their workgroups, with
// what each share gives them. Callers may ask about themselves ("me" or their id), and a team's
// owner or admins about the team's members; anyone else is 404/1020.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { listSharedWith } from '../../../domain/sharing/shared-with.js';
import { isTeamAdmin, membershipOf } from '../../../domain/teams/membership.js';
import { envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { ApiError, badQuery } from '../../../platform/errors.js';
import {
  IncludeQuery,
  parseInclude,
  SharedRecordSchema,
  sharedRecordsJson,
} from '../workgroups/share-schemas.js';

export function userSharedRoutes(app: Api, deps: Deps): void {
  app.get(
    '/users/:user_id/shared',
    {
      config: { scope: 'workgroups_shares_read' },
      schema: {
        tags: ['Users and teams'],
        summary: 'The resources shared with a user through their workgroups',
        params: Type.Object({ user_id: Type.String({ pattern: '^(me|[0-9]{1,20})$' }) }),
        querystring: Type.Object({
          ...pagingQuery(),
          resource_type: Type.Optional(Type.Literal('survey')),
          resource_id: Type.Optional(
            Type.String({
              pattern: '^[0-9]{1,20}(,[0-9]{1,20})*$',
              maxLength: 2100,
              description: 'Comma-separated resource ids (requires resource_type)',
            }),
          ),
          include: IncludeQuery,
        }),
        response: { 200: listEnvelopeSchema(SharedRecordSchema) },
      },
    },
    async (request) => {
      const q = request.query;
      const include = parseInclude(q.include);
      if (q.resource_id !== undefined && q.resource_type === undefined)
        throw badQuery("'resource_id' requires 'resource_type'.");
      const me = request.auth.user.id;
      const target = request.params.user_id === 'me' ? me : request.params.user_id;
      if (target !== me) {
        const m = await membershipOf(deps, target);
        if (!m || !(await isTeamAdmin(deps, me, m.team_id))) throw new ApiError(1020, 'User not found.');
      }
      const page = pageOf(q);
      const { total, rows } = await listSharedWith(
        deps,
        target,
        { resourceType: q.resource_type, resourceIds: q.resource_id?.split(',') },
        { offset: page.offset, limit: page.perPage },
      );
      return envelope(request, page, total, await sharedRecordsJson(deps, request, rows, include));
    },
  );
}
