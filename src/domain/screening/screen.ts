// Keeping bots and duplicates out of the counted responses, without third parties unless the
// operator configures a CAPTCHA (captcha.ts). Every respondent page post is screened: a honeypot
// field a person never sees, the time the page was shown (measured by the server: the form carries
// the instant it was drawn, signed, so a plain-form bot cannot post it early without waiting), the
// CAPTCHA's token if any, and, when a response starts, the collector's limit of
// responses per client address and its duplicate rule. A post caught by any of these is not
// refused (a refusal teaches a bot what to change): the respondent sees the usual next page or
// thank-you, and the response is kept aside in `flagged_responses` (migration 0076), which no
// reader of responses, rollups, exports, quotas, alerts or webhooks reads. Its owner reviews it
// (review.ts): released, it is written as a response then, through the usual path.

import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import type { FlaggedResponsesTable } from '../../db/tables/screening.js';
import { addressKey } from '../../platform/addresses.js';
import { JsonObject, parseAs, StringList } from '../../platform/json.js';
import { DEFAULT_SCREENING, type ScreeningOptions } from '../collectors/options.js';
import type { PageIn } from '../responses/answers.js';
import { customVariables, type Respondent } from '../responses/flow.js';
import {
  deleteResponses,
  latestOfRespondent,
  type ResponseRow,
  responseOfRespondent,
  storedPages,
} from '../responses/responses.js';
import { routeAfter } from '../responses/route.js';
import { bumpStatement, bump as bumpWindow, sweepWindows } from '../responses/submission-limit.js';
import { verifyCaptcha } from './captcha.js';

export type FlaggedRow = Selectable<FlaggedResponsesTable>;

/** The form field a person never sees (off-screen, not in the tab order, hidden from assistive
 * technology); a name no browser's autofill recognises. */
export const HONEYPOT_FIELD = 'leave_this_blank';
/** The form field with the signed instant the page was drawn. */
export const SHOWN_FIELD = 'shown';

