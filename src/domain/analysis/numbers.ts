// The statistics of numerical questions (min, max, mean, median, standard deviation) from the
// numeric rollup kept with every response write (response_numbers, db/stores/response-numbers.ts),
// not from the responses: a bounded read whatever the number of responses.
// - While a question row has at most VALUE_LIMIT distinct values (across the collectors asked
//   for), its value counts are read in value order and every figure is exact, as a scan of the
//   answers gives it (to the rounding of floating-point sums).
// - Past that, count, mean and standard deviation come from the buckets' counts, sums and sums of
//   squares (exact sums), the minimum and maximum from the ends of the value index (exact), and the
//   median is the mean of the answers in the bucket (3 significant digits) holding the middle
//   answer(s): within 1% of the exact median. The read is then at most VALUE_LIMIT + 1 value rows
//   and the buckets (900 per decade of magnitude the answers span).
// Filtered rollups (dates, status, answers) still read the matching responses (rollups.ts).
import type { Deps } from '../../context.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';

/** Distinct values per question row up to which every statistic is exact. */
export const VALUE_LIMIT = 1000;

export interface Stats {
  min: number;
  max: number;
  mean: number;
  median: number;
  std: number;
}

interface Bin {
  value: number;
  n: number;
}

/** The answers at 0-based positions `lo` and `hi` of the ordered bins, averaged. */
function middle<B extends Bin>(bins: B[], count: number, at: (b: B) => number): number {
  const lo = Math.floor((count - 1) / 2);
  const hi = Math.floor(count / 2);
  let seen = 0;
  let a: number | undefined;
  for (const b of bins) {
    if (a === undefined && lo < seen + b.n) a = at(b);
    if (hi < seen + b.n) return ((a ?? at(b)) + at(b)) / 2;
    seen += b.n;
  }
  return a ?? 0;
}

/** Exact statistics of value counts (ordered by value). */
export function exactStats(bins: Bin[]): Stats | undefined {
  let count = 0;
  let sum = 0;
  for (const b of bins) {
    count += b.n;
    sum += b.value * b.n;
  }
  if (count === 0) return undefined;
  const mean = sum / count;
  let dev = 0;
  for (const b of bins) dev += b.n * (b.value - mean) ** 2;
  return {
    min: bins[0].value,
    max: bins[bins.length - 1].value,
    mean,
    median: middle(bins, count, (b) => b.value),
    std: Math.sqrt(dev / count),
  };
}

type Scope = { surveyId: string; questionId: string; rowId: string; collectors?: string[] };

function rowsOf(deps: Deps, s: Scope, exact: 0 | 1) {
  let q = deps.db.kysely
    .selectFrom('response_numbers')
    .where('survey_id', '=', s.surveyId)
    .where('question_id', '=', s.questionId)
    .where('row_id', '=', s.rowId)
    .where('exact', '=', exact);
  if (s.collectors) q = q.where('collector_id', 'in', s.collectors);
  return q.groupBy('value').having((eb) => eb.fn.sum('n'), '>', 0);
}

async function rowStats(deps: Deps, s: Scope): Promise<Stats | undefined> {
  const values = (
    await rowsOf(deps, s, 1)
      .select(['value', (eb) => eb.fn.sum<number>('n').as('n')])
      .orderBy('value')
      .limit(VALUE_LIMIT + 1)
      .execute()
  ).map((r) => ({ value: Number(r.value), n: Number(r.n) }));
  if (values.length <= VALUE_LIMIT) return exactStats(values);
  const [top, buckets] = await Promise.all([
    rowsOf(deps, s, 1).select('value').orderBy('value', 'desc').limit(1).executeTakeFirstOrThrow(),
    rowsOf(deps, s, 0)
      .select([
        'value',
        (eb) => eb.fn.sum<number>('n').as('n'),
        (eb) => eb.fn.sum<number>('total').as('total'),
        (eb) => eb.fn.sum<number>('squares').as('squares'),
      ])
      .orderBy('value')
      .execute(),
  ]);
  let count = 0;
  let sum = 0;
  let squares = 0;
  const bins = buckets.map((b) => {
    const bin = { value: Number(b.value), n: Number(b.n), total: Number(b.total) };
    count += bin.n;
    sum += bin.total;
    squares += Number(b.squares);
    return bin;
  });
  const mean = sum / count;
  return {
    min: values[0].value,
    max: Number(top.value),
    mean,
    median: middle(bins, count, (b) => b.total / b.n),
    std: Math.sqrt(Math.max(0, squares / count - mean * mean)),
  };
}

/** Statistics per numeric question and row ('' for a question without rows), over the given
 * collectors (all when undefined). */
export async function numericStats(
  deps: Deps,
  index: DesignIndex,
  questions: IndexedQuestion[],
  collectors: string[] | undefined,
): Promise<Map<string, Map<string, Stats>>> {
  const out = new Map<string, Map<string, Stats>>();
  for (const q of questions) {
    const m = new Map<string, Stats>();
    out.set(q.id, m);
    const rows = q.rows.size > 0 ? [...q.rows.keys()] : [''];
    for (const rowId of rows) {
      const s = await rowStats(deps, { surveyId: index.surveyId, questionId: q.id, rowId, collectors });
      if (s) m.set(rowId, s);
    }
  }
  return out;
}
