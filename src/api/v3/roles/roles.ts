// Roles (reference §14.4): GET /roles and GET /roles/{id}. The five system roles, plus any roles of
// the caller's team.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { activeTeamOf } from '../../../domain/teams/membership.js';
import { findRole, listRoles, privilegesOf, type Role } from '../../../domain/workgroups/roles.js';
import { envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { noOffset } from '../../../platform/dates.js';

const RoleSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'System roles: Analyzer, Collector, Full Access, Viewer, Editor' }),
    description: Type.String(),
    privileges: Type.Array(Type.String(), {
      description: '<area>.<level>: areas design, collect, analyze; levels read_only, full_access',
    }),
    is_system_role: Type.Boolean(),
    is_enabled: Type.Boolean(),
    created_at: Type.String({ description: 'YYYY-MM-DDTHH:MM:SS' }),
    updated_at: Type.String({ description: 'YYYY-MM-DDTHH:MM:SS' }),
  },
  { $id: 'Role' },
);

function roleJson(r: Role) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    privileges: privilegesOf(r),
    is_system_role: r.is_system_role === 1,
    is_enabled: r.is_enabled === 1,
    created_at: noOffset(r.created_at),
    updated_at: noOffset(r.updated_at),
  };
}

export function rolesRoutes(app: Api, deps: Deps): void {
  app.get(
    '/roles',
    {
      config: { scope: 'roles_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'The roles workgroup members can have',
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(RoleSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const org = await activeTeamOf(deps, request.auth.user.id);
      const { total, rows } = await listRoles(deps, org, { offset: page.offset, limit: page.perPage });
      return envelope(request, page, total, rows.map(roleJson));
    },
  );

  app.get(
    '/roles/:role_id',
    {
      config: { scope: 'roles_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'A role',
        params: Type.Object({ role_id: Type.String({ pattern: '^[0-9a-f]{32}$' }) }),
        response: { 200: RoleSchema },
      },
    },
    async (request) => {
      const org = await activeTeamOf(deps, request.auth.user.id);
      return roleJson(await findRole(deps, org, request.params.role_id));
    },
  );
}
