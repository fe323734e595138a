// Completing a response under the survey's quotas (domain/quotas): the response is written
// completed with its quota counts in one transaction; when a quota its answers meet is full, that
// transaction rolls back and the response is written overquota instead (counted in no quota), and
// the quota's action follows (closing the collector is done here, the rest is the caller's to show).
import type { Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { closeCollectorForQuota, countQuotas, listQuotas, type Quota, QuotaFull } from '../quotas/quotas.js';
import { type ResponseRow, storedPages } from './responses.js';

/** Rows written in the response's own transaction, given the row as it is written. */
export type Within = (trx: Transaction<Database>, row: ResponseRow) => Promise<void>;

export async function completeUnderQuotas(
  deps: Deps,
  where: { surveyId: string; collectorId: string },
  write: (status: 'completed' | 'overquota', within?: Within) => Promise<ResponseRow>,
): Promise<{ row: ResponseRow; over?: Quota }> {
  const quotas = await listQuotas(deps, { id: where.surveyId });
  if (quotas.length === 0) return { row: await write('completed') };
  try {
    return {
      row: await write('completed', (trx, row) => countQuotas(trx, quotas, { pages: storedPages(row) })),
    };
  } catch (err) {
    if (!(err instanceof QuotaFull)) throw err;
    const row = await write('overquota');
    if (err.quota.action.type === 'close_collector') await closeCollectorForQuota(deps, where.collectorId);
    return { row, over: err.quota };
  }
}
