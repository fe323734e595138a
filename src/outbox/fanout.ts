// Fan-out: turns events (written by every area in the transaction of its change) into one webhook
// delivery per matching webhook. Each event is fanned out exactly once: the marker row in
// event_dispatch and the deliveries are written in one transaction, and a second worker that
// raced for the same event finds the marker taken and writes nothing. The survey owners' response
// alerts (domain/alerts) are queued the same way, with the marker of their event.
//
// What an event must carry for webhooks (areas write these with recordEvent):
//   survey_*     resourceType 'survey',    resourceId survey id
//   collector_*  resourceType 'collector', resourceId collector id, data.survey_id
//   response_*   resourceType 'response',  resourceId response id, data.survey_id, data.collector_id,
//                and data.recipient_id when the response came through an email invitation
//   app_*        resourceType 'app',       resourceId app id, ownerId the installing user
import { type Selectable, sql } from 'kysely';
import type { Deps } from '../context.js';
import { queueEmail } from '../db/outbox-queue.js';
import type { EventsTable } from '../db/tables/platform.js';
import type { WebhooksTable } from '../db/tables/reach.js';
import { planResponseAlerts } from '../domain/alerts/alerts.js';
import { eventsOf } from '../domain/core/events.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/rules.js';
import { type SlackFacts, slackBody, slackFacts } from '../domain/webhooks/slack.js';
import { micro } from '../platform/dates.js';
import { JsonObject, parseAs, StringList } from '../platform/json.js';
import { chunks } from '../platform/lists.js';

type EventRow = Selectable<EventsTable>;
type WebhookRow = Selectable<WebhooksTable>;

interface EventFacts {
  surveyId: string | null;
  collectorId: string | null;
  recipientId: string | null;
  objectType: string;
}

function factsOf(e: EventRow): EventFacts {
  let data: Record<string, unknown> = {};
  try {
    data = parseAs(JsonObject, e.data);
  } catch {
    // a malformed data column (not JSON, or not an object) is treated as empty
  }
  const str = (v: unknown) =>
    typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
  const kind = e.type.split('_')[0];
  return {
    surveyId: str(data.survey_id) ?? (e.resource_type === 'survey' ? e.resource_id : null),
    collectorId: str(data.collector_id) ?? (e.resource_type === 'collector' ? e.resource_id : null),
    recipientId: str(data.recipient_id),
    objectType: e.resource_type ?? kind,
  };
}

/** The id among the webhook's object_ids that the event matched, or null when it does not match. */
function matchOf(hook: WebhookRow, e: EventRow, facts: EventFacts): string | null {
  if (hook.created_at > e.created_at) return null;
  const key =
    hook.object_type === 'app'
      ? e.resource_id
      : hook.object_type === 'collector'
        ? facts.collectorId
        : facts.surveyId;
  const ids = parseAs(StringList, hook.object_ids);
  if (ids.length === 0) return key ?? '';
  return key !== null && ids.includes(key) ? key : null;
}

/** The callback body of reference §13.3, or the Slack-style one for a webhook of that format. */
export function deliveryBody(
  hook: WebhookRow,
  e: EventRow,
  facts: EventFacts,
  filterId: string,
  slack: SlackFacts = { titles: new Map(), responses: new Map() },
): string {
  if (hook.format === 'slack')
    return slackBody(e.type, {
      surveyId: facts.surveyId,
      surveyTitle: (facts.surveyId && slack.titles.get(facts.surveyId)) ?? null,
      objectId: e.resource_id ?? '',
      response: e.type.startsWith('response_') ? slack.responses.get(e.resource_id ?? '') : undefined,
    });
  const resources: Record<string, string> = {};
  if (e.type.startsWith('app_')) {
    resources.app_id = e.resource_id ?? '';
    resources.user_id = e.owner_id ?? '';
  } else {
    if (facts.surveyId) resources.survey_id = facts.surveyId;
    resources.user_id = e.owner_id ?? '';
    if (facts.collectorId) resources.collector_id = facts.collectorId;
    if (e.type.startsWith('response_')) {
      resources.respondent_id = e.resource_id ?? '';
      resources.recipient_id = facts.recipientId ?? '';
    }
  }
  return JSON.stringify({
    name: hook.name,
    filter_type: hook.object_type,
    filter_id: filterId,
    event_type: e.type,
    event_id: e.id,
    object_type: facts.objectType,
    object_id: e.resource_id ?? '',
    event_datetime: micro(e.created_at),
    resources,
  });
}

