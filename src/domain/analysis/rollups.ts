// Rollups (per-question summaries) and trends (counts per period), reference §11. Without filters
// other than collectors, rollups read the counts kept with every response change (response_counts)
// and the numeric rollup (response_numbers, through numbers.ts) and never rescan responses. Filtered
// rollups and trends read the matching responses' kept answers (response_keys), grouped
// so that responses answered alike are read once, and never parse a response's `pages`.
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { Slices } from '../../platform/slices.js';
import type { DesignIndex, IndexedQuestion } from '../responses/design-index.js';
import { keyed, type ResponseFilters } from '../responses/responses.js';
import { hiddenCounts, questionFigures } from './figures.js';
import { exactStats, numericStats, type Stats } from './numbers.js';

export type { Stats };
export interface CountItem {
  id: string;
  count: number;
}
export interface RowSummary {
  id: string;
  answered: number;
  choices?: CountItem[];
  cols?: Array<{ id: string; choices: CountItem[] }>;
  stats?: Stats;
}
export interface QuestionSummary {
  answered: number;
  /** Shown the question and left it unanswered (figures.ts). */
  skipped: number;
  /** Not shown it: its display logic hid it (figures.ts). */
  hidden: number;
  choices?: CountItem[];
  other?: CountItem[];
  other_answered?: number;
  rows?: RowSummary[];
  stats?: Stats;
}
export interface QuestionRollup {
  question: IndexedQuestion;
  summary: QuestionSummary;
}

/** Counts per question: akey -> n (see ResponseCountsTable for the keys). */
type Counts = Map<string, Map<string, number>>;

export function isNumeric(q: IndexedQuestion): boolean {
  return q.family === 'open_ended' && (q.subtype === 'numerical' || q.displayType === 'slider');
}

function summarize(
  q: IndexedQuestion,
  counts: Map<string, number>,
  total: number,
  numbers?: Map<string, Stats>,
  hidden = 0,
): QuestionSummary {
  const n = (k: string) => counts.get(k) ?? 0;
  const out: QuestionSummary = questionFigures(total, n(''), hidden);
  const choiceList = [...q.choices.values()];
  if (q.family === 'single_choice' || q.family === 'multiple_choice')
    out.choices = choiceList.map((c) => ({ id: c.id, count: n(`c:${c.id}`) }));
  if (q.other) {
    out.other = [{ id: q.other.id, count: n(`o:${q.other.id}`) }];
    out.other_answered = n(`o:${q.other.id}`);
  }
  if (q.rows.size > 0 && q.family !== 'single_choice' && q.family !== 'multiple_choice')
    out.rows = [...q.rows.values()].map((r) => {
      const row: RowSummary = { id: r.id, answered: n(`r:${r.id}`) };
      if (q.family === 'matrix' && q.subtype !== 'menu')
        row.choices = choiceList.map((c) => ({ id: c.id, count: n(`r:${r.id}:c:${c.id}`) }));
      if (q.subtype === 'menu')
        row.cols = [...q.cols.values()].map(({ col, choices }) => ({
          id: col.id,
          choices: [...choices.values()].map((c) => ({
            id: c.id,
            count: n(`r:${r.id}:k:${col.id}:c:${c.id}`),
          })),
        }));
      const s = numbers?.get(r.id);
      if (s) row.stats = s;
      return row;
    });
  if (numbers && q.rows.size === 0) {
    const s = numbers.get('');
    if (s) out.stats = s;
  }
  return out;
}

/** The matching responses' kept answers: each distinct text once, with how many responses hold it
 * (`choices` follows from `keys`, so grouping by both splits nothing further). */
