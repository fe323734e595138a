// The state of each survey's collectors (open, or closed by hand, by date or full, as closedReason
// decides), where the surveys area's own views show it: the survey list of the signed-in home page
// and what deleting a survey would lose. They sit here, above surveys, because the rule is the
// collectors'.
import type { Deps } from '../../context.js';
import type { Caller, SurveyRow } from '../surveys/access.js';
import {
  deletableSurvey,
  type ListColumn,
  type ListQuery,
  listSurveys,
  WORKSPACE_COLUMNS,
} from '../surveys/surveys.js';
import { closedReason } from './collectors.js';

/** How many collectors of each survey take responses now and how many do not (closed, expired
 * or full, as `closedReason` decides): the survey list's status column, one query for a page. */
async function collectorStates(
  deps: Deps,
  surveyIds: string[],
  now: Date,
): Promise<Map<string, { open: number; closed: number }>> {
  const out = new Map<string, { open: number; closed: number }>();
  if (surveyIds.length === 0) return out;
  const rows = await deps.db.kysely
    .selectFrom('collectors')
    .select(['survey_id', 'status', 'close_date', 'response_limit', 'response_count'])
    .where('survey_id', 'in', surveyIds)
    .execute();
  for (const r of rows) {
    let s = out.get(r.survey_id);
    if (!s) {
      s = { open: 0, closed: 0 };
      out.set(r.survey_id, s);
    }
    if (closedReason(r, now)) s.closed++;
    else s.open++;
  }
  return out;
}

/** What deleting a survey would lose (the confirmation names it), if `actor` may delete it. */
export async function surveyDeletion(
  deps: Deps,
  actor: Caller,
  surveyId: string,
): Promise<{ survey: SurveyRow; collectors: number }> {
  const survey = await deletableSurvey(deps, actor, surveyId);
  const states = (await collectorStates(deps, [survey.id], deps.clock.now())).get(survey.id);
  return { survey, collectors: states ? states.open + states.closed : 0 };
}

export interface WorkspaceSurvey extends Pick<SurveyRow, ListColumn> {
  /** Collectors taking responses now, and those closed (by hand, by date or full). */
  collectors: { open: number; closed: number };
}

/**
 * The survey list of the signed-in home page: listSurveys' page with the columns it shows, and
 * the state of each survey's collectors in one more query (a constant number of queries per page;
 * the API's GET /surveys keeps to listSurveys).
 */
export async function listWorkspaceSurveys(
  deps: Deps,
  userId: string,
  q: ListQuery,
): Promise<[number, WorkspaceSurvey[]]> {
  const [total, rows] = await listSurveys(deps, userId, q, WORKSPACE_COLUMNS);
  const states = await collectorStates(
    deps,
    rows.map((r) => r.id),
    deps.clock.now(),
  );
  return [total, rows.map((r) => ({ ...r, collectors: states.get(r.id) ?? { open: 0, closed: 0 } }))];
}
