// How many resources are shared with each workgroup (the workgroup resource's shares_count).
import type { Deps } from '../../context.js';

export async function countShares(deps: Deps, workgroupIds: string[]): Promise<Map<string, number>> {
  const out = new Map(workgroupIds.map((id) => [id, 0]));
  if (workgroupIds.length === 0) return out;
  const rows = await deps.db.kysely
    .selectFrom('workgroup_shares')
    .select(['workgroup_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('workgroup_id', 'in', workgroupIds)
    .groupBy('workgroup_id')
    .execute();
  for (const r of rows) out.set(r.workgroup_id, Number(r.n));
  return out;
}
