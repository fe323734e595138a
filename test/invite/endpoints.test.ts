// Every messages/recipients endpoint: success, bad input, wrong scope, basic plan, another
// account's resource, no token; and the invitation error codes (1056, 1058, 1059, 1025, 1017).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateUser } from '../../src/domain/accounts/users.js';
import type { TestAccount } from '../helpers/accounts.js';
import { WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { emailCollector } from './helpers.js';

let server: TestServer;
let owner: TestAccount;
let other: TestAccount;
let basic: TestAccount;
let reader: TestAccount;
let noCollectorScopes: TestAccount;

beforeAll(async () => {
  server = await startServer({
    env: { RECIPIENT_LIMIT_STANDARD: '2', SEND_LIMIT_ADVANTAGE: '1' },
  });
  owner = await server.account();
  other = await server.account();
  basic = await server.account({ plan: 'basic' });
  reader = await server.account({ scopes: ['collectors_read', 'surveys_read'] });
  noCollectorScopes = await server.account({ scopes: ['surveys_read', 'surveys_write'] });
});
afterAll(async () => {
  await server.close();
});

interface Fixture {
  c: string;
  m: string;
  r: string;
  collectorId: string;
}

/** An email collector of `a` with an invite message holding one recipient. */
async function fixture(a: TestAccount = owner): Promise<Fixture> {
  const t = { token: a.token };
  const { collectorId } = await emailCollector(server.client, a.token);
  const c = `/v3/collectors/${collectorId}`;
  const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t);
  expect(msg.status).toBe(201);
  const m = `${c}/messages/${msg.body.id}`;
  const r = await server.client.post(
    `${m}/recipients`,
    { email: `r${Math.random().toString(36).slice(2)}@example.org` },
    t,
  );
  expect(r.status).toBe(201);
  return { c, m, r: `${c}/recipients/${r.body.id}`, collectorId };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface Case {
  name: string;
  method: Method;
  write: boolean;
  path: (f: Fixture) => string;
  body?: unknown;
  status: number;
  check?: (body: any, f: Fixture) => void;
  bad: { path?: (f: Fixture) => string; body?: unknown; code: string; status: number };
}

const cases: Case[] = [
  {
    name: 'GET /collectors/{id}/messages',
    method: 'GET',
    write: false,
    path: (f) => `${f.c}/messages`,
    status: 200,
    check: (b) => {
      expect(b.total).toBe(1);
      expect(Object.keys(b.data[0]).sort()).toEqual(['href', 'id', 'status', 'subject', 'type']);
    },
    bad: { path: (f) => `${f.c}/messages?per_page=0`, code: '1003', status: 400 },
  },
  {
    name: 'POST /collectors/{id}/messages',
    method: 'POST',
    write: true,
    path: (f) => `${f.c}/messages`,
    body: {
      type: 'reminder',
      subject: 'Hi',
      body_html: '<a href="[SurveyLink]">go</a> <a href="[OptOutLink]">stop</a> [PrivacyLink] [FooterLink]',
    },
    status: 201,
    check: (b) =>
      expect(b).toMatchObject({
        type: 'reminder',
        recipient_status: 'has_not_responded',
        status: 'not_sent',
        is_scheduled: false,
        scheduled_date: null,
      }),
    bad: { body: { type: 'invite', body_text: 'no links here [SurveyLink]' }, code: '1002', status: 400 },
  },
  {
    name: 'GET /collectors/{id}/messages/{mid}',
    method: 'GET',
    write: false,
    path: (f) => f.m,
    status: 200,
    check: (b) =>
      expect(b).toMatchObject({
        type: 'invite',
        subject: 'We want your opinion',
        status: 'not_sent',
        is_branding_enabled: true,
      }),
    bad: { path: (f) => `${f.c}/messages/999999999`, code: '1020', status: 404 },
  },
  {
    name: 'PATCH /collectors/{id}/messages/{mid}',
    method: 'PATCH',
    write: true,
    path: (f) => f.m,
    body: { subject: 'New subject' },
    status: 200,
    check: (b) =>
      expect(b).toMatchObject({ subject: 'New subject', body: expect.stringContaining('[SurveyLink]') }),
    bad: { body: { type: 'reminder' }, code: '1002', status: 400 },
  },
  {
    name: 'PUT /collectors/{id}/messages/{mid}',
    method: 'PUT',
    write: true,
    path: (f) => f.m,
    body: { subject: 'Put', body_text: '[SurveyLink] [OptOutLink] [FooterLink]' },
    status: 200,
    check: (b) =>
      expect(b).toMatchObject({
        subject: 'Put',
        body: '[SurveyLink] [OptOutLink] [FooterLink]',
        body_html: null,
      }),
    bad: { body: { body_html: '<p>[OptOutLink]</p>' }, code: '1002', status: 400 },
  },
  {
    name: 'DELETE /collectors/{id}/messages/{mid}',
    method: 'DELETE',
    write: true,
    path: (f) => f.m,
    status: 200,
    bad: { path: (f) => `${f.c}/messages/999999999`, code: '1020', status: 404 },
  },
  {
    name: 'POST /collectors/{id}/messages/{mid}/recipients',
    method: 'POST',
    write: true,
    path: (f) => `${f.m}/recipients`,
    body: { email: 'one@example.org', first_name: 'One', custom_fields: { '1': 'x' } },
    status: 201,
    check: (b) =>
      expect(b).toMatchObject({
        email: 'one@example.org',
        first_name: 'One',
        phone_number: null,
        custom_fields: { '1': 'x' },
        survey_link: expect.stringMatching(/\/r\/[A-Za-z0-9]+\?rcp=/),
        remove_link: expect.stringMatching(/\/optout\?sm=/),
      }),
    bad: { body: { email: 'not-an-email' }, code: '1002', status: 400 },
  },
  {
    name: 'POST /collectors/{id}/messages/{mid}/recipients/bulk',
    method: 'POST',
    write: true,
    path: (f) => `${f.m}/recipients/bulk`,
    body: { contacts: [{ email: 'b1@example.org' }, { email: 'b2@example.org' }] },
    status: 200,
    check: (b) => expect(b.succeeded).toHaveLength(2),
    bad: { body: { contacts: [{ phone: '1' }] }, code: '1002', status: 400 },
  },
  {
    name: 'GET /collectors/{id}/messages/{mid}/recipients',
    method: 'GET',
    write: false,
    path: (f) => `${f.m}/recipients?include=survey_link,mail_status`,
    status: 200,
    check: (b) => {
      expect(b.total).toBe(1);
      expect(b.data[0]).toMatchObject({
        mail_status: 'not_sent',
        survey_link: expect.stringContaining('?rcp='),
      });
      expect(b.data[0]).not.toHaveProperty('remove_link');
    },
    bad: { path: (f) => `${f.m}/recipients?include=nonsense`, code: '1003', status: 400 },
  },
  {
    name: 'GET /collectors/{id}/recipients',
    method: 'GET',
    write: false,
    path: (f) => `${f.c}/recipients`,
    status: 200,
    check: (b) => {
      expect(b.total).toBe(1);
      expect(Object.keys(b.data[0]).sort()).toEqual(['email', 'href', 'id', 'phone_number']);
    },
    bad: { path: (f) => `${f.c}/recipients?page=x`, code: '1003', status: 400 },
  },
  {
    name: 'GET /collectors/{id}/recipients/{rid}',
    method: 'GET',
    write: false,
    path: (f) => f.r,
    status: 200,
    check: (b) =>
      expect(b).toMatchObject({ survey_response_status: 'not_responded', mail_status: 'not_sent' }),
    bad: { path: (f) => `${f.c}/recipients/999999999`, code: '1020', status: 404 },
  },
  {
    name: 'DELETE /collectors/{id}/recipients/{rid}',
    method: 'DELETE',
    write: true,
    path: (f) => f.r,
    status: 200,
    bad: { path: (f) => `${f.c}/recipients/abc`, code: '1020', status: 404 },
  },
  {
    name: 'POST /collectors/{id}/messages/{mid}/send',
    method: 'POST',
    write: true,
    path: (f) => `${f.m}/send`,
    body: {},
    status: 200,
    check: (b) =>
      expect(b).toMatchObject({ is_scheduled: true, type: 'invite', recipients: [expect.any(String)] }),
    bad: { body: { scheduled_date: 'tomorrow' }, code: '1002', status: 400 },
  },
  {
    name: 'GET /collectors/{id}/messages/{mid}/stats',
    method: 'GET',
    write: false,
    path: (f) => `${f.m}/stats`,
    status: 200,
    check: (b) => expect(b).toMatchObject({ recipients: 1, mail_status: { not_sent: 1, sent: 0 } }),
    bad: { path: (f) => `${f.c}/messages/123/stats`, code: '1020', status: 404 },
  },
  {
    name: 'GET /collectors/{id}/stats',
    method: 'GET',
    write: false,
    path: (f) => `${f.c}/stats`,
    status: 200,
    check: (b) => expect(b).toMatchObject({ recipients: 1, survey_response_status: { not_responded: 1 } }),
    bad: { path: () => '/v3/collectors/999999999/stats', code: '1020', status: 404 },
  },
];

const call = (method: Method, path: string, token: string | undefined, body?: unknown) =>
  server.client.request(method, path, { token, body });

describe.each(cases)('$name', (k) => {
  it('succeeds for the owner', async () => {
    const f = await fixture();
    const res = await call(k.method, k.path(f), owner.token, k.body);
    expect(res.status, res.text).toBe(k.status);
    k.check?.(res.body, f);
  });

  it('refuses bad input', async () => {
    const f = await fixture();
    const res = await call(k.method, (k.bad.path ?? k.path)(f), owner.token, k.bad.body ?? k.body);
    expect(res.status, res.text).toBe(k.bad.status);
    expect(res.body.error.id).toBe(k.bad.code);
  });

  it("needs the scope, a token, and (to write) a paid plan; hides other accounts' collectors", async () => {
    const f = await fixture();
    const path = k.path(f);
    const scoped = await call(k.method, path, (k.write ? reader : noCollectorScopes).token, k.body);
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.id).toBe('1014');
    const anonymous = await call(k.method, path, undefined, k.body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.id).toBe('1010');
    const theirs = await call(k.method, path, other.token, k.body);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.id).toBe('1020');
    const onBasic = await call(k.method, path, basic.token, k.body);
    expect(onBasic.status).toBe(k.write ? 403 : 404);
    expect(onBasic.body.error.id).toBe(k.write ? '1015' : '1020');
  });
});

