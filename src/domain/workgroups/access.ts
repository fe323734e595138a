// Who may see and manage a workgroup. A workgroup belongs to its creator's team (or, for a user
// without a team, to the creator alone). Members always see it; the team's owner and admins see
// and manage every workgroup of the team; other team members see it only if it is visible.
// Workgroup owners manage it. Anyone else gets 404/1020.
import type { Deps } from '../../context.js';
import type { WorkgroupsTable } from '../../db/tables/teams.js';
import { ApiError } from '../../platform/errors.js';
import { isAdminType, membershipOf, type TeamMember } from '../teams/membership.js';

export type Workgroup = WorkgroupsTable;

export interface Viewer {
  userId: string;
  /** the viewer's active team membership, if any */
  team: TeamMember | null;
}

export async function viewerOf(deps: Deps, userId: string): Promise<Viewer> {
  const m = await membershipOf(deps, userId);
  return { userId, team: m && m.status === 'active' ? m : null };
}

export function isTeamAdminOf(viewer: Viewer, wg: Pick<Workgroup, 'team_id'>): boolean {
  return !!wg.team_id && viewer.team?.team_id === wg.team_id && isAdminType(viewer.team.type);
}

export async function findWorkgroup(deps: Deps, id: string): Promise<Workgroup | undefined> {
  return deps.db.kysely.selectFrom('workgroups').selectAll().where('id', '=', id).executeTakeFirst();
}

async function memberRow(deps: Deps, workgroupId: string, userId: string) {
  return deps.db.kysely
    .selectFrom('workgroup_members')
    .selectAll()
    .where('workgroup_id', '=', workgroupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface WorkgroupAccess {
  workgroup: Workgroup;
  viewer: Viewer;
  isMember: boolean;
  isOwner: boolean;
  /** may change the workgroup and its members */
  canManage: boolean;
}

/** The workgroup if the viewer may see it, else 404/1020. */
export async function workgroupFor(deps: Deps, viewer: Viewer, id: string): Promise<WorkgroupAccess> {
  const workgroup = await findWorkgroup(deps, id);
  if (!workgroup) throw new ApiError(1020, 'Workgroup not found.');
  const mine = await memberRow(deps, workgroup.id, viewer.userId);
  const admin = isTeamAdminOf(viewer, workgroup);
  const sameTeamVisible =
    !!workgroup.team_id && viewer.team?.team_id === workgroup.team_id && workgroup.is_visible === 1;
  if (!mine && !admin && !sameTeamVisible) throw new ApiError(1020, 'Workgroup not found.');
  const isOwner = mine?.is_owner === 1;
  return { workgroup, viewer, isMember: !!mine, isOwner, canManage: isOwner || admin };
}

export function requireManage(access: WorkgroupAccess): void {
  if (!access.canManage)
    throw new ApiError(1016, 'Only an owner of the workgroup or an admin of its team may change it.');
}
