// The spec's "Send an email invitation" flow against a real SMTP server: an email collector, a
// message, recipients, send; the emails arrive with working personal links; a response through one
// link carries its recipient; an opt-out is honoured for good; a reminder skips those who responded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { SmtpSink } from '../reach/helpers/smtp.js';
import { answerThrough, decoded, emailCollector, linksIn } from './helpers.js';

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

const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

describe('email invitations over SMTP', () => {
  it('invites, ties a response to its recipient, honours an opt-out and reminds only the others', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { surveyId, collectorId, questionId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    const tag = a.user.id;
    const [ann, bob, cat] = ['ann', 'bob', 'cat'].map((n) => `${n}.${tag}@example.org`);

    const invite = await server.client.post(
      `${c}/messages`,
      { type: 'invite', subject: 'Your views, please' },
      t,
    );
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ type: 'invite', status: 'not_sent', recipient_status: null });
    expect(invite.body.body).toContain('[SurveyLink]');
    expect(invite.body.body).toContain('[OptOutLink]');
    const m = `${c}/messages/${invite.body.id}`;

    const bulk = await server.client.post(
      `${m}/recipients/bulk`,
      {
        contacts: [
          { email: ann, first_name: 'Ann', last_name: 'Archer' },
          { email: bob, first_name: 'Bob' },
          { email: 'not-an-email' },
          { email: ann.toUpperCase() },
        ],
      },
      t,
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body.succeeded.map((r: any) => r.email)).toEqual([ann, bob]);
    expect(bulk.body).toMatchObject({
      invalids: ['not-an-email'],
      duplicate: [ann.toUpperCase()],
      existing: [],
    });
    const one = await server.client.post(`${m}/recipients`, { email: cat, first_name: 'Cat' }, t);
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({
      email: cat,
      first_name: 'Cat',
      survey_id: surveyId,
      survey_response_status: 'not_responded',
      mail_status: 'not_sent',
    });
    const annId = bulk.body.succeeded[0].id;

    const sent = await server.client.post(`${m}/send`, {}, t);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ is_scheduled: true, type: 'invite', subject: 'Your views, please' });
    expect(sent.body.recipients).toHaveLength(3);
    const again = await server.client.post(`${m}/send`, {}, t);
    expect(again.status).toBe(409);
    expect(again.body.error.id).toBe('1025');

    expect(smtp.messages).toHaveLength(0); // nothing leaves inside the request
    await worker.drain();
    for (const who of [ann, bob, cat]) expect(mailTo(who), who).toHaveLength(1);
    expect(decoded(mailTo(ann)[0].raw)).toContain('Subject: Your views, please');
    const annLinks = linksIn(mailTo(ann)[0].raw, server.url);
    const bobLinks = linksIn(mailTo(bob)[0].raw, server.url);
    const catLinks = linksIn(mailTo(cat)[0].raw, server.url);
    expect(annLinks.survey).toBeDefined();
    expect(annLinks.optOut).toBeDefined();
    expect(new Set([annLinks.survey, bobLinks.survey, catLinks.survey]).size).toBe(3);

    // Ann answers through her personal link; the response carries her.
    const answered = await answerThrough(annLinks.survey!, questionId, 'More coffee');
    expect(answered.status).toBe(200);
    expect(answered.text).toMatch(/Thank you/i);
    const responses = await server.client.get(`/v3/collectors/${collectorId}/responses/bulk`, t);
    expect(responses.body.data).toHaveLength(1);
    expect(responses.body.data[0]).toMatchObject({
      recipient_id: annId,
      email_address: ann,
      first_name: 'Ann',
      last_name: 'Archer',
      response_status: 'completed',
    });
    // A made-up or foreign personal link does not open the survey.
    const bad = await fetch(annLinks.survey!.replace(/rcp=.*/, 'rcp=nobody-at-all-here'));
    expect(bad.status).toBe(404);

    // Bob opts out through the page his email links to.
    const bobWeb = new WebSession(server.url);
    const optPage = await bobWeb.get(bobLinks.optOut!);
    expect(optPage.status).toBe(200);
    expect(optPage.text).toMatch(/Unsubscribe/);
    const sm = new URL(bobLinks.optOut!).searchParams.get('sm')!;
    const _csrf = /name="_csrf" value="([^"]+)"/.exec(optPage.text)![1];
    const opted = await bobWeb.post('/optout', { sm, _csrf });
    expect(opted.status).toBe(200);
    expect(opted.text).toContain(bob);
    const contacts = await server.client.get(
      `/v3/contacts?search_by=email&search=${encodeURIComponent(bob)}&status=optout`,
      t,
    );
    expect(contacts.status).toBe(200);
    expect(contacts.body.data.map((x: any) => x.email)).toContain(bob);

    const stats = await server.client.get(`${m}/stats`, t);
    expect(stats.body).toEqual({
      survey_response_status: { completely_responded: 1, not_responded: 2, partially_responded: 0 },
      mail_status: { opened: 0, opted_out: 1, not_sent: 0, sent: 3, bounced: 0, link_clicked: 1 },
      recipients: 3,
    });
    const status = await server.client.get(`${c}/recipients?include=survey_response_status,mail_status`, t);
    expect(Object.fromEntries(status.body.data.map((r: any) => [r.email, r.survey_response_status]))).toEqual(
      { [ann]: 'completely_responded', [bob]: 'not_responded', [cat]: 'not_responded' },
    );

    // A reminder reaches only Cat: Ann responded, Bob opted out.
    const reminder = await server.client.post(
      `${c}/messages`,
      {
        type: 'reminder',
        subject: 'Reminder',
        body_text: 'Still time: [SurveyLink]\nUnsubscribe: [OptOutLink]\n[FooterLink]',
      },
      t,
    );
    expect(reminder.status).toBe(201);
    expect(reminder.body.recipient_status).toBe('has_not_responded');
    const reminded = await server.client.post(`${c}/messages/${reminder.body.id}/send`, {}, t);
    expect(reminded.status).toBe(200);
    expect(reminded.body.recipients).toHaveLength(1);
    await worker.drain();
    expect(mailTo(cat)).toHaveLength(2);
    expect(mailTo(ann)).toHaveLength(1);
    expect(mailTo(bob)).toHaveLength(1);
    const catReminder = decoded(mailTo(cat)[1].raw);
    expect(catReminder).toContain('Still time:');
    expect(linksIn(mailTo(cat)[1].raw, server.url).survey).toBe(catLinks.survey);

    // The opt-out holds for every later message of the account: bulk puts Bob in opted_out.
    const later = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    const laterBulk = await server.client.post(
      `${c}/messages/${later.body.id}/recipients/bulk`,
      { contacts: [{ email: bob }, { email: ann }] },
      t,
    );
    expect(laterBulk.body.opted_out).toEqual([bob]);
    expect(laterBulk.body.succeeded.map((r: any) => r.email)).toEqual([ann]);
    const collectorStats = await server.client.get(`${c}/stats`, t);
    expect(collectorStats.body).toMatchObject({ recipients: 3, mail_status: { opted_out: 1, sent: 3 } });
  });

  it('sends a scheduled message when its time comes', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { collectorId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    const to = `later.${a.user.id}@example.org`;
    const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    await server.client.post(`${c}/messages/${msg.body.id}/recipients`, { email: to }, t);
    const when = new Date(clock.now().getTime() + 3_600_000);
    const res = await server.client.post(
      `${c}/messages/${msg.body.id}/send`,
      { scheduled_date: when.toISOString().replace(/\.\d+Z$/, '+00:00') },
      t,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_scheduled: true,
      scheduled_date: when.toISOString().replace(/\.\d+Z$/, '+00:00'),
    });
    await worker.drain();
    expect(mailTo(to)).toHaveLength(0);
    // Until its time comes the message reads scheduled, alone and in the list.
    const waiting = await server.client.get(`${c}/messages/${msg.body.id}`, t);
    expect(waiting.body).toMatchObject({ status: 'scheduled', is_scheduled: true });
    const listed = await server.client.get(`${c}/messages`, t);
    expect(listed.body.data.find((m: any) => m.id === msg.body.id).status).toBe('scheduled');
    clock.advance(3_600_000);
    await worker.drain();
    expect(mailTo(to)).toHaveLength(1);
    const got = await server.client.get(`${c}/messages/${msg.body.id}`, t);
    expect(got.body).toMatchObject({ status: 'sent', is_scheduled: true });
  });

  it('withdraws a scheduled invitation when its recipient opts out before it goes', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { collectorId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    const [stay, leave] = ['stay', 'leave'].map((n) => `${n}.${a.user.id}@example.org`);
    const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    const bulk = await server.client.post(
      `${c}/messages/${msg.body.id}/recipients/bulk`,
      { contacts: [{ email: stay }, { email: leave }] },
      t,
    );
    expect(bulk.body.succeeded).toHaveLength(2);
    const leaving = await server.client.get(`${c}/recipients/${bulk.body.succeeded[1].id}`, t);
    const when = new Date(clock.now().getTime() + 600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
    expect(
      (await server.client.post(`${c}/messages/${msg.body.id}/send`, { scheduled_date: when }, t)).status,
    ).toBe(200);
    const sm = new URL(leaving.body.remove_link).searchParams.get('sm')!;
    const web = new WebSession(server.url);
    const _csrf = await web.csrf(`/optout?sm=${sm}`);
    const opted = await web.post('/optout', { sm, _csrf });
    expect(opted.status).toBe(200);
    clock.advance(600_000);
    await worker.drain();
    expect(mailTo(stay)).toHaveLength(1);
    expect(mailTo(leave)).toHaveLength(0);
  });
});