/**
 * Events older than this before the last caught-up scan are not looked at again. It covers
 * transactions that commit late (an event's created_at is taken before its commit) and modest
 * clock differences between processes; it keeps each scan proportional to recent events rather
 * than to the whole history.
 */
const LATE_COMMIT_MARGIN_MS = 15 * 60_000;
/** The settings row where fan-out scans start (outbox/backlog.ts reads it too). */
export const WATERMARK = 'outbox:fanout_since';

/** The watermark: events created before it are never scanned again (read, or too late to be);
 * '' before the first caught-up scan. */
export async function fannedOutBefore(deps: Deps): Promise<string> {
  const mark = await deps.db.kysely
    .selectFrom('settings')
    .select('value')
    .where('key', '=', WATERMARK)
    .executeTakeFirst();
  return mark?.value ?? '';
}

/** Fans out up to `limit` events not yet dispatched; returns how many it handled. */
export async function fanOut(deps: Deps, limit: number): Promise<number> {
  const k = deps.db.kysely;
  const since = await fannedOutBefore(deps);
  const scanStarted = deps.clock.now();
  // Where the previous batch ended, while a backlog is worked through (deps.caches.fanoutCursor):
  // the next batch starts after it instead of re-reading every dispatched event since the
  // watermark (quadratic over a long backlog). A short batch drops it, so the next scan starts
  // from the watermark again and finds any event that committed late behind the cursor.
  const cursor = deps.caches.fanoutCursor;
  const after = cursor.value;
  let scan = k
    .selectFrom('events as e')
    .leftJoin('event_dispatch as d', 'd.event_id', 'e.id')
    .selectAll('e')
    .where('d.event_id', 'is', null)
    // `|| ''` keeps SQLite off the (type, created_at) index: walking events_created in order stops
    // after one batch, where the type index made it gather and sort every event since the start.
    .where(sql<string>`e.type || ''`, 'in', WEBHOOK_EVENT_TYPES)
    // The cursor's time as the range start (an index range), its id breaks ties below.
    .where('e.created_at', '>=', after && after.created_at > since ? after.created_at : since);
  if (after)
    scan = scan.where((eb) =>
      eb.or([
        eb('e.created_at', '>', after.created_at),
        eb.and([eb('e.created_at', '=', after.created_at), eb('e.id', '>', after.id)]),
      ]),
    );
  const rows = await scan.orderBy('e.created_at').orderBy('e.id').limit(limit).execute();
  const last = rows.at(-1);
  if (rows.length === limit && last) cursor.value = { created_at: last.created_at, id: last.id };
  else cursor.clear();
  // A row may stand for two events (domain/core/events.ts oneRow); its marker covers both.
  const rowOf = new Map<string, string>();
  const events = rows.flatMap((row) => {
    const each = eventsOf(row);
    for (const e of each) rowOf.set(e.id, row.id);
    return each;
  });
  const markedEvent = (marked: Set<string>, eventId: string) => marked.has(rowOf.get(eventId) ?? eventId);

  // The webhooks each event matches (one query per owner or app and event type in the batch).
  const hooksFor = new Map<string, Promise<WebhookRow[]>>();
  const planned: Array<{
    e: EventRow;
    facts: EventFacts;
    matches: Array<{ h: WebhookRow; filterId: string }>;
  }> = [];
  for (const e of events) {
    const byApp = e.type.startsWith('app_');
    const key = `${e.type}:${byApp ? 'app' : 'owner'}:${byApp ? e.resource_id : e.owner_id}`;
    let hooks = hooksFor.get(key);
    if (!hooks) {
      // A paused webhook gets no deliveries for what happens while it is paused.
      const q = k
        .selectFrom('webhooks')
        .selectAll()
        .where('event_type', '=', e.type)
        .where('paused_at', 'is', null);
      hooks = (
        byApp ? q.where('app_id', '=', e.resource_id ?? '') : q.where('owner_id', '=', e.owner_id ?? '')
      ).execute();
      hooksFor.set(key, hooks);
    }
    const facts = factsOf(e);
    const matches = (await hooks)
      .map((h) => ({ h, filterId: matchOf(h, e, facts) }))
      .filter((m): m is { h: WebhookRow; filterId: string } => m.filterId !== null);
    planned.push({ e, facts, matches });
  }

  // One transaction for the batch: the markers, and the deliveries of the events whose marker this
  // worker took (another worker that raced for an event finds its marker taken and skips it).
  if (rows.length > 0) {
    const { retryForHours } = deps.config.outbox;
    const now = deps.clock.now();
    const nowIso = now.toISOString();
    const until = new Date(now.getTime() + retryForHours * 3_600_000).toISOString();
    const wanted = planned.reduce((n, p) => n + p.matches.length, 0);
    const ids = wanted > 0 ? await deps.ids.take(wanted) : [];
    // Response alerts ride on the same markers: an event's alert is queued with its marker.
    const facts = new Map(planned.map((p) => [p.e.id, p.facts]));
    const alerts = await planResponseAlerts(deps, events, (e) => facts.get(e.id)?.surveyId ?? null);
    // What the Slack-style bodies say: the survey's title, and for a response its link and answers.
    const slack = await slackFacts(
      deps,
      planned
        .filter((p) => p.matches.some((m) => m.h.format === 'slack'))
        .map((p) => ({
          surveyId: p.facts.surveyId,
          responseId: p.e.type.startsWith('response_') ? p.e.resource_id : null,
        })),
    );
    await k.transaction().execute(async (trx) => {
      const marked = new Set<string>();
      for (const chunk of chunks(rows, 500)) {
        const taken = await trx
          .insertInto('event_dispatch')
          .values(chunk.map((e) => ({ event_id: e.id, dispatched_at: nowIso })))
          .onConflict((oc) => oc.column('event_id').doNothing())
          .returning('event_id')
          .execute();
        for (const r of taken) marked.add(r.event_id);
      }
      // Webhooks deleted since they were read (their grant was revoked) get nothing. On PostgreSQL
      // the rows are share-locked, so a revoke that deletes them waits for this commit and then
      // deletes these deliveries with them.
      const live = new Set<string>();
      for (const chunk of chunks([...new Set(planned.flatMap((p) => p.matches.map((m) => m.h.id)))], 500)) {
        let q = trx.selectFrom('webhooks').select('id').where('id', 'in', chunk);
        if (deps.db.dialect === 'postgres') q = q.forShare();
        for (const r of await q.execute()) live.add(r.id);
      }
      let next = 0;
      const deliveries = planned
        .filter((p) => markedEvent(marked, p.e.id))
        .flatMap(({ e, facts, matches }) =>
          matches
            .filter((m) => live.has(m.h.id))
            .map((m) => ({
              id: ids[next++],
              owner_id: m.h.owner_id,
              webhook_id: m.h.id,
              event_id: e.id,
              body: deliveryBody(m.h, e, facts, m.filterId, slack),
              status: 'pending',
              attempts: 0,
              next_attempt_at: nowIso,
              retry_until: until,
              claimed_until: null,
              claim_token: null,
              last_status_code: null,
              last_error: null,
              created_at: nowIso,
              delivered_at: null,
            })),
        );
      for (const chunk of chunks(deliveries, 200))
        await trx
          .insertInto('webhook_deliveries')
          .values(chunk)
          .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
          .execute();
      for (const a of alerts) if (markedEvent(marked, a.eventId)) await queueEmail(deps, trx, a.email);
    });
  }
  if (rows.length < limit) {
    // Caught up: later scans start a safety margin before this one.
    const next = new Date(scanStarted.getTime() - LATE_COMMIT_MARGIN_MS).toISOString();
    if (next > since) {
      await k
        .insertInto('settings')
        .values({ key: WATERMARK, value: next })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: next }).where('settings.value', '<', next))
        .execute();
      // Markers of events older than the watermark are never consulted again; a day's slack
      // covers clock differences between the writer of an event and the worker.
      const stale = new Date(scanStarted.getTime() - LATE_COMMIT_MARGIN_MS - 86_400_000).toISOString();
      await k.deleteFrom('event_dispatch').where('dispatched_at', '<', stale).execute();
    }
  }
  return events.length;
}
