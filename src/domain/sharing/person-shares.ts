// Person shares: a survey shared with one member of the sharer's team, by username or address,
// with a role (the role's privileges, in effect while the person is an active member of that team:
// privileges.ts reads them). Who may share, change a role or remove one: whoever may share the
// survey (its owner or a holder of full access: requireSharer). Each change is recorded as group
// activity, as workgroup shares are: permission_created + shared_view_created, permission_updated,
// and permission_updated + shared_view_updated (data.removed: true).
import type { Deps } from '../../context.js';
import type { PersonSharesTable } from '../../db/tables/sharing.js';
import { ApiError } from '../../platform/errors.js';
import { findUserByEmail, findUserByUsername } from '../accounts/users.js';
import type { EventType } from '../core/event-types.js';
import { hexId } from '../core/ids.js';
import { isUniqueViolation } from '../core/unique.js';
import { activeTeamOf, sameTeam } from '../teams/membership.js';
import { findRole, type Role, rolesById, SYSTEM_ROLE_IDS } from '../workgroups/roles.js';
import { requireSharer, type SharedSurvey } from './sharer.js';
import { recordShareEvent, type ShareActor, type Trx } from './shares.js';

export type PersonShare = PersonSharesTable;

function record(
  deps: Deps,
  trx: Trx,
  eventId: string,
  type: EventType,
  actor: ShareActor,
  share: PersonShare,
  survey: SharedSurvey,
  data: Record<string, unknown>,
): Promise<void> {
  return recordShareEvent(deps, trx, eventId, type, actor, survey, share.team_id, {
    share_id: share.id,
    user_id: share.user_id,
    ...data,
  });
}

async function enabledRole(deps: Deps, teamId: string, roleId: string): Promise<Role> {
  const role = await findRole(deps, teamId, roleId).catch(() => {
    throw new ApiError(1002, `'role_id' names no role: ${roleId}.`);
  });
  if (role.is_enabled !== 1) throw new ApiError(1002, `The role ${role.name} is disabled.`);
  return role;
}

/** The person shares of a survey, oldest first. */
export async function personSharesOfSurvey(deps: Deps, surveyId: string): Promise<PersonShare[]> {
  return deps.db.kysely
    .selectFrom('person_shares')
    .selectAll()
    .where('survey_id', '=', surveyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Shares the survey with one person of the sharer's team, named by username or address, with a
 * role (default Viewer). Refused: someone outside the sharer's team (or a sharer without one),
 * the owner, a person it is already shared with (409/1026, also under concurrency: the unique
 * constraint).
 */
export async function shareWithPerson(
  deps: Deps,
  actor: ShareActor,
  surveyId: string,
  who: string,
  roleId: string = SYSTEM_ROLE_IDS.Viewer,
): Promise<PersonShare> {
  const survey = await requireSharer(deps, actor.userId, surveyId);
  const name = who.trim();
  if (!name) throw new ApiError(1002, 'Give the username or email address of a member of your team.');
  const teamId = await activeTeamOf(deps, actor.userId);
  if (!teamId)
    throw new ApiError(1016, 'Only a member of a team may share a survey with a person of the team.');
  const person = name.includes('@')
    ? ((await findUserByEmail(deps, name)) ?? (await findUserByUsername(deps, name)))
    : await findUserByUsername(deps, name);
  if (!person || !(await sameTeam(deps, actor.userId, person.id)))
    throw new ApiError(1002, `${name} is not an active member of your team.`);
  if (person.id === survey.owner_id) throw new ApiError(1002, `${person.username} owns the survey.`);
  const role = await enabledRole(deps, teamId, roleId);
  const now = deps.clock.now().toISOString();
  const row: PersonShare = {
    id: hexId(),
    survey_id: survey.id,
    user_id: person.id,
    team_id: teamId,
    owner_account_id: survey.owner_id,
    shared_by: actor.userId,
    role_id: role.id,
    created_at: now,
    updated_at: now,
  };
  const eventIds = await deps.ids.take(2);
  await deps.db.kysely
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('person_shares').values(row).execute();
      const data = { role: role.name, person: person.username };
      await record(deps, trx, eventIds[0], 'permission_created', actor, row, survey, data);
      await record(deps, trx, eventIds[1], 'shared_view_created', actor, row, survey, data);
    })
    .catch((err) => {
      if (isUniqueViolation(err))
        throw new ApiError(1026, `The survey is already shared with ${person.username}.`);
      throw err;
    });
  return row;
}

async function shareOf(deps: Deps, surveyId: string, shareId: string): Promise<PersonShare> {
  const share = await deps.db.kysely
    .selectFrom('person_shares')
    .selectAll()
    .where('id', '=', shareId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  if (!share) throw new ApiError(1020, 'Share not found.');
  return share;
}

/** Gives a person share of the survey another role. */
export async function changePersonShare(
  deps: Deps,
  actor: ShareActor,
  surveyId: string,
  shareId: string,
  roleId: string,
): Promise<PersonShare> {
  const survey = await requireSharer(deps, actor.userId, surveyId);
  const share = await shareOf(deps, surveyId, shareId);
  const role = await enabledRole(deps, share.team_id, roleId);
  if (role.id === share.role_id) return share;
  const old = (await rolesById(deps, [share.role_id])).get(share.role_id);
  const [eventId] = await deps.ids.take(1);
  const now = deps.clock.now().toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('person_shares')
      .set({ role_id: role.id, updated_at: now })
      .where('id', '=', share.id)
      .execute();
    await record(deps, trx, eventId, 'permission_updated', actor, share, survey, {
      old: old?.name ?? share.role_id,
      new: role.name,
    });
  });
  return { ...share, role_id: role.id, updated_at: now };
}

/** Removes a person share of the survey: the person loses what it gave them at once. */
export async function removePersonShare(
  deps: Deps,
  actor: ShareActor,
  surveyId: string,
  shareId: string,
): Promise<PersonShare> {
  const survey = await requireSharer(deps, actor.userId, surveyId);
  const share = await shareOf(deps, surveyId, shareId);
  const eventIds = await deps.ids.take(2);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('person_shares').where('id', '=', share.id).execute();
    await record(deps, trx, eventIds[0], 'permission_updated', actor, share, survey, { removed: true });
    await record(deps, trx, eventIds[1], 'shared_view_updated', actor, share, survey, { removed: true });
  });
  return share;
}
