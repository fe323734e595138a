// Responses: create, read, list (every filter of reference §10.2), update, delete. One row per
// response holds all its answers as one JSON document; the survey's and collector's response counts
// and the rollup counts change in the same transaction as the response, with its events.
import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { type AnswerCondition, answerCondition } from '../../db/stores/answer-filter.js';
import { keysHaveChoice, rewriteKeys } from '../../db/stores/response-keys.js';
import { addNumbers, type NumberDelta, numberDeltas } from '../../db/stores/response-numbers.js';
import { addCounts, CollectorRefused, type ResponseRow } from '../../db/stores/responses.js';
import { ApiError } from '../../platform/errors.js';
import { type Collector, CollectorNotOpen, closedReason, collectorById } from '../collectors/collectors.js';
import { recordActivity } from '../core/activity.js';
import { activityTypeOf } from '../core/activity-types.js';
import type { EventType, NewEvent } from '../core/event-types.js';
import { oneRow, recordEvent } from '../core/events.js';
import type { SurveyRow } from '../surveys/access.js';
import { removeUploads } from '../uploads/uploads.js';
import { answerKeys, checkPages, countKeys, mergePages } from './answers.js';
import { seekResponsesPage } from './page-seek.js';
import type { LogicPath } from './route.js';
import { answerSentiments } from './sentiment.js';
import type { DesignIndex, PageIn, StoredPage } from './types.js';

/** The largest value of an INTEGER column on PostgreSQL. */
const INT_MAX = 2147483647;

type Trx = Transaction<Database>;

