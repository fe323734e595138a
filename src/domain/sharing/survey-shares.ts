// A survey's sharing seen from the survey (the Share page): who has access now (the owner, each
// workgroup share with its role and the members it reaches), the workgroups and roles the caller
// may share with, and the share, change-role and remove actions addressed by survey. The rules
// stay in shares.ts (createShares, changeShareRole, removeShare): this file only finds the
// workgroup a share belongs to and asks there, so the page and /v3/workgroups/{id}/shares decide
// alike. And the other side: what reaches a user on the surveys shared with them (the survey list).
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import {
  findWorkgroup,
  type Viewer,
  viewerOf,
  type Workgroup,
  type WorkgroupAccess,
  workgroupFor,
} from '../workgroups/access.js';
import { listRoles, type Role, rolesById } from '../workgroups/roles.js';
import { type PersonShare, personSharesOfSurvey } from './person-shares.js';
import { isFullAccess, SURVEY, sharedPrivileges, sharesReaching, unionPrivileges } from './privileges.js';
import { requireSharer } from './sharer.js';
import {
  changeShareRole,
  createShares,
  removeShare,
  type Share,
  type ShareActor,
  surveysById,
} from './shares.js';

export interface Person {
  id: string;
  username: string;
  email: string;
}

export interface ShareEntry {
  share: Share;
  workgroup: Pick<Workgroup, 'id' | 'name'>;
  role: Pick<Role, 'id' | 'name' | 'description'>;
  sharedBy: Person | null;
  /** the members the share reaches, with their own role in the workgroup (which caps the share's) */
  members: Array<Person & { memberRole: string; isOwner: boolean }>;
}

export interface PersonEntry {
  share: PersonShare;
  person: Person;
  role: Pick<Role, 'id' | 'name' | 'description'>;
  sharedBy: Person | null;
}

export interface SurveySharing {
  owner: Person | null;
  /** shares with one person each */
  people: PersonEntry[];
  shares: ShareEntry[];
  /** whether the caller belongs to a team, whose members they may share with in person */
  inTeam: boolean;
  /** workgroups the caller may share the survey with and it is not shared with yet */
  workgroups: Array<Pick<Workgroup, 'id' | 'name' | 'default_role_id'>>;
  /** the enabled roles a share may carry */
  roles: Array<Pick<Role, 'id' | 'name' | 'description'>>;
}

