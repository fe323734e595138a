// The outbox worker: fans events out to webhook deliveries, then delivers the due deliveries, sends
// the due emails and runs export jobs (one at a time, beside the rounds), each claimed from the
// database so several workers (serve processes or `survey-service worker`) share the work without
// doing any of it twice at once. Between rounds it runs its scheduled jobs (`scheduledJobs`), each
// at most once per its configured interval: retention (outbox/retention.ts, RETENTION_INTERVAL_SECONDS)
// the daily alert digests (domain/alerts, ALERT_DIGEST_INTERVAL_SECONDS), the scheduled summaries
// (domain/reports, at the same interval) and the derived rows an
// older release's process left out during a rolling upgrade (BACKFILL_INTERVAL_SECONDS).
import type { Deps } from '../context.js';
import { sendDigests } from '../domain/alerts/alerts.js';
import { runExport } from '../domain/exports/exports.js';
import { sendDueSummaries } from '../domain/reports/summaries.js';
import { completeDerivedRows } from '../domain/responses/derived.js';
import type { Clock } from '../platform/clock.js';
import { claimDue } from './claim.js';
import { deliverOne } from './deliver-webhook.js';
import { sendOne } from './emails.js';
import { fanOut } from './fanout.js';
import { beat, forget, HEARTBEAT_EVERY_MS } from './heartbeat.js';
import { createMailTransport, type MailTransport } from './mail-transport.js';
import { pruneOnce } from './retention.js';

export interface WorkerOptions {
  /** Poll interval in ms (default OUTBOX_POLL_MS). */
  pollMs?: number;
  /** Time source (default deps.clock). */
  clock?: Clock;
  /** Mail transport (default: from the config). */
  transport?: MailTransport;
  /** Called with errors of a round; the loop keeps going. */
  onError?: (err: unknown) => void;
  /** Its name in the heartbeat (default WORKER_NAME, else the host name). */
  name?: string;
}

/** A job the worker runs between its rounds, at most once per `everyMs` in each worker process. */
export interface WorkerJob {
  name: string;
  everyMs: number;
  run(deps: Deps): Promise<void>;
}

/** The worker's scheduled jobs, their intervals from the config. */
export function scheduledJobs(deps: Deps): WorkerJob[] {
  return [
    { name: 'retention', everyMs: deps.config.retentionIntervalSeconds * 1000, run: prune },
    { name: 'alert-digest', everyMs: deps.config.alertDigestIntervalSeconds * 1000, run: digests },
    { name: 'report-summaries', everyMs: deps.config.alertDigestIntervalSeconds * 1000, run: summaries },
    { name: 'derived-rows', everyMs: deps.config.backfillIntervalSeconds * 1000, run: derivedRows },
  ];
}

/** Retention: one pass of batched deletes (each batch a short statement), logged when it pruned. */
async function digests(deps: Deps): Promise<void> {
  const sent = await sendDigests(deps);
  if (sent > 0) deps.log.info({ sent }, 'alerts: daily digests queued');
}

/** Scheduled summaries: the weekly and monthly emails that are due (domain/reports/summaries.ts). */
async function summaries(deps: Deps): Promise<void> {
  const sent = await sendDueSummaries(deps);
  if (sent > 0) deps.log.info({ sent }, 'reports: scheduled summaries queued');
}

/** Derived rows a process of an older release left out (domain/responses/derived.ts). */
async function derivedRows(deps: Deps): Promise<void> {
  const written = await completeDerivedRows(deps);
  if (written.response_keys > 0) deps.log.info({ written }, 'derived rows completed');
}

async function prune(deps: Deps): Promise<void> {
  const pruned = await pruneOnce(deps);
  if (Object.values(pruned).some((n) => n > 0)) deps.log.info({ pruned }, 'retention: pruned old rows');
}

export interface RoundResult {
  events: number;
  deliveries: number;
  emails: number;
}

export class OutboxWorker {
  private readonly pollMs: number;
  private readonly clock: Clock;
  private readonly transport: MailTransport;
  private readonly onError: (err: unknown) => void;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** The export job this worker is writing (a long one must not hold up webhooks and mail). */
  private exporting: Promise<void> | null = null;
  private stopped = true;
  /** Whether the last round found work (then the loop does not wait OUTBOX_POLL_MS). */
  private busy = false;
  /** Set by stop(): the round in progress finishes its current item and goes no further. */
  private stopping = false;
  private readonly jobs: WorkerJob[];
  /** When each job last started, by name (none yet: due at the first tick). */
  private readonly lastRun = new Map<string, number>();
  private readonly name: string;
  private startedAt: Date | null = null;
  /** When this worker last stamped its heartbeat row (ms; none yet). */
  private lastBeat: number | null = null;

  constructor(
    private readonly deps: Deps,
    options: WorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? deps.config.outbox.pollMs;
    this.clock = options.clock ?? deps.clock;
    this.transport = options.transport ?? createMailTransport(deps.config);
    this.onError = options.onError ?? ((err) => deps.log.error({ err }, 'outbox worker round failed'));
    this.jobs = scheduledJobs(deps);
    this.name = options.name ?? deps.config.workerName;
  }