describe('invitation rules', () => {
  it('lets an account moved to the basic plan read its invitations but not write them (403/1015)', async () => {
    const a = await server.account();
    const f = await fixture(a);
    await updateUser(server.deps, a.user.username, { plan: 'basic' });
    const t = { token: a.token };
    for (const path of [f.m, `${f.c}/messages`, f.r, `${f.c}/recipients`, `${f.m}/stats`, `${f.c}/stats`])
      expect((await server.client.get(path, t)).status, path).toBe(200);
    const write = await server.client.post(`${f.m}/send`, {}, t);
    expect(write.status).toBe(403);
    expect(write.body.error.id).toBe('1015');
  });

  it('refuses to send while the account email is unverified (403/1058)', async () => {
    const a = await server.account();
    const f = await fixture(a);
    await updateUser(server.deps, a.user.username, { emailVerified: false });
    const res = await server.client.post(`${f.m}/send`, {}, { token: a.token });
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1058');
    await updateUser(server.deps, a.user.username, { emailVerified: true });
    expect((await server.client.post(`${f.m}/send`, {}, { token: a.token })).status).toBe(200);
  });

  it('keeps an opt-out even when the contact behind the recipient was deleted first', async () => {
    const t = { token: owner.token };
    const f = await fixture();
    const r = await server.client.get(f.r, t);
    const contacts = await server.client.get(
      `/v3/contacts?search_by=email&search=${encodeURIComponent(r.body.email)}`,
      t,
    );
    expect(contacts.body.data).toHaveLength(1);
    expect((await server.client.delete(`/v3/contacts/${contacts.body.data[0].id}`, t)).status).toBe(200);
    const sm = new URL(r.body.remove_link).searchParams.get('sm')!;
    const web = new WebSession(server.url);
    const _csrf = await web.csrf(`/optout?sm=${sm}`);
    const opted = await web.post('/optout', { sm, _csrf });
    expect(opted.status).toBe(200);
    const g = await fixture();
    const bulk = await server.client.post(
      `${g.m}/recipients/bulk`,
      { contacts: [{ email: r.body.email }] },
      t,
    );
    expect(bulk.body.opted_out).toEqual([r.body.email]);
    const stats = await server.client.get(`${f.c}/stats`, t);
    expect(stats.body).toMatchObject({ recipients: 1, mail_status: { opted_out: 1 } });
    const unknown = await fetch(`${server.url}/optout?sm=nonexistent-token-1`);
    expect(unknown.status).toBe(404);
  });

  it('copies a message, with its recipients when asked, from a collector the caller may read', async () => {
    const t = { token: owner.token };
    const f = await fixture();
    await server.client.patch(f.m, { subject: 'Copied subject' }, t);
    const g = await fixture();
    const copy = await server.client.post(
      `${g.c}/messages`,
      { from_collector_id: f.collectorId, from_message_id: f.m.split('/').pop(), include_recipients: true },
      t,
    );
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body).toMatchObject({ subject: 'Copied subject', type: 'invite', status: 'not_sent' });
    expect(copy.body.id).not.toBe(f.m.split('/').pop());
    const [source, copied] = await Promise.all([
      server.client.get(`${f.m}/recipients`, t),
      server.client.get(`${g.c}/messages/${copy.body.id}/recipients`, t),
    ]);
    expect(copied.body.data.map((r: any) => r.email)).toEqual(source.body.data.map((r: any) => r.email));
    const bare = await server.client.post(
      `${g.c}/messages`,
      { from_collector_id: f.collectorId, from_message_id: f.m.split('/').pop() },
      t,
    );
    expect((await server.client.get(`${g.c}/messages/${bare.body.id}/recipients`, t)).body.total).toBe(0);
    const theirs = await fixture(other);
    const foreign = await server.client.post(
      `${g.c}/messages`,
      { from_collector_id: theirs.collectorId, from_message_id: theirs.m.split('/').pop() },
      t,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.id).toBe('1020');
    const mixed = await server.client.post(
      `${g.c}/messages`,
      { type: 'invite', from_collector_id: f.collectorId, from_message_id: '1' },
      t,
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.id).toBe('1002');
  });

  it('has messages only on email collectors', async () => {
    const s = await server.client.post('/v3/surveys', { title: 'W' }, { token: owner.token });
    const w = await server.client.post(
      `/v3/surveys/${s.body.id}/collectors`,
      { type: 'weblink' },
      { token: owner.token },
    );
    const res = await server.client.get(`/v3/collectors/${w.body.id}/messages`, { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body.error.id).toBe('1020');
  });

  it("answers a send with the recipients' own ids, each readable at /recipients/{id}", async () => {
    const f = await fixture();
    const t = { token: owner.token };
    const second = await server.client.post(
      `${f.m}/recipients`,
      { email: `s${Math.random().toString(36).slice(2)}@example.org` },
      t,
    );
    expect(second.status).toBe(201);
    const res = await server.client.post(`${f.m}/send`, {}, t);
    expect(res.status).toBe(200);
    const own = [f.r.split('/').at(-1), second.body.id].sort();
    expect([...res.body.recipients].sort()).toEqual(own);
    for (const id of res.body.recipients)
      expect((await server.client.get(`${f.c}/recipients/${id}`, t)).status).toBe(200);
  });

  it('refuses a send with no recipients (400/1059)', async () => {
    const { collectorId } = await emailCollector(server.client, owner.token);
    const msg = await server.client.post(
      `/v3/collectors/${collectorId}/messages`,
      { type: 'invite' },
      { token: owner.token },
    );
    const res = await server.client.post(
      `/v3/collectors/${collectorId}/messages/${msg.body.id}/send`,
      {},
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.id).toBe('1059');
    // A reminder before any invite went out has nobody to remind either.
    const rem = await server.client.post(
      `/v3/collectors/${collectorId}/messages`,
      { type: 'reminder' },
      { token: owner.token },
    );
    const r2 = await server.client.post(
      `/v3/collectors/${collectorId}/messages/${rem.body.id}/send`,
      {},
      { token: owner.token },
    );
    expect(r2.body.error.id).toBe('1059');
  });

  it('refuses a sender email that is not the verified account address (403/1058)', async () => {
    const f = await fixture();
    const patched = await server.client.patch(
      f.c,
      { sender_email: 'someone-else@example.org' },
      { token: owner.token },
    );
    expect(patched.status).toBe(200);
    const res = await server.client.post(`${f.m}/send`, {}, { token: owner.token });
    expect(res.status).toBe(403);
    expect(res.body.error.id).toBe('1058');
    const still = await server.client.get(f.m, { token: owner.token });
    expect(still.body.status).toBe('not_sent');
  });

  it('caps recipients per message by plan (400/1056) and sends per day (403/1017)', async () => {
    const standard = await server.account({ plan: 'standard' });
    const f = await fixture(standard); // one recipient already
    const two = await server.client.post(
      `${f.m}/recipients/bulk`,
      { contacts: [{ email: 'x1@example.org' }, { email: 'x2@example.org' }] },
      { token: standard.token },
    );
    expect(two.status).toBe(400);
    expect(two.body.error.id).toBe('1056');
    const fits = await server.client.post(
      `${f.m}/recipients`,
      { email: 'x1@example.org' },
      { token: standard.token },
    );
    expect(fits.status).toBe(201);

    const advantage = await server.account({ plan: 'advantage' });
    const g = await fixture(advantage);
    expect((await server.client.post(`${g.m}/send`, {}, { token: advantage.token })).status).toBe(200);
    const h = await fixture(advantage);
    const over = await server.client.post(`${h.m}/send`, {}, { token: advantage.token });
    expect(over.status).toBe(403);
    expect(over.body.error.id).toBe('1017');
    expect(over.body.error.message).toMatch(/daily send cap of 1 recipients \(the advantage plan's cap\)/);
  });

  it('freezes a sent message (409/1025) and its recipient list', async () => {
    const f = await fixture();
    expect((await server.client.post(`${f.m}/send`, {}, { token: owner.token })).status).toBe(200);
    for (const res of [
      await server.client.patch(f.m, { subject: 'late' }, { token: owner.token }),
      await server.client.post(`${f.m}/recipients`, { email: 'late@example.org' }, { token: owner.token }),
      await server.client.post(`${f.m}/send`, {}, { token: owner.token }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.id).toBe('1025');
    }
  });

  it('adds recipients from contacts and contact lists, sorting every address into its bucket', async () => {
    const t = { token: owner.token };
    const c1 = await server.client.post('/v3/contacts', { email: 'list1@example.org', first_name: 'L1' }, t);
    const list = await server.client.post('/v3/contact_lists', { name: 'Team' }, t);
    expect(list.status).toBe(201);
    const c2 = await server.client.post(
      `/v3/contact_lists/${list.body.id}/contacts`,
      { email: 'list2@example.org' },
      t,
    );
    expect(c2.status).toBe(201);
    const f = await fixture();
    const res = await server.client.post(
      `${f.m}/recipients/bulk`,
      { contact_ids: [c1.body.id, '999999999'], contact_list_ids: [list.body.id] },
      t,
    );
    expect(res.status).toBe(200);
    expect(res.body.succeeded.map((r: any) => r.email).sort()).toEqual([
      'list1@example.org',
      'list2@example.org',
    ]);
    expect(res.body.invalids).toEqual(['999999999']);
    const again = await server.client.post(`${f.m}/recipients/bulk`, { contact_ids: [c1.body.id] }, t);
    expect(again.body.existing).toEqual(['list1@example.org']);
    const byContact = await server.client.post(`${f.m}/recipients`, { contact_id: c1.body.id }, t);
    expect(byContact.status).toBe(409);
    expect(byContact.body.error.id).toBe('1026');
    const theirList = await server.client.post(
      `${f.m}/recipients/bulk`,
      { contact_list_ids: ['999999999'] },
      t,
    );
    expect(theirList.status).toBe(404);
    const reminder = await server.client.post(`${f.c}/messages`, { type: 'reminder' }, t);
    const toReminder = await server.client.post(
      `${f.c}/messages/${reminder.body.id}/recipients`,
      { email: 'z@example.org' },
      t,
    );
    expect(toReminder.status).toBe(400);
    expect(toReminder.body.error.id).toBe('1002');
  });
});
