// Who belongs to which team. Other areas ask here: private apps ("users must belong to the
// owner's team"), workgroups, sharing and group activity.
import type { Deps } from '../../context.js';
import type { TeamMembersTable } from '../../db/tables/teams.js';

export type TeamMember = TeamMembersTable;
export const MEMBER_TYPES = ['account_owner', 'admin', 'regular'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

/** The user's team membership (active or pending), if any. A user is in at most one team. */
export function membershipOf(deps: Deps, userId: string): Promise<TeamMember | undefined> {
  return deps.db.kysely
    .selectFrom('team_members')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The id of the team the user actively belongs to (an accepted membership), or null. */
export async function activeTeamOf(deps: Deps, userId: string): Promise<string | null> {
  const m = await membershipOf(deps, userId);
  return m && m.status === 'active' ? m.team_id : null;
}

/** True when both users are active members of one and the same team. */
export async function sameTeam(deps: Deps, userA: string, userB: string): Promise<boolean> {
  if (userA === userB) return (await activeTeamOf(deps, userA)) !== null;
  const rows = await deps.db.kysely
    .selectFrom('team_members')
    .select(['user_id', 'team_id'])
    .where('user_id', 'in', [userA, userB])
    .where('status', '=', 'active')
    .execute();
  return rows.length === 2 && rows[0].team_id === rows[1].team_id;
}

/** True when every user is an active member of the owner's team (a private app's rule). */
export async function allInTeamOf(deps: Deps, ownerId: string, userIds: string[]): Promise<boolean> {
  const team = await activeTeamOf(deps, ownerId);
  if (!team) return false;
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return true;
  const rows = await deps.db.kysely
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', team)
    .where('status', '=', 'active')
    .where('user_id', 'in', ids)
    .execute();
  return rows.length === ids.length;
}

export function isAdminType(type: string): boolean {
  return type === 'account_owner' || type === 'admin';
}

/** True when the user is an active account owner or admin of the team. */
export async function isTeamAdmin(deps: Deps, userId: string, teamId: string): Promise<boolean> {
  const m = await membershipOf(deps, userId);
  return !!m && m.team_id === teamId && m.status === 'active' && isAdminType(m.type);
}
