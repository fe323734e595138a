// Webhook delivery end to end: events written through the domain, the worker, a real receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../src/compose.js';
import { createCode, exchangeCode, uninstallApp } from '../../src/domain/accounts/grants.js';
import { claimDue } from '../../src/outbox/claim.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import { TestClock } from '../helpers/clock.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers/database.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { emit, responseCompleted } from './helpers/events.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';
import { verifySmSignature, verifyStandardSignature } from './helpers/verify.js';

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', OUTBOX_RETRY_BASE_SECONDS: '30' };
let server: TestServer;
let worker: OutboxWorker;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock, env: ENV });
  worker = new OutboxWorker(server.deps, { pollMs: 5 });
});
afterAll(async () => {
  await worker.stop();
  await server.close();
});

/** Subscribes `a`; unless the body names object_ids, to a new real survey of `a` (returned). */
async function subscribe(a: TestAccount, target: string, body: Record<string, unknown> = {}) {
  const watched = 'object_ids' in body ? null : await surveyWithCollector(server.client, a.token);
  const res = await server.client.post(
    '/v3/webhooks',
    {
      name: 'Responses',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: watched ? [watched.surveyId] : undefined,
      subscription_url: target,
      ...body,
    },
    { token: a.token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    id: res.body.id as string,
    surveyId: watched?.surveyId ?? '',
    collectorId: watched?.collectorId ?? '',
  };
}

async function deliveries(a: TestAccount, webhookId: string) {
  const res = await server.client.get(`/v3/webhooks/${webhookId}/deliveries`, { token: a.token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('delivery', () => {
  it('POSTs the documented body, signed with Sm-Signature and Standard Webhooks headers', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      clock.advance(1000);
      const hook = await subscribe(a, receiver.url, { authorization: 'Token abc' });
      clock.advance(1000);
      const { eventId, responseId } = await responseCompleted(
        server.deps,
        a.user.id,
        hook.surveyId,
        hook.collectorId,
      );
      const eventTime = clock.now();
      await worker.drain();
      const posts = receiver.posts();
      expect(posts).toHaveLength(1);
      const got = posts[0];
      expect(got.json).toEqual({
        name: 'Responses',
        filter_type: 'survey',
        filter_id: hook.surveyId,
        event_type: 'response_completed',
        event_id: eventId,
        object_type: 'response',
        object_id: responseId,
        event_datetime: `${eventTime.toISOString().slice(0, 23)}000+00:00`,
        resources: {
          survey_id: hook.surveyId,
          user_id: a.user.id,
          collector_id: hook.collectorId,
          respondent_id: responseId,
          recipient_id: '',
        },
      });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers.authorization).toBe('Token abc');
      expect(got.headers['sm-apikey']).toBe(a.app.client_id);
      // As a receiver checks it: the app's client id and secret, the raw body bytes.
      expect(
        verifySmSignature(got.raw, a.app.client_id, a.clientSecret, String(got.headers['sm-signature'])),
      ).toBe(true);
      expect(
        verifySmSignature(got.raw, a.app.client_id, 'wrong-secret', String(got.headers['sm-signature'])),
      ).toBe(false);
      const secret = (await server.client.get(`/v3/webhooks/${hook.id}/signing_secret`, { token: a.token }))
        .body.secret;
      expect(verifyStandardSignature(got.raw, secret, got.headers)).toBe(true);
      expect(verifyStandardSignature(`${got.raw} `, secret, got.headers)).toBe(false);
      expect(got.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));

      const log = await deliveries(a, hook.id);
      expect(log.total).toBe(1);
      expect(log.data[0]).toMatchObject({
        event_id: eventId,
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
      });
      expect(got.headers['webhook-id']).toBe(log.data[0].id);
    } finally {
      await receiver.stop();
    }
  });

  it('filters by object_ids, account and subscription time', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      const b = await server.account();
      const watched = await surveyWithCollector(server.client, a.token);
      const other = await surveyWithCollector(server.client, a.token);
      const s = watched.surveyId;
      await responseCompleted(server.deps, a.user.id, s); // before the webhook existed
      clock.advance(1000);
      await subscribe(a, receiver.url, { object_ids: [s] });
      clock.advance(1000);
      await responseCompleted(server.deps, a.user.id, other.surveyId); // another survey
      await responseCompleted(server.deps, b.user.id, s); // another account
      await emit(server.deps, 'response_updated', a.user.id, 'response', '1', { survey_id: s }); // another type
      const wanted = await responseCompleted(server.deps, a.user.id, s);
      await worker.drain();
      expect(receiver.posts().map((p) => p.json.event_id)).toEqual([wanted.eventId]);
    } finally {
      await receiver.stop();
    }
  });

  it('delivers an event whose transaction committed a few minutes after it was stamped', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      clock.advance(-10 * 60_000);
      const hook = await subscribe(a, receiver.url);
      clock.advance(10 * 60_000);
      await worker.drain(); // a caught-up scan
      clock.advance(-5 * 60_000);
      const late = await responseCompleted(server.deps, a.user.id, hook.surveyId);
      clock.advance(5 * 60_000);
      await worker.drain();
      expect(receiver.posts().map((p) => p.json.event_id)).toEqual([late.eventId]);
    } finally {
      await receiver.stop();
    }
  });

  it('delivers collector-filtered, survey_created and app_installed events', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      const watched = await surveyWithCollector(server.client, a.token);
      clock.advance(1000); // the survey's own survey_created is older than the webhooks
      await subscribe(a, `${receiver.url}/c`, {
        object_type: 'collector',
        object_ids: [watched.collectorId],
      });
      await subscribe(a, `${receiver.url}/s`, {
        event_type: 'survey_created',
        object_type: undefined,
        object_ids: undefined,
      });
      await subscribe(a, `${receiver.url}/a`, {
        event_type: 'app_installed',
        object_type: 'app',
        object_ids: undefined,
      });
      clock.advance(1000);
      const r = await responseCompleted(server.deps, a.user.id, watched.surveyId, watched.collectorId);
      const survey = await emit(server.deps, 'survey_created', a.user.id, 'survey', '500000077', {
        title: 'T',
      });
      // Another user installs a's app: the app's webhook hears about it.
      const installer = await server.account();
      const install = await emit(server.deps, 'app_installed', installer.user.id, 'app', a.app.id, {
        app_id: a.app.id,
      });
      await worker.drain();
      const byPath = Object.fromEntries(receiver.posts().map((p) => [p.path.split('/').pop(), p.json]));
      expect(byPath.c).toMatchObject({
        filter_type: 'collector',
        filter_id: watched.collectorId,
        event_id: r.eventId,
        resources: { survey_id: watched.surveyId, collector_id: watched.collectorId },
      });
      expect(byPath.s).toMatchObject({
        event_type: 'survey_created',
        event_id: survey,
        filter_type: 'survey',
        filter_id: '500000077',
        object_type: 'survey',
        object_id: '500000077',
        resources: { survey_id: '500000077', user_id: a.user.id },
      });
      expect(byPath.a).toMatchObject({
        event_type: 'app_installed',
        event_id: install,
        filter_type: 'app',
        object_type: 'app',
        object_id: a.app.id,
        resources: { app_id: a.app.id, user_id: installer.user.id },
      });
      expect(receiver.posts()).toHaveLength(3);
    } finally {
      await receiver.stop();
    }
  });

  it('retries with exponential backoff while the receiver is down, records every attempt, and delivers when it is back', async () => {
    const receiver = await new Receiver().start();
    const port = receiver.port;
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      await receiver.stop();
      const { eventId } = await responseCompleted(server.deps, a.user.id, hook.surveyId);
      await worker.drain();
      let log = await deliveries(a, hook.id);
      expect(log.data[0]).toMatchObject({
        event_id: eventId,
        status: 'pending',
        attempts: 1,
        last_status_code: null,
      });
      expect(log.data[0].last_error).toMatch(/ECONNREFUSED/);
      const first = new Date(log.data[0].next_attempt_at).getTime() - clock.now().getTime();
      expect(first).toBe(30_000);

      clock.advance(29_000); // not yet due
      expect((await worker.runOnce()).deliveries).toBe(0);
      clock.advance(1_000);
      expect((await worker.runOnce()).deliveries).toBe(1);
      log = await deliveries(a, hook.id);
      expect(log.data[0].attempts).toBe(2);
      expect(new Date(log.data[0].next_attempt_at).getTime() - clock.now().getTime()).toBe(60_000);

      // A receiver that answers with an error counts as a failure too.
      await receiver.start(port);
      receiver.status = 503;
      clock.advance(60_000);
      await worker.runOnce();
      log = await deliveries(a, hook.id);
      expect(log.data[0]).toMatchObject({
        attempts: 3,
        last_status_code: 503,
        last_error: 'HTTP 503',
        status: 'pending',
      });
      expect(new Date(log.data[0].next_attempt_at).getTime() - clock.now().getTime()).toBe(120_000);

      receiver.status = 200;
      clock.advance(120_000);
      await worker.drain();
      const detail = await server.client.get(`/v3/webhooks/${hook.id}/deliveries/${log.data[0].id}`, {
        token: a.token,
      });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ status: 'delivered', attempts: 4, next_attempt_at: null });
      expect(detail.body.attempt_log.map((x: any) => [x.attempt, x.outcome, x.status_code])).toEqual([
        [1, 'retry', null],
        [2, 'retry', null],
        [3, 'retry', 503],
        [4, 'delivered', 200],
      ]);
      expect(JSON.parse(detail.body.body).event_id).toBe(eventId);
      // The receiver saw two POSTs (the 503 and the success), each with the same webhook-id.
      expect(receiver.posts().map((p) => p.json.event_id)).toEqual([eventId, eventId]);
      expect(new Set(receiver.posts().map((p) => p.headers['webhook-id'])).size).toBe(1);
    } finally {
      await receiver.stop();
    }
  });

  it('delivers every event raised while the receiver was down once it is back, each exactly once', async () => {
    const receiver = await new Receiver().start();
    const port = receiver.port;
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      await receiver.stop();
      const raised: string[] = [];
      for (let i = 0; i < 5; i++) {
        raised.push((await responseCompleted(server.deps, a.user.id, hook.surveyId)).eventId);
        clock.advance(10_000); // spread over the outage, so later events fail fewer times
        await worker.drain();
      }
      expect(receiver.posts()).toHaveLength(0);
      const pending = await deliveries(a, hook.id);
      expect(pending.data.map((d: any) => d.status)).toEqual(Array(5).fill('pending'));

      await receiver.start(port);
      clock.advance(10 * 60_000); // past every delivery's next attempt
      await worker.drain();
      clock.advance(60 * 60_000); // later rounds find nothing left to send
      await worker.drain();
      expect(
        receiver
          .posts()
          .map((p) => p.json.event_id)
          .sort(),
      ).toEqual([...raised].sort());
      const done = await deliveries(a, hook.id);
      expect(done.data.map((d: any) => d.status)).toEqual(Array(5).fill('delivered'));
    } finally {
      await receiver.stop();
    }
  });

  it('keeps retrying for 24 hours, then marks the delivery failed', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      receiver.status = 500;
      await responseCompleted(server.deps, a.user.id, hook.surveyId);
      const start = clock.now().getTime();
      let rounds = 0;
      for (;;) {
        await worker.drain();
        const log = await deliveries(a, hook.id);
        if (log.data[0].status !== 'pending') break;
        clock.set(log.data[0].next_attempt_at);
        rounds++;
        expect(rounds).toBeLessThan(100);
      }
      const log = await deliveries(a, hook.id);
      expect(log.data[0].status).toBe('failed');
      expect(clock.now().getTime() - start).toBeGreaterThanOrEqual(24 * 3_600_000);
      // Backoff is capped at an hour: a day of retries takes a few dozen attempts, not thousands.
      expect(log.data[0].attempts).toBeGreaterThan(20);
      expect(log.data[0].attempts).toBeLessThan(40);
      expect(receiver.posts()).toHaveLength(log.data[0].attempts);
      const failedOnly = await server.client.get(`/v3/webhooks/${hook.id}/deliveries?status=failed`, {
        token: a.token,
      });
      expect(failedOnly.body.total).toBe(1);

      // Two days on, the fan-out markers of old events are pruned, and nothing is fanned out again.
      const markers = async () =>
        Number(
          (
            await server.deps.db.kysely
              .selectFrom('event_dispatch')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await markers()).toBeGreaterThan(0);
      clock.advance(2 * 86_400_000);
      expect(await worker.drain()).toEqual({ events: 0, deliveries: 0, emails: 0 });
      expect(await markers()).toBe(0);
      expect(await worker.drain()).toEqual({ events: 0, deliveries: 0, emails: 0 });
    } finally {
      await receiver.stop();
    }
  });

  it('redelivers on request, with the same body and webhook-id', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      await responseCompleted(server.deps, a.user.id, hook.surveyId);
      await worker.drain();
      const id = (await deliveries(a, hook.id)).data[0].id;
      const res = await server.client.post(`/v3/webhooks/${hook.id}/deliveries/${id}/redeliver`, undefined, {
        token: a.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, status: 'pending', attempts: 1 });
      await worker.drain();
      const posts = receiver.posts();
      expect(posts).toHaveLength(2);
      expect(posts[1].raw).toBe(posts[0].raw);
      expect(posts[1].headers['webhook-id']).toBe(posts[0].headers['webhook-id']);
      const detail = await server.client.get(`/v3/webhooks/${hook.id}/deliveries/${id}`, { token: a.token });
      expect(detail.body).toMatchObject({ status: 'delivered', attempts: 2 });

      const b = await server.account();
      for (const r of [
        await server.client.post(`/v3/webhooks/${hook.id}/deliveries/${id}/redeliver`, undefined, {
          token: b.token,
        }),
        await server.client.get(`/v3/webhooks/${hook.id}/deliveries/${id}`, { token: b.token }),
        await server.client.get(`/v3/webhooks/${hook.id}/deliveries`, { token: b.token }),
        await server.client.post(`/v3/webhooks/${hook.id}/deliveries/999999999/redeliver`, undefined, {
          token: a.token,
        }),
      ]) {
        expect(r.status).toBe(404);
        expect(r.body.error.id).toBe('1020');
      }
      const reader = await server.account({ scopes: ['webhooks_read'] });
      const scope = await server.client.post(
        `/v3/webhooks/${hook.id}/deliveries/${id}/redeliver`,
        undefined,
        {
          token: reader.token,
        },
      );
      expect(scope.body.error.id).toBe('1014');
      expect((await server.client.post(`/v3/webhooks/${hook.id}/deliveries/${id}/redeliver`)).status).toBe(
        401,
      );
      expect(
        (await server.client.get(`/v3/webhooks/${hook.id}/deliveries?status=lost`, { token: a.token })).body
          .error.id,
      ).toBe('1003');
    } finally {
      await receiver.stop();
    }
  });

  it('takes over a delivery whose worker died mid-attempt once its claim expires', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      await responseCompleted(server.deps, a.user.id, hook.surveyId);
      await worker.runOnce(); // fans out and delivers... so make a second event and only claim it
      const second = await responseCompleted(server.deps, a.user.id, hook.surveyId);
      const { fanOut } = await import('../../src/outbox/fanout.js');
      await fanOut(server.deps, 100);
      const dead = await claimDue(server.deps, 'webhook_deliveries', 10, clock.now());
      expect(dead.ids).toHaveLength(1); // claimed by a worker that then "crashed"
      expect((await worker.runOnce()).deliveries).toBe(0); // held by the claim
      clock.advance(server.config.outbox.leaseSeconds * 1000 + 1);
      expect((await worker.runOnce()).deliveries).toBe(1);
      expect(receiver.posts().map((p) => p.json.event_id)).toContain(second.eventId);
      expect((await deliveries(a, hook.id)).data.every((d: any) => d.status === 'delivered')).toBe(true);
    } finally {
      await receiver.stop();
    }
  });

  it('delivers each event once when two workers run at the same time', async () => {
    const receiver = await new Receiver().start();
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      const ids = new Set<string>();
      for (let i = 0; i < 40; i++)
        ids.add((await responseCompleted(server.deps, a.user.id, hook.surveyId)).eventId);
      // On PostgreSQL the two workers have their own connections, as two processes have. SQLite
      // connections in one process would block each other's event loop, so there both share one.
      const otherDeps = usingPostgres ? await createDeps(server.config, { clock }) : server.deps;
      const w1 = new OutboxWorker(server.deps);
      const w2 = new OutboxWorker(otherDeps);
      try {
        await Promise.all([w1.drain(), w2.drain(), w1.drain(), w2.drain()]);
      } finally {
        await Promise.all([w1.stop(), w2.stop()]);
        if (otherDeps !== server.deps) await otherDeps.db.close();
      }
      const got = receiver.posts().map((p) => p.json.event_id);
      expect(got.length).toBe(40);
      expect(new Set(got)).toEqual(ids);
      const log = await server.client.get(`/v3/webhooks/${hook.id}/deliveries?per_page=100`, {
        token: a.token,
      });
      expect(log.body.total).toBe(40);
      expect(log.body.data.every((d: any) => d.attempts === 1 && d.status === 'delivered')).toBe(true);
    } finally {
      await receiver.stop();
    }
  });
});