export type { ResponseRow };
export const RESPONSE_STATUSES = ['completed', 'partial', 'overquota', 'disqualified'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

/** A stored row's status as the type names it (the column is text; the flow writes only these). */
export function statusOf(row: { response_status: string }): ResponseStatus {
  return RESPONSE_STATUSES.find((s) => s === row.response_status) ?? 'partial';
}

/** A stored row's custom variables (the column is a JSON object of strings). */
export function responseVariables(row: { custom_variables: string | null }): Record<string, string> {
  const variables: Record<string, string> = JSON.parse(row.custom_variables || '{}');
  return variables;
}

export interface ResponseInput {
  pages?: PageIn[];
  custom_variables?: Record<string, string>;
  custom_value?: string;
  date_created?: string;
  response_status?: ResponseStatus;
  ip_address?: string;
  recipient_id?: string;
  first_name?: string;
  last_name?: string;
  email_address?: string;
}

export interface ResponseActor {
  /** The user acting through the API, or null for a respondent. */
  userId: string | null;
  ip: string | null;
}

export interface CreateExtras {
  collectionMode?: string;
  respondentKey?: string | null;
  currentPageId?: string;
  pagePath?: string[];
  logicPath?: LogicPath;
  metadata?: Record<string, unknown>;
  totalTime?: number;
  /** An id reserved beforehand (the importer records it first, so a re-run never duplicates). */
  id?: string;
  /** Kept from elsewhere (an import) instead of now. */
  dateModified?: string;
  /** Copied history (an import): written without events, so no webhook, alert or activity. */
  silent?: boolean;
  /** More rows in the response's transaction (quota counts); throwing rolls the response back. */
  within?: (trx: Trx, row: ResponseRow) => Promise<void>;
}

// 122 random bits from the entropy Node keeps (a randomBytes call is a system call on every
// response), after the instant in base 36: new tokens sort after earlier ones, so the unique index
// on edit_token takes each at its end rather than on a random page (a sixth of the pages a response
// dirtied on SQLite, each written to the WAL and again by the checkpoint).
const editToken = () => `${Date.now().toString(36)}${randomUUID().replaceAll('-', '')}`;

export function countDeltas(
  pages: StoredPage[],
  sign: number,
  into = new Map<string, number>(),
  counted = countKeys(pages),
): Map<string, number> {
  for (const [q, keys] of counted)
    for (const k of keys) {
      const key = `${q}|${k}`;
      into.set(key, (into.get(key) ?? 0) + sign);
    }
  return into;
}

function statusEvents(before: string | null, after: string): EventType[] {
  if (before === after) return [];
  if (after === 'completed') return ['response_completed'];
  if (after === 'disqualified') return ['response_disqualified'];
  if (after === 'overquota') return ['response_overquota'];
  return [];
}

type EventRowFields = Pick<
  ResponseRow,
  'id' | 'owner_id' | 'survey_id' | 'collector_id' | 'response_status' | 'recipient_id'
>;

function responseEvent(type: EventType, row: EventRowFields, actor: ResponseActor): NewEvent {
  return {
    type,
    ownerId: row.owner_id,
    actorId: actor.userId,
    resourceType: 'response',
    resourceId: row.id,
    ip: actor.ip,
    data: {
      survey_id: row.survey_id,
      collector_id: row.collector_id,
      // outbox/fanout.ts puts it in the webhook's resources (email invitations)
      recipient_id: row.recipient_id,
      response_status: row.response_status,
    },
  };
}

async function writeEvents(
  deps: Deps,
  trx: Trx,
  ids: string[],
  types: EventType[],
  row: EventRowFields,
  actor: ResponseActor,
): Promise<void> {
  for (let i = 0; i < types.length; i++)
    await recordEvent(deps, trx, ids[i], responseEvent(types[i], row, actor));
}

export async function createResponse(
  deps: Deps,
  actor: ResponseActor,
  survey: SurveyRow,
  collector: Collector,
  index: DesignIndex,
  input: ResponseInput,
  createdIso: string | undefined,
  extras: CreateExtras = {},
): Promise<ResponseRow> {
  const pages = checkPages(index, input.pages ?? []);
  const status = input.response_status ?? 'completed';
  const types: EventType[] = extras.silent ? [] : ['response_created', ...statusEvents(null, status)];
  const [minted, ...eventIds] = await deps.ids.take(1 + types.length);
  const id = extras.id ?? minted;
  const now = deps.clock.now().toISOString();
  const created = createdIso ?? now;
  const row: ResponseRow = {
    id,
    survey_id: survey.id,
    collector_id: collector.id,
    owner_id: survey.owner_id,
    ordinal: 0,
    recipient_id: input.recipient_id ?? '',
    response_status: status,
    collection_mode: extras.collectionMode ?? 'default',
    custom_value: input.custom_value ?? '',
    custom_variables: JSON.stringify(input.custom_variables ?? {}),
    ip_address: input.ip_address ?? '',
    first_name: input.first_name ?? '',
    last_name: input.last_name ?? '',
    email_address: input.email_address ?? '',
    // An INTEGER column: a response dated long ago (1900) would overflow it on PostgreSQL.
    total_time: Math.min(
      INT_MAX,
      extras.totalTime ?? Math.max(0, Math.floor((Date.parse(now) - Date.parse(created)) / 1000)),
    ),
    date_created: created,
    date_modified: extras.dateModified ?? now,
    pages: JSON.stringify(pages),
    page_path: JSON.stringify(extras.pagePath ?? []),
    logic_path: JSON.stringify(extras.logicPath ?? {}),
    metadata: JSON.stringify(extras.metadata ?? {}),
    current_page_id: extras.currentPageId ?? (status === 'partial' ? (pages.at(-1)?.id ?? '0') : '0'),
    edit_token: editToken(),
    respondent_key: extras.respondentKey ?? null,
  };
  const events = types.map((type, i) => ({ id: eventIds[i], event: responseEvent(type, row, actor) }));
  // Events that are group activity need reads in the response's transaction: written alone then.
  const activity = events.filter((e) => activityTypeOf(e.event) !== null);
  const counted = countKeys(pages);
  try {
    await deps.stores.responses.insert(
      // One events row for response_created and the status event of a response sent finished.
      {
        row,
        deltas: countDeltas(pages, 1, undefined, counted),
        numbers: numberDeltas(pages, 1),
        keys: { ...answerKeys(pages, counted), sentiments: answerSentiments(pages, survey.language) },
        events: oneRow(events),
      },
      activity.length === 0 && !extras.within
        ? undefined
        : async (trx) => {
            for (const e of activity) await recordActivity(trx, e.id, e.event, now);
            await extras.within?.(trx, row);
          },
    );
  } catch (err) {
    if (!(err instanceof CollectorRefused)) throw err;
    // Say why, from the collector as it is now (the refusal itself was atomic).
    const current = await collectorById(deps, collector.id);
    throw new CollectorNotOpen(
      collector.id,
      (current && closedReason(current, deps.clock.now())) || 'closed',
    );
  }
  deps.metrics.responses.inc();
  return row;
}

export function storedPages(row: Pick<ResponseRow, 'pages'>): StoredPage[] {
  return JSON.parse(row.pages) as StoredPage[];
}

export interface UpdateExtras {
  currentPageId?: string;
  pagePath?: string[];
  logicPath?: LogicPath;
  totalTime?: number;
  /** Kept from elsewhere (an import) instead of now. */
  dateModified?: string;
  /** keep only these pages' answers (a finished respondent: the pages on the path taken) */
  onlyPages?: ReadonlySet<string>;
  /** Copied history (an import): written without events, so no webhook, alert or activity. */
  silent?: boolean;
  /** More rows in the update's transaction (quota counts); throwing rolls the update back. */
  within?: (trx: Trx, row: ResponseRow) => Promise<void>;
}

/** The answers an update stores: PUT replaces them, PATCH merges the given questions in. */
export function updatedPages(
  index: DesignIndex,
  current: ResponseRow,
  input: ResponseInput,
  mode: 'patch' | 'put',
): StoredPage[] {
  if (mode === 'put') return checkPages(index, input.pages ?? []);
  if (input.pages === undefined) return storedPages(current);
  return mergePages(index, storedPages(current), checkPages(index, input.pages), input.pages);
}

export async function updateResponse(
  deps: Deps,
  actor: ResponseActor,
  current: ResponseRow,
  index: DesignIndex,
  input: ResponseInput,
  createdIso: string | undefined,
  mode: 'patch' | 'put',
  extras: UpdateExtras = {},
): Promise<ResponseRow> {
  const before = storedPages(current);
  let pages = updatedPages(index, current, input, mode);
  if (extras.onlyPages) pages = pages.filter((p) => extras.onlyPages!.has(p.id));
  const keep = <T>(given: T | undefined, now: T, reset: T): T =>
    given !== undefined ? given : mode === 'put' ? reset : now;
  const status = keep(input.response_status, current.response_status, 'completed');
  const types: EventType[] = extras.silent
    ? []
    : ['response_updated', ...statusEvents(current.response_status, status)];
  const eventIds = await deps.ids.take(types.length);
  const now = deps.clock.now().toISOString();
  const next: ResponseRow = {
    ...current,
    pages: JSON.stringify(pages),
    response_status: status,
    custom_value: keep(input.custom_value, current.custom_value, ''),
    custom_variables: keep(
      input.custom_variables === undefined ? undefined : JSON.stringify(input.custom_variables),
      current.custom_variables,
      '{}',
    ),
    ip_address: input.ip_address ?? current.ip_address,
    recipient_id: input.recipient_id ?? current.recipient_id,
    first_name: input.first_name ?? current.first_name,
    last_name: input.last_name ?? current.last_name,
    email_address: input.email_address ?? current.email_address,
    date_created: createdIso ?? current.date_created,
    date_modified: extras.dateModified ?? now,
    current_page_id: extras.currentPageId ?? (status === 'partial' ? current.current_page_id : '0'),
    page_path: extras.pagePath ? JSON.stringify(extras.pagePath) : current.page_path,
    logic_path: extras.logicPath ? JSON.stringify(extras.logicPath) : current.logic_path,
    total_time: Math.min(INT_MAX, extras.totalTime ?? current.total_time),
  };
  const counted = countKeys(pages);
  const deltas = countDeltas(pages, 1, countDeltas(before, -1), counted);
  const numbers = numberDeltas(pages, 1, numberDeltas(before, -1));
  await deps.db.kysely.transaction().execute(async (trx) => {
    const {
      id: _id,
      survey_id: _s,
      collector_id: _c,
      owner_id: _o,
      ordinal: _n,
      edit_token: _e,
      ...changes
    } = next;
    const res = await trx
      .updateTable('responses')
      .set(changes)
      .where('id', '=', current.id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new ApiError(1020, 'Response not found.');
    // The survey's language decides whether its answers are scored (sentiment.ts).
    const { language } = await trx
      .selectFrom('surveys')
      .select('language')
      .where('id', '=', current.survey_id)
      .executeTakeFirstOrThrow();
    await rewriteKeys(trx, next, {
      ...answerKeys(pages, counted),
      sentiments: answerSentiments(pages, language),
    });
    await addCounts(trx, current.survey_id, current.collector_id, deltas);
    await addNumbers(trx, current.survey_id, current.collector_id, numbers);
    await writeEvents(deps, trx, eventIds, types, next, actor);
    await extras.within?.(trx, next);
  });
  return next;
}

/** Deletes responses (of one survey) with their counts and one response_deleted event each, then
 * their uploaded files (a crash in between leaves rows the worker's sweep removes). */
export async function deleteResponses(deps: Deps, actor: ResponseActor, rows: ResponseRow[]): Promise<void> {
  if (rows.length === 0) return;
  const eventIds = await deps.ids.take(rows.length);
  await deps.db.kysely.transaction().execute(async (trx) => {
    const perCollector = new Map<
      string,
      { deltas: Map<string, number>; numbers: Map<string, NumberDelta>; n: number }
    >();
    let removed = 0;
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      // Only rows still there count: a concurrent delete must not be subtracted twice.
      const gone = await trx
        .deleteFrom('responses')
        .where(
          'id',
          'in',
          chunk.map((r) => r.id),
        )
        .returning(['id'])
        .execute();
      const goneIds = new Set(gone.map((g) => g.id));
      for (const r of chunk) {
        if (!goneIds.has(r.id)) continue;
        removed++;
        let c = perCollector.get(r.collector_id);
        if (!c) {
          c = { deltas: new Map(), numbers: new Map(), n: 0 };
          perCollector.set(r.collector_id, c);
        }
        c.n++;
        const pages = storedPages(r);
        countDeltas(pages, -1, c.deltas);
        numberDeltas(pages, -1, c.numbers);
      }
    }
    for (const [collectorId, c] of perCollector) {
      await addCounts(trx, rows[0].survey_id, collectorId, c.deltas);
      await addNumbers(trx, rows[0].survey_id, collectorId, c.numbers);
      await trx
        .updateTable('collectors')
        .set((eb) => ({ response_count: eb('response_count', '-', c.n) }))
        .where('id', '=', collectorId)
        .execute();
    }
    await trx
      .updateTable('surveys')
      .set((eb) => ({ response_count: eb('response_count', '-', removed) }))
      .where('id', '=', rows[0].survey_id)
      .execute();
    for (let i = 0; i < rows.length; i++)
      await writeEvents(deps, trx, [eventIds[i]], ['response_deleted'], rows[i], actor);
  });
  await removeUploads(deps, { responseIds: rows.map((r) => r.id) });
}

export interface ResponseFilters {
  surveyId?: string;
  collectorId?: string;
  collectorIds?: string[];
  startCreated?: string;
  endCreated?: string;
  startModified?: string;
  endModified?: string;
  status?: string[];
  email?: string;
  firstName?: string;
  lastName?: string;
  ip?: string;
  custom?: string;
  totalTimeMin?: number;
  totalTimeMax?: number;
  /** Only responses up to this ordinal (the plan's limit: plan-limit.ts). */
  maxOrdinal?: number;
  /** Answers the response must have, every one (domain/analysis/filters.ts builds them). */
  answers?: AnswerCondition[];
  sortBy?: 'date_modified';
  sortOrder?: 'ASC' | 'DESC';
}

/** The conditions of `f` on the columns a response shares with its response_keys row. */
function sharedConditions(f: ResponseFilters): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  if (f.collectorId) out.push(sql<SqlBool>`collector_id = ${f.collectorId}`);
  if (f.collectorIds)
    out.push(
      f.collectorIds.length
        ? sql<SqlBool>`collector_id IN (${sql.join(f.collectorIds)})`
        : sql<SqlBool>`1 = 0`,
    );
  if (f.startCreated) out.push(sql<SqlBool>`date_created >= ${f.startCreated}`);
  if (f.endCreated) out.push(sql<SqlBool>`date_created <= ${f.endCreated}`);
  if (f.status) out.push(sql<SqlBool>`response_status IN (${sql.join(f.status)})`);
  // total_time is an INTEGER column: a bound beyond it (e.g. hours × 3600) is not sent to the
  // database, where PostgreSQL would refuse it as out of range.
  if (f.totalTimeMin !== undefined)
    out.push(f.totalTimeMin > INT_MAX ? sql<SqlBool>`1 = 0` : sql<SqlBool>`total_time >= ${f.totalTimeMin}`);
  if (f.totalTimeMax !== undefined && f.totalTimeMax < INT_MAX)
    out.push(sql<SqlBool>`total_time <= ${f.totalTimeMax}`);
  if (f.maxOrdinal !== undefined) out.push(sql<SqlBool>`ordinal <= ${f.maxOrdinal}`);
  return out;
}