export const FLAG_REASONS = ['honeypot', 'too_fast', 'address_limit', 'duplicate', 'captcha'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** A page drawn longer ago than this no longer proves its time (a new page is drawn on reload). */
const SHOWN_VALID_MS = 30 * 86_400_000;

export function screeningOf(options: { screening?: ScreeningOptions }): ScreeningOptions {
  return { ...DEFAULT_SCREENING, ...options.screening };
}

/** The signed instant a page is drawn for a session, for the form's SHOWN_FIELD. */
export function shownStamp(deps: Deps, respondentKey: string, pageId: string): string {
  return deps.secrets.signAt('respond-shown', `${respondentKey}:${pageId}`, deps.clock.now().getTime());
}

/** Milliseconds a page must be shown on this collector (its own setting, else the server's). */
export function minPageMs(deps: Deps, screening: ScreeningOptions): number {
  return screening.min_page_seconds === null
    ? deps.config.respondentMinPageMs
    : Math.round(screening.min_page_seconds * 1000);
}

/** What the web layer reads from a page post besides the answers. */
export interface PostSignals {
  honeypot: unknown;
  shown: unknown;
  /** a hash of this browser's long-lived screening cookie (the per-browser duplicate rule) */
  browserKey: string | null;
  /** the CAPTCHA widget's token (captcha.ts), when one is configured and the browser ran it */
  captcha?: unknown;
}

/** Counts one in `key`'s current window (of `windowMs`) and returns the count so far: one atomic
 * upsert, so a limit holds under concurrency in every process. */
async function bump(deps: Deps, key: string, windowMs: number): Promise<number> {
  const window = Math.floor(deps.clock.now().getTime() / windowMs);
  const row = await deps.db.kysely
    .insertInto('screening_counters')
    .values({ key, window_start: window, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql`CASE WHEN screening_counters.window_start >= excluded.window_start THEN screening_counters.count + 1 ELSE 1 END`,
        window_start: sql`CASE WHEN screening_counters.window_start >= excluded.window_start THEN screening_counters.window_start ELSE excluded.window_start END`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Why this post would be kept aside (none: it counts). `starts`: it begins a new response. */
async function reasonsOf(
  deps: Deps,
  r: Respondent,
  pageId: string,
  signals: PostSignals,
  starts: boolean,
): Promise<FlagReason[]> {
  const screening = screeningOf(r.collector.options);
  const reasons: FlagReason[] = [];
  if (typeof signals.honeypot === 'string' && signals.honeypot.trim() !== '') reasons.push('honeypot');
  const min = minPageMs(deps, screening);
  if (min > 0) {
    const now = deps.clock.now().getTime();
    const value = `${r.respondentKey}:${pageId}`;
    const genuine = deps.secrets.verifyAt('respond-shown', value, signals.shown, now, SHOWN_VALID_MS);
    // issued within min - 1 ms of now: shown for less than `min`
    const early = deps.secrets.verifyAt('respond-shown', value, signals.shown, now, min - 1);
    if (!genuine || early) reasons.push('too_fast');
  }
  if ((await verifyCaptcha(deps, signals.captcha, r.ip)) === 'failed') reasons.push('captcha');
  if (!starts) return reasons;
  const windowMs = screening.window_hours * 3_600_000;
  const c = r.collector.id;
  if (
    screening.max_per_address !== null &&
    (await bump(deps, `addr:${c}:${addressKey(r.ip)}`, windowMs)) > screening.max_per_address
  )
    reasons.push('address_limit');
  const dupKey =
    screening.duplicates === 'browser'
      ? signals.browserKey
      : screening.duplicates === 'contact'
        ? (r.recipient?.id ?? null)
        : screening.duplicates === 'address'
          ? addressKey(r.ip)
          : null;
  if (dupKey && (await bump(deps, `dup:${c}:${screening.duplicates}:${dupKey}`, windowMs)) > 1)
    reasons.push('duplicate');
  return reasons;
}

export async function flaggedOfRespondent(
  deps: Deps,
  collectorId: string,
  respondentKey: string,
): Promise<FlaggedRow | undefined> {
  const { db } = deps;
  const [row] = await deps.caches.respondentFlagged.get(() =>
    prepareQuery<FlaggedRow, [string, string]>(db, 2, (collectorId, respondentKey) =>
      heldOfRespondent(db.kysely, collectorId, respondentKey),
    ),
  )(collectorId, respondentKey);
  return row;
}

/** A respondent session's latest kept-aside response in a collector, as a query. */
function heldOfRespondent(k: Kysely<Database>, collectorId: string, respondentKey: string) {
  return k
    .selectFrom('flagged_responses')
    .selectAll()
    .where('collector_id', '=', collectorId)
    .where('respondent_key', '=', respondentKey)
    .orderBy('date_created', 'desc')
    .limit(1);
}

/** A flagged response in the shape of a response (what the flow's page placement and the API's
 * presenters read); it has no ordinal and no edit link. */
export function asResponse(f: FlaggedRow): ResponseRow {
  return {
    id: f.id,
    survey_id: f.survey_id,
    collector_id: f.collector_id,
    owner_id: f.owner_id,
    ordinal: 0,
    recipient_id: f.recipient_id,
    response_status: f.response_status,
    collection_mode: 'default',
    custom_value: f.custom_value,
    custom_variables: f.custom_variables,
    ip_address: f.ip_address,
    first_name: f.first_name,
    last_name: f.last_name,
    email_address: f.email_address,
    total_time: Math.max(0, Math.floor((Date.parse(f.date_modified) - Date.parse(f.date_created)) / 1000)),
    date_created: f.date_created,
    date_modified: f.date_modified,
    pages: f.pages,
    page_path: f.page_path,
    logic_path: f.logic_path,
    metadata: '{}',
    current_page_id: f.current_page_id,
    edit_token: '',
    respondent_key: f.respondent_key,
  };
}

/** The respondent's kept-aside response as a response (for placing them on their next page). */
export async function flaggedResponseOf(
  deps: Deps,
  collectorId: string,
  respondentKey: string,
): Promise<ResponseRow | undefined> {
  const f = await flaggedOfRespondent(deps, collectorId, respondentKey);
  return f && asResponse(f);
}

/** The respondent's response: the counted one, else the one kept aside (in a response's shape). */
export async function respondentResponse(
  deps: Deps,
  collectorId: string,
  respondentKey: string,
): Promise<ResponseRow | undefined> {
  return (
    (await responseOfRespondent(deps, collectorId, respondentKey)) ??
    (await flaggedResponseOf(deps, collectorId, respondentKey))
  );
}

/** What a page post starts from: the respondent's response (as respondentResponse has it), their
 * kept-aside one, if any (screenPage's `held`), and the post's count in the per-address window it
 * was asked to count in (admitSubmission's `counted`). */
export interface RespondentRecord {
  response?: ResponseRow;
  held?: FlaggedRow;
  counted?: number;
}

/** Both of a respondent's rows, and when `window` is given (submission-limit.ts addressWindow), this
 * post counted in it. On PostgreSQL one round trip (a row as its JSON text, the count as text); on
 * SQLite the counter's bump and two prepared reads, a few microseconds each. */
export async function respondentRecord(
  deps: Deps,
  collectorId: string,
  respondentKey: string,
  window?: { key: string; window: number } | null,
): Promise<RespondentRecord> {
  const found = deps.db.pg
    ? await readTogether(deps, collectorId, respondentKey, window)
    : {
        counted: window ? await bumpWindow(deps, window.key, window.window) : undefined,
        response: await responseOfRespondent(deps, collectorId, respondentKey),
        held: await flaggedOfRespondent(deps, collectorId, respondentKey),
      };
  // as respondentResponse: the counted response, else the kept-aside one in a response's shape
  return { ...found, response: found.response ?? (found.held && asResponse(found.held)) };
}

/** PostgreSQL: a respondent's rows (each as its JSON text) and the post's count, in one statement. */
async function readTogether(
  deps: Deps,
  collectorId: string,
  respondentKey: string,
  window: { key: string; window: number } | null | undefined,
): Promise<RespondentRecord> {
  const { db } = deps;
  const read = (counting: boolean) =>
    prepareQuery<{ kind: string; row: string }, [string, string, string, string]>(
      db,
      4,
      (collectorId, respondentKey, key, window) => {
        const k = db.kysely;
        const rows = k
          .selectFrom(latestOfRespondent(k, collectorId, respondentKey).as('r'))
          .select([sql<string>`'response'`.as('kind'), sql<string>`row_to_json(r)::text`.as('row')])
          .unionAll(
            k
              .selectFrom(heldOfRespondent(k, collectorId, respondentKey).as('f'))
              .select([sql<string>`'held'`.as('kind'), sql<string>`row_to_json(f)::text`.as('row')]),
          );
        if (!counting) return rows;
        return k
          .with('counted', () => bumpStatement(k, key, window))
          .selectFrom('counted')
          .select([sql<string>`'counted'`.as('kind'), sql<string>`counted.count::text`.as('row')])
          .unionAll(rows);
      },
    );
  const rows = window
    ? await deps.caches.respondentRecordCounted.get(() => read(true))(
        collectorId,
        respondentKey,
        window.key,
        String(window.window),
      )
    : await deps.caches.respondentRecord.get(() => read(false))(collectorId, respondentKey, '', '');
  const record: RespondentRecord = {};
  // each text is its table's whole row, as the driver would have given it (JSON keeps its types)
  for (const { kind, row } of rows)
    if (kind === 'held') record.held = JSON.parse(row);
    else if (kind === 'counted') record.counted = Number(row);
    else record.response = JSON.parse(row);
  if (window) await sweepWindows(deps, window.window);
  return record;
}

/** Where a kept-aside page sends the respondent: the flow's outcomes, without a counted response. */
export type Held =
  | { kind: 'next'; pageId: string }
  | { kind: 'finished'; status: 'completed' | 'disqualified'; response?: undefined };

/**
 * Screens a page post. Null: it counts, the flow saves it as usual. Otherwise the page was kept
 * aside (the respondent's response was already, or is now, flagged) and the answer says where the
 * respondent goes, as the flow would have sent them. A response saved before its session was
 * caught moves aside with this page.
 */
export async function screenPage(
  deps: Deps,
  r: Respondent,
  { response, held }: RespondentRecord,
  page: PageIn,
  started: string | undefined,
  signals: PostSignals,
): Promise<Held | null> {
  const real = held ? undefined : response;
  const reasons = await reasonsOf(deps, r, page.id, signals, !held && !real);
  if (!held && reasons.length === 0) return null;

  const now = deps.clock.now().toISOString();
  const base = held ? asResponse(held) : real;
  const answers = (page.questions ?? []).map((q) => ({ id: q.id, answers: q.answers ?? [] }));
  const pages = (base ? storedPages(base) : []).filter((p) => p.id !== page.id);
  pages.push({ id: page.id, questions: answers });
  const route = routeAfter(r.index, page.id, answers);
  const before = base ? parseAs(StringList, base.page_path) : [];
  const k = before.indexOf(page.id);
  const path = [...(k >= 0 ? before.slice(0, k) : before), page.id];
  const logicPath = base ? parseAs(JsonObject, base.logic_path) : {};
  if (route.fired) logicPath[page.id] = route.fired;
  const fields = {
    response_status: route.end ?? 'partial',
    pages: JSON.stringify(pages),
    page_path: JSON.stringify(path),
    logic_path: JSON.stringify(logicPath),
    current_page_id: route.next ?? '0',
    date_modified: now,
  };
  if (held) {
    await deps.db.kysely.updateTable('flagged_responses').set(fields).where('id', '=', held.id).execute();
  } else {
    const anonymous = r.collector.options.anonymous_type === 'fully_anonymous';
    const startedAt =
      started && Date.parse(started) <= Date.parse(now) ? new Date(started).toISOString() : now;
    await deps.db.kysely
      .insertInto('flagged_responses')
      .values({
        id: real?.id ?? (await deps.ids.take(1))[0],
        owner_id: r.survey.owner_id,
        survey_id: r.survey.id,
        collector_id: r.collector.id,
        reasons: JSON.stringify(reasons),
        recipient_id: r.recipient?.id ?? '',
        custom_value: real?.custom_value ?? r.link.get('c') ?? '',
        custom_variables: real?.custom_variables ?? JSON.stringify(customVariables(r)),
        ip_address: anonymous ? '' : r.ip,
        first_name: r.recipient?.first_name ?? '',
        last_name: r.recipient?.last_name ?? '',
        email_address: r.recipient?.email ?? '',
        date_created: real?.date_created ?? startedAt,
        respondent_key: r.respondentKey,
        ...fields,
      })
      .execute();
    // Its earlier pages were counted as a response: that one goes (with its counts) now.
    if (real) await deleteResponses(deps, { userId: null, ip: r.ip }, [real]);
  }
  return route.end ? { kind: 'finished', status: route.end } : { kind: 'next', pageId: route.next! };
}
