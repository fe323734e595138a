// Which objects a webhook may watch: surveys, or collectors of surveys, whose responses the
// account may analyze (its own, or shared with analyze access). Anything else is not found.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { requireSurvey } from '../surveys/access.js';

export async function checkObjectIds(
  deps: Deps,
  ownerId: string,
  objectType: 'survey' | 'collector',
  ids: readonly string[],
): Promise<void> {
  const caller = { user: { id: ownerId } };
  for (const id of new Set(ids)) {
    let surveyId = id;
    if (objectType === 'collector') {
      const collector = await deps.db.kysely
        .selectFrom('collectors')
        .select('survey_id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!collector) throw new ApiError(1020, `Collector ${id} not found.`);
      surveyId = collector.survey_id;
    }
    try {
      await requireSurvey(deps, caller, surveyId, 'analyze', 'read');
    } catch (err) {
      if (err instanceof ApiError)
        throw new ApiError(1020, `${objectType === 'survey' ? 'Survey' : 'Collector'} ${id} not found.`);
      throw err;
    }
  }
}