/** The query of the responses matching `f` (select what you need; analysis reads aggregates). */
export function filtered(deps: Deps, f: ResponseFilters) {
  let q = deps.db.kysely.selectFrom('responses');
  if (f.surveyId) q = q.where('survey_id', '=', f.surveyId);
  for (const c of sharedConditions(f)) q = q.where(c);
  if (f.startModified) q = q.where('date_modified', '>=', f.startModified);
  if (f.endModified) q = q.where('date_modified', '<=', f.endModified);
  if (f.email !== undefined) q = q.where('email_address', '=', f.email);
  if (f.firstName !== undefined) q = q.where('first_name', '=', f.firstName);
  if (f.lastName !== undefined) q = q.where('last_name', '=', f.lastName);
  if (f.ip !== undefined) q = q.where('ip_address', '=', f.ip);
  if (f.custom !== undefined) q = q.where('custom_value', '=', f.custom);
  for (const c of f.answers ?? []) q = q.where(answerCondition(deps.db.dialect, c));
  return q;
}

/** Whether `f` narrows by a column only `responses` holds (contact fields, modified dates). */
function narrowsByResponse(f: ResponseFilters): boolean {
  return [f.startModified, f.endModified, f.email, f.firstName, f.lastName, f.ip, f.custom].some(
    (v) => v !== undefined,
  );
}

