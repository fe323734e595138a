// Workgroups: create (the creator is the sole owner, default role Full Access), list what the
// caller may see, change and delete. Views are assembled here in batches for lists.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { hexId } from '../core/ids.js';
import { countAndPage } from '../core/owned.js';
import { membershipOf } from '../teams/membership.js';
import { findTeam } from '../teams/teams.js';
import type { Viewer, Workgroup, WorkgroupAccess } from './access.js';
import { FULL_ACCESS_ROLE_ID, findRole, type Role, rolesById } from './roles.js';

export interface WorkgroupView {
  workgroup: Workgroup;
  /** every member row with its derived status */
  members: Array<{ user_id: string; is_owner: boolean; status: 'active' | 'pending' }>;
  defaultRole: Role;
  /** resources shared with the workgroup */
  sharesCount: number;
}

/** A workgroup member's status follows their team membership: pending until they join the team. */
async function memberStatuses(deps: Deps, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await deps.db.kysely
    .selectFrom('team_members')
    .select(['user_id', 'status'])
    .where('user_id', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.status]));
}

/** How many resources are shared with each workgroup (the workgroup resource's shares_count). */
async function sharesCounts(deps: Deps, workgroupIds: string[]): Promise<Map<string, number>> {
  const out = new Map(workgroupIds.map((id) => [id, 0]));
  if (workgroupIds.length === 0) return out;
  const rows = await deps.db.kysely
    .selectFrom('workgroup_shares')
    .select(['workgroup_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('workgroup_id', 'in', workgroupIds)
    .groupBy('workgroup_id')
    .execute();
  for (const r of rows) out.set(r.workgroup_id, Number(r.n));
  return out;
}

export async function viewsOf(deps: Deps, workgroups: Workgroup[]): Promise<WorkgroupView[]> {
  if (workgroups.length === 0) return [];
  const ids = workgroups.map((w) => w.id);
  const rows = await deps.db.kysely
    .selectFrom('workgroup_members')
    .select(['workgroup_id', 'user_id', 'is_owner'])
    .where('workgroup_id', 'in', ids)
    .orderBy('created_at')
    .orderBy('user_id')
    .execute();
  const statuses = await memberStatuses(
    deps,
    rows.map((r) => r.user_id),
  );
  const roles = await rolesById(
    deps,
    workgroups.map((w) => w.default_role_id),
  );
  const shares = await sharesCounts(deps, ids);
  return workgroups.map((workgroup) => ({
    workgroup,
    members: rows
      .filter((r) => r.workgroup_id === workgroup.id)
      .map((r) => ({
        user_id: r.user_id,
        is_owner: r.is_owner === 1,
        status: workgroup.team_id && statuses.get(r.user_id) === 'pending' ? 'pending' : 'active',
      })),
    defaultRole: roles.get(workgroup.default_role_id)!,
    sharesCount: shares.get(workgroup.id) ?? 0,
  }));
}

export interface WorkgroupInput {
  name?: string;
  description?: string;
  is_visible?: boolean;
  metadata?: Record<string, unknown>;
  default_role_id?: string;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ApiError(1002, "'name' must not be empty.");
  return trimmed;
}

export async function createWorkgroup(
  deps: Deps,
  creatorId: string,
  input: WorkgroupInput & { name: string; is_visible: boolean },
): Promise<Workgroup> {
  const m = await membershipOf(deps, creatorId);
  const teamId = m && m.status === 'active' ? m.team_id : null;
  const team = teamId ? await findTeam(deps, teamId) : undefined;
  const now = deps.clock.now().toISOString();
  const workgroup: Workgroup = {
    id: hexId(),
    team_id: teamId,
    owner_account_id: team?.owner_id ?? creatorId,
    created_by: creatorId,
    name: checkName(input.name),
    description: input.description ?? '',
    is_visible: input.is_visible ? 1 : 0,
    metadata: JSON.stringify(input.metadata ?? {}),
    default_role_id: FULL_ACCESS_ROLE_ID,
    created_at: now,
    updated_at: now,
  };
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('workgroups').values(workgroup).execute();
    await trx
      .insertInto('workgroup_members')
      .values({
        workgroup_id: workgroup.id,
        user_id: creatorId,
        owner_account_id: workgroup.owner_account_id,
        is_owner: 1,
        role_id: workgroup.default_role_id,
        role_assignment_id: hexId(),
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  return workgroup;
}

export async function updateWorkgroup(
  deps: Deps,
  access: WorkgroupAccess,
  input: WorkgroupInput,
): Promise<Workgroup> {
  const wg = access.workgroup;
  const set: Partial<Workgroup> = {};
  if (input.name !== undefined) set.name = checkName(input.name);
  if (input.description !== undefined) set.description = input.description;
  if (input.is_visible !== undefined) set.is_visible = input.is_visible ? 1 : 0;
  if (input.metadata !== undefined) set.metadata = JSON.stringify(input.metadata);
  if (input.default_role_id !== undefined) {
    const role = await findRole(deps, wg.team_id, input.default_role_id).catch(() => {
      throw new ApiError(1002, `'default_role_id' names no role: ${input.default_role_id}.`);
    });
    if (role.is_enabled !== 1) throw new ApiError(1002, `The role ${role.name} is disabled.`);
    set.default_role_id = role.id;
  }
  if (Object.keys(set).length === 0) return wg;
  set.updated_at = deps.clock.now().toISOString();
  await deps.db.kysely.updateTable('workgroups').set(set).where('id', '=', wg.id).execute();
  return { ...wg, ...set };
}

export async function deleteWorkgroup(deps: Deps, access: WorkgroupAccess): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('workgroup_shares').where('workgroup_id', '=', access.workgroup.id).execute();
    await trx.deleteFrom('workgroup_members').where('workgroup_id', '=', access.workgroup.id).execute();
    await trx.deleteFrom('workgroups').where('id', '=', access.workgroup.id).execute();
  });
}

/**
 * The workgroups `viewer` may see, optionally only those `memberId` belongs to: those the viewer
 * is a member of, every workgroup of the viewer's team if they are its owner or an admin, and the
 * visible workgroups of their team.
 */
export async function listWorkgroups(
  deps: Deps,
  viewer: Viewer,
  page: { offset: number; limit: number },
  memberId?: string,
): Promise<{ total: number; rows: Workgroup[] }> {
  const k = deps.db.kysely;
  const teamId = viewer.team?.team_id ?? null;
  const admin = !!viewer.team && ['account_owner', 'admin'].includes(viewer.team.type);
  let base = k.selectFrom('workgroups as w').where((eb) => {
    const mine = eb(
      'w.id',
      'in',
      eb.selectFrom('workgroup_members').select('workgroup_id').where('user_id', '=', viewer.userId),
    );
    if (!teamId) return mine;
    const inTeam = admin
      ? eb('w.team_id', '=', teamId)
      : eb.and([eb('w.team_id', '=', teamId), eb('w.is_visible', '=', 1)]);
    return eb.or([mine, inTeam]);
  });
  if (memberId)
    base = base.where(
      'w.id',
      'in',
      k.selectFrom('workgroup_members').select('workgroup_id').where('user_id', '=', memberId),
    );
  return countAndPage(base, page, (q) => q.selectAll('w').orderBy('w.created_at').orderBy('w.id'));
}
