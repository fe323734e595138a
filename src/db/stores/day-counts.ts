// Reading the aggregates of migration 0043 (response_days, contact_counts), which triggers keep.
// On PostgreSQL each writing transaction adds to rows of its own slot; a read sums the slots and,
// when a survey's or account's rows have piled up past what its keys need, folds them into slot 0
// (fold_response_days / fold_contact_counts: one statement, keys locked in order) so the next read
// sums few rows again. SQLite writes slot 0 only.
import { sql } from 'kysely';
import type { Db } from '../database.js';

export interface DayRow {
  day: string;
  status: string;
  n: number;
  totalTime: number;
}

export interface DayQuery {
  surveyId: string;
  collectorIds?: string[];
  /** YYYY-MM-DD bounds, inclusive. */
  fromDay?: string;
  toDay?: string;
  status?: string[];
}

/** Rows summed beyond what the keys need before a read folds the slots (PostgreSQL). */
const FOLD_AFTER = 64;

/** Responses per day begun and status (and their summed total_time) matching `q`. */
export async function responseDays(db: Db, q: DayQuery): Promise<DayRow[]> {
  if (q.collectorIds && q.collectorIds.length === 0) return [];
  let query = db.kysely
    .selectFrom('response_days')
    .select((eb) => [
      'day',
      'response_status',
      eb.fn.sum<number>('n').as('n'),
      eb.fn.sum<number>('total_time').as('t'),
      eb.fn.countAll<number>().as('k'),
    ])
    .where('survey_id', '=', q.surveyId)
    .groupBy(['day', 'response_status']);
  if (q.collectorIds) query = query.where('collector_id', 'in', q.collectorIds);
  if (q.fromDay) query = query.where('day', '>=', q.fromDay);
  if (q.toDay) query = query.where('day', '<=', q.toDay);
  if (q.status) query = query.where('response_status', 'in', q.status);
  const rows = await query.execute();
  let summed = 0;
  const out: DayRow[] = [];
  for (const r of rows) {
    summed += Number(r.k);
    const n = Number(r.n);
    if (n !== 0) out.push({ day: r.day, status: r.response_status, n, totalTime: Number(r.t) });
  }
  if (db.dialect === 'postgres' && summed > rows.length * 2 + FOLD_AFTER)
    await sql`SELECT fold_response_days(${q.surveyId})`.execute(db.kysely);
  return out;
}

/** How many contacts the account has with this status. */
export async function contactCount(db: Db, ownerId: string, status: string): Promise<number> {
  const r = await db.kysely
    .selectFrom('contact_counts')
    .select((eb) => [eb.fn.sum<number>('n').as('n'), eb.fn.countAll<number>().as('k')])
    .where('owner_id', '=', ownerId)
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  if (db.dialect === 'postgres' && Number(r.k) > FOLD_AFTER)
    await sql`SELECT fold_contact_counts(${ownerId})`.execute(db.kysely);
  return Number(r.n ?? 0);
}
