// Collectors: create (or copy), read, list, update, delete. Access to a collector is access to its
// survey (requireSurvey, area 'collect'). No HTTP here.
import { randomBytes } from 'node:crypto';
import { type Selectable, type SqlBool, sql } from 'kysely';
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import type { CollectorsTable } from '../../db/tables/collect.js';
import { ApiError } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import { isPaid } from '../../platform/plans.js';
import { recordEvent } from '../core/events.js';
import { countAndPage } from '../core/owned.js';
import {
  type AccessLevel,
  type Caller,
  requireSurvey,
  type SurveyArea,
  type SurveyRow,
} from '../surveys/access.js';
import { removeUploads } from '../uploads/uploads.js';
import {
  applyOptions,
  type CollectorInput,
  type CollectorOptions,
  type CollectorType,
  defaultName,
  defaultOptions,
  paidOnlyOptions,
} from './options.js';

export type CollectorRow = Selectable<CollectorsTable>;

export interface Collector extends Omit<CollectorRow, 'options'> {
  options: CollectorOptions;
}

export interface CollectActor extends Caller {
  plan: Plan;
  ip?: string | null;
}

export function parseCollector(row: CollectorRow): Collector {
  return { ...row, options: JSON.parse(row.options) as CollectorOptions };
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A short unguessable weblink token (12 characters from 56: about 70 bits). */
export function urlToken(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

const notFound = () => new ApiError(1020, 'Collector not found.');

/** The collector and its survey if the caller may use it in `area` at `level`; else 404/1020. */
/** A collector's row by id (the hot path of every collector-scoped request). */
function collectorRow(deps: Deps, id: string): Promise<Selectable<CollectorsTable>[]> {
  const { db } = deps;
  return deps.caches.collectorRows.get(() =>
    prepareQuery<Selectable<CollectorsTable>, [string]>(db, 1, (id) =>
      db.kysely.selectFrom('collectors').selectAll().where('id', '=', id),
    ),
  )(id);
}

export async function requireCollector(
  deps: Deps,
  caller: Caller,
  collectorId: string,
  area: SurveyArea,
  level: AccessLevel,
): Promise<{ collector: Collector; survey: SurveyRow }> {
  const [row] = await collectorRow(deps, collectorId);
  if (!row) throw notFound();
  const survey = await requireSurvey(deps, caller, row.survey_id, area, level).catch((err) => {
    if (err instanceof ApiError && err.code === 1020) throw notFound();
    throw err;
  });
  return { collector: parseCollector(row), survey };
}

function checkPlan(plan: Plan, type: CollectorType, input: CollectorInput): void {
  if (isPaid(plan)) return;
  if (type !== 'weblink')
    throw new ApiError(1015, `A ${type} collector needs a paid plan; the basic plan has weblink collectors.`);
  const paidOnly = paidOnlyOptions(input);
  if (paidOnly.length > 0)
    throw new ApiError(1015, `These options need a paid plan: ${paidOnly.join(', ')}.`);
}

function checkDates(input: CollectorInput): void {
  if (input.response_limit !== undefined && input.response_limit !== null && input.response_limit < 0)
    throw new ApiError(1002, `'response_limit' must be at least 0.`);
}

/** 0 is "no limit", as clients that always send the field (jsurveymonkey) mean it. */
function limitOf(value: number | null): number | null {
  return value === 0 ? null : value;
}

export interface CreateCollectorInput extends CollectorInput {
  from_collector_id?: string;
}

export async function createCollector(
  deps: Deps,
  actor: CollectActor,
  survey: SurveyRow,
  input: CreateCollectorInput,
  closeDateIso: string | null | undefined,
  /** An id reserved beforehand (the importer records it first, so a re-run never duplicates). */
  presetId?: string,
): Promise<Collector> {
  let type: CollectorType;
  let options: CollectorOptions;
  let name: string | undefined = input.name;
  let passwordHash: string | null = null;
  let closeDate: string | null = closeDateIso ?? null;
  let responseLimit: number | null = limitOf(input.response_limit ?? null);
  let status: string | undefined;
  let copiedFrom: string | undefined;
  if (input.from_collector_id !== undefined) {
    const extra = Object.keys(input).filter((k) => k !== 'from_collector_id' && k !== 'name');
    if (extra.length > 0)
      throw new ApiError(1002, `'from_collector_id' cannot be combined with ${extra.join(', ')}.`);
    const { collector: source } = await requireCollector(
      deps,
      actor,
      input.from_collector_id,
      'collect',
      'read',
    ).catch(() => {
      throw new ApiError(1020, `Collector ${input.from_collector_id} not found.`);
    });
    type = source.type as CollectorType;
    checkPlan(actor.plan, type, {});
    options = source.options;
    passwordHash = source.password_hash;
    closeDate = source.close_date;
    responseLimit = source.response_limit;
    name = input.name ?? `Copy of ${source.name}`;
    copiedFrom = source.id;
  } else {
    if (!input.type) throw new ApiError(1002, `'type' is required.`);
    type = input.type;
    checkPlan(actor.plan, type, input);
    checkDates(input);
    options = applyOptions(type, defaultOptions(type), input);
    if (input.password) passwordHash = await deps.passwords.hash(input.password);
    if (input.status !== undefined) status = input.status;
  }
  if (!status) status = type === 'email' || type === 'sms' ? 'new' : 'open';
  const [eventId] = await deps.ids.take(1);
  const id = presetId ?? (await deps.ids.one());
  const now = deps.clock.now().toISOString();
  let row!: CollectorRow;
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (name === undefined) {
      const { n } = await trx
        .selectFrom('collectors')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('survey_id', '=', survey.id)
        .where('type', '=', type)
        .executeTakeFirstOrThrow();
      name = defaultName(type, Number(n));
    }
    row = {
      id,
      survey_id: survey.id,
      owner_id: survey.owner_id,
      type,
      status: status!,
      name,
      url_token: type === 'weblink' ? urlToken() : null,
      password_hash: passwordHash,
      close_date: closeDate,
      response_limit: responseLimit,
      response_count: 0,
      options: JSON.stringify(options),
      date_created: now,
      date_modified: now,
    };
    await trx.insertInto('collectors').values(row).execute();
    await recordEvent(deps, trx, eventId, {
      type: 'collector_created',
      ownerId: survey.owner_id,
      actorId: actor.user.id,
      resourceType: 'collector',
      resourceId: id,
      ip: actor.ip ?? null,
      data: { survey_id: survey.id, type, name, ...(copiedFrom ? { from_collector_id: copiedFrom } : {}) },
    });
  });
  return parseCollector(row);
}

