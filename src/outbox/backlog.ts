// What the worker has waiting, per kind, for the metrics and /readyz's body: a stuck or dead
// worker shows here (and alerts, deploy/alerts.yml) without taking a server out of the load
// balancer. Webhooks wait in two places: as deliveries, and before those as events no worker has
// fanned out yet (with every worker dead, no delivery row is ever written).
import { sql } from 'kysely';
import type { Deps } from '../context.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/rules.js';
import type { OutboxBacklog } from '../telemetry/metrics.js';
import { WATERMARK } from './fanout.js';

export async function outboxBacklog(deps: Deps): Promise<OutboxBacklog> {
  const k = deps.db.kysely;
  const now = deps.clock.now().getTime();
  // Pending rows and the earliest due time, on the (status, next_attempt_at) indexes.
  const queued = (table: 'webhook_deliveries' | 'emails' | 'exports') =>
    k
      .selectFrom(table as 'emails')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('next_attempt_at').as('first')])
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
    queued('exports'),
  ]);
  const of = (row: { n: number | string; first: string | null }) => ({
    pending: Number(row.n),
    oldestDueSeconds: row.first ? Math.max(0, Math.floor((now - Date.parse(row.first)) / 1000)) : 0,
  });
  return { deliveries: of(deliveries), events: of(events), emails: of(emails), exports: of(exports) };
}
