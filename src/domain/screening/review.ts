// The owner's review of responses kept aside by the screening (screen.ts): listing them, releasing
// one (it is written then as a response through the usual path, so it counts everywhere from now
// on and its events, hence its alerts and webhooks, happen now) or deleting it.
import type { Deps } from '../../context.js';
import { parseAs, StringList, StringMap } from '../../platform/json.js';
import { isOneOf } from '../../platform/lists.js';
import { type Collector, CollectorNotOpen, collectorById } from '../collectors/collectors.js';
import { designIndex } from '../responses/design-index.js';
import {
  createResponse,
  RESPONSE_STATUSES,
  type ResponseActor,
  storedPages,
} from '../responses/responses.js';
import type { LogicPath } from '../responses/route.js';
import type { SurveyRow } from '../surveys/access.js';
import { asResponse, FLAG_REASONS, type FlaggedRow, type FlagReason } from './screen.js';

export type FlaggedScope = { surveyId: string } | { collectorId: string };

function scoped(deps: Deps, scope: FlaggedScope) {
  const q = deps.db.kysely.selectFrom('flagged_responses');
  return 'surveyId' in scope
    ? q.where('survey_id', '=', scope.surveyId)
    : q.where('collector_id', '=', scope.collectorId);
}

/** How many responses of a survey or collector are kept aside. */
export async function countFlagged(deps: Deps, scope: FlaggedScope): Promise<number> {
  const row = await scoped(deps, scope)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the kept-aside responses, newest first. */
export async function flaggedPage(
  deps: Deps,
  scope: FlaggedScope,
  offset: number,
  limit: number,
): Promise<FlaggedRow[]> {
  if (limit <= 0) return [];
  return scoped(deps, scope)
    .selectAll()
    .orderBy('date_created', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** The reasons a response was kept aside, as stored. */
export function reasonsOf(f: Pick<FlaggedRow, 'reasons'>): FlagReason[] {
  const list: unknown = JSON.parse(f.reasons);
  return Array.isArray(list)
    ? list.filter((x): x is FlagReason => (FLAG_REASONS as readonly string[]).includes(String(x)))
    : [];
}

export { asResponse };

export type ReleaseResult = { released: number; refused: number };

/**
 * Releases the survey's kept-aside responses `ids`: each is written as a response, with its
 * events, now. One its collector no longer takes (closed, expired, full) stays aside.
 */
export async function releaseFlagged(
  deps: Deps,
  actor: ResponseActor,
  survey: SurveyRow,
  ids: string[],
): Promise<ReleaseResult> {
  const out = { released: 0, refused: 0 };
  if (ids.length === 0) return out;
  const rows = await deps.db.kysely
    .selectFrom('flagged_responses')
    .selectAll()
    .where('survey_id', '=', survey.id)
    .where('id', 'in', ids)
    .execute();
  const index = await designIndex(deps, survey);
  const collectors = new Map<string, Collector | undefined>();
  for (const f of rows) {
    if (!collectors.has(f.collector_id))
      collectors.set(f.collector_id, await collectorById(deps, f.collector_id));
    const collector = collectors.get(f.collector_id);
    if (!collector) continue;
    // Taken off the list first: two owners releasing at once write it once.
    const taken = await deps.db.kysely
      .deleteFrom('flagged_responses')
      .where('id', '=', f.id)
      .executeTakeFirst();
    if (Number(taken.numDeletedRows) === 0) continue;
    try {
      const pages = storedPages(f).filter((p) => index.pageById.has(p.id));
      await createResponse(
        deps,
        actor,
        survey,
        collector,
        index,
        {
          pages,
          response_status: isOneOf(RESPONSE_STATUSES, f.response_status) ? f.response_status : 'partial',
          custom_value: f.custom_value,
          custom_variables: parseAs(StringMap, f.custom_variables),
          ip_address: f.ip_address,
          ...(f.recipient_id && {
            recipient_id: f.recipient_id,
            email_address: f.email_address,
            first_name: f.first_name,
            last_name: f.last_name,
          }),
        },
        f.date_created,
        {
          id: f.id,
          respondentKey: f.respondent_key,
          currentPageId: f.current_page_id,
          pagePath: parseAs(StringList, f.page_path),
          logicPath: JSON.parse(f.logic_path) as LogicPath,
          totalTime: asResponse(f).total_time,
          dateModified: f.date_modified,
        },
      );
      out.released++;
    } catch (err) {
      await deps.db.kysely.insertInto('flagged_responses').values(f).execute();
      if (!(err instanceof CollectorNotOpen)) throw err;
      out.refused++;
    }
  }
  return out;
}

/** Deletes the survey's kept-aside responses `ids`; answers how many went. */
export async function deleteFlagged(deps: Deps, survey: SurveyRow, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await deps.db.kysely
    .deleteFrom('flagged_responses')
    .where('survey_id', '=', survey.id)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
