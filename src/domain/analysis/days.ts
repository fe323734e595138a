// Counts by day and status from the kept aggregate (db/stores/day-counts.ts, migration 0043) instead
// of reading the responses: the summary's figures, the trend and the responses page's total. Only
// filters the aggregate can answer exactly qualify: the survey, collectors, statuses and whole days
// (the results filter's dates, filters.ts). An answer filter or the basic plan's first responses
// (maxOrdinal) need the responses themselves; the callers then read them as before.
import type { Deps } from '../../context.js';
import { type DayRow, responseDays } from '../../db/stores/day-counts.js';
import type { ResponseFilters } from '../responses/responses.js';

export type { DayRow };

const DAY_START = 'T00:00:00.000Z';
const DAY_END = 'T23:59:59.999Z';

/** The day rows matching `f`, or null when `f` narrows by more than the aggregate knows. */
export async function dayRows(deps: Deps, f: ResponseFilters): Promise<DayRow[] | null> {
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

/** How many responses match `f`, from the aggregate, or undefined when it cannot tell. */
export async function countFromDays(deps: Deps, f: ResponseFilters): Promise<number | undefined> {
  const rows = await dayRows(deps, f);
  return rows ? rows.reduce((s, r) => s + r.n, 0) : undefined;
}
