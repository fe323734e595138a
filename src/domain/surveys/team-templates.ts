// Team survey templates: surveys a team keeps as starting points (GET /team_survey_templates,
// POST /surveys from_team_template_id). Until teams exist an account's own templates are its team's.
import type { Deps } from '../../context.js';
import { countAndPage, ownedRow } from '../core/owned.js';
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
  await ownedRow(deps.db.kysely, 'surveys', ownerId, surveyId, 'Survey not found.');
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
  const base = deps.db.kysely.selectFrom('team_survey_templates').where(visible);
  const { total, rows } = await countAndPage(base, { offset, limit }, (q) =>
    q.select(['id', 'name', 'survey_id']).orderBy('created_at').orderBy('id'),
  );
  return [total, rows];
}
