// What the analyze and summary pages show: the survey a manage-token URL names, headline figures,
// and recent text answers. The token only names the survey; the pages check the signed-in user's
// access with requireSurvey(..., 'analyze', 'read').
import type { Deps } from '../../context.js';
import { type TextAnswer, textAnswerPages } from '../../db/stores/text-answers.js';
import { Slices } from '../../platform/slices.js';
import { filtered, type ResponseFilters } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import { surveyDayRows } from './days.js';

export interface Headline {
  total: number;
  byStatus: Record<string, number>;
  averageSeconds: number | null;
  first: string | null;
  last: string | null;
  collectors: number;
  openCollectors: number;
  perDay: Array<{ day: string; count: number }>;
}

/** Headline figures of the responses matching `f` (which the caller narrows to those its plan
 * may read: plan-limit.ts readableFilters). Counts, times and days come from the kept counts per day
 * when the filter allows, else from one grouped scan of the kept answer rows (days.ts); the first
 * and latest completed response are one index seek each. */
export async function headline(
  deps: Deps,
  survey: SurveyRow,
  f: ResponseFilters,
  now: Date,
): Promise<Headline> {
  const k = deps.db.kysely;
  const fs = { ...f, surveyId: survey.id };
  const since = new Date(now.getTime() - 13 * 86_400_000).toISOString().slice(0, 10);
  const completed = () =>
    filtered(deps, fs).select('date_created').where('response_status', '=', 'completed');
  const [counts, first, last, collectors] = await Promise.all([
    dayFigures(deps, fs, since),
    completed().orderBy('date_created').limit(1).executeTakeFirst(),
    completed().orderBy('date_created', 'desc').limit(1).executeTakeFirst(),
    k
      .selectFrom('collectors')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('survey_id', '=', survey.id)
      .groupBy('status')
      .execute(),
  ]);
  const byStatus: Record<string, number> = { completed: 0, partial: 0, disqualified: 0, overquota: 0 };
  let total = 0;
  for (const [status, n] of counts.statuses) {
    byStatus[status] = n;
    total += n;
  }
  const perDay = [];
  for (let i = 13; i >= 0; i--) {
    const day = new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10);
    perDay.push({ day, count: counts.days.get(day) ?? 0 });
  }
  return {
    total,
    byStatus,
    averageSeconds: counts.averageSeconds,
    first: first?.date_created ?? null,
    last: last?.date_created ?? null,
    collectors: collectors.reduce((s, c) => s + Number(c.n), 0),
    openCollectors: collectors.filter((c) => c.status === 'open').reduce((s, c) => s + Number(c.n), 0),
    perDay,
  };
}

interface DayFigures {
  statuses: Map<string, number>;
  averageSeconds: number | null;
  /** Responses per day from `since` on. */
  days: Map<string, number>;
}

/** Responses per status, the completed ones' average time, and responses per day since `since`. */
async function dayFigures(
  deps: Deps,
  f: ResponseFilters & { surveyId: string },
  since: string,
): Promise<DayFigures> {
  const statuses = new Map<string, number>();
  const days = new Map<string, number>();
  const add = <K>(m: Map<K, number>, key: K, n: number) => m.set(key, (m.get(key) ?? 0) + n);
  const kept = await surveyDayRows(deps, f);
  let time = 0;
  for (const r of kept) {
    add(statuses, r.status, r.n);
    if (r.status === 'completed') time += r.totalTime;
    if (r.day >= since) add(days, r.day, r.n);
  }
  const done = statuses.get('completed') ?? 0;
  return { statuses, days, averageSeconds: done > 0 ? time / done : null };
}

/** Responses the latest text answers are taken from, newest first. */
export const RECENT_FROM = 500;

/** The most recent text answers per question (at most `limit` each), from the latest responses. */
export async function recentTexts(
  deps: Deps,
  f: ResponseFilters,
  questionIds: Set<string>,
  limit = 20,
): Promise<Map<string, string[]>> {
  // The latest RECENT_FROM in ordinal order, without counting the rest (an index walk from the end).
  const latest = new LatestTexts(questionIds, limit);
  const slices = new Slices();
  for await (const rows of textAnswerPages(deps.db, filtered(deps, f), [...questionIds], RECENT_FROM))
    for (const r of rows) {
      latest.add(r);
      if (slices.due()) await slices.yield();
    }
  return latest.texts;
}

/** The same from text answers already read (textAnswers' order: newest response first): a
 * response's texts for a question joined by " · ", at most `limit` responses per question. */
export function latestTexts(rows: TextAnswer[], questionIds: Set<string>, limit = 20): Map<string, string[]> {
  const latest = new LatestTexts(questionIds, limit);
  for (const r of rows) latest.add(r);
  return latest.texts;
}

/** latestTexts, the rows given one at a time (in textAnswers' order, over as many pages). */
export class LatestTexts {
  readonly texts = new Map<string, string[]>();
  private at = '';

  constructor(
    private readonly questionIds: Set<string>,
    private readonly limit = 20,
  ) {}

  add(r: TextAnswer): void {
    if (!this.questionIds.has(r.question_id)) return;
    const list = this.texts.get(r.question_id) ?? [];
    this.texts.set(r.question_id, list);
    const key = `${r.response_id}:${r.question_id}`;
    // The next answer of the same response and question (rows come grouped so): the same line.
    if (key === this.at) list[list.length - 1] += ` · ${r.text}`;
    else if (list.length < this.limit) {
      list.push(r.text);
      this.at = key;
    }
  }
}
