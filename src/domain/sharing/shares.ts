// Workgroup shares (reference §14.1, §14.3): share surveys with a workgroup (one or many, all or
// none), list and read them, change a share's role, remove it. Each change is recorded as group
// activity: sharing is permission_created + shared_view_created (the survey's privileges and its
// appearance in the members' lists), a role change permission_updated, removing a share
// permission_updated + shared_view_updated (data.removed: true).
//
// Who may do what:
// - see shares: anyone who sees the workgroup (workgroupFor);
// - share: a member or manager of the workgroup who may share the survey, i.e. its owner or a
//   user holding full access over design, collect and analyze (else 403/1016; a survey they
//   cannot see at all is 404/1020);
// - change a share's role: someone who may share the survey (a workgroup owner must not be able
//   to raise their own privileges on someone else's survey);
// - remove a share: someone who may share the survey, or a manager of the workgroup.
import type { Deps } from '../../context.js';
import type { WorkgroupSharesTable } from '../../db/tables/sharing.js';
import { ApiError } from '../../platform/errors.js';
import type { EventType } from '../core/event-types.js';
import { recordEvent } from '../core/events.js';
import { hexId } from '../core/ids.js';
import { countAndPage } from '../core/owned.js';
import { isUniqueViolation } from '../core/unique.js';
import type { WorkgroupAccess } from '../workgroups/access.js';
import { findRole, type Role, rolesById } from '../workgroups/roles.js';
import { isFullAccess, SURVEY, sharedPrivileges } from './privileges.js';

export type Share = WorkgroupSharesTable;

export interface ShareActor {
  userId: string;
  ip?: string | null;
}

export interface ShareInput {
  resource_type: string;
  resource_id: string;
  /** the role the share gives; default: the workgroup's default role */
  role_id?: string;
}

interface SurveyInfo {
  id: string;
  owner_id: string;
  title: string;
}

export async function surveysById(deps: Deps, ids: string[]): Promise<Map<string, SurveyInfo>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.kysely
    .selectFrom('surveys')
    .select(['id', 'owner_id', 'title'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** True when `userId` may share `survey` onward: its owner, or a holder of full access. */
async function mayShare(deps: Deps, userId: string, survey: SurveyInfo): Promise<boolean | null> {
  if (survey.owner_id === userId) return true;
  const privileges = await sharedPrivileges(deps, userId, survey.id);
  if (!privileges) return null;
  return isFullAccess(privileges);
}

/** The survey if `userId` may share it; 404/1020 if they cannot see it, 403/1016 if they see it only. */
async function requireShareable(deps: Deps, userId: string, survey: SurveyInfo | undefined, id: string) {
  const may = survey ? await mayShare(deps, userId, survey) : null;
  if (!survey || may === null) throw new ApiError(1020, `Survey ${id} not found.`);
  if (!may)
    throw new ApiError(
      1016,
      `Only the owner of survey ${id} or a user with full access to it may share it or change its sharing.`,
    );
  return survey;
}

async function roleFor(deps: Deps, access: WorkgroupAccess, roleId: string | undefined): Promise<Role> {
  const id = roleId ?? access.workgroup.default_role_id;
  const role = await findRole(deps, access.workgroup.team_id, id).catch(() => {
    throw new ApiError(1002, `'role_id' names no role: ${id}.`);
  });
  if (role.is_enabled !== 1) throw new ApiError(1002, `The role ${role.name} is disabled.`);
  return role;
}

export async function listShares(
  deps: Deps,
  access: WorkgroupAccess,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: Share[] }> {
  const base = deps.db.kysely.selectFrom('workgroup_shares').where('workgroup_id', '=', access.workgroup.id);
  return countAndPage(base, page, (q) => q.selectAll().orderBy('created_at').orderBy('id'));
}

export async function findShare(deps: Deps, access: WorkgroupAccess, shareId: string): Promise<Share> {
  const share = await deps.db.kysely
    .selectFrom('workgroup_shares')
    .selectAll()
    .where('id', '=', shareId)
    .where('workgroup_id', '=', access.workgroup.id)
    .executeTakeFirst();
  if (!share) throw new ApiError(1020, 'Share not found.');
  return share;
}

export type Trx = Parameters<typeof recordEvent>[1];

/** Records a change to who may open `survey` (a workgroup's share or a person's) in the team's
 * activity. */
export async function recordShareEvent(
  deps: Deps,
  trx: Trx,
  eventId: string,
  type: EventType,
  actor: ShareActor,
  survey: Pick<SurveyInfo, 'id' | 'owner_id' | 'title'>,
  teamId: string | null,
  data: Record<string, unknown>,
): Promise<void> {
  await recordEvent(deps, trx, eventId, {
    type,
    ownerId: survey.owner_id,
    actorId: actor.userId,
    groupId: teamId,
    ip: actor.ip ?? null,
    resourceType: SURVEY,
    resourceId: survey.id,
    data: { title: survey.title, survey_id: survey.id, ...data },
  });
}

function record(
  deps: Deps,
  trx: Trx,
  eventId: string,
  type: EventType,
  actor: ShareActor,
  access: WorkgroupAccess,
  survey: SurveyInfo,
  data: Record<string, unknown>,
): Promise<void> {
  return recordShareEvent(deps, trx, eventId, type, actor, survey, access.workgroup.team_id, {
    workgroup: access.workgroup.name,
    workgroup_id: access.workgroup.id,
    ...data,
  });
}

/** Shares surveys with the workgroup, all or none. */
export async function createShares(
  deps: Deps,
  actor: ShareActor,
  access: WorkgroupAccess,
  inputs: ShareInput[],
): Promise<Share[]> {
  if (!access.isMember && !access.canManage)
    throw new ApiError(1016, 'Only members of the workgroup may share surveys with it.');
  const wg = access.workgroup;
  for (const s of inputs)
    if (s.resource_type !== SURVEY) throw new ApiError(1002, `'resource_type' must be survey.`);
  const ids = inputs.map((s) => s.resource_id);
  if (new Set(ids).size !== ids.length) throw new ApiError(1002, 'A survey is listed more than once.');
  const surveys = await surveysById(deps, ids);
  for (const id of ids) await requireShareable(deps, actor.userId, surveys.get(id), id);
  const roles = new Map<string, Role>();
  for (const s of inputs) roles.set(s.resource_id, await roleFor(deps, access, s.role_id));
  const existing = await deps.db.kysely
    .selectFrom('workgroup_shares')
    .select('resource_id')
    .where('workgroup_id', '=', wg.id)
    .where('resource_type', '=', SURVEY)
    .where('resource_id', 'in', ids)
    .execute();
  if (existing.length > 0)
    throw new ApiError(1026, `Survey ${existing[0].resource_id} is already shared with the workgroup.`);
  const eventIds = await deps.ids.take(inputs.length * 2);
  const now = deps.clock.now().toISOString();
  const rows: Share[] = inputs.map((s) => ({
    id: hexId(),
    workgroup_id: wg.id,
    organization_id: wg.team_id ?? wg.owner_account_id,
    owner_account_id: wg.owner_account_id,
    owner_user_id: actor.userId,
    resource_type: SURVEY,
    resource_id: s.resource_id,
    role_id: roles.get(s.resource_id)!.id,
    created_at: now,
    updated_at: now,
  }));
  await deps.db.kysely
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('workgroup_shares').values(rows).execute();
      for (const [i, row] of rows.entries()) {
        const survey = surveys.get(row.resource_id)!;
        const role = roles.get(row.resource_id)!;
        const data = { share_id: row.id, role: role.name };
        await record(deps, trx, eventIds[2 * i], 'permission_created', actor, access, survey, data);
        await record(deps, trx, eventIds[2 * i + 1], 'shared_view_created', actor, access, survey, data);
      }
    })
    .catch((err) => {
      if (isUniqueViolation(err)) throw new ApiError(1026, 'A survey is already shared with the workgroup.');
      throw err;
    });
  return rows;
}

