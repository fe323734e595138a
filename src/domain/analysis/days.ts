// Counts by day and status from the kept aggregate (db/stores/day-counts.ts, migration 0043) instead
// of reading the responses: the summary's figures, the trend and the responses page's total. Only
// filters the aggregate can answer exactly qualify: the survey, collectors, statuses and whole days
// (the results filter's dates, filters.ts). An answer filter, other dates or the basic plan's first
// responses (maxOrdinal) are one grouped scan of the responses' kept answer rows instead
// (response_keys; responses.ts keyed), never a read of the responses' documents.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { type DayRow, responseDays } from '../../db/stores/day-counts.js';
import { keyed, type ResponseFilters } from '../responses/responses.js';

export type { DayRow };

const DAY_START = 'T00:00:00.000Z';
const DAY_END = 'T23:59:59.999Z';

/** The day rows matching `f`, or null when `f` names no survey. */
export async function dayRows(deps: Deps, f: ResponseFilters): Promise<DayRow[] | null> {
  return f.surveyId ? surveyDayRows(deps, { ...f, surveyId: f.surveyId }) : null;
}

/** The day rows of a survey's responses matching `f`. */
export async function surveyDayRows(
  deps: Deps,
  f: ResponseFilters & { surveyId: string },
): Promise<DayRow[]> {
  const kept = await keptDayRows(deps, f);
  if (kept !== null) return kept;
  const day = sql<string>`substr(date_created, 1, 10)`;
  const rows = await keyed(deps, f)
    .select([
      day.as('day'),
      'response_status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('total_time').as('t'),
    ])
    .groupBy([day, 'response_status'])
    .execute();
  return rows.map((r) => ({ day: r.day, status: r.response_status, n: Number(r.n), totalTime: Number(r.t) }));
}

/** The day rows matching `f` from the kept aggregate, or null when `f` narrows by more than it knows. */
async function keptDayRows(deps: Deps, f: ResponseFilters): Promise<DayRow[] | null> {
  const {
    surveyId,
    collectorId,
    collectorIds,
    startCreated,
    endCreated,
    status,
    sortBy: _b,
    sortOrder: _o,
    ...rest
  } = f;
  if (!surveyId || Object.values(rest).some((v) => v !== undefined)) return null;
  if (startCreated !== undefined && !startCreated.endsWith(DAY_START)) return null;
  if (endCreated !== undefined && !endCreated.endsWith(DAY_END)) return null;
  const collectors =
    collectorId !== undefined
      ? collectorIds
        ? collectorIds.filter((c) => c === collectorId)
        : [collectorId]
      : collectorIds;
  return responseDays(deps.db, {
    surveyId,
    collectorIds: collectors,
    fromDay: startCreated?.slice(0, 10),
    toDay: endCreated?.slice(0, 10),
    status,
  });
}

/** How many responses match `f`, or undefined when it names no survey. */
export async function countFromDays(deps: Deps, f: ResponseFilters): Promise<number | undefined> {
  const rows = await dayRows(deps, f);
  return rows ? rows.reduce((s, r) => s + r.n, 0) : undefined;
}