/**
 * The response_keys rows (db/stores/response-keys.ts) of the responses of a survey matching `f`:
 * what analysis scans instead of the responses. Choice answers are tested on the rows themselves;
 * a number range or "contains" answer, or a column only `responses` holds, narrows them by the
 * ordinals of the responses matching those (the JSON walk, answer-filter.ts).
 */
export function keyed(deps: Deps, f: ResponseFilters & { surveyId: string }) {
  let q = deps.db.kysely.selectFrom('response_keys').where('survey_id', '=', f.surveyId);
  for (const c of sharedConditions(f)) q = q.where(c);
  const answers = f.answers ?? [];
  for (const c of answers)
    if (c.kind === 'choices')
      q = q.where(keysHaveChoice(deps.db.dialect, sql.ref('response_keys.choices'), c.question, c.choices));
    else if (c.kind === 'sentiment')
      q = q.where(keysHaveChoice(deps.db.dialect, sql.ref('response_keys.sentiments'), c.question, c.labels));
  const walked = answers.filter((c) => c.kind !== 'choices' && c.kind !== 'sentiment');
  if (walked.length > 0 || narrowsByResponse(f)) {
    const { startModified, endModified, email, firstName, lastName, ip, custom } = f;
    const rest = { surveyId: f.surveyId, startModified, endModified, email, firstName, lastName, ip, custom };
    q = q.where('ordinal', 'in', filtered(deps, { ...rest, answers: walked }).select('ordinal'));
  }
  return q;
}