export async function keyGroups(
  deps: Deps,
  surveyId: string,
  f: ResponseFilters,
): Promise<Array<{ keys: string; choices: string; n: number }>> {
  const rows = await keyed(deps, { ...f, surveyId })
    .select(['keys', 'choices', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['keys', 'choices'])
    .execute();
  return rows.map((r) => ({ keys: r.keys, choices: r.choices, n: Number(r.n) }));
}

/** Counts (and numbers of the numeric questions) of some questions, summed over kept answers
 * (answerKeys' tokens), each text standing for `n` responses. */
export class Tally {
  total = 0;
  readonly counts: Counts = new Map();
  /** question -> row -> value -> answers */
  private readonly values = new Map<string, Map<string, Map<number, number>>>();

  constructor(
    private readonly wanted: Set<string>,
    private readonly numeric: Set<string>,
  ) {}

  add(keys: string, n: number): void {
    this.total += n;
    for (const t of keys.split(' ')) {
      const bar = t.indexOf('|');
      if (bar < 0) continue;
      const q = t.slice(0, bar);
      if (!this.wanted.has(q)) continue;
      if (t.startsWith('n:', bar + 1)) {
        if (!this.numeric.has(q)) continue;
        const colon = t.indexOf(':', bar + 3);
        const rows = mapOf(this.values, q);
        const values = mapOf(rows, t.slice(bar + 3, colon));
        const v = Number(t.slice(colon + 1));
        values.set(v, (values.get(v) ?? 0) + n);
        continue;
      }
      const counts = mapOf(this.counts, q);
      const key = t.slice(bar + 1);
      counts.set(key, (counts.get(key) ?? 0) + n);
    }
  }

  /** The statistics per numeric question and row, through the same arithmetic as the kept ones. */
  stats(): Map<string, Map<string, Stats>> {
    const out = new Map<string, Map<string, Stats>>();
    for (const [q, rows] of this.values) {
      const m = new Map<string, Stats>();
      for (const [row, values] of rows) {
        const bins = [...values].map(([value, n]) => ({ value, n })).sort((a, b) => a.value - b.value);
        const s = exactStats(bins);
        if (s) m.set(row, s);
      }
      out.set(q, m);
    }
    return out;
  }

  /** The rollups of `questions` over what was added; `hidden`: per question, the responses added
   * that its display logic hid (hiddenCounts). */
  rollups(questions: IndexedQuestion[], hidden: ReadonlyMap<string, number> = new Map()): QuestionRollup[] {
    const numbers = this.stats();
    return questions.map((q) => ({
      question: q,
      summary: summarize(
        q,
        this.counts.get(q.id) ?? new Map(),
        this.total,
        this.numeric.has(q.id) ? (numbers.get(q.id) ?? new Map()) : undefined,
        hidden.get(q.id),
      ),
    }));
  }
}

function mapOf<K, V>(m: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let v = m.get(key);
  if (!v) {
    v = new Map();
    m.set(key, v);
  }
  return v;
}

/** Whether `f` narrows responses beyond survey and collectors (then counts must be recomputed). */
export function needsScan(f: ResponseFilters): boolean {
  const { surveyId: _s, collectorId: _c, collectorIds: _cs, sortBy: _b, sortOrder: _o, ...rest } = f;
  return Object.values(rest).some((v) => v !== undefined);
}

export async function rollups(
  deps: Deps,
  index: DesignIndex,
  f: ResponseFilters,
  questions: IndexedQuestion[],
): Promise<{ total: number; items: QuestionRollup[] }> {
  const collectors = f.collectorIds ?? (f.collectorId ? [f.collectorId] : undefined);
  const wanted = new Set(questions.map((q) => q.id));
  const numeric = new Set(questions.filter(isNumeric).map((q) => q.id));
  const hiddenNow = () => hiddenCounts(deps, index, f, questions).then((m) => m.get('') ?? new Map());
  if (needsScan(f)) {
    const tally = new Tally(wanted, numeric);
    const slices = new Slices();
    for (const g of await keyGroups(deps, index.surveyId, { ...f, collectorIds: collectors })) {
      tally.add(g.keys, g.n);
      if (slices.due()) await slices.yield();
    }
    return { total: tally.total, items: tally.rollups(questions, await hiddenNow()) };
  }
  const k = deps.db.kysely;
  let cq = k
    .selectFrom('response_counts')
    .select(['question_id', 'akey', (eb) => eb.fn.sum<number>('n').as('n')])
    .where('survey_id', '=', index.surveyId)
    .groupBy(['question_id', 'akey']);
  let tq = k
    .selectFrom('collectors')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('response_count'), eb.lit(0)).as('n'))
    .where('survey_id', '=', index.surveyId);
  if (collectors) {
    if (collectors.length === 0)
      return {
        total: 0,
        items: questions.map((q) => ({ question: q, summary: summarize(q, new Map(), 0) })),
      };
    cq = cq.where('collector_id', 'in', collectors);
    tq = tq.where('id', 'in', collectors);
  }
  const [rows, t, hidden] = await Promise.all([cq.execute(), tq.executeTakeFirstOrThrow(), hiddenNow()]);
  const total = Number(t.n);
  const counts: Counts = new Map();
  for (const r of rows) {
    if (!wanted.has(r.question_id)) continue;
    mapOf(counts, r.question_id).set(r.akey, Number(r.n));
  }
  const numbers =
    numeric.size > 0
      ? await numericStats(
          deps,
          index,
          questions.filter((q) => numeric.has(q.id)),
          collectors,
        )
      : new Map<string, Map<string, Stats>>();
  return {
    total,
    items: questions.map((q) => ({
      question: q,
      summary: summarize(
        q,
        counts.get(q.id) ?? new Map(),
        total,
        numeric.has(q.id) ? (numbers.get(q.id) ?? new Map()) : undefined,
        hidden.get(q.id),
      ),
    })),
  };
}

