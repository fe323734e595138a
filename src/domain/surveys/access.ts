// Who may do what with a survey: the ONE place that decides. Every survey-scoped endpoint
// (surveys, pages, questions, details, translations) calls requireSurvey; GET /surveys folds the
// sharing area's subqueries (sharedWithQuery) into its one statement for the surveys a user may
// read besides their own. The owner may do
// everything; others what workgroup shares give them (src/domain/sharing/privileges.ts:
// privileges of the form <area>.<level>).
import type { Selectable } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { SurveysTable } from '../../db/tables/surveys.js';
import { ApiError } from '../../platform/errors.js';
import { privilegesAllow, sharedPrivileges } from '../sharing/privileges.js';

export type SurveyRow = Selectable<SurveysTable>;
export type SurveyArea = 'design' | 'collect' | 'analyze';
export type AccessLevel = 'read' | 'write';

/** The caller as access decisions need it (an API request's auth or a signed-in session). */
export interface Caller {
  user: { id: string };
}

const notFound = () => new ApiError(1020, 'Survey not found.');

/**
 * The survey `surveyId` if `auth` may use it in `area` at `level`: the owner may do everything;
 * a user a workgroup share reaches may do what its privileges allow (src/domain/sharing/), else
 * 403/1016; anyone else gets 404/1020 (someone else's survey is indistinguishable from a missing one).
 */
/** A survey's row by id (the hot path of every survey-scoped request). */
export function surveyRow(deps: Deps, id: string): Promise<SurveyRow[]> {
  const { db } = deps;
  return deps.caches.surveyRows.get(() =>
    prepareQuery<SurveyRow, [string]>(db, 1, (id) =>
      db.kysely.selectFrom('surveys').selectAll().where('id', '=', id),
    ),
  )(id);
}

export async function requireSurvey(
  deps: Deps,
  auth: Caller,
  surveyId: string,
  area: SurveyArea,
  level: AccessLevel,
): Promise<SurveyRow> {
  const [survey] = await surveyRow(deps, surveyId);
  if (!survey) throw notFound();
  if (survey.owner_id === auth.user.id) return survey;
  const privileges = await sharedPrivileges(deps, auth.user.id, survey.id);
  if (!privileges) throw notFound();
  if (!privilegesAllow(privileges, area, level === 'write' ? 'full_access' : 'read_only'))
    throw new ApiError(1016, `The survey is shared with you without ${area} ${level} access.`);
  return survey;
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

/** The survey a manage-token page URL (edit, collect, analyze, summary) names. The token only
 * names it: pages still decide access, with managedSurvey. */
export async function surveyByManageToken(deps: Deps, token: string): Promise<SurveyRow | undefined> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return undefined;
  return deps.db.kysely
    .selectFrom('surveys')
    .selectAll()
    .where('manage_token', '=', token)
    .executeTakeFirst();
}

/** The survey a manage token names if `auth` may work on it in `area` at `level` (404/1020 or 403/1016). */
export async function managedSurvey(
  deps: Deps,
  auth: Caller,
  token: string,
  area: SurveyArea,
  level: AccessLevel,
): Promise<SurveyRow> {
  const named = await surveyByManageToken(deps, token);
  if (!named) throw notFound();
  return requireSurvey(deps, auth, named.id, area, level);
}

/** Whether `auth` may work on the survey in `area` at `level`, without throwing for a missing privilege. */
export async function mayAccess(
  deps: Deps,
  auth: Caller,
  surveyId: string,
  area: SurveyArea,
  level: AccessLevel,
): Promise<boolean> {
  try {
    await requireSurvey(deps, auth, surveyId, area, level);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === 1016) return false;
    throw err;
  }
}
