// Workgroup members: list, add (one or many), read, change ownership, remove. Only users of the
// workgroup's team (active or invited) can be members; a workgroup always keeps an owner.
import type { Kysely } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import type { WorkgroupMembersTable } from '../../db/tables/teams.js';
import { ApiError } from '../../platform/errors.js';
import { hexId } from '../core/ids.js';
import { countAndPage } from '../core/owned.js';
import { isUniqueViolation } from '../core/unique.js';
import type { WorkgroupAccess } from './access.js';

export interface WorkgroupMember extends WorkgroupMembersTable {
  status: 'active' | 'pending';
}

export async function listWorkgroupMembers(
  deps: Deps,
  access: WorkgroupAccess,
  page: { offset: number; limit: number },
  userIds?: string[],
): Promise<{ total: number; rows: WorkgroupMember[] }> {
  let base = deps.db.kysely
    .selectFrom('workgroup_members as wm')
    .leftJoin('team_members as tm', 'tm.user_id', 'wm.user_id')
    .where('wm.workgroup_id', '=', access.workgroup.id);
  if (userIds) base = base.where('wm.user_id', 'in', userIds.length ? userIds : ['']);
  const { total, rows } = await countAndPage(base, page, (q) =>
    q.selectAll('wm').select('tm.status as team_status').orderBy('wm.created_at').orderBy('wm.user_id'),
  );
  return {
    total,
    rows: rows.map(({ team_status, ...r }) => ({
      ...r,
      status: access.workgroup.team_id && team_status === 'pending' ? 'pending' : 'active',
    })),
  };
}

export async function findWorkgroupMember(
  deps: Deps,
  access: WorkgroupAccess,
  userId: string,
): Promise<WorkgroupMember> {
  const { rows } = await listWorkgroupMembers(deps, access, { offset: 0, limit: 1 }, [userId]);
  if (!rows[0]) throw new ApiError(1020, 'Workgroup member not found.');
  return rows[0];
}

export interface NewWorkgroupMember {
  user_id: string;
  is_workgroup_owner: boolean;
}

/** Adds members, all or none: each must be in the workgroup's team and not yet a member. */
export async function addWorkgroupMembers(
  deps: Deps,
  access: WorkgroupAccess,
  input: NewWorkgroupMember[],
): Promise<WorkgroupMember[]> {
  const wg = access.workgroup;
  const ids = input.map((m) => m.user_id);
  if (new Set(ids).size !== ids.length) throw new ApiError(1002, 'A user is listed more than once.');
  const inTeam = wg.team_id
    ? await deps.db.kysely
        .selectFrom('team_members')
        .select(['user_id', 'status'])
        .where('team_id', '=', wg.team_id)
        .where('user_id', 'in', ids)
        .execute()
    : [];
  const teamStatus = new Map(inTeam.map((r) => [r.user_id, r.status]));
  for (const id of ids)
    if (!teamStatus.has(id)) throw new ApiError(1020, `User ${id} is not in the workgroup's team.`);
  const existing = await deps.db.kysely
    .selectFrom('workgroup_members')
    .select('user_id')
    .where('workgroup_id', '=', wg.id)
    .where('user_id', 'in', ids)
    .execute();
  if (existing.length > 0)
    throw new ApiError(1026, `User ${existing[0].user_id} is already a member of the workgroup.`);
  const now = deps.clock.now().toISOString();
  const rows: WorkgroupMembersTable[] = input.map((m) => ({
    workgroup_id: wg.id,
    user_id: m.user_id,
    owner_account_id: wg.owner_account_id,
    is_owner: m.is_workgroup_owner ? 1 : 0,
    role_id: wg.default_role_id,
    role_assignment_id: hexId(),
    created_at: now,
    updated_at: now,
  }));
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('workgroup_members')
      .values(rows)
      .execute()
      .catch((err) => {
        if (isUniqueViolation(err)) throw new ApiError(1026, 'A user is already a member of the workgroup.');
        throw err;
      });
    await trx.updateTable('workgroups').set({ updated_at: now }).where('id', '=', wg.id).execute();
  });
  return rows.map((r) => ({ ...r, status: teamStatus.get(r.user_id) === 'pending' ? 'pending' : 'active' }));
}

