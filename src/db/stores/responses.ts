// The responses store: where a new response is written, with everything that moves with it (the
// collector's count, if it is open and below its limit; the survey's ordinal and count; the rollup
// counts; the events). The rules (domain/responses) build the rows and call the store; the store
// knows the engine. One implementation per database: responses-sqlite.ts (a group commit of
// prepared statements on the raw handle) and responses-pg.ts (a group commit through
// insert_responses(), migration 0024). Both write exactly what `insertResponseIn` below writes
// (the one-response path: a PostgreSQL response its group could not write, and a response whose
// events need the same transaction for more rows), the response_keys row included.
//
// A new `responses` column: add it to ResponsesTable and a migration; RESPONSE_COLUMNS below is
// what the SQLite statement binds; on PostgreSQL a new version of insert_responses() lists it.
// The events row is mapped once, here (eventRow), for every writer of events.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import type { ResponsesTable } from '../tables/collect.js';
import type { EventsTable } from '../tables/platform.js';
import { type KeptAnswers, keysRow } from './response-keys.js';
import { addNumbers, type NumberDelta } from './response-numbers.js';

export type ResponseRow = Selectable<ResponsesTable>;
export type EventRow = Selectable<EventsTable>;

/** What an event says, as the domain builds it (domain/core/events.ts NewEvent). */
export interface EventFields {
  type: string;
  /** The account that owns what the event is about. */
  ownerId: string | null;
  /** The user who acted, if a person did. */
  actorId?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
  ip?: string | null;
  data?: Record<string, unknown>;
}

/** The events row of an event: the one mapping every writer of events uses. */
export function eventRow(id: string, e: EventFields, createdAt: string): EventRow {
  return {
    id,
    type: e.type,
    owner_id: e.ownerId,
    actor_id: e.actorId ?? null,
    resource_type: e.resourceType ?? null,
    resource_id: e.resourceId ?? null,
    ip: e.ip ?? null,
    data: JSON.stringify(e.data ?? {}),
    created_at: createdAt,
  };
}

export const RESPONSE_COLUMNS = [
  'id',
  'survey_id',
  'collector_id',
  'owner_id',
  'ordinal',
  'recipient_id',
  'response_status',
  'collection_mode',
  'custom_value',
  'custom_variables',
  'ip_address',
  'first_name',
  'last_name',
  'email_address',
  'total_time',
  'date_created',
  'date_modified',
  'pages',
  'page_path',
  'logic_path',
  'metadata',
  'current_page_id',
  'edit_token',
  'respondent_key',
] as const satisfies ReadonlyArray<keyof ResponseRow>;

export const EVENT_COLUMNS = [
  'id',
  'type',
  'owner_id',
  'actor_id',
  'resource_type',
  'resource_id',
  'ip',
  'data',
  'created_at',
] as const satisfies ReadonlyArray<keyof EventRow>;

/** A response to insert: its row (the store sets `ordinal`), its rollup count changes
 * ("question_id|answer key" → n), its numeric rollup rows (response-numbers.ts), its answers in
 * compact form (response_keys, response-keys.ts) and its events. */
export interface NewResponse {
  row: ResponseRow;
  deltas: Map<string, number>;
  keys: KeptAnswers;
  numbers: Map<string, NumberDelta>;
  events: Array<{ id: string; event: EventFields }>;
}

/** The collector refused the response: closed, past its close date or full. */
export class CollectorRefused extends Error {
  constructor(readonly collectorId: string) {
    super(`collector ${collectorId} takes no responses`);
  }
}

export interface ResponseStore {
  /**
   * Writes `r` (setting `r.row.ordinal`) with the responses other requests are writing at the same
   * time, committed together; resolves once committed. Throws CollectorRefused. With `more`, the
   * response is written alone in one transaction that `more` then writes its own rows in.
   */
  insert(r: NewResponse, more?: (trx: Transaction<Database>) => Promise<void>): Promise<void>;
}

/** The response alone, in its own transaction, with `more` in it. */
export function insertAlone(
  kysely: Kysely<Database>,
  r: NewResponse,
  now: string,
  more?: (trx: Transaction<Database>) => Promise<void>,
): Promise<void> {
  return kysely.transaction().execute(async (trx) => {
    await insertResponseIn(trx, r, now);
    await more?.(trx);
  });
}

type Executor = Kysely<Database> | Transaction<Database>;

/** The rollup count rows of `deltas` (changes of zero left out). */
export function countRows(surveyId: string, collectorId: string, deltas: Map<string, number>) {
  const rows = [];
  for (const [k, n] of deltas) {
    if (n === 0) continue;
    const cut = k.indexOf('|');
    rows.push({
      survey_id: surveyId,
      collector_id: collectorId,
      question_id: k.slice(0, cut),
      akey: k.slice(cut + 1),
      n,
    });
  }
  return rows;
}

/** Adds `deltas` to the collector's rollup counts (one statement per 500). */
export async function addCounts(
  executor: Executor,
  surveyId: string,
  collectorId: string,
  deltas: Map<string, number>,
): Promise<void> {
  const values = countRows(surveyId, collectorId, deltas);
  for (let i = 0; i < values.length; i += 500)
    await executor
      .insertInto('response_counts')
      .values(values.slice(i, i + 500))
      .onConflict((oc) =>
        oc
          .columns(['survey_id', 'collector_id', 'question_id', 'akey'])
          .doUpdateSet((eb) => ({ n: eb('response_counts.n', '+', eb.ref('excluded.n')) })),
      )
      .execute();
}

/** One response in `trx`: what every store writes for it. Throws CollectorRefused. */
export async function insertResponseIn(
  trx: Transaction<Database>,
  r: NewResponse,
  now: string,
): Promise<void> {
  const { row } = r;
  // First, and in one statement: count the response against the collector if it is open, not
  // past its close date and below its limit (the row lock makes concurrent submissions queue).
  const counted = await trx
    .updateTable('collectors')
    .set((eb) => ({ response_count: eb('response_count', '+', 1) }))
    .where('id', '=', row.collector_id)
    .where('status', '<>', 'closed')
    .where((eb) => eb.or([eb('close_date', 'is', null), eb('close_date', '>', now)]))
    .where((eb) =>
      eb.or([eb('response_limit', 'is', null), eb('response_count', '<', eb.ref('response_limit'))]),
    )
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) === 0) throw new CollectorRefused(row.collector_id);
  const seq = await trx
    .insertInto('survey_response_seq')
    .values({ survey_id: row.survey_id, owner_id: row.owner_id, next_ordinal: 1 })
    .onConflict((oc) =>
      oc
        .column('survey_id')
        .doUpdateSet((eb) => ({ next_ordinal: eb('survey_response_seq.next_ordinal', '+', 1) })),
    )
    .returning('next_ordinal')
    .executeTakeFirstOrThrow();
  row.ordinal = Number(seq.next_ordinal);
  await trx.insertInto('responses').values(row).execute();
  await trx.insertInto('response_keys').values(keysRow(row, r.keys)).execute();
  await trx
    .updateTable('surveys')
    .set((eb) => ({ response_count: eb('response_count', '+', 1) }))
    .where('id', '=', row.survey_id)
    .execute();
  await addCounts(trx, row.survey_id, row.collector_id, r.deltas);
  await addNumbers(trx, row.survey_id, row.collector_id, r.numbers);
  if (r.events.length > 0)
    await trx
      .insertInto('events')
      .values(r.events.map(({ id, event }) => eventRow(id, event, now)))
      .execute();
}