/** Gives the share another role (its privileges). */
export async function changeShareRole(
  deps: Deps,
  actor: ShareActor,
  access: WorkgroupAccess,
  shareId: string,
  roleId: string,
): Promise<Share> {
  const share = await findShare(deps, access, shareId);
  const survey = (await surveysById(deps, [share.resource_id])).get(share.resource_id);
  await requireShareable(deps, actor.userId, survey, share.resource_id);
  const role = await roleFor(deps, access, roleId);
  if (role.id === share.role_id) return share;
  const old = (await rolesById(deps, [share.role_id])).get(share.role_id);
  const [eventId] = await deps.ids.take(1);
  const now = deps.clock.now().toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('workgroup_shares')
      .set({ role_id: role.id, updated_at: now })
      .where('id', '=', share.id)
      .execute();
    await record(deps, trx, eventId, 'permission_updated', actor, access, survey!, {
      share_id: share.id,
      old: old?.name ?? share.role_id,
      new: role.name,
    });
  });
  return { ...share, role_id: role.id, updated_at: now };
}

/** Removes a share: the workgroup's members lose what it gave them at once. */
export async function removeShare(
  deps: Deps,
  actor: ShareActor,
  access: WorkgroupAccess,
  shareId: string,
): Promise<Share> {
  const share = await findShare(deps, access, shareId);
  const survey = (await surveysById(deps, [share.resource_id])).get(share.resource_id);
  if (!access.canManage) await requireShareable(deps, actor.userId, survey, share.resource_id);
  const eventIds = await deps.ids.take(2);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('workgroup_shares').where('id', '=', share.id).execute();
    if (!survey) return;
    const data = { share_id: share.id, removed: true };
    await record(deps, trx, eventIds[0], 'permission_updated', actor, access, survey, data);
    await record(deps, trx, eventIds[1], 'shared_view_updated', actor, access, survey, data);
  });
  return share;
}
