// Derived rows an older release's process left out. During a rolling upgrade the previous release's
// processes keep writing responses after this release's migration added data derived from them
// (response_keys, migration 0045), which only this release writes. Each worker completes them when
// it starts and then every BACKFILL_INTERVAL_SECONDS, so once the last old process has stopped the
// derived data is whole again without any step by the operator.
import type { Deps } from '../../context.js';
import { completeKeys } from '../../db/stores/response-keys.js';
import { answerSentiments } from './sentiment.js';

/** One pass over the responses; how many derived rows it wrote, by table. */
export async function completeDerivedRows(deps: Deps): Promise<{ response_keys: number }> {
  // The rows of responses written before sentiments were kept (migration 0081) are completed here too.
  return { response_keys: await completeKeys(deps.db.kysely, answerSentiments) };
}
