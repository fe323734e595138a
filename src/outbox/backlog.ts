// What the worker has waiting, per kind, for the metrics and /readyz's body: a stuck or dead
// worker shows here (and alerts, deploy/alerts.yml) without taking a server out of the load
// balancer. Webhooks wait in two places: as deliveries, and before those as events no worker has
// fanned out yet (with every worker dead, no delivery row is ever written).
import { sql } from 'kysely';
import type { Deps } from '../context.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/rules.js';
import type { OutboxBacklog } from '../telemetry/metrics.js';
import { shownError } from './failures.js';
import { WATERMARK } from './fanout.js';

export async function outboxBacklog(deps: Deps): Promise<OutboxBacklog> {
  const k = deps.db.kysely;
  const now = deps.clock.now().getTime();
  const nowIso = new Date(now).toISOString();
  // Pending rows, and since when the oldest undelivered one has waited: from its first attempt (a
  // failing item's due time moves on with every back-off, so it would never look old), else from
  // when it fell due. Rows attempted before first_attempt_at existed count from their creation.
  const queued = (table: 'webhook_deliveries' | 'emails') =>
    k
      .selectFrom(table as 'emails')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn
          .min(
            eb
              .case()
              .when('first_attempt_at', 'is not', null)
              .then(eb.ref('first_attempt_at'))
              .when('attempts', '>', 0)
              .then(eb.ref('created_at'))
              .when('next_attempt_at', '<=', nowIso)
              .then(eb.ref('next_attempt_at'))
              .end(),
          )
          .as('first'),
      ])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
  // An export job is due when requested; a retried one counts from then.
  const exportJobs = () =>
    k
      .selectFrom('exports')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn
          .min(
            eb
              .case()
              .when('attempts', '>', 0)
              .then(eb.ref('created_at'))
              .when('next_attempt_at', '<=', nowIso)
              .then(eb.ref('next_attempt_at'))
              .end(),
          )
          .as('first'),
      ])
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
  // Events fan-out has not marked, from where its scans start (older markers are pruned), as
  // fanOut itself finds them: due from the moment they were recorded.
  const unfanned = async () => {
    const mark = await k
      .selectFrom('settings')
      .select('value')
      .where('key', '=', WATERMARK)
      .executeTakeFirst();
    return k
      .selectFrom('events as e')
      .leftJoin('event_dispatch as d', 'd.event_id', 'e.id')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('e.created_at').as('first')])
      .where('d.event_id', 'is', null)
      .where(sql<string>`e.type || ''`, 'in', WEBHOOK_EVENT_TYPES)
      .where('e.created_at', '>=', mark?.value ?? '')
      .executeTakeFirstOrThrow();
  };
  const [deliveries, events, emails, exports] = await Promise.all([
    queued('webhook_deliveries'),
    unfanned(),
    queued('emails'),
    exportJobs(),
  ]);
  const of = (row: { n: number | string; first: string | null }) => ({
    pending: Number(row.n),
    oldestDueSeconds: row.first ? Math.max(0, Math.floor((now - Date.parse(row.first)) / 1000)) : 0,
  });
  return { deliveries: of(deliveries), events: of(events), emails: of(emails), exports: of(exports) };
}

/** The undelivered item that has been failing longest, for /readyz: what an operator looks at first. */
export interface OldestFailing {
  kind: 'deliveries' | 'emails';
  id: string;
  attempts: number;
  /** seconds since its first attempt */
  age_seconds: number;
  /** its last error, URLs' credentials and queries masked */
  last_error: string | null;
}

export async function oldestFailing(deps: Deps): Promise<OldestFailing | null> {
  const k = deps.db.kysely;
  const now = deps.clock.now().getTime();
  const oldest = (table: 'webhook_deliveries' | 'emails') =>
    k
      .selectFrom(table as 'emails')
      .select((eb) => [
        'id',
        'attempts',
        'last_error',
        eb.fn.coalesce('first_attempt_at', 'created_at').as('since'),
      ])
      .where('status', '=', 'pending')
      .where('attempts', '>', 0)
      .orderBy('since')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  const [deliveries, emails] = await Promise.all([oldest('webhook_deliveries'), oldest('emails')]);
  const found = [
    deliveries && { kind: 'deliveries' as const, ...deliveries },
    emails && { kind: 'emails' as const, ...emails },
  ].filter((r) => !!r);
  if (found.length === 0) return null;
  found.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  const r = found[0];
  return {
    kind: r.kind,
    id: r.id,
    attempts: Number(r.attempts),
    age_seconds: Math.max(0, Math.floor((now - Date.parse(r.since)) / 1000)),
    last_error: shownError(r.last_error),
  };
}
