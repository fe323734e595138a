// Who is changing what, for the audit log: the scope of the current request or CLI verb, carried in
// an AsyncLocalStorage (deps.audit) that the HTTP pipeline sets once per mutating request and the
// command line once per verb. The database driver (db/commit-hook.ts) asks it for the row to add to
// the first commit that writes; a request that committed nothing gets its row afterwards (a refusal
// or a failure: http/audit.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { CommitHook } from '../../db/commit-hook.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

export const AUDIT_VIAS = ['session', 'token', 'cli', 'oidc', 'saml'] as const;
export type AuditVia = (typeof AUDIT_VIAS)[number];
export const AUDIT_OUTCOMES = ['ok', 'denied', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One change attempt: filled as the request learns its actor; `state` says whether its row is written. */
export interface AuditScope {
  actorId: string | null;
  actorName: string | null;
  via: AuditVia;
  appId: string | null;
  address: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  /** pending: no row yet; claimed: a commit carrying the row is under way; written. */
  state: 'pending' | 'claimed' | 'written';
}

/** The actor a row names. */
export interface AuditActor {
  id: string;
  username: string;
}

/**
 * Tables whose writes are bookkeeping, not changes: counters, throttles, id blocks, heartbeats,
 * settings, and the log itself. A transaction writing only these carries no row.
 */
export const BOOKKEEPING_TABLES: ReadonlySet<string> = new Set([
  'audit_log',
  'rate_counters',
  'rate_violations',
  'window_counters',
  'id_blocks',
  'sign_in_failures',
  'worker_heartbeats',
  'upload_byte_windows',
  'settings',
]);

/** The process's audit scopes: one per request (AsyncLocalStorage), or one for the whole process
 * (a CLI verb is the process). */
export class AuditContext {
  private readonly scopes = new AsyncLocalStorage<AuditScope>();
  /** The command line's verb, for every query of the process that runs it. */
  processScope: AuditScope | undefined;

  run<T>(scope: AuditScope, fn: () => T): T {
    return this.scopes.run(scope, fn);
  }

  /** Runs `fn` outside the current scope: a write that carries its own row (a sign-in). */
  apart<T>(fn: () => T): T {
    return this.scopes.exit(fn);
  }

  current(): AuditScope | undefined {
    return this.scopes.getStore() ?? this.processScope;
  }
}

export function newScope(fields: Omit<AuditScope, 'state'>): AuditScope {
  return { ...fields, state: 'pending' };
}

/** The row's insert (kysely-compilable): the actor's team is read in the same statement. */
export function auditInsert(
  db: Db,
  clock: Clock,
  scope: AuditScope,
  outcome: AuditOutcome,
  status: number | null,
) {
  const actorId = scope.actorId;
  return db.kysely.insertInto('audit_log').values(({ selectFrom }) => ({
    id: randomUUID().replaceAll('-', ''),
    at: clock.now().toISOString(),
    team_id: actorId
      ? selectFrom('team_members')
          .select('team_id')
          .where('user_id', '=', actorId)
          .where('status', '=', 'active')
          .limit(1)
      : null,
    actor_id: actorId,
    actor_name: scope.actorName,
    via: scope.via,
    app_id: scope.appId,
    address: scope.address,
    action: scope.action.slice(0, 200),
    target_type: scope.targetType,
    target_id: scope.targetId?.slice(0, 200) ?? null,
    outcome,
    status,
  }));
}

/** The driver's hook: the first commit that writes in a pending scope carries its `ok` row. */
export function auditCommitHook(audit: AuditContext, db: () => Db, clock: () => Clock): CommitHook {
  return {
    ignored: BOOKKEEPING_TABLES,
    active: () => audit.current()?.state === 'pending',
    rowFor: () => {
      const scope = audit.current();
      if (scope?.state !== 'pending') return undefined;
      scope.state = 'claimed';
      return {
        query: auditInsert(db(), clock(), scope, 'ok', null).compile(),
        settle: (committed) => {
          scope.state = committed ? 'written' : 'pending';
        },
      };
    },
  };
}
