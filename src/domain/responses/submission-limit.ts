// How fast respondents may submit survey pages: per collector and client address (a person
// answering needs a few posts a minute; one client flooding a collector is refused), and per
// collector in total. Fixed one-minute windows, each counted by one atomic upsert, so the ceiling
// is exact under concurrency and shared by every process. The API's POST .../responses is not
// counted here: its callers are authenticated apps, held by the app rate limits.
import { type Kysely, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { addressKey } from '../../platform/addresses.js';

const MINUTE = 60_000;

/** The statement that counts one in `key`'s window and returns the count so far (one atomic upsert,
 * so a limit holds under concurrency in every process); also a part of a page post's first read
 * (domain/screening/screen.ts respondentRecord). */
export function bumpStatement(k: Kysely<Database>, key: string, window: string | number) {
  return k
    .insertInto('window_counters')
    .values({ key, window_start: sql<number>`${window}`, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`CASE WHEN window_counters.window_start >= excluded.window_start THEN window_counters.count + 1 ELSE 1 END`,
        window_start: sql`CASE WHEN window_counters.window_start >= excluded.window_start THEN window_counters.window_start ELSE excluded.window_start END`,
      }),
    )
    .returning('count');
}

/** Now and then, forget windows that have passed (one row per address that ever answered). */
export async function sweepWindows(deps: Deps, window: number): Promise<void> {
  if (deps.runners.windowSweep.tick())
    await deps.db.kysely
      .deleteFrom('window_counters')
      .where('window_start', '<', window - 1)
      .execute();
}

/** Counts one in `key`'s current window and returns the count so far (this one included); also
 * what other per-address throttles count with (shared results pages). */
export async function bump(deps: Deps, key: string, window: number): Promise<number> {
  const { db } = deps;
  // Prepared once (deps.caches.windowBump): every page a respondent saves passes here. On SQLite
  // the bumps of one turn share a write transaction.
  const [row] = await deps.caches.windowBump.get(() =>
    prepareQuery(db, 2, (key, window) => bumpStatement(db.kysely, key, window), { grouped: true }),
  )(key, window);
  await sweepWindows(deps, window);
  return Number(row.count);
}

/** The per-address window a page post from `ip` to a collector counts in now, when that limit is
 * on: what a post's first read may count in (respondentRecord), for admitSubmission. */
export function addressWindow(
  deps: Deps,
  collectorId: string,
  ip: string,
): { key: string; window: number } | null {
  if (deps.config.respondentLimits.perAddressMinute <= 0) return null;
  return {
    key: `respond:${collectorId}:ip:${addressKey(ip)}`,
    window: Math.floor(deps.clock.now().getTime() / MINUTE),
  };
}

/**
 * Admits one page submission from `ip` to a collector, or says how many seconds to wait. A
 * submission refused for its address does not count against the collector.
 */
export async function admitSubmission(
  deps: Deps,
  collectorId: string,
  ip: string,
  /** this post's count in its addressWindow, when its first read counted it already */
  counted?: number,
): Promise<{ retryAfterSeconds: number } | null> {
  const { perAddressMinute, perCollectorMinute } = deps.config.respondentLimits;
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / MINUTE);
  const wait = { retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * MINUTE - now) / 1000)) };
  const address = addressWindow(deps, collectorId, ip);
  if (address && (counted ?? (await bump(deps, address.key, address.window))) > perAddressMinute) return wait;
  if (perCollectorMinute > 0 && (await bump(deps, `respond:${collectorId}`, window)) > perCollectorMinute)
    return wait;
  return null;
}
