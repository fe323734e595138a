// What the analyze and summary pages show: the survey a manage-token URL names, headline figures,
// and recent text answers. The token only names the survey; the pages check the signed-in user's
// access with requireSurvey(..., 'analyze', 'read').
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import type { StoredPage } from '../responses/answers.js';
import { filtered, listResponses, type ResponseFilters } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';

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
 * may read: plan-limit.ts readableFilters). */
export async function headline(
  deps: Deps,
  survey: SurveyRow,
  f: ResponseFilters,
  now: Date,
): Promise<Headline> {
  const k = deps.db.kysely;
  const responses = () => filtered(deps, { ...f, surveyId: survey.id });
  const [statuses, times, collectors, days] = await Promise.all([
    responses()
      .select(['response_status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('response_status')
      .execute(),
    responses()
      .select((eb) => [
        eb.fn.avg<number>('total_time').as('avg'),
        eb.fn.min<string>('date_created').as('first'),
        eb.fn.max<string>('date_created').as('last'),
      ])
      .where('response_status', '=', 'completed')
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('collectors')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('survey_id', '=', survey.id)
      .groupBy('status')
      .execute(),
    responses()
      .select([sql<string>`substr(date_created, 1, 10)`.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('date_created', '>=', new Date(now.getTime() - 13 * 86_400_000).toISOString().slice(0, 10))
      .groupBy(sql`substr(date_created, 1, 10)`)
      .execute(),
  ]);
  const byStatus: Record<string, number> = { completed: 0, partial: 0, disqualified: 0, overquota: 0 };
  let total = 0;
  for (const s of statuses) {
    byStatus[s.response_status] = Number(s.n);
    total += Number(s.n);
  }
  const perDayMap = new Map(days.map((d) => [d.day, Number(d.n)]));
  const perDay = [];
  for (let i = 13; i >= 0; i--) {
    const day = new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10);
    perDay.push({ day, count: perDayMap.get(day) ?? 0 });
  }
  return {
    total,
    byStatus,
    averageSeconds: times.avg === null ? null : Number(times.avg),
    first: times.first ?? null,
    last: times.last ?? null,
    collectors: collectors.reduce((s, c) => s + Number(c.n), 0),
    openCollectors: collectors.filter((c) => c.status === 'open').reduce((s, c) => s + Number(c.n), 0),
    perDay,
  };
}

/** The most recent text answers per question (at most `limit` each), from the latest responses. */
export async function recentTexts(
  deps: Deps,
  f: ResponseFilters,
  questionIds: Set<string>,
  limit = 20,
): Promise<Map<string, string[]>> {
  const [, rows] = await listResponses(deps, { ...f, sortOrder: 'DESC' }, 0, 500);
  const out = new Map<string, string[]>();
  for (const r of rows)
    for (const p of JSON.parse(r.pages) as StoredPage[])
      for (const q of p.questions) {
        if (!questionIds.has(q.id)) continue;
        const list = out.get(q.id) ?? [];
        if (list.length >= limit) continue;
        const text = q.answers
          .filter((a) => a.text !== undefined && a.text !== '')
          .map((a) => a.text)
          .join(' · ');
        if (text) list.push(text);
        out.set(q.id, list);
      }
  return out;
}
