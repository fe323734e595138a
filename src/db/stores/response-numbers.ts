// The numeric rollup kept beside response_counts (migration 0039): for every answer whose text is a
// number (what the rollup's numeric statistics read: open-ended numerical questions and sliders,
// but taken from the answer alone, so a question whose type changes later is still summed right),
// two rows of `response_numbers` per (survey, question, row, collector) change in the transaction
// of the response:
// - an exact row (exact = 1): the value and how many answers gave it; with value counts the
//   minimum and maximum stay right after edits and deletes (a row whose count reaches 0 is
//   deleted), and while a question row has few distinct values (VALUE_LIMIT) every statistic,
//   the median included, is exact;
// - a bucket row (exact = 0): the value cut to 3 significant digits (BUCKET_DIGITS), with the count,
//   sum and sum of squares of the answers in it: the histogram, and the count, mean and standard
//   deviation of any number of distinct values in a bounded read.
// The rows are pure functions of the stored answers (the migration's backfill uses the same ones).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/** Significant digits of a bucket: a bucket spans at most 1% of its values. */
export const BUCKET_DIGITS = 3;

/** The smallest number with BUCKET_DIGITS significant digits not above `v` (0 for 0). */
export function bucketOf(v: number): number {
  if (v === 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(v))) - (BUCKET_DIGITS - 1));
  return Number((Math.floor(v / step) * step).toPrecision(BUCKET_DIGITS));
}

/** A change of one response_numbers row. */
export interface NumberDelta {
  question_id: string;
  row_id: string;
  exact: 0 | 1;
  value: number;
  n: number;
  total: number;
  squares: number;
}

/** The stored answers' shape, as far as numbers go. */
interface AnsweredPage {
  questions: Array<{ id: string; answers: Array<{ text?: string; row_id?: string }> }>;
}

/** Numbers beyond ±1e100 are left out of the statistics (their squares and sums would leave the
 * range of a double), by the rollup's scan as by these rows. */
export const NUMBER_LIMIT = 1e100;

/** The number an answer's text gives, as the rollup reads it (undefined: not a number). */
export function answerNumber(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const v = Number(text);
  if (!Number.isFinite(v) || Math.abs(v) > NUMBER_LIMIT) return undefined;
  return v === 0 ? 0 : v;
}

const square = (v: number) => v * v;

function add(
  into: Map<string, NumberDelta>,
  q: string,
  row: string,
  exact: 0 | 1,
  value: number,
  v: number,
  sign: number,
) {
  const key = `${q}\u0000${row}\u0000${exact}\u0000${value}`;
  let d = into.get(key);
  if (!d) {
    d = { question_id: q, row_id: row, exact, value, n: 0, total: 0, squares: 0 };
    into.set(key, d);
  }
  d.n += sign;
  d.total += sign * v;
  d.squares += sign * square(v);
}

/** Adds `sign` times the numbers of `pages` to `into` (keyed by row). */
export function numberDeltas(
  pages: AnsweredPage[],
  sign: number,
  into = new Map<string, NumberDelta>(),
): Map<string, NumberDelta> {
  for (const p of pages)
    for (const q of p.questions)
      for (const a of q.answers) {
        const v = answerNumber(a.text);
        if (v === undefined) continue;
        const row = a.row_id ?? '';
        add(into, q.id, row, 1, v, v, sign);
        add(into, q.id, row, 0, bucketOf(v), v, sign);
      }
  return into;
}

/** The changes of `deltas` that change something (an edit that kept a value nets to 0). */
export function changedNumbers(deltas: Map<string, NumberDelta>): NumberDelta[] {
  const out: NumberDelta[] = [];
  for (const d of deltas.values()) if (d.n !== 0) out.push(d);
  return out;
}

export const UPSERT_NUMBER_SQL = `INSERT INTO response_numbers
  (survey_id, question_id, row_id, exact, value, collector_id, n, total, squares)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (survey_id, question_id, row_id, exact, value, collector_id) DO UPDATE SET
  n = response_numbers.n + excluded.n, total = response_numbers.total + excluded.total,
  squares = response_numbers.squares + excluded.squares`;

/** Adds `deltas` to the collector's numeric rollup; rows whose count falls to 0 are deleted (so
 * the smallest and largest values stay right, and a bucket's sums restart from exactly 0). */
export async function addNumbers(
  executor: Executor,
  surveyId: string,
  collectorId: string,
  deltas: Map<string, NumberDelta>,
): Promise<void> {
  const rows = changedNumbers(deltas).map((d) => ({ survey_id: surveyId, collector_id: collectorId, ...d }));
  for (let i = 0; i < rows.length; i += 300)
    await executor
      .insertInto('response_numbers')
      .values(rows.slice(i, i + 300))
      .onConflict((oc) =>
        oc
          .columns(['survey_id', 'question_id', 'row_id', 'exact', 'value', 'collector_id'])
          .doUpdateSet((eb) => ({
            n: eb('response_numbers.n', '+', eb.ref('excluded.n')),
            total: eb('response_numbers.total', '+', eb.ref('excluded.total')),
            squares: eb('response_numbers.squares', '+', eb.ref('excluded.squares')),
          })),
      )
      .execute();
  for (const d of rows) {
    if (d.n > 0) continue;
    await executor
      .deleteFrom('response_numbers')
      .where('survey_id', '=', surveyId)
      .where('question_id', '=', d.question_id)
      .where('row_id', '=', d.row_id)
      .where('exact', '=', d.exact)
      .where('value', '=', d.value)
      .where('collector_id', '=', collectorId)
      .where('n', '<=', 0)
      .execute();
  }
}
