// Which objects a webhook may watch.
import type { Deps } from '../../context.js';

/**
 * INTEGRATION: object_ids name surveys or collectors, which live in other areas. Until those are
 * merged this only checks the form (digit strings, done by the route schema) and accepts every id.
 * At integration it must check that each id is a survey (object_type survey) or collector
 * (object_type collector) the account owns, and throw `new ApiError(1020, ...)` (or 1002) otherwise.
 * This is the only place that needs to change; events are filtered by these ids in outbox/fanout.ts.
 */
export async function checkObjectIds(
  _deps: Deps,
  _ownerId: string,
  _objectType: 'survey' | 'collector',
  _ids: readonly string[],
): Promise<void> {}