/** [total, rows] of the responses matching `f`, in export order (ordinal) unless sorted. */
export async function listResponses(
  deps: Deps,
  f: ResponseFilters,
  offset: number,
  limit: number,
  columns: 'all' | 'ids' = 'all',
  /** The total when the caller knows it (an unfiltered survey or collector: its kept response count). */
  knownTotal?: number,
): Promise<[number, ResponseRow[]]> {
  const q = filtered(deps, f);
  const total =
    knownTotal ??
    (await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total;
  if (Number(total) === 0 || offset >= Number(total)) return [Number(total), []];
  // An unfiltered page in ordinal order: read by seek, whatever its depth (page-seek.ts).
  if (columns === 'all' && f.surveyId && f.sortBy === undefined && f.sortOrder !== 'DESC' && unfiltered(f))
    return [
      Number(total),
      await seekResponsesPage(deps, { surveyId: f.surveyId, collectorId: f.collectorId }, offset, limit),
    ];
  const order = f.sortOrder === 'DESC' ? 'desc' : 'asc';
  const base = columns === 'all' ? q.selectAll() : q.select(['id', 'survey_id', 'collector_id', 'ordinal']);
  const sorted =
    f.sortBy === 'date_modified'
      ? base.orderBy('date_modified', order).orderBy('ordinal', order)
      : base.orderBy('ordinal', order);
  const rows = await sorted.limit(limit).offset(offset).execute();
  return [Number(total), rows as ResponseRow[]];
}

/** True when `f` selects a whole survey or collector (no filter narrows it). */
export function unfiltered(f: ResponseFilters): boolean {
  const { surveyId: _s, collectorId: _c, sortBy: _b, sortOrder: _o, ...rest } = f;
  return Object.values(rest).every((v) => v === undefined);
}

/** The columns an export reads. */
export const EXPORT_COLUMNS = [
  'id',
  'ordinal',
  'collector_id',
  'response_status',
  'date_created',
  'date_modified',
  'ip_address',
  'email_address',
  'first_name',
  'last_name',
  'custom_value',
  'custom_variables',
  'pages',
] as const;
export type ExportRow = Pick<ResponseRow, (typeof EXPORT_COLUMNS)[number]> & {
  /** The kept sentiment of its written answers (response_keys.sentiments; sentiment.ts). */
  sentiments?: string | null;
};

/** How many responses match `f` and the highest ordinal among them (0 when none). */
export async function countMatching(
  deps: Deps,
  f: ResponseFilters,
): Promise<{ total: number; maxOrdinal: number }> {
  const r = await filtered(deps, f)
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.max<number>('ordinal').as('max')])
    .executeTakeFirstOrThrow();
  return { total: Number(r.total), maxOrdinal: Number(r.max ?? 0) };
}

