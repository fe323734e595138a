// Reading a team's activity log: newest first with limit/offset and a date range, and counts per
// period (day, ISO week from Monday, month, year; UTC) with every period in the range present.
import type { Deps } from '../../context.js';
import type { ActivityType } from '../core/activity-types.js';
import { countAndPage } from '../core/owned.js';

export interface ActivityRange {
  /** inclusive ISO instant */
  start?: string;
  /** exclusive ISO instant */
  end?: string;
}

export async function listActivities(
  deps: Deps,
  groupId: string,
  range: ActivityRange,
  page: { limit: number; offset: number },
) {
  let base = deps.db.kysely.selectFrom('group_activities').where('group_id', '=', groupId);
  if (range.start) base = base.where('created_at', '>=', range.start);
  if (range.end) base = base.where('created_at', '<', range.end);
  return countAndPage(base, page, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('event_id', 'desc'),
  );
}

export const INTERVALS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The start (UTC midnight) of the period containing `d`. */
export function periodStart(d: Date, interval: Interval): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (interval) {
    case 'daily':
      return new Date(Date.UTC(y, m, d.getUTCDate()));
    case 'weekly': {
      const back = (d.getUTCDay() + 6) % 7; // days since Monday
      return new Date(Date.UTC(y, m, d.getUTCDate() - back));
    }
    case 'monthly':
      return new Date(Date.UTC(y, m, 1));
    case 'yearly':
      return new Date(Date.UTC(y, 0, 1));
  }
}

export function nextPeriod(d: Date, interval: Interval): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (interval) {
    case 'daily':
      return new Date(Date.UTC(y, m, d.getUTCDate() + 1));
    case 'weekly':
      return new Date(Date.UTC(y, m, d.getUTCDate() + 7));
    case 'monthly':
      return new Date(Date.UTC(y, m + 1, 1));
    case 'yearly':
      return new Date(Date.UTC(y + 1, 0, 1));
  }
}

export const MAX_PERIODS = 3660;

const label = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Counts of one activity type per period from `start` (inclusive) to `end` (exclusive). `times`
 * holds each period's first day (YYYY-MM-DD), aligned with `series`; empty periods count 0.
 * Returns null when the range spans more than MAX_PERIODS periods.
 */
export async function activitySeries(
  deps: Deps,
  groupId: string,
  type: ActivityType,
  interval: Interval,
  start: Date,
  end: Date,
): Promise<{ times: string[]; series: number[] } | null> {
  const times: string[] = [];
  const index = new Map<string, number>();
  for (let p = periodStart(start, interval); p < end; p = nextPeriod(p, interval)) {
    if (times.length >= MAX_PERIODS) return null;
    index.set(label(p), times.length);
    times.push(label(p));
  }
  const series = times.map(() => 0);
  const rows = await deps.db.kysely
    .selectFrom('group_activities')
    .select('created_at')
    .where('group_id', '=', groupId)
    .where('activity_type', '=', type)
    .where('created_at', '>=', start.toISOString())
    .where('created_at', '<', end.toISOString())
    .execute();
  for (const r of rows) {
    const i = index.get(label(periodStart(new Date(r.created_at), interval)));
    if (i !== undefined) series[i] += 1;
  }
  return { times, series };
}
