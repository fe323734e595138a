// Claiming due outbox rows. A claim is a lease: the row is held by one worker until
// `claimed_until`; a worker that dies simply lets its lease run out and another takes the row
// over, so every row is delivered at least once. On PostgreSQL the due rows are picked with
// FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same row; on SQLite the one
// UPDATE statement runs under the database's single writer lock, which gives the same guarantee.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../context.js';

export type OutboxTable = 'webhook_deliveries' | 'emails' | 'exports';

export interface Claim {
  token: string;
  ids: string[];
}

export async function claimDue(deps: Deps, table: OutboxTable, limit: number, now: Date): Promise<Claim> {
  const k = deps.db.kysely;
  const nowIso = now.toISOString();
  const token = randomUUID();
  const until = new Date(now.getTime() + deps.config.outbox.leaseSeconds * 1000).toISOString();
  // The tables share the claim columns; Kysely's types cannot follow a table-name union.
  const t = table as 'emails';
  let due = k
    .selectFrom(t)
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowIso)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', nowIso)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  // A paused webhook's deliveries wait (they are sent once it is resumed, if still in their window).
  if (table === 'webhook_deliveries')
    due = due.where(sql<boolean>`webhook_id not in (select id from webhooks where paused_at is not null)`);
  if (deps.db.dialect === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await k
    .updateTable(t)
    .set({ claimed_until: until, claim_token: token })
    .where('id', 'in', due)
    .returning('id')
    .execute();
  return { token, ids: rows.map((r) => r.id) };
}

/** Seconds to wait after the n-th failed attempt: base, doubling, capped. */
export function backoffSeconds(deps: Deps, attempt: number): number {
  const { retryBaseSeconds, retryMaxSeconds } = deps.config.outbox;
  return Math.min(retryMaxSeconds, retryBaseSeconds * 2 ** Math.min(attempt - 1, 30));
}
