// Mail that lands: every invitation carries a one-click List-Unsubscribe (RFC 8058) whose POST,
// without cookies or a form token, opts the recipient out as the opt-out page does (later sends
// skip the address); a GET only shows a confirming form; a link whose signature is not the
// server's is refused. Mail the service writes by itself (response alerts) says so with
// Auto-Submitted: auto-generated; invitations do not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { emailCollector } from '../invite/helpers.js';
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

const headersOf = (raw: string) => raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'im').exec(headersOf(raw))?.[1]?.trim();

describe('one-click unsubscribe', () => {
  it('opts the recipient out on a cookie-less POST; GET only asks; a forged link is refused', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { collectorId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    const invite = async (emails: string[]) => {
      const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
      const m = `${c}/messages/${msg.body.id}`;
      const bulk = await server.client.post(
        `${m}/recipients/bulk`,
        { contacts: emails.map((email) => ({ email })) },
        t,
      );
      expect(bulk.status, bulk.text).toBe(200);
      return { m, bulk: bulk.body };
    };
    const ann = `ann.${a.user.id}@example.org`;
    const bob = `bob.${a.user.id}@example.org`;
    const first = await invite([ann, bob]);
    expect((await server.client.post(`${first.m}/send`, {}, t)).status).toBe(200);
    const before = smtp.messages.length;
    await worker.drain();
    const toAnn = smtp.messages.slice(before).find((m) => m.to.includes(ann))!;
    expect(header(toAnn.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(header(toAnn.raw, 'Auto-Submitted')).toBeUndefined();
    const listed = header(toAnn.raw, 'List-Unsubscribe') ?? '';
    const m = /^<(https?:\/\/[^>]+\/unsubscribe\/[^>]+)>$/.exec(listed);
    expect(m, listed).not.toBeNull();
    const path = new URL(m![1]).pathname;

    const page = await fetch(`${server.url}${path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(await page.text()).toContain(`<form method="post" action="${path}">`);

    const forged = `${path.slice(0, -1)}${path.endsWith('A') ? 'B' : 'A'}`;
    expect((await fetch(`${server.url}${forged}`)).status).toBe(404);
    const oneClick = (p: string) =>
      fetch(`${server.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    expect((await oneClick(forged)).status).toBe(404);
    // a GET opted nobody out
    expect((await invite([ann])).bulk.opted_out).toEqual([]);

    const done = await oneClick(path);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You are unsubscribed');
    expect((await oneClick(path)).status).toBe(200); // a provider's retry is no error

    const later = await invite([ann, bob]);
    expect(later.bulk.opted_out).toEqual([ann]);
    expect(later.bulk.succeeded.map((r: { email: string }) => r.email)).toEqual([bob]);
  });

  it('works from the confirming page in a browser session without a form token', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const { collectorId } = await emailCollector(server.client, a.token);
    const c = `/v3/collectors/${collectorId}`;
    const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
    const cy = `cy.${a.user.id}@example.org`;
    await server.client.post(
      `${c}/messages/${msg.body.id}/recipients/bulk`,
      { contacts: [{ email: cy }] },
      t,
    );
    expect((await server.client.post(`${c}/messages/${msg.body.id}/send`, {}, t)).status).toBe(200);
    const before = smtp.messages.length;
    await worker.drain();
    const raw = smtp.messages.slice(before).find((x) => x.to.includes(cy))!.raw;
    const path = new URL(/<(https?:[^>]+)>/.exec(header(raw, 'List-Unsubscribe') ?? '')![1]).pathname;
    const web = new WebSession(server.url);
    const page = await web.get(path);
    const field = /<input type="hidden" name="([^"]+)" value="([^"]+)">/.exec(page.text)!;
    const res = await web.post(path, { [field[1]]: field[2] });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`${cy} will not receive survey invitations from this sender again`);
  });
});

describe('automatic emails', () => {
  it('response alerts carry Auto-Submitted: auto-generated', async () => {
    const a = await server.account();
    const t = { token: a.token };
    const s = await server.client.post('/v3/surveys', { title: 'Lunch poll' }, t);
    const sm = new URL(s.body.collect_url).searchParams.get('sm')!;
    const c = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, t);
    const web = await signIn(server, a);
    const page = `/collect/alerts?sm=${sm}`;
    const _csrf = await web.csrf(page);
    expect((await web.post(page, { _csrf, mode: 'each' })).status).toBe(303);
    const r = await server.client.post(`/v3/collectors/${c.body.id}/responses`, {}, t);
    expect(r.status, r.text).toBe(201);
    const before = smtp.messages.length;
    await worker.drain();
    const alert = smtp.messages.slice(before).find((m) => m.to.includes(a.user.email));
    expect(alert).toBeDefined();
    expect(header(alert!.raw, 'Subject')).toBe('New response: Lunch poll');
    expect(header(alert!.raw, 'Auto-Submitted')).toBe('auto-generated');
  });
});
