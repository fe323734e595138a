// The median time to complete: of the completed responses matching the analyze page's filter, the
// middle total_time (seconds from the first page opened to the finish), or the mean of the two
// middle ones. A count, then one ordered read of one or two rows at the middle offset, on the kept
// answer rows (response_keys), which hold each response's status and time.
import type { Deps } from '../../context.js';
import { keyed, type ResponseFilters } from '../responses/responses.js';

export async function medianSeconds(
  deps: Deps,
  f: ResponseFilters & { surveyId: string },
): Promise<number | null> {
  const completed = () => keyed(deps, f).where('response_status', '=', 'completed');
  const row = await completed()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  const n = Number(row?.n ?? 0);
  if (n === 0) return null;
  const middle = await completed()
    .select('total_time')
    .orderBy('total_time')
    .limit(n % 2 === 0 ? 2 : 1)
    .offset(Math.floor((n - 1) / 2))
    .execute();
  if (middle.length === 0) return null;
  return middle.reduce((s, r) => s + Number(r.total_time), 0) / middle.length;
}

/** `4 min 12 s`, `38 s`, `1 h 5 min`, or an em dash when there is none. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
