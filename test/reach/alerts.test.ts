// Response alerts, read as the real SMTP server receives them: a survey set (on its alerts page)
// to email its owner on each completed response gets one email per response, queued by the worker
// and never by the request; an owner who opted out on the account page gets none; a daily digest
// counts the day's responses once, through the worker's scheduled job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker, scheduledJobs } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { decoded } from '../invite/helpers.js';
import { SmtpSink } from './helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let worker: OutboxWorker;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({
    clock,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Surveys <surveys@example.com>' },
  });
  worker = new OutboxWorker(server.deps);
});
afterAll(async () => {
  await worker.stop();
  await server.close();
  await smtp.stop();
});

const subjects = (to: string) =>
  smtp.messages.filter((m) => m.to.includes(to)).map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim());

describe('response alerts', () => {
  it('emails the owner on each response, honours the opt-out, and sends a daily digest', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const s = await server.client.post('/v3/surveys', { title: 'Lunch poll' }, t);
    const sm = new URL(s.body.collect_url).searchParams.get('sm')!;
    const c = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, t);
    const respond = async () => {
      const r = await server.client.post(`/v3/collectors/${c.body.id}/responses`, {}, t);
      expect(r.status, r.text).toBe(201);
      expect(r.body.response_status).toBe('completed');
    };
    const web = await signIn(server, a);
    const page = `/collect/alerts?sm=${sm}`;

    let _csrf = await web.csrf(page);
    expect((await web.post(page, { _csrf, mode: 'sometimes' })).status).toBe(400);
    expect((await web.post(page, { _csrf, mode: 'each' })).status).toBe(303);
    expect((await web.get(page)).text).toMatch(/id="alert-each" name="mode" value="each" checked/);

    await respond();
    await respond();
    expect(subjects(a.user.email)).toEqual([]); // nothing is sent, or even queued, by the request
    const queued = await server.deps.db.kysely
      .selectFrom('emails')
      .select('id')
      .where('purpose', '=', 'alert')
      .execute();
    expect(queued).toEqual([]);
    await worker.drain();
    expect(subjects(a.user.email)).toEqual(['New response: Lunch poll', 'New response: Lunch poll']);
    await worker.drain();
    expect(subjects(a.user.email)).toHaveLength(2); // once each

    // Opted out on the account page: no alert, whatever the survey asks.
    _csrf = await web.csrf('/account');
    expect((await web.post('/account/alerts', { _csrf, opt_out: '1' })).status).toBe(303);
    expect((await web.get(page)).text).toContain('turned off all alerts');
    await respond();
    await worker.drain();
    expect(subjects(a.user.email)).toHaveLength(2);

    // Back in, with a daily digest instead: nothing per response, one digest a day later.
    expect((await web.post('/account/alerts', { _csrf })).status).toBe(303);
    clock.advance(60_000);
    _csrf = await web.csrf(page);
    expect((await web.post(page, { _csrf, mode: 'daily' })).status).toBe(303);
    await respond();
    await respond();
    await worker.drain();
    expect(subjects(a.user.email)).toHaveLength(2);
    const digest = scheduledJobs(server.deps).find((j) => j.name === 'alert-digest')!;
    await digest.run(server.deps); // not due yet
    await worker.drain();
    expect(subjects(a.user.email)).toHaveLength(2);
    clock.advance(86_400_000);
    await Promise.all([digest.run(server.deps), digest.run(server.deps)]); // two workers at once
    await worker.drain();
    const got = smtp.messages.filter((m) => m.to.includes(a.user.email));
    expect(subjects(a.user.email).slice(2)).toEqual(['Daily digest: Lunch poll']);
    const body = decoded(got.at(-1)!.raw);
    expect(body).toContain('2 responses were completed for "Lunch poll" in the last day.');
    expect(body).toMatch(/See the results: http:\/\/\S+\/analyze\/\S+/);
  });
});