export async function updateCollector(
  deps: Deps,
  actor: CollectActor,
  current: Collector,
  input: CollectorInput,
  closeDateIso: string | null | undefined,
  mode: 'patch' | 'put',
): Promise<Collector> {
  const type = current.type as CollectorType;
  checkPlan(actor.plan, type, input);
  checkDates(input);
  const base = mode === 'put' ? defaultOptions(type) : current.options;
  const options = applyOptions(type, base, input);
  const next = {
    name: input.name ?? current.name,
    status: input.status ?? current.status,
    password_hash:
      input.password !== undefined
        ? input.password
          ? await deps.passwords.hash(input.password)
          : null
        : mode === 'put'
          ? null
          : current.password_hash,
    close_date: closeDateIso !== undefined ? closeDateIso : mode === 'put' ? null : current.close_date,
    response_limit:
      input.response_limit !== undefined
        ? limitOf(input.response_limit)
        : mode === 'put'
          ? null
          : current.response_limit,
    options: JSON.stringify(options),
    date_modified: deps.clock.now().toISOString(),
  };
  const [eventId] = await deps.ids.take(1);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('collectors').set(next).where('id', '=', current.id).execute();
    await recordEvent(deps, trx, eventId, {
      type: 'collector_updated',
      ownerId: current.owner_id,
      actorId: actor.user.id,
      resourceType: 'collector',
      resourceId: current.id,
      ip: actor.ip ?? null,
      data: { survey_id: current.survey_id, fields: Object.keys(input) },
    });
  });
  return { ...current, ...next, options };
}

export async function deleteCollector(deps: Deps, actor: CollectActor, current: Collector): Promise<void> {
  const [eventId] = await deps.ids.take(1);
  await deps.db.kysely.transaction().execute(async (trx) => {
    // Its responses go with it (cascade), so the survey's response count drops by as many.
    await trx
      .updateTable('surveys')
      .set((eb) => ({ response_count: eb('response_count', '-', current.response_count) }))
      .where('id', '=', current.survey_id)
      .execute();
    await trx.deleteFrom('response_counts').where('collector_id', '=', current.id).execute();
    await trx
      .deleteFrom('response_numbers')
      .where('survey_id', '=', current.survey_id)
      .where('collector_id', '=', current.id)
      .execute();
    await trx.deleteFrom('responses').where('collector_id', '=', current.id).execute();
    await trx.deleteFrom('collectors').where('id', '=', current.id).execute();
    await recordEvent(deps, trx, eventId, {
      type: 'collector_deleted',
      ownerId: current.owner_id,
      actorId: actor.user.id,
      resourceType: 'collector',
      resourceId: current.id,
      ip: actor.ip ?? null,
      data: { survey_id: current.survey_id, name: current.name },
    });
  });
  await removeUploads(deps, { collectorId: current.id });
}

