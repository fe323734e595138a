// Who may do what with a survey: the ONE place that decides. Every survey-scoped endpoint
// (surveys, pages, questions, details, translations) calls requireSurvey; GET /surveys asks
// sharedSurveyIds for the surveys a user may read besides their own. Today the owner may do
// everything and nobody else anything; the sharing area extends these two functions with
// workgroup shares (privileges of the form <area>.<level>).
import type { Selectable } from 'kysely';
import type { Deps } from '../../context.js';
import type { SurveysTable } from '../../db/tables/surveys.js';
import { ApiError } from '../../platform/errors.js';

export type SurveyRow = Selectable<SurveysTable>;
export type SurveyArea = 'design' | 'collect' | 'analyze';
export type AccessLevel = 'read' | 'write';

/** The caller as access decisions need it (an API request's auth or a signed-in session). */
export interface Caller {
  user: { id: string };
}

const notFound = () => new ApiError(1020, 'Survey not found.');

/**
 * The survey `surveyId` if `auth` may use it in `area` at `level`; otherwise 404/1020 (someone
 * else's survey is indistinguishable from a missing one).
 */
export async function requireSurvey(
  deps: Deps,
  auth: Caller,
  surveyId: string,
  _area: SurveyArea,
  _level: AccessLevel,
): Promise<SurveyRow> {
  const survey = await deps.db.kysely
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', surveyId)
    .executeTakeFirst();
  if (!survey) throw notFound();
  if (survey.owner_id === auth.user.id) return survey;
  throw notFound();
}

/** Ids of surveys `userId` may read although they do not own them (none until sharing lands). */
export async function sharedSurveyIds(_deps: Deps, _userId: string): Promise<string[]> {
  return [];
}

/** Ids of `userId`'s own surveys that they have shared with others (none until sharing lands). */
export async function surveysSharedByUser(_deps: Deps, _userId: string): Promise<string[]> {
  return [];
}

/**
 * The survey behind a preview URL's token, or undefined. The token is the capability: anyone
 * holding the preview link may see the survey as a respondent would (never its answers).
 */
export async function surveyByPreviewToken(deps: Deps, token: string): Promise<SurveyRow | undefined> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return undefined;
  return deps.db.kysely
    .selectFrom('surveys')
    .selectAll()
    .where('preview_token', '=', token)
    .executeTakeFirst();
}
