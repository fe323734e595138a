// Where respondents stopped: the responses matching the analyze page's filter counted by the page a
// partial response was left on (its current page: the one shown when the respondent left, or the
// next one after the last page answered), completed ones as finished, disqualified and over-quota
// ones as screened out. One grouped statement over the responses.
import type { Deps } from '../../context.js';
import type { DesignIndex } from '../responses/design-index.js';
import { filtered, type ResponseFilters } from '../responses/responses.js';

export interface DropOff {
  /** every page of the design in order, with the partial responses left on it */
  pages: Array<{ pageId: string; stopped: number }>;
  /** partial responses left on a page no longer in the design */
  elsewhere: number;
  finished: number;
  /** disqualified or over quota */
  screenedOut: number;
  total: number;
}

export async function dropOff(deps: Deps, index: DesignIndex, f: ResponseFilters): Promise<DropOff> {
  const rows = await filtered(deps, f)
    .select(['response_status', 'current_page_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['response_status', 'current_page_id'])
    .execute();
  const stopped = new Map<string, number>();
  const out: DropOff = { pages: [], elsewhere: 0, finished: 0, screenedOut: 0, total: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    out.total += n;
    if (r.response_status === 'completed') out.finished += n;
    else if (r.response_status !== 'partial') out.screenedOut += n;
    else if (index.pageById.has(r.current_page_id))
      stopped.set(r.current_page_id, (stopped.get(r.current_page_id) ?? 0) + n);
    else out.elsewhere += n;
  }
  out.pages = index.pages.map((p) => ({ pageId: p.id, stopped: stopped.get(p.id) ?? 0 }));
  return out;
}