/**
 * The matching rows in export order, `batch` at a time, each batch read by keyset (ordinal after
 * the last one seen, on the survey/collector ordinal indexes): memory stays constant however many
 * match, and no connection is held between batches. `upTo` caps the ordinal (the basic plan).
 */
export async function* exportBatches(
  deps: Deps,
  f: ResponseFilters,
  batch: number,
  upTo?: number,
): AsyncGenerator<ExportRow[]> {
  let after = 0;
  for (;;) {
    let q = filtered(deps, f)
      .select(EXPORT_COLUMNS)
      .select((eb) =>
        eb
          .selectFrom('response_keys as k')
          .select('k.sentiments')
          .whereRef('k.survey_id', '=', 'responses.survey_id')
          .whereRef('k.ordinal', '=', 'responses.ordinal')
          .as('sentiments'),
      )
      .where('ordinal', '>', after);
    if (upTo !== undefined) q = q.where('ordinal', '<=', upTo);
    const rows = await q.orderBy('ordinal').limit(batch).execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].ordinal;
  }
}

/** Every matching row (for deletes and analysis scans). */
export async function allResponses(deps: Deps, f: ResponseFilters): Promise<ResponseRow[]> {
  return filtered(deps, f).selectAll().orderBy('ordinal').execute();
}

export async function getResponse(
  deps: Deps,
  scope: { surveyId?: string; collectorId?: string },
  responseId: string,
): Promise<ResponseRow> {
  let q = deps.db.kysely.selectFrom('responses').selectAll().where('id', '=', responseId);
  if (scope.surveyId) q = q.where('survey_id', '=', scope.surveyId);
  if (scope.collectorId) q = q.where('collector_id', '=', scope.collectorId);
  const row = await q.executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Response not found.');
  return row;
}

/** The latest response a respondent session made in a collector, if any. */
export async function responseOfRespondent(
  deps: Deps,
  collectorId: string,
  respondentKey: string,
): Promise<ResponseRow | undefined> {
  const { db } = deps;
  const [row] = await deps.caches.respondentResponses.get(() =>
    prepareQuery<ResponseRow, [string, string]>(db, 2, (collectorId, respondentKey) =>
      latestOfRespondent(db.kysely, collectorId, respondentKey),
    ),
  )(collectorId, respondentKey);
  return row;
}

/** A respondent session's latest response in a collector, as a query (also a part of a page
 * post's first read, domain/screening/screen.ts). */
export function latestOfRespondent(k: Kysely<Database>, collectorId: string, respondentKey: string) {
  return k
    .selectFrom('responses')
    .selectAll()
    .where('respondent_key', '=', respondentKey)
    .where('collector_id', '=', collectorId)
    .orderBy('ordinal', 'desc')
    .limit(1);
}

/** The response behind an edit_url token, if any. */
export async function responseByEditToken(deps: Deps, token: string): Promise<ResponseRow | undefined> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return undefined;
  return deps.db.kysely
    .selectFrom('responses')
    .selectAll()
    .where('edit_token', '=', token)
    .executeTakeFirst();
}

/** Hands a response to a new respondent session (opening its edit_url). */
export async function bindRespondent(deps: Deps, responseId: string, respondentKey: string): Promise<void> {
  await deps.db.kysely
    .updateTable('responses')
    .set({ respondent_key: respondentKey })
    .where('id', '=', responseId)
    .execute();
}