export interface CollectorListQuery {
  offset: number;
  limit: number;
  sortBy?: 'id' | 'date_modified' | 'type' | 'status' | 'name';
  sortOrder?: 'ASC' | 'DESC';
  name?: string;
  start?: string;
  end?: string;
}

export async function listCollectors(
  deps: Deps,
  surveyId: string,
  q: CollectorListQuery,
): Promise<[number, Collector[]]> {
  let query = deps.db.kysely.selectFrom('collectors').where('survey_id', '=', surveyId);
  if (q.name) {
    const pattern = `%${q.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<SqlBool>`lower(name) like ${pattern} escape '\\'`);
  }
  if (q.start) query = query.where('date_created', '>=', q.start);
  if (q.end) query = query.where('date_created', '<=', q.end);
  const column = q.sortBy ?? 'date_modified';
  const order =
    q.sortOrder === 'ASC' ? 'asc' : q.sortOrder === 'DESC' ? 'desc' : column === 'name' ? 'asc' : 'desc';
  const orderExpr =
    column === 'id' ? sql`length(id)` : column === 'name' ? sql`lower(name)` : sql.ref(column);
  const { total, rows } = await countAndPage(query, q, (base) =>
    base.selectAll().orderBy(orderExpr, order).orderBy('id', order),
  );
  return [total, rows.map(parseCollector)];
}

/** A survey's collectors by name, in the order they were made (the analyze page's filter). */
export async function collectorNames(deps: Deps, surveyId: string): Promise<{ id: string; name: string }[]> {
  return deps.db.kysely
    .selectFrom('collectors')
    .select(['id', 'name'])
    .where('survey_id', '=', surveyId)
    .orderBy('date_created')
    .orderBy('id')
    .execute();
}

/** A collector by id, whoever owns it (not an access decision). */
export async function collectorById(deps: Deps, id: string): Promise<Collector | undefined> {
  const row = await deps.db.kysely
    .selectFrom('collectors')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? parseCollector(row) : undefined;
}

export type ClosedReason = 'closed' | 'expired' | 'full';

const CLOSED_DETAIL: Record<ClosedReason, string> = {
  closed: 'is closed',
  expired: 'has passed its close_date',
  full: 'has reached its response_limit',
};

/**
 * A new response refused because its collector is not accepting responses (409/1025). The
 * refusal is decided by the conditional update of the collector's response count, in the
 * transaction of the insert, so concurrent submissions never pass `response_limit`.
 */
export class CollectorNotOpen extends ApiError {
  constructor(
    readonly collectorId: string,
    readonly reason: ClosedReason = 'closed',
  ) {
    super(1025, `Collector ${collectorId} ${CLOSED_DETAIL[reason]} and takes no new responses.`);
  }
}

/** Why a collector takes no responses now, or null when it is accepting them. */
export function closedReason(
  c: Pick<Collector, 'status' | 'close_date' | 'response_limit' | 'response_count'>,
  now: Date,
): ClosedReason | null {
  if (c.status === 'closed') return 'closed';
  if (c.close_date && new Date(c.close_date).getTime() <= now.getTime()) return 'expired';
  if (c.response_limit !== null && c.response_count >= c.response_limit) return 'full';
  return null;
}

export interface CollectStats {
  total_count: number;
  status_list: Record<string, number>;
  type_list: Record<string, number>;
}

/**
 * Collector counts per survey, by status and by type: the `collect_stats` a survey list can include
 * (its structure is undocumented; this is the one the surveys area already answers with, filled).
 */
export async function collectStats(deps: Deps, surveyIds: string[]): Promise<Map<string, CollectStats>> {
  const out = new Map<string, CollectStats>();
  if (surveyIds.length === 0) return out;
  const rows = await deps.db.kysely
    .selectFrom('collectors')
    .select(['survey_id', 'status', 'type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('survey_id', 'in', surveyIds)
    .groupBy(['survey_id', 'status', 'type'])
    .execute();
  for (const r of rows) {
    let s = out.get(r.survey_id);
    if (!s) {
      s = { total_count: 0, status_list: {}, type_list: {} };
      out.set(r.survey_id, s);
    }
    const n = Number(r.n);
    s.total_count += n;
    s.status_list[r.status] = (s.status_list[r.status] ?? 0) + n;
    s.type_list[r.type] = (s.type_list[r.type] ?? 0) + n;
  }
  return out;
}
