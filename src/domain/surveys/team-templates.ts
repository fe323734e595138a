// Team survey templates: surveys a team keeps as starting points (GET /team_survey_templates,
// POST /surveys from_team_template_id). Until teams exist an account's own templates are its team's.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { activeTeamOf } from '../teams/membership.js';
import { visibleTeamTemplates } from './surveys.js';

export interface TeamTemplate {
  id: string;
  name: string;
  survey_id: string;
}

export async function addTeamTemplate(
  deps: Deps,
  ownerId: string,
  surveyId: string,
  name: string,
): Promise<TeamTemplate> {
  const survey = await deps.db.kysely
    .selectFrom('surveys')
    .select('id')
    .where('id', '=', surveyId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!survey) throw new ApiError(1020, 'Survey not found.');
  const id = await deps.ids.one();
  // The template belongs to the owner's team when they are in one, so every member sees it.
  const team = await activeTeamOf(deps, ownerId);
  await deps.db.kysely
    .insertInto('team_survey_templates')
    .values({
      id,
      owner_id: ownerId,
      team_id: team,
      name,
      survey_id: surveyId,
      created_at: deps.clock.now().toISOString(),
    })
    .execute();
  return { id, name, survey_id: surveyId };
}

export async function listTeamTemplates(
  deps: Deps,
  userId: string,
  offset: number,
  limit: number,
): Promise<[number, TeamTemplate[]]> {
  const visible = await visibleTeamTemplates(deps, userId);
  const k = deps.db.kysely;
  const { total } = await k
    .selectFrom('team_survey_templates')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where(visible)
    .executeTakeFirstOrThrow();
  const rows = await k
    .selectFrom('team_survey_templates')
    .select(['id', 'name', 'survey_id'])
    .where(visible)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return [Number(total), rows];
}