describe('app install events from the OAuth flow', () => {
  it("tells the app's webhooks when a user installs and uninstalls it", async () => {
    const receiver = await new Receiver().start();
    try {
      const dev = await server.account();
      for (const event_type of ['app_installed', 'app_uninstalled'])
        await subscribe(dev, `${receiver.url}/${event_type}`, {
          event_type,
          object_type: 'app',
          object_ids: undefined,
        });
      clock.advance(1000);
      const user = await server.account();
      const code = await createCode(server.deps, {
        app: dev.app,
        userId: user.user.id,
        redirectUri: 'http://localhost:9/callback',
        scopes: ['surveys_read'],
        codeChallenge: null,
      });
      const exchanged = await exchangeCode(
        server.deps,
        dev.app,
        code,
        'http://localhost:9/callback',
        undefined,
        null,
      );
      expect(exchanged.ok).toBe(true);
      await uninstallApp(server.deps, dev.app.id, user.user.id, null);
      await worker.drain();
      const byPath = Object.fromEntries(receiver.posts().map((p) => [p.path.split('/').pop(), p.json]));
      for (const type of ['app_installed', 'app_uninstalled'])
        expect(byPath[type], type).toMatchObject({
          event_type: type,
          filter_type: 'app',
          filter_id: dev.app.id,
          object_type: 'app',
          object_id: dev.app.id,
          resources: { app_id: dev.app.id, user_id: user.user.id },
        });
      expect(receiver.posts()).toHaveLength(2);
    } finally {
      await receiver.stop();
    }
  });
});