  /** Stamps the heartbeat row when HEARTBEAT_EVERY_MS has passed since the last stamp. */
  private async heartbeat(): Promise<void> {
    const now = this.clock.now();
    if (this.lastBeat !== null && now.getTime() - this.lastBeat < HEARTBEAT_EVERY_MS) return;
    this.startedAt ??= now;
    this.lastBeat = now.getTime();
    await beat(this.deps, this.name, this.startedAt, now).catch((err) =>
      this.deps.log.error({ err }, 'worker heartbeat failed'),
    );
  }

  /** One round: fan out new events, deliver due webhooks, send due emails. */
  async runOnce(): Promise<RoundResult> {
    const { deps } = this;
    const now = () => this.clock.now();
    const batch = deps.config.outbox.batch;
    await this.heartbeat();
    const events = await fanOut(deps, batch * 5);
    // Webhooks and mail go side by side: a slow SMTP server must not hold up webhooks (one round
    // used to deliver a batch of webhooks, then send a batch of mail one by one, so webhooks
    // went at mail's pace). While mail is being sent, further full batches of webhooks are taken.
    let mailing = true;
    const webhookLane = async () => {
      let n = 0;
      for (;;) {
        const hooks = await claimDue(deps, 'webhook_deliveries', batch, now());
        const delivered = await Promise.all(hooks.ids.map((id) => deliverOne(deps, id, hooks.token, now)));
        for (const outcome of delivered) if (outcome !== 'gone') deps.metrics.deliveries.inc({ outcome });
        n += hooks.ids.length;
        if (hooks.ids.length < batch || !mailing || this.stopping) return n;
      }
    };
    // Mail goes out one at a time per worker (SMTP servers throttle parallel connections), each
    // claimed just before it is sent so that a slow server cannot outlast the claim of the next.
    const mailLane = async () => {
      let n = 0;
      try {
        for (; n < batch && !this.stopping; n++) {
          await this.heartbeat(); // a slow SMTP server must not make a live worker look dead
          const claim = await claimDue(deps, 'emails', 1, now());
          if (claim.ids.length === 0) break;
          const outcome = await sendOne(deps, this.transport, claim.ids[0], claim.token, now);
          if (outcome !== 'gone') deps.metrics.emails.inc({ outcome });
        }
      } finally {
        mailing = false;
      }
      return n;
    };
    const [deliveries, emails] = await Promise.all([webhookLane(), mailLane()]);
    // An export job runs beside the rounds (see exportsSettled), one at a time per worker.
    if (!this.exporting) {
      const job = await claimDue(deps, 'exports', 1, now());
      if (job.ids.length > 0) {
        this.exporting = runExport(deps, job.ids[0], job.token, now)
          .catch(this.onError)
          .finally(() => {
            this.exporting = null;
          });
      }
    }
    return { events, deliveries, emails };
  }

  /** Runs rounds until one finds nothing to do (tests and the CLI's one-shot use). */
  async drain(maxRounds = 100): Promise<RoundResult> {
    const total: RoundResult = { events: 0, deliveries: 0, emails: 0 };
    for (let i = 0; i < maxRounds && !this.stopping; i++) {
      const r = await this.runOnce();
      total.events += r.events;
      total.deliveries += r.deliveries;
      total.emails += r.emails;
      this.busy = r.events + r.deliveries + r.emails > 0;
      if (!this.busy) break;
    }
    return total;
  }

  /** Waits for the export job in progress, if any (tests and `worker --once`). */
  async exportsSettled(): Promise<void> {
    await this.exporting;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = async () => {
      if (this.stopped) return;
      this.running = this.drain(10)
        .then(() => this.runDueJobs())
        .catch(this.onError);
      await this.running;
      this.running = null;
      // Work left after the rounds of a tick (a backlog): go on at once rather than wait a poll.
      if (!this.stopped) this.timer = setTimeout(tick, this.busy ? 0 : this.pollMs);
    };
    this.timer = setTimeout(tick, 0);
  }

  /** Runs each job whose interval has passed since it last started; a failed job waits its interval too. */
  private async runDueJobs(): Promise<void> {
    for (const job of this.jobs) {
      if (this.stopping) return;
      const now = this.clock.now().getTime();
      const last = this.lastRun.get(job.name);
      if (last !== undefined && now - last < job.everyMs) continue;
      this.lastRun.set(job.name, now);
      await job
        .run(this.deps)
        .catch((err) => this.deps.log.error({ err, job: job.name }, 'worker job failed'));
    }
  }

  /** Stops polling and waits for the round in progress; claims it did not finish simply expire. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running;
    await this.exporting;
    this.transport.close();
    if (this.lastBeat !== null)
      await forget(this.deps, this.name).catch((err) =>
        this.deps.log.error({ err }, 'worker heartbeat could not be removed'),
      );
  }
}
