// Per-app rate limits, shared by every account using the app and by every server process: the
// counters live in the database and are bumped by one atomic upsert per request.
//
// Windows: the minute window is fixed (floor of the epoch minute); the day resets at 00:00 GMT.
// Tolerance: each window in which an app goes over a limit is one violation. An app with fewer than
// three violations in the last 30 days (not counting the current window) is still served up to
// 150% of the limit; past 150%, or once three earlier violations are on record, requests over 100%
// get 429/1040. Rejected requests are not counted against the app.
import { sql } from 'kysely';
import type { Deps } from '../context.js';
import { prepareQuery } from '../db/prepared.js';
import type { App } from '../domain/accounts/apps.js';

/** Sent as the limit and remaining count of a window with no cap (an integer clients can parse). */
export const NO_CAP = 2147483647;
const TOLERANCE = 1.5;
const ALLOWED_VIOLATIONS = 3;
const MINUTE = 60_000;
const DAY = 86_400_000;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

type LimitedApp = Pick<App, 'id' | 'status' | 'minute_limit' | 'day_limit'>;

export function appLimits(deps: Deps, app: LimitedApp): { minute: number; day: number } {
  const r = deps.config.rateLimits;
  const isPublic = app.status === 'public';
  return {
    minute: app.minute_limit ?? (isPublic ? r.publicMinute : r.draftMinute),
    day: app.day_limit ?? (isPublic ? r.publicDay : r.draftDay),
  };
}

export class RateLimiter {
  constructor(private readonly deps: Deps) {}

  /** One statement: start a new window or count in the current one (a lagging clock in another
   * process never moves a window backwards). Prepared once per Deps (deps.caches.rateBump). */
  private bump(appId: string, minuteWindow: number, dayWindow: number) {
    const { db } = this.deps;
    return this.deps.caches.rateBump.get(() =>
      prepareQuery(db, 3, (appId, minuteWindow, dayWindow) =>
        db.kysely
          .insertInto('rate_counters')
          .values({
            app_id: appId,
            minute_window: sql<number>`${minuteWindow}`,
            minute_count: 1,
            day_window: sql<number>`${dayWindow}`,
            day_count: 1,
          })
          .onConflict((oc) =>
            oc.column('app_id').doUpdateSet({
              minute_count: sql`CASE WHEN rate_counters.minute_window >= excluded.minute_window THEN rate_counters.minute_count + 1 ELSE 1 END`,
              minute_window: sql`CASE WHEN rate_counters.minute_window >= excluded.minute_window THEN rate_counters.minute_window ELSE excluded.minute_window END`,
              day_count: sql`CASE WHEN rate_counters.day_window >= excluded.day_window THEN rate_counters.day_count + 1 ELSE 1 END`,
              day_window: sql`CASE WHEN rate_counters.day_window >= excluded.day_window THEN rate_counters.day_window ELSE excluded.day_window END`,
            }),
          )
          .returning(['minute_count', 'day_count']),
      ),
    )(appId, minuteWindow, dayWindow);
  }

  /** The uncapped answer of the current second (its headers depend only on the second). */
  private uncappedSecond = Number.NaN;
  private uncappedDecision: RateDecision | undefined;

  /** Counts a request of `app` at `now` (ms): synchronous for an app with no cap (nothing to count). */
  hit(app: LimitedApp, now = this.deps.clock.now().getTime()): RateDecision | Promise<RateDecision> {
    const limits = appLimits(this.deps, app);
    // An app with no cap in either window has nothing to enforce and nothing to report. Its
    // headers (the windows and their resets, in whole seconds) are the same for a whole second.
    if (limits.minute === 0 && limits.day === 0) {
      const second = Math.floor(now / 1000);
      if (second !== this.uncappedSecond || !this.uncappedDecision) {
        this.uncappedDecision = uncapped(Math.floor(now / MINUTE), Math.floor(now / DAY), now);
        this.uncappedSecond = second;
      }
      return this.uncappedDecision;
    }
    return this.counted(app, limits, now);
  }

  private async counted(app: LimitedApp, limits: { minute: number; day: number }, now: number) {
    const minuteWindow = Math.floor(now / MINUTE);
    const dayWindow = Math.floor(now / DAY);
    const k = this.deps.db.kysely;
    const [row] = await this.bump(app.id, minuteWindow, dayWindow);
    const minuteCount = Number(row.minute_count);
    const dayCount = Number(row.day_count);

    let allowed = true;
    if (limits.minute > 0 && minuteCount > limits.minute)
      allowed = await this.tolerated(app.id, `minute:${minuteWindow}`, minuteCount, limits.minute, now);
    if (allowed && limits.day > 0 && dayCount > limits.day)
      allowed = await this.tolerated(app.id, `day:${dayWindow}`, dayCount, limits.day, now);

    let served = { minute: minuteCount, day: dayCount };
    if (!allowed) {
      await k
        .updateTable('rate_counters')
        .set({
          minute_count: sql`CASE WHEN minute_window = ${minuteWindow} THEN minute_count - 1 ELSE minute_count END`,
          day_count: sql`CASE WHEN day_window = ${dayWindow} THEN day_count - 1 ELSE day_count END`,
        })
        .where('app_id', '=', app.id)
        .execute();
      served = { minute: minuteCount - 1, day: dayCount - 1 };
    }

    return { allowed, headers: rateHeaders(limits, served, minuteWindow, dayWindow, now) };
  }

  /** Records the window as a violation (once) and says whether this over-limit request is served. */
  private async tolerated(appId: string, window: string, count: number, limit: number, now: number) {
    const k = this.deps.db.kysely;
    const nowIso = new Date(now).toISOString();
    await k
      .insertInto('rate_violations')
      .values({ app_id: appId, window, created_at: nowIso })
      .onConflict((oc) => oc.columns(['app_id', 'window']).doNothing())
      .execute();
    const earlier = await k
      .selectFrom('rate_violations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('app_id', '=', appId)
      .where('window', '!=', window)
      .where('created_at', '>=', new Date(now - 30 * DAY).toISOString())
      .executeTakeFirstOrThrow();
    if (Number(earlier.n) >= ALLOWED_VIOLATIONS) return false;
    return count <= limit * TOLERANCE;
  }
}

function rateHeaders(
  limits: { minute: number; day: number },
  used: { minute: number; day: number },
  minuteWindow: number,
  dayWindow: number,
  now: number,
): Record<string, string> {
  const header = (limit: number, count: number, resetMs: number) => ({
    limit: String(limit > 0 ? limit : NO_CAP),
    remaining: String(limit > 0 ? Math.max(0, limit - count) : NO_CAP),
    reset: String(Math.max(1, Math.ceil(resetMs / 1000))),
  });
  const m = header(limits.minute, used.minute, (minuteWindow + 1) * MINUTE - now);
  const d = header(limits.day, used.day, (dayWindow + 1) * DAY - now);
  return {
    'x-ratelimit-app-global-day-limit': d.limit,
    'x-ratelimit-app-global-day-remaining': d.remaining,
    'x-ratelimit-app-global-day-reset': d.reset,
    'x-ratelimit-app-global-minute-limit': m.limit,
    'x-ratelimit-app-global-minute-remaining': m.remaining,
    'x-ratelimit-app-global-minute-reset': m.reset,
  };
}

function uncapped(minuteWindow: number, dayWindow: number, now: number): RateDecision {
  return {
    allowed: true,
    headers: rateHeaders({ minute: 0, day: 0 }, { minute: 0, day: 0 }, minuteWindow, dayWindow, now),
  };
}