export const TREND_BY = ['year', 'quarter', 'month', 'week', 'day', 'hour'] as const;
export type TrendBy = (typeof TREND_BY)[number];

/** The period [start, end) containing `d`. */
export function period(d: Date, by: TrendBy): [Date, Date] {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (by) {
    case 'year':
      return [new Date(Date.UTC(y, 0, 1)), new Date(Date.UTC(y + 1, 0, 1))];
    case 'quarter': {
      const q = Math.floor(m / 3) * 3;
      return [new Date(Date.UTC(y, q, 1)), new Date(Date.UTC(y, q + 3, 1))];
    }
    case 'month':
      return [new Date(Date.UTC(y, m, 1)), new Date(Date.UTC(y, m + 1, 1))];
    case 'week': {
      const day = new Date(Date.UTC(y, m, d.getUTCDate()));
      const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
      return [monday, new Date(monday.getTime() + 7 * 86_400_000)];
    }
    case 'day': {
      const s = new Date(Date.UTC(y, m, d.getUTCDate()));
      return [s, new Date(s.getTime() + 86_400_000)];
    }
    case 'hour': {
      const s = new Date(Date.UTC(y, m, d.getUTCDate(), d.getUTCHours()));
      return [s, new Date(s.getTime() + 3_600_000)];
    }
  }
}

const NO_TRENDS = (q: IndexedQuestion) =>
  q.family === 'presentation' ||
  q.family === 'demographic' ||
  q.family === 'datetime' ||
  (q.family === 'matrix' && q.subtype === 'menu') ||
  q.displayType === 'file_upload' ||
  q.displayType === 'slider';

export interface TrendPeriod {
  start: Date;
  end: Date;
  summary: QuestionSummary;
}

export async function trends(
  deps: Deps,
  index: DesignIndex,
  f: ResponseFilters,
  questions: IndexedQuestion[],
  by: TrendBy,
): Promise<Array<{ question: IndexedQuestion; answered: number; skipped: number; periods: TrendPeriod[] }>> {
  // The kept answers grouped by hour or day begun (every period is whole hours or days, UTC).
  const hourly = by === 'hour';
  const at = sql<string>`substr(date_created, 1, ${sql.lit(hourly ? 13 : 10)})`;
  const rows = await keyed(deps, { ...f, surveyId: index.surveyId })
    .select([at.as('at'), 'keys', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy([at, 'keys'])
    .execute();
  const wanted = new Set(questions.map((q) => q.id));
  const buckets = new Map<number, { start: Date; end: Date; tally: Tally }>();
  let total = 0;
  const slices = new Slices();
  for (const r of rows) {
    const [start, end] = period(new Date(`${r.at}${hourly ? ':00:00Z' : 'T00:00:00Z'}`), by);
    let b = buckets.get(start.getTime());
    if (!b) {
      b = { start, end, tally: new Tally(wanted, new Set()) };
      buckets.set(start.getTime(), b);
    }
    b.tally.add(r.keys, Number(r.n));
    total += Number(r.n);
    if (slices.due()) await slices.yield();
  }
  const ordered = [...buckets.values()].sort((a, b) => a.start.getTime() - b.start.getTime());
  // Bucketed as the kept answers are above (the date begun as written, to the hour or day).
  const hidden = await hiddenCounts(deps, index, f, questions, (created) => {
    const begun = `${created.slice(0, hourly ? 13 : 10)}${hourly ? ':00:00Z' : 'T00:00:00Z'}`;
    return String(period(new Date(begun), by)[0].getTime());
  });
  const hiddenIn = (start: Date, q: IndexedQuestion) => hidden.get(String(start.getTime()))?.get(q.id) ?? 0;
  return questions.map((q) => {
    const periods = NO_TRENDS(q)
      ? []
      : ordered.map((b) => ({
          start: b.start,
          end: b.end,
          summary: summarize(
            q,
            b.tally.counts.get(q.id) ?? new Map(),
            b.tally.total,
            undefined,
            hiddenIn(b.start, q),
          ),
        }));
    const answered = ordered.reduce((s, b) => s + (b.tally.counts.get(q.id)?.get('') ?? 0), 0);
    const hiddenAll = ordered.reduce((s, b) => s + hiddenIn(b.start, q), 0);
    return { question: q, ...questionFigures(total, answered, hiddenAll), periods };
  });
}
