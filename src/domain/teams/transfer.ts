// Transferring a survey's ownership between two active members of a team, e.g. when its owner
// leaves: the team's account owner or an admin moves it. Every row of the survey carries its owning
// account (owner_id, the distribution key), so the survey, its pages, questions, translations,
// theme, collectors with their messages and recipients, responses, alerts, uploads, exports and
// shared results all move in one transaction; the survey list's totals follow by trigger (0041).
// The survey leaves the old owner's folders. Recorded as survey_info_transfer (group activity).
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { recordEvent } from '../core/events.js';
import { isAdminType, membershipOf } from './membership.js';
import { type Actor, requireTeam } from './teams.js';

export interface TeamSurvey {
  id: string;
  title: string;
  owner_id: string;
  owner_username: string;
}

/** The surveys the team's active members own, by owner then title (the transfer form's choices). */
export async function teamSurveys(
  deps: Deps,
  teamId: string,
  options: { limit?: number; surveyId?: string } = {},
): Promise<TeamSurvey[]> {
  let q = deps.db.kysely
    .selectFrom('surveys as s')
    .innerJoin('team_members as m', 'm.user_id', 's.owner_id')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .select(['s.id', 's.title', 's.owner_id', 'u.username as owner_username'])
    .where('m.team_id', '=', teamId)
    .where('m.status', '=', 'active')
    .orderBy('u.username')
    .orderBy('s.title')
    .orderBy('s.id')
    .limit(options.limit ?? 1000);
  if (options.surveyId) q = q.where('s.id', '=', options.surveyId);
  return q.execute();
}

/** Tables whose rows of one survey carry its owner (besides surveys itself). */
const BY_SURVEY = [
  'survey_pages',
  'survey_questions',
  'survey_translations',
  'themes',
  'collectors',
  'collector_recipients',
  'responses',
  'flagged_responses',
  'survey_response_seq',
  'survey_alerts',
  'uploads',
  'exports',
  'shared_results',
] as const;

/**
 * Moves `surveyId` to `toUserId`. The actor must be the team's account owner or an admin; the
 * survey's owner and the recipient must both be active members of the team (a survey outside the
 * team is 404/1020, so ids cannot be probed). Given `fromUserId` (the owner the caller saw), a
 * survey that has changed owner since is refused (409/1025); two concurrent transfers cannot both
 * succeed either way: the owner changes only from the owner read.
 */
export async function transferSurvey(
  deps: Deps,
  teamId: string,
  input: { surveyId: string; toUserId: string; fromUserId?: string },
  actor: Actor,
): Promise<{ surveyId: string; fromUserId: string; toUserId: string }> {
  const team = await requireTeam(deps, teamId);
  const me = await membershipOf(deps, actor.userId);
  if (!me || me.team_id !== team.id || me.status !== 'active' || !isAdminType(me.type))
    throw new ApiError(1016, 'only an account owner or admin of the team may transfer surveys');
  const [survey] = await teamSurveys(deps, team.id, { surveyId: input.surveyId });
  if (!survey) throw new ApiError(1020, 'Survey not found in the team.');
  // A form shown before another transfer names the owner it saw: it does not move the survey on.
  if (input.fromUserId && input.fromUserId !== survey.owner_id)
    throw new ApiError(1025, 'The survey changed owner meanwhile; reload and try again.');
  const to = await membershipOf(deps, input.toUserId);
  if (!to || to.team_id !== team.id || to.status !== 'active')
    throw new ApiError(1020, 'The new owner must be an active member of the team.');
  if (to.user_id === survey.owner_id) throw new ApiError(1002, 'The survey already belongs to that member.');
  const recipient = await deps.db.kysely
    .selectFrom('users')
    .select('username')
    .where('id', '=', to.user_id)
    .executeTakeFirstOrThrow();
  const eventId = await deps.ids.one();
  const now = deps.clock.now().toISOString();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('surveys')
      .set({ owner_id: to.user_id, folder_id: null, date_modified: now })
      .where('id', '=', survey.id)
      .where('owner_id', '=', survey.owner_id)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1)
      throw new ApiError(1025, 'The survey changed owner meanwhile; reload and try again.');
    for (const table of BY_SURVEY)
      await trx.updateTable(table).set({ owner_id: to.user_id }).where('survey_id', '=', survey.id).execute();
    await trx
      .updateTable('collector_messages')
      .set({ owner_id: to.user_id })
      .where(
        'collector_id',
        'in',
        trx.selectFrom('collectors').select('id').where('survey_id', '=', survey.id),
      )
      .execute();
    // Shares with a person follow the survey; one with its new owner has nothing left to give.
    await trx
      .deleteFrom('person_shares')
      .where('survey_id', '=', survey.id)
      .where('user_id', '=', to.user_id)
      .execute();
    await trx
      .updateTable('person_shares')
      .set({ owner_account_id: to.user_id })
      .where('survey_id', '=', survey.id)
      .execute();
    await recordEvent(deps, trx, eventId, {
      type: 'survey_info_transfer',
      // the survey's account from now on
      ownerId: to.user_id,
      actorId: actor.userId,
      groupId: team.id,
      ip: actor.ip,
      resourceType: 'survey',
      resourceId: survey.id,
      data: { title: survey.title, from: survey.owner_username, to: recipient.username },
    });
  });
  return { surveyId: survey.id, fromUserId: survey.owner_id, toUserId: to.user_id };
}
