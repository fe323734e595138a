// Each running worker stamps its row in worker_heartbeats as its loop goes round (at most every
// HEARTBEAT_EVERY_MS), and removes it when it stops cleanly. Every process's metrics read the table
// (survey_worker_heartbeat_timestamp_seconds{worker}), so a worker that died or hangs shows as a
// stamp that stopped moving on whichever process is still scraped; deploy/alerts.yml fires on it
// within about two minutes. Rows of workers gone without stopping cleanly are pruned after a day.
import type { Deps } from '../context.js';

export const HEARTBEAT_EVERY_MS = 15_000;
const FORGET_AFTER_MS = 24 * 3600_000;

export async function beat(deps: Deps, worker: string, startedAt: Date, now: Date): Promise<void> {
  const k = deps.db.kysely;
  const at = now.toISOString();
  await k
    .insertInto('worker_heartbeats')
    .values({ worker, started_at: startedAt.toISOString(), beat_at: at })
    .onConflict((oc) => oc.column('worker').doUpdateSet({ beat_at: at }))
    .execute();
  await k
    .deleteFrom('worker_heartbeats')
    .where('beat_at', '<', new Date(now.getTime() - FORGET_AFTER_MS).toISOString())
    .execute();
}

/** A worker that stops cleanly is no longer expected to beat. */
export async function forget(deps: Deps, worker: string): Promise<void> {
  await deps.db.kysely.deleteFrom('worker_heartbeats').where('worker', '=', worker).execute();
}

export interface Heartbeat {
  worker: string;
  /** Unix seconds of the last beat */
  beatAt: number;
}

export async function workerHeartbeats(deps: Deps): Promise<Heartbeat[]> {
  const rows = await deps.db.kysely
    .selectFrom('worker_heartbeats')
    .select(['worker', 'beat_at'])
    .orderBy('worker')
    .execute();
  return rows.map((r) => ({ worker: r.worker, beatAt: Date.parse(r.beat_at) / 1000 }));
}
