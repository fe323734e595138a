// Health and readiness, for load balancers and orchestrators: GET /healthz answers while the
// process runs (with its version); GET /readyz answers 200 only when the process can serve
// requests: the database answers and every migration this program knows is applied. Its body also
// shows the worker's backlog per kind and the item failing longest (kind, id, attempts, age, last
// error with URLs' credentials masked), which never fail it: a stuck or dead worker is an alert
// (the survey_outbox_* metrics, deploy/alerts.yml), and taking every server out of the load
// balancer for it would stop an API that works.
// Both live outside /v3: no token, no rate limit, no request log line, no request metrics.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context.js';
import { migrationStatus } from '../db/migrate.js';
import { type OldestFailing, oldestFailing, outboxBacklog } from '../outbox/backlog.js';
import { errorCode } from '../platform/errors.js';
import { VERSION } from '../platform/version.js';
import type { OutboxKind } from '../telemetry/metrics.js';

export interface Readiness {
  ready: boolean;
  checks: {
    database: { ok: boolean; error?: string };
    migrations: { ok: boolean; pending?: string[] };
  };
  /** Per kind, when it could be read: waiting items and the oldest due one's age in seconds. */
  outbox?: Record<OutboxKind, { pending: number; oldest_due_seconds: number }>;
  /** The undelivered item failing longest, when one is (kind, id, attempts, age, last error). */
  failing?: OldestFailing;
}

export async function readiness(deps: Deps): Promise<Readiness> {
  const checks: Readiness['checks'] = { database: { ok: true }, migrations: { ok: false } };
  try {
    const status = await migrationStatus(deps.db);
    checks.migrations = status.pending.length ? { ok: false, pending: status.pending } : { ok: true };
  } catch (err) {
    // Only the kind of failure: a message could carry a connection string.
    checks.database = { ok: false, error: errorCode(err) ?? 'unreachable' };
    return { ready: false, checks };
  }
  const ready = checks.migrations.ok;
  try {
    const [backlog, failing] = await Promise.all([outboxBacklog(deps), oldestFailing(deps)]);
    const of = (kind: OutboxKind) => ({
      pending: backlog[kind].pending,
      oldest_due_seconds: backlog[kind].oldestDueSeconds,
    });
    // In OUTBOX_KINDS' order.
    const outbox: NonNullable<Readiness['outbox']> = {
      deliveries: of('deliveries'),
      events: of('events'),
      emails: of('emails'),
      exports: of('exports'),
    };
    return failing ? { ready, checks, outbox, failing } : { ready, checks, outbox };
  } catch {
    // Information only (a pending migration may not have made its table yet).
    return { ready, checks };
  }
}

export function healthRoutes(deps: Deps) {
  return async (app: FastifyInstance) => {
    const hide = { schema: { hide: true }, config: { operational: true } };
    app.get('/healthz', hide, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok', version: VERSION };
    });
    app.get('/readyz', hide, async (_request, reply) => {
      const { ready, ...r } = await readiness(deps);
      reply.header('cache-control', 'no-store').code(ready ? 200 : 503);
      return { status: ready ? 'ready' : 'not_ready', ...r };
    });
  };
}
