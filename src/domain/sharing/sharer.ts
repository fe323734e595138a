// Who may share a survey onward (and see and change who it is shared with): its owner, or a user
// whose shares give them full access over design, collect and analyze.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { isFullAccess, sharedPrivileges } from './privileges.js';
import { surveysById } from './shares.js';

export interface SharedSurvey {
  id: string;
  owner_id: string;
  title: string;
}

/** The survey if `userId` may share it: 404/1020 when they cannot see it, 403/1016 when they only see it. */
export async function requireSharer(deps: Deps, userId: string, surveyId: string): Promise<SharedSurvey> {
  const survey = (await surveysById(deps, [surveyId])).get(surveyId);
  if (!survey) throw new ApiError(1020, 'Survey not found.');
  if (survey.owner_id === userId) return survey;
  const privileges = await sharedPrivileges(deps, userId, surveyId);
  if (!privileges) throw new ApiError(1020, 'Survey not found.');
  if (!isFullAccess(privileges))
    throw new ApiError(
      1016,
      'Only the owner of the survey or a user with full access to it may see and change who it is shared with.',
    );
  return survey;
}