async function ownerCount(deps: Deps, workgroupId: string): Promise<number> {
  const r = await deps.db.kysely
    .selectFrom('workgroup_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workgroup_id', '=', workgroupId)
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setWorkgroupOwner(
  deps: Deps,
  access: WorkgroupAccess,
  userId: string,
  isOwner: boolean,
): Promise<WorkgroupMember> {
  const member = await findWorkgroupMember(deps, access, userId);
  if ((member.is_owner === 1) === isOwner) return member;
  if (!isOwner && (await ownerCount(deps, access.workgroup.id)) <= 1)
    throw new ApiError(1025, 'A workgroup must keep at least one owner.');
  const now = deps.clock.now().toISOString();
  await deps.db.kysely
    .updateTable('workgroup_members')
    .set({ is_owner: isOwner ? 1 : 0, updated_at: now })
    .where('workgroup_id', '=', access.workgroup.id)
    .where('user_id', '=', userId)
    .execute();
  return { ...member, is_owner: isOwner ? 1 : 0, updated_at: now };
}

export async function removeWorkgroupMember(
  deps: Deps,
  access: WorkgroupAccess,
  userId: string,
): Promise<WorkgroupMember> {
  const member = await findWorkgroupMember(deps, access, userId);
  if (member.is_owner === 1 && (await ownerCount(deps, access.workgroup.id)) <= 1)
    throw new ApiError(1025, 'A workgroup must keep at least one owner.');
  await deps.db.kysely
    .deleteFrom('workgroup_members')
    .where('workgroup_id', '=', access.workgroup.id)
    .where('user_id', '=', userId)
    .execute();
  return member;
}

/**
 * The workgroup ids `userId` takes part in with effect (the rule of activeWorkgroupsOf), as a
 * subquery other queries fold in (the survey list reads its shared surveys in its one statement).
 */
export function activeWorkgroupIdsQuery(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('workgroup_members as wm')
    .innerJoin('workgroups as w', 'w.id', 'wm.workgroup_id')
    .leftJoin('team_members as tm', (j) =>
      j.onRef('tm.user_id', '=', 'wm.user_id').onRef('tm.team_id', '=', 'w.team_id'),
    )
    .select('wm.workgroup_id')
    .where('wm.user_id', '=', userId)
    .where((eb) => eb.or([eb('w.team_id', 'is', null), eb('tm.status', '=', 'active')]));
}

/**
 * The workgroups a user takes part in with effect: their memberships, with role and ownership,
 * in workgroups of a team they actively belong to (or their own team-less workgroups). A pending
 * team member's workgroup memberships have no effect until they join. For the sharing checks.
 */
export async function activeWorkgroupsOf(
  deps: Deps,
  userId: string,
): Promise<Array<{ workgroup_id: string; role_id: string; is_owner: boolean }>> {
  const rows = await deps.db.kysely
    .selectFrom('workgroup_members as wm')
    .innerJoin('workgroups as w', 'w.id', 'wm.workgroup_id')
    .leftJoin('team_members as tm', (j) =>
      j.onRef('tm.user_id', '=', 'wm.user_id').onRef('tm.team_id', '=', 'w.team_id'),
    )
    .select(['wm.workgroup_id', 'wm.role_id', 'wm.is_owner', 'w.team_id', 'tm.status'])
    .where('wm.user_id', '=', userId)
    .execute();
  return rows
    .filter((r) => r.team_id === null || r.status === 'active')
    .map((r) => ({ workgroup_id: r.workgroup_id, role_id: r.role_id, is_owner: r.is_owner === 1 }));
}
