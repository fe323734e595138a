// How fast respondents may submit survey pages: per collector and client address (a person
// answering needs a few posts a minute; one client flooding a collector is refused), and per
// collector in total. Fixed one-minute windows, each counted by one atomic upsert, so the ceiling
// is exact under concurrency and shared by every process. The API's POST .../responses is not
// counted here: its callers are authenticated apps, held by the app rate limits.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import { addressKey } from '../../platform/addresses.js';

const MINUTE = 60_000;

/** Counts one in `key`'s current window and returns the count so far (this one included); also
 * what other per-address throttles count with (shared results pages). */
export async function bump(deps: Deps, key: string, window: number): Promise<number> {
  const { db } = deps;
  const k = db.kysely;
  // Prepared once (deps.caches.windowBump): every page a respondent saves passes here. On SQLite
  // the bumps of one turn share a write transaction.
  const [row] = await deps.caches.windowBump.get(() =>
    prepareQuery(
      db,
      2,
      (key, window) =>
        k
          .insertInto('window_counters')
          .values({ key, window_start: sql<number>`${window}`, count: 1 })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({
              count: sql`CASE WHEN window_counters.window_start >= excluded.window_start THEN window_counters.count + 1 ELSE 1 END`,
              window_start: sql`CASE WHEN window_counters.window_start >= excluded.window_start THEN window_counters.window_start ELSE excluded.window_start END`,
            }),
          )
          .returning('count'),
      { grouped: true },
    ),
  )(key, window);
  // Now and then, forget windows that have passed (one row per address that ever answered).
  if (deps.runners.windowSweep.tick())
    await k
      .deleteFrom('window_counters')
      .where('window_start', '<', window - 1)
      .execute();
  return Number(row.count);
}

/**
 * Admits one page submission from `ip` to a collector, or says how many seconds to wait. A
 * submission refused for its address does not count against the collector.
 */
export async function admitSubmission(
  deps: Deps,
  collectorId: string,
  ip: string,
): Promise<{ retryAfterSeconds: number } | null> {
  const { perAddressMinute, perCollectorMinute } = deps.config.respondentLimits;
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / MINUTE);
  const wait = { retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * MINUTE - now) / 1000)) };
  if (
    perAddressMinute > 0 &&
    (await bump(deps, `respond:${collectorId}:ip:${addressKey(ip)}`, window)) > perAddressMinute
  )
    return wait;
  if (perCollectorMinute > 0 && (await bump(deps, `respond:${collectorId}`, window)) > perCollectorMinute)
    return wait;
  return null;
}
