// Events as the other areas write them: recordEvent inside the transaction of their change.
import type { Deps } from '../../../src/context.js';
import type { EventType } from '../../../src/domain/core/event-types.js';
import { recordEvent } from '../../../src/domain/core/events.js';

export async function emit(
  deps: Deps,
  type: EventType,
  ownerId: string,
  resourceType: string,
  resourceId: string,
  data: Record<string, unknown> = {},
): Promise<string> {
  const id = await deps.ids.one();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await recordEvent(deps, trx, id, { type, ownerId, actorId: ownerId, resourceType, resourceId, data });
  });
  return id;
}

/** A response_completed event for a response on survey `surveyId` through collector `collectorId`. */
export function responseCompleted(deps: Deps, ownerId: string, surveyId: string, collectorId = '900000001') {
  return deps.ids.one().then((responseId) =>
    emit(deps, 'response_completed', ownerId, 'response', responseId, {
      survey_id: surveyId,
      collector_id: collectorId,
    }).then((eventId) => ({ eventId, responseId })),
  );
}
