// An outage of the SMTP server or of a webhook receiver is not silent: the age of the oldest
// undelivered item counts from its first attempt (the back-off keeps moving its due time), every
// failed attempt is logged at warn with its reason and counted per kind, and /readyz names the item
// failing longest, without secrets. A real SMTP server that refuses, a real HTTP receiver, the
// test clock, the metrics over HTTP.

import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import parsePrometheus from 'parse-prometheus-text-format';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { queueEmail } from '../../src/db/outbox-queue.js';
import { startMetricsServer } from '../../src/ops/metrics-server.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { ROOT } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Receiver } from '../reach/helpers/receiver.js';

/** A real SMTP server that refuses at RCPT TO, at DATA, or accepts, as told. */
class RefusingSmtp {
  mode: 'rcpt' | 'data' | 'accept' = 'rcpt';
  accepted = 0;
  port = 0;
  private server!: SMTPServer;
  async start() {
    const refusal = (code: number, message: string) =>
      Object.assign(new Error(message), { responseCode: code });
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (_address, _session, callback) =>
        this.mode === 'rcpt' ? callback(refusal(451, 'Greylisted, try again later')) : callback(),
      onData: (stream, _session, callback) => {
        stream.resume();
        stream.on('end', () => {
          if (this.mode === 'data')
            return callback(
              refusal(452, 'Queue full, status at https://ops:hunter2@relay.example/status?key=s3cret'),
            );
          this.accepted++;
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const clock = new TestClock('2026-06-01T12:00:00Z');
const start = clock.now().getTime();
let server: TestServer;
let smtp: RefusingSmtp;
let receiver: Receiver;
let worker: OutboxWorker;
let metricsUrl: string;
let closeMetrics: () => void;
const logLines: Array<Record<string, any>> = [];

beforeAll(async () => {
  smtp = await new RefusingSmtp().start();
  receiver = await new Receiver().start();
  const metricsPort = await freePort();
  server = await startServer({
    clock,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Surveys <surveys@example.com>',
      METRICS_PORT: String(metricsPort),
      OUTBOX_RETRY_BASE_SECONDS: '60',
      OUTBOX_RETRY_MAX_SECONDS: '1800',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  // The process's logger at its default level (warn), its lines kept here.
  server.deps.log = pino(
    { level: 'warn', formatters: { level: (label) => ({ level: label }) } },
    new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) logLines.push(JSON.parse(line));
        done();
      },
    }),
  );
  const metrics = await startMetricsServer(server.deps);
  closeMetrics = () => metrics?.close();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  worker = new OutboxWorker(server.deps);
});
afterAll(async () => {
  await worker?.stop();
  closeMetrics?.();
  await server?.close();
  await smtp?.stop();
  await receiver?.stop();
});

async function scrape() {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  const families = parsePrometheus(await res.text());
  return (name: string, labels: Record<string, string>) => {
    const m = families
      .find((f) => f.name === name)
      ?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
    return m ? Number(m.value) : 0;
  };
}

async function readyz() {
  const res = await fetch(`${server.url}/readyz`);
  expect(res.status).toBe(200); // a failing outbox never fails readiness
  return (await res.json()) as any;
}

/** Moves the clock past every due time and lets the worker try again. */
async function retryAt(ms: number) {
  clock.set(new Date(start + ms));
  await worker.drain();
}

describe('an SMTP server that keeps refusing', () => {
  let emailId: string;

  it('the first failed attempt is logged at warn with its reason and counted as a retry of emails', async () => {
    emailId = await server.deps.ids.one();
    await server.deps.db.kysely.transaction().execute(async (trx) => {
      await queueEmail(server.deps, trx, {
        id: emailId,
        ownerId: null,
        to: 'ann@example.org',
        subject: 'We want your opinion',
        text: 'Take the survey',
        purpose: null,
        refId: null,
      });
    });
    expect((await worker.drain()).emails).toBe(1);
    const warn = logLines.filter((l) => l.level === 'warn' && l.id === emailId);
    expect(warn).toHaveLength(1);
    expect(warn[0]).toMatchObject({ kind: 'emails', attempt: 1, outcome: 'retry' });
    expect(warn[0].error).toContain('Greylisted, try again later');
    const metric = await scrape();
    expect(metric('survey_outbox_attempts_total', { kind: 'emails', outcome: 'retry' })).toBe(1);
    expect(metric('survey_emails_total', { outcome: 'retry' })).toBe(1);
  });

  it('three hours of refusals: the age counts from the first attempt, and /readyz names the item', async () => {
    // Every 5 minutes for three hours the worker tries again what is due; the server refuses at
    // RCPT TO for the first hour and at DATA after it.
    for (let minutes = 5; minutes <= 180; minutes += 5) {
      if (minutes > 60) smtp.mode = 'data';
      await retryAt(minutes * 60_000);
    }
    const row = await server.deps.db.kysely
      .selectFrom('emails')
      .select(['status', 'attempts', 'next_attempt_at'])
      .where('id', '=', emailId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(row.attempts).toBeGreaterThan(3);
    expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(clock.now().getTime()); // not due now

    const metric = await scrape();
    expect(metric('survey_outbox_oldest_due_seconds', { kind: 'emails' })).toBe(3 * 3600);
    expect(metric('survey_outbox_pending', { kind: 'emails' })).toBe(1);
    expect(metric('survey_outbox_attempts_total', { kind: 'emails', outcome: 'retry' })).toBe(row.attempts);

    const body = await readyz();
    expect(body.outbox.emails).toEqual({ pending: 1, oldest_due_seconds: 3 * 3600 });
    expect(body.failing).toEqual({
      kind: 'emails',
      id: emailId,
      attempts: row.attempts,
      age_seconds: 3 * 3600,
      last_error: expect.stringContaining('Queue full, status at https://****@relay.example/status'),
    });
    // the refusal's credentials and query never show, nor does the address
    const text = JSON.stringify(body);
    for (const secret of ['hunter2', 's3cret', 'ann@example.org']) expect(text).not.toContain(secret);
    const warned = logLines.filter((l) => l.id === emailId);
    expect(warned).toHaveLength(row.attempts);
    expect(JSON.stringify(warned)).not.toContain('hunter2');
    expect(warned.at(-1)?.error).toContain('Queue full');
  });

  it('once the server accepts, the email goes, and nothing is failing any more', async () => {
    smtp.mode = 'accept';
    await retryAt(4 * 3600_000);
    expect(smtp.accepted).toBe(1);
    const metric = await scrape();
    expect(metric('survey_outbox_oldest_due_seconds', { kind: 'emails' })).toBe(0);
    expect(metric('survey_outbox_attempts_total', { kind: 'emails', outcome: 'sent' })).toBe(1);
    const body = await readyz();
    expect(body.outbox.emails).toEqual({ pending: 0, oldest_due_seconds: 0 });
    expect(body.failing).toBeUndefined();
  });
});

describe('a webhook receiver that keeps failing', () => {
  it('is counted per kind, logged, aged from its first attempt and named by /readyz', async () => {
    const a = await server.account();
    const survey = await server.client.post('/v3/surveys', { title: 'Watched' }, { token: a.token });
    expect(survey.status).toBe(201);
    const hook = await server.client.post(
      '/v3/webhooks',
      {
        name: 'h',
        event_type: 'collector_created',
        object_type: 'survey',
        object_ids: [survey.body.id],
        subscription_url: `${receiver.url}?token=abc123`,
      },
      { token: a.token },
    );
    expect(hook.status).toBe(201);
    receiver.status = 503;
    const firstAt = 5 * 3600_000;
    clock.set(new Date(start + firstAt));
    const collector = await server.client.post(
      `/v3/surveys/${survey.body.id}/collectors`,
      { type: 'weblink' },
      { token: a.token },
    );
    expect(collector.status).toBe(201);
    expect((await worker.drain()).deliveries).toBe(1);
    for (let minutes = 10; minutes <= 60; minutes += 10) await retryAt(firstAt + minutes * 60_000);
    expect(receiver.posts().length).toBeGreaterThan(2);

    const metric = await scrape();
    const retries = metric('survey_outbox_attempts_total', { kind: 'deliveries', outcome: 'retry' });
    expect(retries).toBe(receiver.posts().length);
    expect(metric('survey_webhook_deliveries_total', { outcome: 'retry' })).toBe(retries);
    expect(metric('survey_outbox_oldest_due_seconds', { kind: 'deliveries' })).toBe(3600);
    const body = await readyz();
    expect(body.failing).toMatchObject({ kind: 'deliveries', age_seconds: 3600, last_error: 'HTTP 503' });
    expect(JSON.stringify(body)).not.toContain('abc123');
    expect(logLines.filter((l) => l.kind === 'deliveries' && l.outcome === 'retry')).toHaveLength(retries);

    // A redelivery starts afresh: its age counts from its next first attempt.
    receiver.status = 200;
    const list = await server.client.get(`/v3/webhooks/${hook.body.id}/deliveries`, { token: a.token });
    const deliveryId = list.body.data[0].id;
    expect(
      (
        await server.client.post(
          `/v3/webhooks/${hook.body.id}/deliveries/${deliveryId}/redeliver`,
          {},
          { token: a.token },
        )
      ).status,
    ).toBe(200);
    await worker.drain();
    expect((await scrape())('survey_outbox_oldest_due_seconds', { kind: 'deliveries' })).toBe(0);
    expect((await readyz()).failing).toBeUndefined();
  });
});

describe('deploy/alerts.yml', () => {
  it('watches retries and failures per kind, and the stuck rule reads the age from the first attempt', () => {
    const file = parseYaml(readFileSync(`${ROOT}/deploy/alerts.yml`, 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string; for: string }> }>;
    };
    const rules = file.groups.flatMap((g) => g.rules);
    const failing = rules.find((r) => r.alert === 'SurveyServiceOutboxFailing');
    expect(failing?.expr).toContain('survey_outbox_attempts_total{outcome=~"retry|failed"}');
    expect(failing?.expr).toMatch(/by \(kind\)/);
    const stuck = rules.find((r) => r.alert === 'SurveyServiceOutboxStuck');
    expect(stuck?.expr).toContain('survey_outbox_oldest_due_seconds');
  });
});

describe('worker heartbeats', () => {
  it('every live worker has a stamp on the metrics; a dead one stays behind, a stopped one is gone', async () => {
    const a = new OutboxWorker(server.deps, { name: 'worker-a' });
    const b = new OutboxWorker(server.deps, { name: 'worker-b' });
    const series = async (name: string) =>
      (await scrape())('survey_worker_heartbeat_timestamp_seconds', { worker: name });
    const t0 = new Date(start + 10 * 3600_000);
    clock.set(t0);
    await a.drain();
    await b.drain();
    expect(await series('worker-a')).toBe(t0.getTime() / 1000);
    expect(await series('worker-b')).toBe(t0.getTime() / 1000);
    // Ten minutes on, only a goes round its loop (b died without stopping): b's stamp stays behind.
    for (let s = 5; s <= 600; s += 5) {
      clock.set(new Date(t0.getTime() + s * 1000));
      await a.drain();
    }
    expect(await series('worker-a')).toBeGreaterThanOrEqual(t0.getTime() / 1000 + 600 - 15);
    expect(await series('worker-b')).toBe(t0.getTime() / 1000);
    // A worker that stops cleanly is not expected any more.
    await a.stop();
    const text = await (await fetch(metricsUrl)).text();
    expect(text).not.toContain('worker="worker-a"');
    expect(text).toContain('survey_worker_heartbeat_timestamp_seconds{worker="worker-b"}');
    await b.stop();
    expect(await (await fetch(metricsUrl)).text()).not.toContain('worker="worker-b"');
  });

  it('deploy/alerts.yml fires on a stale heartbeat within about two minutes', () => {
    const file = parseYaml(readFileSync(`${ROOT}/deploy/alerts.yml`, 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string; for: string }> }>;
    };
    const rules = file.groups.flatMap((g) => g.rules);
    for (const name of ['SurveyServiceWorkerDown', 'SurveyServiceNoWorker']) {
      const rule = rules.find((r) => r.alert === name);
      expect(rule?.expr, name).toContain('time() - max');
      expect(rule?.expr, name).toContain('survey_worker_heartbeat_timestamp_seconds');
      const stale = Number(/> (\d+)/.exec(rule!.expr)?.[1]);
      const wait = Number(/^(\d+)s$/.exec(rule!.for)?.[1]);
      // the stamp is renewed every 15 s; what the rule waits on top of that, before a scrape's lag
      expect(stale + wait, name).toBeLessThanOrEqual(105);
      expect(stale, name).toBeGreaterThanOrEqual(60);
    }
    expect(rules.find((r) => r.alert === 'SurveyServiceWorkerDown')?.expr).toContain('by (worker)');
  });
});
