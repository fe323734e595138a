// GET /users/{id}/shared: the shares that reach a user through the workgroups they take part in
// with effect, each with the privileges it gives that user (the share's role capped by their role
// in the workgroup).
import type { Deps } from '../../context.js';
import { countAndPage } from '../core/owned.js';
import { activeWorkgroupsOf } from '../workgroups/members.js';
import { rolesById } from '../workgroups/roles.js';
import { capPrivileges, SURVEY } from './privileges.js';
import type { Share } from './shares.js';

export interface SharedRecord {
  share: Share;
  /** what the share gives this user */
  privileges: string[];
}

export async function listSharedWith(
  deps: Deps,
  userId: string,
  filter: { resourceType?: string; resourceIds?: string[] },
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: SharedRecord[] }> {
  const memberships = await activeWorkgroupsOf(deps, userId);
  if (memberships.length === 0 || (filter.resourceType && filter.resourceType !== SURVEY))
    return { total: 0, rows: [] };
  let base = deps.db.kysely.selectFrom('workgroup_shares').where(
    'workgroup_id',
    'in',
    memberships.map((m) => m.workgroup_id),
  );
  if (filter.resourceType) base = base.where('resource_type', '=', filter.resourceType);
  if (filter.resourceIds) base = base.where('resource_id', 'in', filter.resourceIds);
  const { total, rows: shares } = await countAndPage(base, page, (q) =>
    q.selectAll().orderBy('created_at').orderBy('id'),
  );
  const memberRole = new Map(memberships.map((m) => [m.workgroup_id, m.role_id]));
  const roles = await rolesById(deps, [...shares.map((s) => s.role_id), ...memberRole.values()]);
  return {
    total,
    rows: shares.map((share) => {
      const shareRole = roles.get(share.role_id);
      const member = roles.get(memberRole.get(share.workgroup_id) ?? '');
      return { share, privileges: shareRole && member ? capPrivileges(shareRole, member) : [] };
    }),
  };
}
