// The audit log's rows: written in a change's transaction (sign-ins here, every other change by the
// commit hook of context.ts), after the fact for refusals, read by the team owner's and the
// operators' pages and the `audit` verb, pruned by the worker (RETAIN_AUDIT_DAYS).
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import type { Database } from '../../db/schema.js';
import type { AuditLogTable } from '../../db/tables/audit.js';
import { type AuditOutcome, type AuditScope, type AuditVia, auditInsert, newScope } from './context.js';

export type AuditRow = AuditLogTable;

/** Writes the scope's row now, outside any change (a refusal or failure: nothing committed), once. */
export async function auditAfter(
  deps: Deps,
  scope: AuditScope,
  outcome: AuditOutcome,
  status: number | null,
): Promise<void> {
  if (scope.state !== 'pending' || !deps.config.auditLog) return;
  scope.state = 'written';
  await auditInsert(deps.db, deps.clock, scope, outcome, status).execute();
}

/** A sign-in's row, written by the one place sign-ins succeed (startSession's transaction) or fail
 * (where the throttle counts the failure). */
export async function recordSignIn(
  deps: Deps,
  trx: Transaction<Database> | Kysely<Database>,
  sign: {
    user: { id: string; username: string } | null;
    via: AuditVia;
    ip: string | null;
    outcome: AuditOutcome;
    secondFactor?: string | null;
  },
): Promise<void> {
  if (!deps.config.auditLog) return;
  const scope = newScope({
    actorId: sign.user?.id ?? null,
    actorName: sign.user?.username ?? null,
    via: sign.via,
    appId: null,
    address: sign.ip,
    action: sign.secondFactor ? `sign_in ${sign.secondFactor}` : 'sign_in',
    targetType: 'user',
    targetId: sign.user?.id ?? null,
  });
  const query = auditInsert(deps.db, deps.clock, scope, sign.outcome, null).compile();
  await trx.executeQuery(query);
}

export interface AuditFilter {
  /** the actor's username (case-insensitive), or `cli` */
  actor?: string;
  /** the action, or its start (`POST /v3/surveys` matches every POST under it) */
  action?: string;
  targetType?: string;
  targetId?: string;
  /** ISO times: rows at or after `since`, before `until` */
  since?: string;
  until?: string;
  /** only this team's rows (the team owner's view) */
  teamId?: string;
}

function filtered(deps: Deps, f: AuditFilter) {
  let q = deps.db.kysely.selectFrom('audit_log');
  if (f.teamId) q = q.where('team_id', '=', f.teamId);
  if (f.actor) q = q.where(sql<string>`lower(actor_name)`, '=', f.actor.toLowerCase());
  if (f.action) {
    const escaped = f.action.replace(/[\\%_]/g, (c) => `\\${c}`);
    q = q.where(sql<boolean>`action LIKE ${`${escaped}%`} ESCAPE '\\'`);
  }
  if (f.targetType) q = q.where('target_type', '=', f.targetType);
  if (f.targetId) q = q.where('target_id', '=', f.targetId);
  if (f.since) q = q.where('at', '>=', f.since);
  if (f.until) q = q.where('at', '<', f.until);
  return q;
}

/** One page of rows, newest first, and how many match. */
export async function listAudit(
  deps: Deps,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: AuditRow[] }> {
  const base = filtered(deps, filter);
  const counted = await base
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(counted.n), rows };
}

/** Every matching row, oldest first, read in batches (the CLI's JSON lines for a SIEM). */
export async function* auditRows(deps: Deps, filter: AuditFilter, batch = 1000): AsyncGenerator<AuditRow> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    let q = filtered(deps, filter).selectAll();
    if (after) {
      const { at, id } = after;
      q = q.where((eb) => eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('id', '>', id)])]));
    }
    const rows = await q.orderBy('at').orderBy('id').limit(batch).execute();
    yield* rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { at: last.at, id: last.id };
  }
}

/** The team whose log `userId` may read: the one they own, else null. */
export async function ownedTeamId(deps: Deps, userId: string): Promise<string | null> {
  const row = await deps.db.kysely
    .selectFrom('teams')
    .select('id')
    .where('owner_id', '=', userId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The worker's retention: up to `limit` rows older than `cutoff`. */
export async function pruneAudit(deps: Deps, cutoff: string, limit: number): Promise<number> {
  const r = await sql`DELETE FROM audit_log WHERE id IN (
      SELECT id FROM audit_log WHERE at < ${cutoff} LIMIT ${limit})`.execute(deps.db.kysely);
  return Number(r.numAffectedRows ?? 0);
}