describe('the worker loop', () => {
  it('polls at its interval until stopped', async () => {
    const receiver = await new Receiver().start();
    const looping = new OutboxWorker(server.deps, { pollMs: 20 });
    try {
      const a = await server.account();
      const hook = await subscribe(a, receiver.url);
      looping.start();
      const { eventId } = await responseCompleted(server.deps, a.user.id, hook.surveyId);
      for (let i = 0; i < 200 && receiver.posts().length === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(receiver.posts().map((p) => p.json.event_id)).toEqual([eventId]);
      await looping.stop();
      await responseCompleted(server.deps, a.user.id, hook.surveyId);
      await new Promise((r) => setTimeout(r, 100));
      expect(receiver.posts()).toHaveLength(1); // stopped: nothing more is sent
    } finally {
      await looping.stop();
      await receiver.stop();
    }
  });
});

describe('restart', () => {
  it('loses nothing when the server and worker stop between the event and the delivery', async () => {
    const db: TestDatabase = await createTestDatabase();
    const receiver = await new Receiver().start();
    const port = receiver.port;
    const c = new TestClock('2026-06-01T12:00:00Z');
    try {
      const first = await startServer({ clock: c, env: ENV, databaseUrl: db.url });
      const a = await first.account();
      const { surveyId } = await surveyWithCollector(first.client, a.token);
      const res = await first.client.post(
        '/v3/webhooks',
        {
          name: 'r',
          event_type: 'survey_updated',
          object_type: 'survey',
          object_ids: [surveyId],
          subscription_url: receiver.url,
        },
        { token: a.token },
      );
      expect(res.status).toBe(201);
      await receiver.stop(); // the receiver is down...
      const w = new OutboxWorker(first.deps);
      const e1 = await emit(first.deps, 'survey_updated', a.user.id, 'survey', surveyId);
      await w.drain(); // ...so the first attempt fails
      const e2 = await emit(first.deps, 'survey_updated', a.user.id, 'survey', surveyId); // never fanned out
      await w.stop();
      await first.close();

      await receiver.start(port);
      c.advance(60_000);
      const second = await startServer({ clock: c, env: ENV, databaseUrl: db.url });
      try {
        const w2 = new OutboxWorker(second.deps);
        await w2.drain();
        await w2.stop();
        expect(
          receiver
            .posts()
            .map((p) => p.json.event_id)
            .sort(),
        ).toEqual([e1, e2].sort());
      } finally {
        await second.close();
      }
    } finally {
      await receiver.stop();
      await db.drop();
    }
  });
});
