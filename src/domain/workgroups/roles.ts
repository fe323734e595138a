// Roles: what a workgroup member may do with what is shared with the workgroup. The five system
// roles are seeded by the migration; a privilege is "<area>.<level>" over design, collect and
// analyze. The sharing checks read privileges from here.
import type { Deps } from '../../context.js';
import type { RolesTable } from '../../db/tables/teams.js';
import { ApiError } from '../../platform/errors.js';

export type Role = RolesTable;
export const AREAS = ['design', 'collect', 'analyze'] as const;
export type Area = (typeof AREAS)[number];
export const LEVELS = ['read_only', 'full_access'] as const;
export type Level = (typeof LEVELS)[number];

export const FULL_ACCESS_ROLE_ID = '03decb5be70a42428d50f52ac38df3d7';
export const SYSTEM_ROLE_IDS = {
  'Full Access': FULL_ACCESS_ROLE_ID,
  Viewer: 'f24b9ce183b8430e811d5175831b5937',
  Editor: '6965d0ee9f44481aa0ecf6530e49bebd',
  Collector: '349c4b49e6634afe83fc453de2989014',
  Analyzer: '2cfc26e6d4a64910a2ce927e3a2b31fc',
} as const;

export function privilegesOf(role: Pick<Role, 'privileges'>): string[] {
  return JSON.parse(role.privileges) as string[];
}

/** True when the role grants `level` (or more) over `area`. */
export function roleAllows(role: Pick<Role, 'privileges'>, area: Area, level: Level): boolean {
  const p = privilegesOf(role);
  return p.includes(`${area}.full_access`) || (level === 'read_only' && p.includes(`${area}.read_only`));
}

/** Roles an organization (team) may use: the system roles and its own. */
function rolesQuery(deps: Deps, organizationId: string | null) {
  return deps.db.kysely
    .selectFrom('roles')
    .selectAll()
    .where((eb) =>
      organizationId
        ? eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', organizationId)])
        : eb('organization_id', 'is', null),
    );
}

export async function listRoles(
  deps: Deps,
  organizationId: string | null,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: Role[] }> {
  const all = await rolesQuery(deps, organizationId)
    .orderBy('is_system_role', 'desc')
    .orderBy('name')
    .execute();
  return { total: all.length, rows: all.slice(page.offset, page.offset + page.limit) };
}

export async function findRole(deps: Deps, organizationId: string | null, id: string): Promise<Role> {
  const role = await rolesQuery(deps, organizationId).where('id', '=', id).executeTakeFirst();
  if (!role) throw new ApiError(1020, 'Role not found.');
  return role;
}

export async function rolesById(deps: Deps, ids: string[]): Promise<Map<string, Role>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.kysely
    .selectFrom('roles')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}
