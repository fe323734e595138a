// Health and readiness, for load balancers and orchestrators: GET /healthz answers while the
// process runs; GET /readyz answers 200 only when the database answers, every migration this
// program knows is applied, and no due outbox row has waited past READY_OUTBOX_STUCK_SECONDS.
// Both live outside /v3: no token, no rate limit, no request log line.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context.js';
import { migrationStatus } from '../db/migrate.js';
import type { OutboxBacklog } from '../telemetry/metrics.js';

/** The outbox's backlog: two counts and the earliest due time, on the (status, next_attempt_at) indexes. */
export async function outboxBacklog(deps: Deps): Promise<OutboxBacklog> {
  const k = deps.db.kysely;
  const now = deps.clock.now();
  const [deliveries, emails] = await Promise.all(
    (['webhook_deliveries', 'emails'] as const).map((table) =>
      k
        .selectFrom(table as 'emails')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('next_attempt_at').as('first')])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow(),
    ),
  );
  const due = [deliveries.first, emails.first]
    .filter((t): t is string => !!t)
    .map((t) => (now.getTime() - Date.parse(t)) / 1000);
  return {
    pending: { deliveries: Number(deliveries.n), emails: Number(emails.n) },
    oldestDueSeconds: Math.max(0, ...due),
  };
}

export interface Readiness {
  ready: boolean;
  checks: {
    database: { ok: boolean; error?: string };
    migrations: { ok: boolean; pending?: string[] };
    outbox: { ok: boolean; oldest_due_seconds?: number; limit_seconds?: number };
  };
}

export async function readiness(deps: Deps): Promise<Readiness> {
  const checks: Readiness['checks'] = {
    database: { ok: true },
    migrations: { ok: false },
    outbox: { ok: false },
  };
  try {
    const status = await migrationStatus(deps.db);
    checks.migrations = status.pending.length ? { ok: false, pending: status.pending } : { ok: true };
    const backlog = await outboxBacklog(deps);
    const limit = deps.config.readyOutboxStuckSeconds;
    const oldest = Math.floor(backlog.oldestDueSeconds);
    checks.outbox =
      oldest > limit ? { ok: false, oldest_due_seconds: oldest, limit_seconds: limit } : { ok: true };
  } catch (err) {
    // Only the kind of failure: a message could carry a connection string.
    checks.database = { ok: false, error: (err as { code?: string }).code ?? 'unreachable' };
  }
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}

export function healthRoutes(deps: Deps) {
  return async (app: FastifyInstance) => {
    const hide = { schema: { hide: true }, config: { operational: true } };
    app.get('/healthz', hide, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });
    app.get('/readyz', hide, async (_request, reply) => {
      const r = await readiness(deps);
      reply.header('cache-control', 'no-store').code(r.ready ? 200 : 503);
      return { status: r.ready ? 'ready' : 'not_ready', checks: r.checks };
    });
  };
}
