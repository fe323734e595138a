// What the /integrations page offers to watch, by name rather than by id: the account's surveys
// (its own and those shared with it, most recently changed first) with their collectors, and the
// names of the objects an existing webhook watches. Whether each chosen id may be watched is
// still checked where a webhook is made (object-ids.ts).
import type { Deps } from '../../context.js';
import { listSurveys } from '../surveys/surveys.js';

/** How many surveys the picker lists (the newest); older ones can still be given by id. */
export const PICKER_SURVEYS = 200;

export interface WatchableSurvey {
  id: string;
  title: string;
  collectors: Array<{ id: string; name: string }>;
}

export async function watchableSurveys(deps: Deps, userId: string): Promise<WatchableSurvey[]> {
  const [, surveys] = await listSurveys(
    deps,
    userId,
    { offset: 0, limit: PICKER_SURVEYS, sortBy: 'date_modified', sortOrder: 'DESC', filters: [] },
    ['id', 'title'],
  );
  const out = surveys.map((s) => ({
    id: s.id,
    title: s.title,
    collectors: [] as WatchableSurvey['collectors'],
  }));
  if (out.length === 0) return out;
  const byId = new Map(out.map((s) => [s.id, s]));
  const collectors = await deps.db.kysely
    .selectFrom('collectors')
    .select(['id', 'name', 'survey_id'])
    .where(
      'survey_id',
      'in',
      out.map((s) => s.id),
    )
    .orderBy('id')
    .execute();
  for (const c of collectors) byId.get(c.survey_id)?.collectors.push({ id: c.id, name: c.name });
  return out;
}

/** Names for the ids webhooks watch ("Lunch poll", "Lunch poll: Web Link 1"); an id that is gone
 * keeps no name. */
export async function watchedNames(
  deps: Deps,
  ids: { surveys: string[]; collectors: string[] },
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const k = deps.db.kysely;
  if (ids.collectors.length)
    for (const c of await k
      .selectFrom('collectors as c')
      .innerJoin('surveys as s', 's.id', 'c.survey_id')
      .select(['c.id', 'c.name', 's.title'])
      .where('c.id', 'in', [...new Set(ids.collectors)].slice(0, 1000))
      .execute())
      names.set(`collector:${c.id}`, `${c.title}: ${c.name}`);
  if (ids.surveys.length)
    for (const s of await k
      .selectFrom('surveys')
      .select(['id', 'title'])
      .where('id', 'in', [...new Set(ids.surveys)].slice(0, 1000))
      .execute())
      names.set(`survey:${s.id}`, s.title);
  return names;
}
