// The trend of a survey's responses over its life: how many responses began each
// day (or week, or month, when the survey has run long), and how many of them are completed: the
// kept counts per day (days.ts) or one grouped query over the matching responses (an answer filter),
// then the empty periods filled in.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { filtered, type ResponseFilters } from '../responses/responses.js';
import { dayRows } from './days.js';
import { period, type TrendBy } from './rollups.js';

export interface TrendPoint {
  /** The period's first day, YYYY-MM-DD (UTC). */
  start: string;
  total: number;
  completed: number;
}
export interface Trend {
  by: Extract<TrendBy, 'day' | 'week' | 'month'>;
  points: TrendPoint[];
}

/** Days up to which the trend is drawn per day, then per week; beyond the second, per month. */
const DAILY_UP_TO = 92;
const WEEKLY_UP_TO = 730;

const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Responses per day begun and status: from the kept aggregate when the filter allows (days.ts),
 * otherwise one grouped query over the matching responses. */
async function perDay(deps: Deps, f: ResponseFilters) {
  const kept = await dayRows(deps, f);
  if (kept) return kept.map((r) => ({ day: r.day, response_status: r.status, n: r.n }));
  const day = sql<string>`substr(date_created, 1, 10)`;
  return filtered(deps, f)
    .select([day.as('day'), 'response_status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy([day, 'response_status'])
    .execute();
}

export async function responseTrend(deps: Deps, f: ResponseFilters): Promise<Trend> {
  const rows = await perDay(deps, f);
  if (rows.length === 0) return { by: 'day', points: [] };
  const days = rows.map((r) => r.day).sort();
  const first = new Date(`${days[0]}T00:00:00Z`);
  const last = new Date(`${days.at(-1)}T00:00:00Z`);
  const span = (last.getTime() - first.getTime()) / DAY_MS;
  const by: Trend['by'] = span <= DAILY_UP_TO ? 'day' : span <= WEEKLY_UP_TO ? 'week' : 'month';
  const points = new Map<string, TrendPoint>();
  for (let d = period(first, by)[0]; d <= last; d = period(d, by)[1])
    points.set(dayOf(d), { start: dayOf(d), total: 0, completed: 0 });
  for (const r of rows) {
    const p = points.get(dayOf(period(new Date(`${r.day}T00:00:00Z`), by)[0]));
    if (!p) continue;
    p.total += Number(r.n);
    if (r.response_status === 'completed') p.completed += Number(r.n);
  }
  return { by, points: [...points.values()] };
}
