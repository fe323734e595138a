// What a user may do with a survey they do not own, through shares. A workgroup share gives a
// survey to a workgroup with a role; each member with effect (activeWorkgroupsOf: active in the
// workgroup's team) holds that role's privileges, capped by their own role in the workgroup
// (per area the lower level). A person share gives one member of the sharer's team the role's
// privileges while they are an active member. Several shares reaching the same user add up. Everything is read
// live, so removing a share or a membership takes access away at once.
// src/domain/surveys/access.ts (requireSurvey) asks here; nothing else decides.
import type { Kysely } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { activeWorkgroupIdsQuery, activeWorkgroupsOf } from '../workgroups/members.js';
import {
  AREAS,
  type Area,
  LEVELS,
  type Level,
  privilegesOf,
  type Role,
  roleAllows,
  rolesById,
} from '../workgroups/roles.js';

export const SURVEY = 'survey';

const rank = (p: string[], area: Area): number =>
  p.includes(`${area}.full_access`) ? 2 : p.includes(`${area}.read_only`) ? 1 : 0;

/** Per area the lower level of the two roles: a share cannot give a member more than their role. */
export function capPrivileges(share: Pick<Role, 'privileges'>, member: Pick<Role, 'privileges'>): string[] {
  const a = privilegesOf(share);
  const b = privilegesOf(member);
  const out: string[] = [];
  for (const area of AREAS) {
    const r = Math.min(rank(a, area), rank(b, area));
    if (r > 0) out.push(`${area}.${LEVELS[r - 1]}`);
  }
  return out;
}

/** The union of privilege lists, strongest level per area, in design/collect/analyze order. */
export function unionPrivileges(lists: string[][]): string[] {
  const all = lists.flat();
  const out: string[] = [];
  for (const area of AREAS) {
    const r = rank(all, area);
    if (r > 0) out.push(`${area}.${LEVELS[r - 1]}`);
  }
  return out;
}

export function privilegesAllow(privileges: string[], area: Area, level: Level): boolean {
  return roleAllows({ privileges: JSON.stringify(privileges) }, area, level);
}

/** Full access over every area: what it takes (besides ownership) to share a survey onward. */
export function isFullAccess(privileges: string[]): boolean {
  return AREAS.every((area) => privilegesAllow(privileges, area, 'full_access'));
}

export interface ShareReach {
  share_id: string;
  /** a workgroup share's workgroup; null for a share with the person themselves */
  workgroup_id: string | null;
  /** the privileges this share gives the user (share role capped by the member role) */
  privileges: string[];
}

/** A person-share query: the shares with `userId` in effect (they are an active member of its team). */
function personSharesOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('person_shares as ps')
    .innerJoin('team_members as tm', (j) =>
      j.onRef('tm.user_id', '=', 'ps.user_id').onRef('tm.team_id', '=', 'ps.team_id'),
    )
    .where('ps.user_id', '=', userId)
    .where('tm.status', '=', 'active');
}

/**
 * The shares of `surveyIds` that reach `userId`: shares with them in person (the role's
 * privileges) and through workgroups they take part in with effect, each with the privileges it
 * gives them.
 */
export async function sharesReaching(
  deps: Deps,
  userId: string,
  surveyIds?: string[],
): Promise<Array<ShareReach & { resource_id: string }>> {
  if (surveyIds?.length === 0) return [];
  let personal = personSharesOf(deps.db.kysely, userId).select(['ps.id', 'ps.survey_id', 'ps.role_id']);
  if (surveyIds) personal = personal.where('ps.survey_id', 'in', surveyIds);
  const [people, viaGroups] = await Promise.all([
    personal.execute(),
    workgroupSharesReaching(deps, userId, surveyIds),
  ]);
  if (people.length === 0) return viaGroups;
  const roles = await rolesById(
    deps,
    people.map((p) => p.role_id),
  );
  return [
    ...people.map((p) => {
      const role = roles.get(p.role_id);
      return {
        share_id: p.id,
        workgroup_id: null,
        resource_id: p.survey_id,
        privileges: role ? unionPrivileges([privilegesOf(role)]) : [],
      };
    }),
    ...viaGroups,
  ];
}

async function workgroupSharesReaching(
  deps: Deps,
  userId: string,
  surveyIds?: string[],
): Promise<Array<ShareReach & { resource_id: string }>> {
  const memberships = await activeWorkgroupsOf(deps, userId);
  if (memberships.length === 0) return [];
  let query = deps.db.kysely
    .selectFrom('workgroup_shares')
    .select(['id', 'workgroup_id', 'resource_id', 'role_id'])
    .where('resource_type', '=', SURVEY)
    .where(
      'workgroup_id',
      'in',
      memberships.map((m) => m.workgroup_id),
    );
  if (surveyIds) query = query.where('resource_id', 'in', surveyIds);
  const shares = await query.execute();
  if (shares.length === 0) return [];
  const memberRole = new Map(memberships.map((m) => [m.workgroup_id, m.role_id]));
  const roles = await rolesById(deps, [...shares.map((s) => s.role_id), ...memberRole.values()]);
  return shares.map((s) => {
    const shareRole = roles.get(s.role_id);
    const member = roles.get(memberRole.get(s.workgroup_id) ?? '');
    return {
      share_id: s.id,
      workgroup_id: s.workgroup_id,
      resource_id: s.resource_id,
      privileges: shareRole && member ? capPrivileges(shareRole, member) : [],
    };
  });
}

/**
 * The privileges `userId` holds on `surveyId` through shares, or null when no share reaches them
 * (they cannot see the survey at all). Ownership is not considered here.
 */
export async function sharedPrivileges(
  deps: Deps,
  userId: string,
  surveyId: string,
): Promise<string[] | null> {
  const reach = await sharesReaching(deps, userId, [surveyId]);
  if (reach.length === 0) return null;
  return unionPrivileges(reach.map((r) => r.privileges));
}

/**
 * Subqueries of survey ids for the survey list to fold into its one statement: those shared with
 * `userId` through workgroups they take part in with effect (without the ownership
 * test: the caller adds it), and those shared with any workgroup (the caller adds the owner).
 */
export function sharedWithQuery(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('workgroup_shares as s')
    .select('s.resource_id')
    .where('s.resource_type', '=', SURVEY)
    .where('s.workgroup_id', 'in', activeWorkgroupIdsQuery(db, userId))
    .union(personSharesOf(db, userId).select('ps.survey_id as resource_id'));
}

export function sharedAtAllQuery(db: Kysely<Database>) {
  return db
    .selectFrom('workgroup_shares as s')
    .select('s.resource_id')
    .where('s.resource_type', '=', SURVEY)
    .union(db.selectFrom('person_shares').select('survey_id as resource_id'));
}