async function people(deps: Deps, ids: string[]): Promise<Map<string, Person>> {
  if (ids.length === 0) return new Map();
  const rows = await deps.db.kysely
    .selectFrom('users')
    .select(['id', 'username', 'email'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Whether `userId` may share `surveyId` (its owner, or a user a share gives full access): the test
 * the Share control is shown by. False for a survey they cannot see.
 */
export async function mayShareSurvey(deps: Deps, userId: string, surveyId: string): Promise<boolean> {
  const survey = (await surveysById(deps, [surveyId])).get(surveyId);
  if (!survey) return false;
  if (survey.owner_id === userId) return true;
  const privileges = await sharedPrivileges(deps, userId, surveyId);
  return !!privileges && isFullAccess(privileges);
}

/** The workgroups `viewer` may share into: those they are a member of, and every one of their team they manage. */
async function shareableWorkgroups(deps: Deps, viewer: Viewer): Promise<Workgroup[]> {
  const k = deps.db.kysely;
  const teamId = viewer.team?.team_id ?? null;
  const admin = !!viewer.team && ['account_owner', 'admin'].includes(viewer.team.type);
  return k
    .selectFrom('workgroups as w')
    .selectAll('w')
    .where((eb) => {
      const mine = eb(
        'w.id',
        'in',
        eb.selectFrom('workgroup_members').select('workgroup_id').where('user_id', '=', viewer.userId),
      );
      return admin && teamId ? eb.or([mine, eb('w.team_id', '=', teamId)]) : mine;
    })
    .orderBy('w.name')
    .orderBy('w.id')
    .limit(500)
    .execute();
}

/** Who has access to the survey now, and what the caller may share it with. */
export async function surveySharing(deps: Deps, userId: string, surveyId: string): Promise<SurveySharing> {
  const survey = await requireSharer(deps, userId, surveyId);
  const viewer = await viewerOf(deps, userId);
  const shares = await deps.db.kysely
    .selectFrom('workgroup_shares')
    .selectAll()
    .where('resource_type', '=', SURVEY)
    .where('resource_id', '=', survey.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const personal = await personSharesOfSurvey(deps, survey.id);
  const wgIds = shares.map((s) => s.workgroup_id);
  const [groups, members] = wgIds.length
    ? await Promise.all([
        deps.db.kysely.selectFrom('workgroups').selectAll().where('id', 'in', wgIds).execute(),
        deps.db.kysely
          .selectFrom('workgroup_members')
          .select(['workgroup_id', 'user_id', 'role_id', 'is_owner'])
          .where('workgroup_id', 'in', wgIds)
          .orderBy('created_at')
          .orderBy('user_id')
          .execute(),
      ])
    : [[], []];
  const byId = new Map(groups.map((g) => [g.id, g]));
  const roles = await rolesById(deps, [
    ...shares.map((s) => s.role_id),
    ...members.map((m) => m.role_id),
    ...personal.map((p) => p.role_id),
  ]);
  const who = await people(deps, [
    survey.owner_id,
    ...shares.map((s) => s.owner_user_id),
    ...members.map((m) => m.user_id),
    ...personal.flatMap((p) => [p.user_id, p.shared_by]),
  ]);
  const roleOf = (id: string) => roles.get(id) ?? { id, name: 'Unknown role', description: '' };
  const entries: ShareEntry[] = shares.map((share) => {
    const role = roles.get(share.role_id);
    return {
      share,
      workgroup: byId.get(share.workgroup_id) ?? { id: share.workgroup_id, name: 'A removed workgroup' },
      role: role ?? { id: share.role_id, name: 'Unknown role', description: '' },
      sharedBy: who.get(share.owner_user_id) ?? null,
      members: members
        .filter((m) => m.workgroup_id === share.workgroup_id)
        .flatMap((m) => {
          const p = who.get(m.user_id);
          return p ? [{ ...p, memberRole: roles.get(m.role_id)?.name ?? '', isOwner: m.is_owner === 1 }] : [];
        }),
    };
  });
  const sharedWith = new Set(wgIds);
  const workgroups = (await shareableWorkgroups(deps, viewer)).filter((w) => !sharedWith.has(w.id));
  const { rows } = await listRoles(deps, viewer.team?.team_id ?? null, { offset: 0, limit: 200 });
  return {
    owner: who.get(survey.owner_id) ?? null,
    people: personal.flatMap((share) => {
      const person = who.get(share.user_id);
      return person
        ? [{ share, person, role: roleOf(share.role_id), sharedBy: who.get(share.shared_by) ?? null }]
        : [];
    }),
    inTeam: !!viewer.team,
    shares: entries,
    workgroups,
    roles: rows.filter((r) => r.is_enabled === 1),
  };
}

/** The share `shareId` of the survey, or 404/1020 (a share of another survey is not this one's). */
async function shareOfSurvey(deps: Deps, surveyId: string, shareId: string): Promise<Share> {
  const share = await deps.db.kysely
    .selectFrom('workgroup_shares')
    .selectAll()
    .where('id', '=', shareId)
    .where('resource_type', '=', SURVEY)
    .where('resource_id', '=', surveyId)
    .executeTakeFirst();
  if (!share) throw new ApiError(1020, 'Share not found.');
  return share;
}

/** Shares the survey with a workgroup (createShares' rules: a member or manager of it, who may share the survey). */
export async function shareSurveyWith(
  deps: Deps,
  actor: ShareActor,
  surveyId: string,
  workgroupId: string,
  roleId?: string,
): Promise<Share> {
  await requireSharer(deps, actor.userId, surveyId);
  const access = await workgroupFor(deps, await viewerOf(deps, actor.userId), workgroupId);
  const [share] = await createShares(deps, actor, access, [
    { resource_type: SURVEY, resource_id: surveyId, ...(roleId ? { role_id: roleId } : {}) },
  ]);
  return share;
}

/** Gives a share of the survey another role (changeShareRole's rules). */
export async function changeSurveyShare(
  deps: Deps,
  actor: ShareActor,
  surveyId: string,
  shareId: string,
  roleId: string,
): Promise<Share> {
  await requireSharer(deps, actor.userId, surveyId);
  const share = await shareOfSurvey(deps, surveyId, shareId);
  return changeShareRole(deps, actor, await accessOf(deps, actor.userId, share), shareId, roleId);
}

/** Removes a share of the survey (removeShare's rules). */
export async function removeSurveyShare(
  deps: Deps,
  actor: ShareActor,
  surveyId: string,
  shareId: string,
): Promise<Share> {
  await requireSharer(deps, actor.userId, surveyId);
  const share = await shareOfSurvey(deps, surveyId, shareId);
  return removeShare(deps, actor, await accessOf(deps, actor.userId, share), shareId);
}

/**
 * The workgroup of a share as the survey's sharer sees it: as workgroupFor says when they may see
 * the workgroup; else without membership or management (a sharer need not see the workgroup to
 * manage the survey's shares), so changeShareRole and removeShare allow what the sharer may do.
 */
async function accessOf(deps: Deps, userId: string, share: Share): Promise<WorkgroupAccess> {
  const viewer = await viewerOf(deps, userId);
  try {
    return await workgroupFor(deps, viewer, share.workgroup_id);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 1020) throw err;
  }
  const workgroup = await findWorkgroup(deps, share.workgroup_id);
  if (!workgroup) throw new ApiError(1020, 'Share not found.');
  return { workgroup, viewer, isMember: false, isOwner: false, canManage: false };
}

export interface SharedWithMe {
  /** who shared it (each share's sharer), by username */
  sharedBy: string[];
  /** the roles of the shares that reach the user, by name */
  roles: string[];
  /** the workgroups the shares reach the user through */
  workgroups: string[];
  /** what the shares give the user, together */
  privileges: string[];
  /** whether the user may share it onward (full access) */
  mayShare: boolean;
}

/** For the survey list: how each of `surveyIds` not owned by `userId` reaches them. */
export async function sharedWithMe(
  deps: Deps,
  userId: string,
  surveyIds: string[],
): Promise<Map<string, SharedWithMe>> {
  const reach = await sharesReaching(deps, userId, surveyIds);
  if (reach.length === 0) return new Map();
  const ids = reach.map((r) => r.share_id);
  const [viaGroups, direct] = await Promise.all([
    deps.db.kysely
      .selectFrom('workgroup_shares as s')
      .innerJoin('workgroups as w', 'w.id', 's.workgroup_id')
      .select(['s.id', 's.owner_user_id as by', 's.role_id', 'w.name as through'])
      .where('s.id', 'in', ids)
      .execute(),
    deps.db.kysely
      .selectFrom('person_shares')
      .select(['id', 'shared_by as by', 'role_id'])
      .where('id', 'in', ids)
      .execute(),
  ]);
  const byId = new Map<string, { by: string; role_id: string; through: string | null }>([
    ...viaGroups.map((s) => [s.id, s] as const),
    ...direct.map((s) => [s.id, { ...s, through: null }] as const),
  ]);
  const rowsAll = [...byId.values()];
  const [roles, who] = await Promise.all([
    rolesById(
      deps,
      rowsAll.map((s) => s.role_id),
    ),
    people(
      deps,
      rowsAll.map((s) => s.by),
    ),
  ]);
  const out = new Map<string, SharedWithMe>();
  for (const id of new Set(reach.map((r) => r.resource_id))) {
    const mine = reach.filter((r) => r.resource_id === id);
    const rows = mine.flatMap((r) => byId.get(r.share_id) ?? []);
    const privileges = unionPrivileges(mine.map((r) => r.privileges));
    out.set(id, {
      sharedBy: [...new Set(rows.map((s) => who.get(s.by)?.username ?? 'someone'))],
      roles: [...new Set(rows.map((s) => roles.get(s.role_id)?.name ?? ''))].filter(Boolean),
      workgroups: [...new Set(rows.flatMap((s) => s.through ?? []))],
      privileges,
      mayShare: isFullAccess(privileges),
    });
  }
  return out;
}
