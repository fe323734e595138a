// Prometheus metrics (prom-client), one registry per process (per Deps in tests). Served on a
// separate listener (METRICS_PORT, ops/metrics-server.ts) so they never share the public port;
// unset, nothing is measured per request at all (the HTTP hook is only installed when metrics are on).
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Db } from '../db/database.js';
import { VERSION } from '../platform/version.js';

/** What the worker has waiting: webhook deliveries, events not yet fanned out to deliveries (a dead
 * worker leaves webhooks there), emails and export jobs. */
export const OUTBOX_KINDS = ['deliveries', 'events', 'emails', 'exports'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** Per kind: rows waiting, and seconds the oldest undelivered one has waited, from its first attempt
 * or else from when it fell due (0 when none is due). */
export type OutboxBacklog = Record<OutboxKind, { pending: number; oldestDueSeconds: number }>;

/** prom-client, loaded by the first Metrics (compose.ts builds one on first use): a command that
 * counts nothing does not load it. (Node's module cache keeps it once loaded.) */
const load = createRequire(import.meta.url);
const prom = (): typeof PromClient => load('prom-client');

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, Infinity];
const NAME = 'survey_http_request_duration_seconds';

interface RequestSeries {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative; the last is +Inf). */
  buckets: number[];
}

/** One series as Prometheus histogram lines: cumulative buckets (le first), sum, count. */
function histogramLines(s: RequestSeries) {
  let cumulative = 0;
  return [
    ...LATENCY_BUCKETS.map((le, i) => {
      cumulative += s.buckets[i];
      return {
        metricName: `${NAME}_bucket`,
        labels: { le: le === Infinity ? '+Inf' : le, ...s.labels },
        value: cumulative,
      };
    }),
    { metricName: `${NAME}_sum`, labels: s.labels, value: s.sum },
    { metricName: `${NAME}_count`, labels: s.labels, value: s.count },
  ];
}

export class Metrics {
  readonly registry = new (prom().Registry)();
  readonly rateLimited = new (prom().Counter)({
    name: 'survey_rate_limit_rejections_total',
    help: 'API requests refused with 429 by an app rate limit',
    registers: [this.registry],
  });
  readonly queryLatency = new (prom().Histogram)({
    name: 'survey_db_query_duration_seconds',
    help: 'Database query time through the query builder (hot prepared reads on SQLite are not timed)',
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly deliveries = new (prom().Counter)({
    name: 'survey_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly emails = new (prom().Counter)({
    name: 'survey_emails_total',
    help: 'Email send attempts by outcome (sent, retry, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly sendsRefused = new (prom().Counter)({
    name: 'survey_mail_sends_refused_total',
    help: "Invitation sends (and test sends) refused whole because they would pass the account's daily send cap",
    registers: [this.registry],
  });
  readonly outboxAttempts = new (prom().Counter)({
    name: 'survey_outbox_attempts_total',
    help: 'Delivery attempts by kind (deliveries = webhooks, emails) and outcome (delivered or sent, retry, failed)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly responses = new (prom().Counter)({
    name: 'survey_responses_received_total',
    help: 'Survey responses created (API and respondent pages)',
    registers: [this.registry],
  });
  readonly resultsCache = new (prom().Counter)({
    name: 'survey_results_cache_total',
    help: 'Analyze pages by whether their figures were computed (miss) or reused under the same results stamp (hit)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly heavyRefused = new (prom().Counter)({
    name: 'survey_heavy_requests_refused_total',
    help: 'Analyze pages and results downloads refused with 429: the account already ran HEAVY_REQUESTS_PER_ACCOUNT',
    registers: [this.registry],
  });
  private processMetrics = false;
  /** Request counts and latency buckets per "method route status", kept as plain numbers and
   * rendered at scrape time: prom-client hashes the label set on every call (~4 µs a request). */
  private readonly series = new Map<string, RequestSeries>();

  constructor(
    db: Db,
    backlog: () => Promise<OutboxBacklog>,
    heartbeats: () => Promise<Array<{ worker: string; beatAt: number }>>,
  ) {
    const registers = [this.registry];
    const series = () => [...this.series.values()];
    this.registry.registerMetric({
      name: 'survey_http_requests_total',
      get: async () => ({
        name: 'survey_http_requests_total',
        help: 'HTTP requests answered, by method, route pattern and status',
        type: 'counter',
        aggregator: 'sum',
        values: series().map((s) => ({ labels: s.labels, value: s.count })),
      }),
    } as unknown as Parameters<PromClient.Registry['registerMetric']>[0]);
    this.registry.registerMetric({
      name: 'survey_http_request_duration_seconds',
      get: async () => ({
        name: 'survey_http_request_duration_seconds',
        help: 'Time from receiving a request to finishing its answer, by method, route pattern and status',
        type: 'histogram',
        aggregator: 'sum',
        values: series().flatMap(histogramLines),
      }),
    } as unknown as Parameters<PromClient.Registry['registerMetric']>[0]);
    new (prom().Gauge)({
      name: 'survey_db_pool_connections',
      help: 'Database connections by state (in_use, idle, waiting = queries waiting for one)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const s = db.poolStats();
        this.set({ state: 'in_use' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
    new (prom().Gauge)({
      name: 'survey_service_info',
      help: 'The running version (always 1)',
      labelNames: ['version'] as const,
      registers,
    }).set({ version: VERSION }, 1);
    // Backlog gauges read the database when scraped; one read serves both gauges.
    let pending: Promise<OutboxBacklog> | null = null;
    const read = () => {
      pending ??= backlog().finally(() => {
        pending = null;
      });
      return pending;
    };
    new (prom().Gauge)({
      name: 'survey_outbox_pending',
      help: 'Work waiting for the worker, by kind (deliveries, events to fan out to webhooks, emails, exports)',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        const b = await read();
        for (const kind of OUTBOX_KINDS) this.set({ kind }, b[kind].pending);
      },
    });
    new (prom().Gauge)({
      name: 'survey_worker_heartbeat_timestamp_seconds',
      help: "Unix time of each running outbox worker's last loop, from the database (every process reports every worker; a worker that stopped cleanly is not listed)",
      labelNames: ['worker'] as const,
      registers,
      async collect() {
        const beats = await heartbeats();
        this.reset();
        for (const b of beats) this.set({ worker: b.worker }, b.beatAt);
      },
    });
    new (prom().Gauge)({
      name: 'survey_outbox_oldest_due_seconds',
      help: 'Seconds the oldest undelivered item of each kind has waited: since its first attempt, else since it fell due (0 when none is due)',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        const b = await read();
        for (const kind of OUTBOX_KINDS) this.set({ kind }, b[kind].oldestDueSeconds);
      },
    });
  }

  /** prom-client's process metrics (memory, CPU, event-loop lag, GC, handles), once, for a process
   * that serves its metrics: they sample continuously, so no other Deps (tests build many) pays. */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    prom().collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: LATENCY_BUCKETS.map(() => 0),
      };
      this.series.set(key, s);
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length - 1 && seconds > LATENCY_BUCKETS[i]) i++;
    s.buckets[i]++;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
